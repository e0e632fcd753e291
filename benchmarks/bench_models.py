"""Run one ``mxnet_benchmarks`` model (Module, forward+backward) under any MXNet.

The benchmark tool's models use the public MXNet API only, so this driver loads the
``mxnet_benchmarks`` package from this checkout by file path (it never puts the checkout on
``sys.path`` when another ``mxnet`` is importable) and runs it unchanged under whichever
``mxnet`` the interpreter has: real MXNet 1.9.1 (the oracle) or mxnet-ng.

    .venv/bin/python benchmarks/bench_models.py --model resnet50 --batch_size 8
    .venv/bin/python benchmarks/bench_models.py --compare --model resnet18 --batch_size 8
    ~/.cache/mxnet-oracle/bin/python benchmarks/bench_models.py --model alexnet

Every option after the driver's own (``--compare``, ``--oracle``, ``--json``, ``--threads``)
is passed to the tool (``python -m mxnet_benchmarks --help``). ``--compare`` runs mxnet-ng and
the oracle one after the other on the same options and prints the ratio of images/sec
(above 1: mxnet-ng is faster).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(REPO, "mxnet_benchmarks")
DEFAULT_ORACLE = os.environ.get("MXNET_ORACLE_PYTHON",
                                os.path.expanduser("~/.cache/mxnet-oracle/bin/python"))

__all__ = ["load_tool", "run_child", "main"]


def load_tool():
    """Import ``mxnet_benchmarks`` from this checkout without shadowing an installed mxnet.

    Returns the package's ``benchmarks`` module (``build_parser``, ``run``, ``main``).
    """
    if importlib.util.find_spec("mxnet") is None:  # no installed mxnet: use the checkout's
        sys.path.insert(0, REPO)
    if "mxnet_benchmarks" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "mxnet_benchmarks", os.path.join(PKG, "__init__.py"),
            submodule_search_locations=[PKG])
        mod = importlib.util.module_from_spec(spec)
        sys.modules["mxnet_benchmarks"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["mxnet_benchmarks.benchmarks"]


def _thread_env(threads: int) -> dict:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if threads:
        for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "MXNET_CPU_WORKER_NTHREADS"):
            env[k] = str(threads)
    return env


def run_child(python: str, tool_args: list[str], threads: int = 0, ours: bool = False,
              timeout: float = 1800) -> dict:
    """Run this driver under ``python`` and return the tool's JSON summary.

    ``ours=True`` puts the checkout on ``PYTHONPATH`` (mxnet-ng). Raises RuntimeError with
    the tail of stderr when the child fails.
    """
    env = _thread_env(threads)
    if ours:
        env["PYTHONPATH"] = REPO
    cmd = [python, os.path.abspath(__file__), "--json"] + list(tool_args)
    out = subprocess.run(cmd, env=env, cwd="/", capture_output=True, text=True,
                         timeout=timeout)
    if out.returncode != 0:
        raise RuntimeError(f"{python} {' '.join(tool_args)} failed:\n{out.stderr[-1500:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], add_help=False)
    ap.add_argument("--compare", action="store_true", help="run mxnet-ng and the oracle")
    ap.add_argument("--oracle", default=DEFAULT_ORACLE, help="python of real MXNet")
    ap.add_argument("--json", action="store_true", help="print only the JSON summary")
    ap.add_argument("--threads", type=int, default=0, help="intra-op threads (0: defaults)")
    ap.add_argument("-h", "--help", action="store_true")
    own, tool_args = ap.parse_known_args(argv)
    if own.help:
        ap.print_help()
        print("\ntool options:")
        load_tool().build_parser().print_help()
        return 0
    if own.compare:
        rows = [("mxnet-ng", run_child(sys.executable, tool_args, own.threads, ours=True))]
        if os.path.exists(own.oracle):
            rows.append(("MXNet 1.9.1", run_child(own.oracle, tool_args, own.threads)))
        else:
            print(f"oracle python not found at {own.oracle}; showing mxnet-ng only")
        for name, r in rows:
            print(f"{name:12s} {r['model']} {r['phase']} batch {r['batch_size']}: "
                  f"{r['time_ms']:.1f} ms/batch, {r['throughput']:.2f} img/s")
        if len(rows) == 2:
            print(f"ratio mxnet-ng / MXNet (img/s): "
                  f"{rows[0][1]['throughput'] / rows[1][1]['throughput']:.2f}x")
        return 0
    if own.threads:
        try:
            import torch

            torch.set_num_threads(own.threads)
        except ImportError:
            pass
    tool = load_tool()
    args = tool.build_parser().parse_args(tool_args)
    if own.json:
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):
            summary = tool.run(args)
        import mxnet as mx

        summary["mxnet"] = os.path.dirname(mx.__file__)
        print(json.dumps(summary))
        return 0
    return tool.main(tool_args)


if __name__ == "__main__":
    sys.exit(main())
