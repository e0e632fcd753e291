"""One entry point: mxnet-ng side by side with real MXNet 1.9.1 and with PyTorch eager.

    .venv/bin/python benchmarks/run_all.py            # full run (~10 min on 2 cores)
    .venv/bin/python benchmarks/run_all.py --quick    # smaller batches/iterations (~3 min)
    .venv/bin/python benchmarks/run_all.py --oracle /path/to/mxnet-1.9.1/bin/python

It runs the suite's scripts as subprocesses (``bench_ndarray.py``, ``bench_gluon.py``,
``bench_symbol_resnet.py``, ``bench_data.py``, ``bench_models.py`` under mxnet-ng and under
the oracle; ``torch_peers.py`` for PyTorch), all with the same intra-op thread count
(``--threads``, default 1: stable on a shared machine), then prints a table and writes
``benchmarks/results/latest.md``, ``latest.json`` and ``latest.png`` (a bar chart drawn
with OpenCV). Speedup columns are ``peer time / mxnet-ng time``: above 1 means mxnet-ng is
faster, below 1 slower.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")
DEFAULT_ORACLE = os.environ.get("MXNET_ORACLE_PYTHON",
                                os.path.expanduser("~/.cache/mxnet-oracle/bin/python"))

GROUPS = ("nd", "gluon", "sym", "tool", "data")
TINY_ROWS = ("nd.ones((2,3))*2", "a+b (1x1)", "nd.dot 64x64", "MLP step 64x256-128-10")

__all__ = ["main", "speedup", "write_markdown", "draw_chart"]


def _env(threads: int, ours: bool) -> dict:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if ours:
        env["PYTHONPATH"] = REPO
    for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "MXNET_CPU_WORKER_NTHREADS"):
        env[k] = str(threads)
    return env


def _json_run(python: str, args: list[str], threads: int, ours: bool, timeout: float,
              log: list) -> dict:
    """Run ``python args`` and parse its last stdout line as JSON ({} and a log line on error)."""
    t0 = time.time()
    try:
        p = subprocess.run([python] + args, env=_env(threads, ours), cwd=tempfile.gettempdir(),
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        log.append(f"timeout after {timeout:.0f}s: {os.path.basename(args[0])} "
                   f"({'mxnet-ng' if ours else python})")
        return {}
    who = "mxnet-ng" if ours else ("PyTorch" if python == sys.executable else "MXNet 1.9.1")
    print(f"  {os.path.basename(args[0])} [{who}] {time.time() - t0:.0f}s", flush=True)
    if p.returncode != 0:
        tail = p.stderr.strip().splitlines()[-3:]
        log.append(f"{os.path.basename(args[0])} ({'mxnet-ng' if ours else python}) failed: "
                   + " | ".join(tail))
        return {}
    try:
        return json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        log.append(f"{os.path.basename(args[0])}: no JSON in output")
        return {}


def speedup(unit: str, ng, peer):
    """``peer/ng`` for latencies (us), ``ng/peer`` for rates; None when either is missing."""
    if not ng or not peer:
        return None
    return peer / ng if unit == "us" else ng / peer


def _plan(a) -> dict:
    q = a.quick
    return {"iters": 2 if q else 6, "rb": 2 if q else 8, "tb": a.train_batch or (2 if q else 8),
            "titers": 1 if q else 2, "records": 300 if q else 2000, "tool_batch": 64,
            "tool_batches": 3 if q else 10}


def collect(a, log: list) -> list[dict]:
    p = _plan(a)
    py = sys.executable
    oracle = a.oracle if a.oracle and os.path.exists(a.oracle) else None
    if not oracle:
        log.append(f"oracle python not found ({a.oracle}): MXNet column empty")
    sides = [("ng", py, True)] + ([("mx", oracle, False)] if oracle else [])
    res = {"ng": {}, "mx": {}, "torch": {}}
    t = a.threads
    tmp = tempfile.mkdtemp(prefix="mxbench_")
    rec = os.path.join(tmp, "bench.rec")
    sys.path.insert(0, HERE)
    sys.path.insert(0, REPO)
    import bench_data  # builds the .rec with the checkout's mx.recordio

    bench_data.build_rec(rec, p["records"])
    jobs = {
        "nd": [os.path.join(HERE, "bench_ndarray.py"), "--json", "--threads", str(t)]
        + (["--quick"] if a.quick else []),
        "gluon": [os.path.join(HERE, "bench_gluon.py"), "--worker", "oracle", "--iters",
                  str(p["iters"]), "--resnet-batch", str(p["rb"])],
        "sym": [os.path.join(HERE, "bench_symbol_resnet.py"), "--worker", "oracle", "--batch",
                str(p["tb"]), "--iters", str(p["titers"])],
        "tool": [os.path.join(HERE, "bench_models.py"), "--json", "--model", "deep_mnist",
                 "--batch_size", str(p["tool_batch"]), "--num_batches", str(p["tool_batches"]),
                 "--num_warmup_batches", "1"],
        "data": [os.path.join(HERE, "bench_data.py"), "--json", "--rec", rec, "--threads", "2"],
    }

    def merge(acc: dict, out: dict, prefix: str, lower_is_better: bool) -> None:
        for k, v in out.items():  # keep each side's best over the rounds
            key, old = f"{prefix}{k}", acc.get(f"{prefix}{k}")
            if old is None or (v < old if lower_is_better else v > old):
                acc[key] = v

    groups = {"nd": "tiny", "gluon": "lenet,resnet", "sym": "resnet", "data": "data"}
    only = ",".join(sorted({g for k in (a.only.split(",") if a.only else groups)
                            for g in groups.get(k, "").split(",") if g}))
    for rnd in range(a.rounds):  # alternate the sides so that machine load hits all alike
        for group in a.only.split(",") if a.only else jobs:
            print(f"[{group}] round {rnd + 1}/{a.rounds}", flush=True)
            for side, python, ours in sides:
                out = _json_run(python, jobs[group], t, ours, a.timeout, log)
                merge(res[side], out, f"{group}:", group == "nd")
        if only:
            print(f"[torch] round {rnd + 1}/{a.rounds}", flush=True)
            out = _json_run(py, [os.path.join(HERE, "torch_peers.py"), "--json", "--threads",
                                 str(t), "--iters", str(p["iters"]), "--resnet-batch",
                                 str(p["rb"]), "--train-batch", str(p["tb"]), "--train-iters",
                                 str(p["titers"]), "--rec", rec, "--only", only]
                            + (["--quick"] if a.quick else []), t, False, a.timeout, log)
            tiny = {k: v for k, v in out.items() if k in TINY_ROWS}
            merge(res["torch"], tiny, "", True)
            merge(res["torch"], {k: v for k, v in out.items() if k not in tiny}, "", False)
    tb, rb = p["tb"], p["rb"]
    spec = [  # (row, unit, mxnet key, torch key)
        ("`nd.ones((2,3))*2`", "us", "nd:nd.ones((2,3))*2", "nd.ones((2,3))*2"),
        ("`a+b` (1x1)", "us", "nd:a+b (1x1)", "a+b (1x1)"),
        ("`nd.dot` 64x64", "us", "nd:nd.dot 64x64", "nd.dot 64x64"),
        ("autograd MLP step 64x256-128-10", "us", "nd:MLP step 64x256-128-10",
         "MLP step 64x256-128-10"),
        ("LeNet Gluon train bs128, plain", "img/s", "gluon:LeNet train bs128 plain",
         "LeNet train bs128 plain"),
        ("LeNet Gluon train bs128, hybridized", "img/s",
         "gluon:LeNet train bs128 hybridized", "LeNet train bs128 plain"),
        (f"ResNet-50 symbol simple_bind fwd+bwd bs{tb}", "img/s", "sym:img_per_s",
         f"ResNet-50 fwd+bwd bs{tb}"),
        (f"ResNet-50 fwd+bwd bs{tb}, per CPU-second", "img/CPU-s", "sym:img_per_cpu_s",
         f"ResNet-50 fwd+bwd bs{tb} per CPU-s"),
        (f"ResNet-50 Gluon hybridized inference bs{rb}", "img/s",
         f"gluon:ResNet-50 v1 hybridized inference bs{rb}", f"ResNet-50 inference bs{rb}"),
        ("mxnet-benchmarks deep_mnist train bs64 (Module)", "img/s", "tool:throughput", None),
        ("ImageRecordIter decode+augment, 2 threads", "img/s",
         "data:ImageRecordIter imgs/s (threads=2)", "rec decode+augment img/s"),
        ("Gluon DataLoader, 0 workers", "samples/s", "data:DataLoader samples/s (0 workers)",
         "DataLoader samples/s (0 workers)"),
        ("Gluon DataLoader, 2 workers", "samples/s", "data:DataLoader samples/s (2 workers)",
         "DataLoader samples/s (2 workers)"),
    ]
    rows = []
    for name, unit, key, tkey in spec:
        ng, mx, pt = res["ng"].get(key), res["mx"].get(key), res["torch"].get(tkey)
        if ng is None and mx is None:
            continue
        rows.append({"row": name, "unit": unit, "mxnet-ng": ng, "MXNet 1.9.1": mx,
                     "PyTorch": pt, "vs MXNet": speedup(unit, ng, mx),
                     "vs PyTorch": speedup(unit, ng, pt)})
    return rows


def _fmt(v, ratio=False):
    if v is None:
        return "n/a"
    if ratio:
        return f"{v:.2f}x"
    return f"{v:.1f}" if v < 1000 else f"{v:.0f}"


def _table(rows) -> list[str]:
    head = ["benchmark", "unit", "mxnet-ng", "MXNet 1.9.1", "PyTorch eager",
            "speedup vs MXNet", "speedup vs PyTorch"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append("| " + " | ".join([r["row"], r["unit"], _fmt(r["mxnet-ng"]),
                                        _fmt(r["MXNet 1.9.1"]), _fmt(r["PyTorch"]),
                                        _fmt(r["vs MXNet"], True),
                                        _fmt(r["vs PyTorch"], True)]) + " |")
    return lines


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if "model name" in line)
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{cpu}, {os.cpu_count()} cores, load average {load:.1f}"


def write_markdown(path: str, rows, meta: dict) -> None:
    """Write the results table with its machine, command and notes (atomic replace)."""
    lines = [f"# Benchmark results ({meta['date']})", "",
             f"- machine: {meta['machine']}",
             f"- command: `{meta['command']}`",
             f"- intra-op threads: {meta['threads']} (all sides); torch {meta['torch']}; "
             f"best of {meta.get('rounds', 1)} round(s) per side",
             f"- wall time of the run: {meta['elapsed']:.0f} s", "",
             "Speedup = peer time / mxnet-ng time (above 1: mxnet-ng is faster). `us` rows "
             "are microseconds per call (lower is better), the others are rates (higher is "
             "better). The PyTorch column is idiomatic eager PyTorch on the same shapes "
             "(the hybridized LeNet row is compared with the same eager loop).", ""]
    lines += _table(rows)
    if meta.get("log"):
        lines += ["", "Notes:", ""] + [f"- {m}" for m in meta["log"]]
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


def draw_chart(path: str, rows, title: str) -> None:
    """Horizontal bars of the two speedups on a log2 axis from 1/16x to 16x (OpenCV)."""
    import math

    import cv2
    import numpy as np

    left, width, rh, top = 430, 620, 44, 70
    img = np.full((top + rh * len(rows) + 60, left + width + 30, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(img, title, (10, 28), font, 0.6, (0, 0, 0), 1, cv2.LINE_AA)
    lo, hi = -4.0, 4.0

    def xpos(v):
        return int(left + (min(max(math.log2(v), lo), hi) - lo) / (hi - lo) * width)

    for e in range(-4, 5):
        x = xpos(2.0 ** e)
        cv2.line(img, (x, top - 8), (x, top + rh * len(rows)), (220, 220, 220), 1)
        lab = f"{2.0 ** e:g}x"
        cv2.putText(img, lab, (x - 14, top + rh * len(rows) + 18), font, 0.4, (80, 80, 80), 1,
                    cv2.LINE_AA)
    colors = {"vs MXNet": (200, 120, 30), "vs PyTorch": (30, 130, 240)}
    for i, r in enumerate(rows):
        y = top + i * rh
        cv2.putText(img, r["row"].replace("`", "")[:52], (8, y + 26), font, 0.42, (0, 0, 0), 1,
                    cv2.LINE_AA)
        for j, key in enumerate(colors):
            v = r[key]
            if v is None:
                continue
            y0 = y + 6 + j * 17
            cv2.rectangle(img, (xpos(1.0), y0), (xpos(v), y0 + 13), colors[key], -1)
            cv2.putText(img, f"{v:.2f}x", (max(xpos(v), xpos(1.0)) + 4, y0 + 11), font, 0.38,
                        (0, 0, 0), 1, cv2.LINE_AA)
    x1 = xpos(1.0)
    cv2.line(img, (x1, top - 8), (x1, top + rh * len(rows)), (0, 0, 0), 2)
    ly = top + rh * len(rows) + 40
    for j, (key, c) in enumerate(colors.items()):
        cv2.rectangle(img, (left + j * 220, ly - 10), (left + j * 220 + 14, ly + 2), c, -1)
        cv2.putText(img, f"mxnet-ng speedup {key}", (left + j * 220 + 20, ly), font, 0.42,
                    (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(img, "<- slower | faster ->", (x1 - 80, top - 14), font, 0.4, (0, 0, 0), 1,
                cv2.LINE_AA)
    ok, buf = cv2.imencode(".png", img)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(buf.tobytes())
    os.replace(tmp, path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller batches and fewer iterations")
    ap.add_argument("--oracle", default=DEFAULT_ORACLE,
                    help="python interpreter with real MXNet 1.9.1 ('' to skip)")
    ap.add_argument("--threads", type=int, default=1, help="intra-op threads for every side")
    ap.add_argument("--train-batch", type=int, default=0,
                    help="ResNet-50 simple_bind fwd+bwd batch (default 8, --quick 2)")
    ap.add_argument("--only", default="", help="comma-separated: nd,gluon,sym,tool,data")
    ap.add_argument("--rounds", type=int, default=1,
                    help="repeat every measurement, alternating the sides; keep the best")
    ap.add_argument("--timeout", type=float, default=420, help="seconds per subprocess")
    ap.add_argument("--out", default=RESULTS, help="folder for latest.md/.json/.png")
    a = ap.parse_args(argv)
    bad = [g for g in a.only.split(",") if a.only and g not in GROUPS]
    if bad:
        ap.error(f"unknown --only group(s) {', '.join(bad)}; choose from {', '.join(GROUPS)}")
    t0 = time.time()
    log: list[str] = []
    rows = collect(a, log)
    import torch

    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": _machine(), "threads": a.threads, "torch": torch.__version__,
            "rounds": a.rounds, "command": "python benchmarks/run_all.py " + " ".join(argv if argv is not None
                                                                  else sys.argv[1:]),
            "elapsed": time.time() - t0, "log": log}
    print()
    print("\n".join(_table(rows)))
    for m in log:
        print("note:", m)
    os.makedirs(a.out, exist_ok=True)
    write_markdown(os.path.join(a.out, "latest.md"), rows, meta)
    with open(os.path.join(a.out, "latest.json.tmp"), "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    os.replace(os.path.join(a.out, "latest.json.tmp"), os.path.join(a.out, "latest.json"))
    draw_chart(os.path.join(a.out, "latest.png"), rows,
               f"mxnet-ng speedup ({meta['date']}, {a.threads} thread(s), {meta['machine']})")
    print(f"wrote {os.path.join(a.out, 'latest.md')} and latest.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
