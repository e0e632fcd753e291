"""Imperative NDArray speed: tiny-op dispatch latency and an autograd MLP training step.

Uses the public MXNet API only, so the same file runs under mxnet-ng and under real MXNet:

    .venv/bin/python benchmarks/bench_ndarray.py            # this interpreter, a table
    .venv/bin/python benchmarks/bench_ndarray.py --json     # this interpreter, JSON
    .venv/bin/python benchmarks/bench_ndarray.py --compare  # mxnet-ng vs MXNet 1.9.1

``--compare`` runs the script under this interpreter (mxnet-ng from this checkout) and under
the oracle (``$MXNET_ORACLE_PYTHON`` or ``~/.cache/mxnet-oracle/bin/python``), both with the
same thread count (``--threads``, default 1: what MXNet uses on a 2-core machine), and prints
microseconds per iteration and the ratio mxnet-ng / MXNet (below 1 means mxnet-ng is faster).
"""

import argparse
import json
import os
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ORACLE = os.path.expanduser("~/.cache/mxnet-oracle/bin/python")


def _timeit(fn, sync, min_time=0.3, repeats=5):
    """Best-of-``repeats`` microseconds per call of ``fn`` (each batch ends with ``sync``)."""
    fn()
    sync()
    n = 1
    while True:  # calibrate the batch size
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        dt = time.perf_counter() - t0
        if dt > min_time / repeats or n >= 1 << 20:
            break
        n *= 4
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6


def run_benchmarks(quick=False):
    import numpy as np

    import mxnet as mx

    nd = mx.nd
    sync = nd.waitall
    rng = np.random.RandomState(0)
    results = {}
    min_time = 0.1 if quick else 0.3

    results["nd.ones((2,3))*2"] = _timeit(lambda: nd.ones((2, 3)) * 2, sync, min_time)
    a = nd.array([[1.0]])
    b = nd.array([[2.0]])
    results["a+b (1x1)"] = _timeit(lambda: a + b, sync, min_time)
    x = nd.array(rng.randn(64, 64))
    y = nd.array(rng.randn(64, 64))
    results["nd.dot 64x64"] = _timeit(lambda: nd.dot(x, y), sync, min_time)
    results["a[0] (getitem)"] = _timeit(lambda: x[0], sync, min_time)
    results["asnumpy 1x1"] = _timeit(lambda: a.asnumpy(), sync, min_time)

    batch, n_in, n_hidden, n_out = 64, 256, 128, 10
    data = nd.array(rng.randn(batch, n_in))
    label = nd.array(rng.randint(0, n_out, size=batch))
    w1 = nd.array(rng.randn(n_in, n_hidden) * 0.05)
    b1 = nd.zeros((n_hidden,))
    w2 = nd.array(rng.randn(n_hidden, n_out) * 0.05)
    b2 = nd.zeros((n_out,))
    params = [w1, b1, w2, b2]
    for p in params:
        p.attach_grad()
    lr = 0.1

    def mlp_step():
        with mx.autograd.record():
            h = nd.relu(nd.broadcast_add(nd.dot(data, w1), b1))
            out = nd.broadcast_add(nd.dot(h, w2), b2)
            logp = nd.log_softmax(out, axis=-1)
            loss = -nd.mean(nd.pick(logp, label, axis=-1))
        loss.backward()
        for p in params:
            p[:] = p - lr * p.grad

    results[f"MLP step {batch}x{n_in}-{n_hidden}-{n_out}"] = _timeit(mlp_step, sync, min_time)
    return results


def _print_table(rows, headers):
    widths = [max(len(str(r[i])) for r in [headers] + rows) for i in range(len(headers))]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    print(line)
    print("-" * len(line))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))


def _run_child(python, env_extra, threads, quick):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.update(env_extra)
    env["OMP_NUM_THREADS"] = str(threads)
    env["MKL_NUM_THREADS"] = str(threads)
    cmd = [python, os.path.abspath(__file__), "--json", "--threads", str(threads)]
    if quick:
        cmd.append("--quick")
    out = subprocess.run(cmd, env=env, cwd="/", capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{python} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(threads, quick, rounds=2):
    oracle = os.environ.get("MXNET_ORACLE_PYTHON", DEFAULT_ORACLE)
    if not os.path.exists(oracle):
        print(f"oracle python not found at {oracle}: set MXNET_ORACLE_PYTHON to compare; "
              "skipping the comparison")
        return 0
    ours, ref = {}, {}
    for _ in range(rounds):  # alternate the two, keep each one's best: fairer on busy hosts
        for acc, python, env in ((ours, sys.executable, {"PYTHONPATH": REPO}),
                                 (ref, oracle, {})):
            for k, v in _run_child(python, env, threads, quick).items():
                acc[k] = min(v, acc.get(k, float("inf")))
    rows = []
    for name, us in ours.items():
        r = ref.get(name)
        rows.append([name, f"{us:.1f}", f"{r:.1f}" if r else "-",
                     f"{us / r:.2f}x" if r else "-"])
    print(f"threads={threads}, rounds={rounds}; microseconds per iteration (best of "
          f"{5 * rounds}); ratio = mxnet-ng / MXNet")
    _print_table(rows, ["benchmark", "mxnet-ng us", "MXNet 1.9.1 us", "ratio"])
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", action="store_true", help="run under mxnet-ng and MXNet 1.9.1")
    ap.add_argument("--json", action="store_true", help="print results as one JSON line")
    ap.add_argument("--threads", type=int, default=1, help="intra-op threads (default 1)")
    ap.add_argument("--quick", action="store_true", help="shorter timing runs")
    ap.add_argument("--rounds", type=int, default=2,
                    help="with --compare: alternate the two interpreters this many times")
    args = ap.parse_args(argv)
    if args.compare:
        return compare(args.threads, args.quick, args.rounds)
    try:
        import torch

        torch.set_num_threads(args.threads)
    except ImportError:
        pass
    res = run_benchmarks(args.quick)
    if args.json:
        print(json.dumps(res))
    else:
        _print_table([[k, f"{v:.1f}"] for k, v in res.items()], ["benchmark", "us"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
