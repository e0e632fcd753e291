"""Allreduce throughput of ``kv.pushpull`` on a ``dist_sync`` store vs raw torch.distributed.

Two worker processes on this host (started through ``mxnet/tools/launch.py``) sum float32
arrays of 1 MB to 64 MB. For each size the script times ``kv.pushpull(key, arr)`` and
``torch.distributed.all_reduce(tensor)`` on the same process group, alternating the two in
rounds so that machine load hits both alike, and prints MB/s (array bytes per second, from
the first-quartile time per call, which shrugs off other processes' load spikes) and the ratio kvstore / raw (1.0 means no overhead):

    .venv/bin/python benchmarks/bench_kvstore.py              # 2 workers, 1..64 MB
    .venv/bin/python benchmarks/bench_kvstore.py --sizes 1 16 --rounds 5
"""

import argparse
import os
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _times(fn, out: list) -> None:
    t0 = time.perf_counter()
    fn()
    out.append(time.perf_counter() - t0)


def _quantile(ts: list, q: float = 0.25) -> float:
    """A low quantile of the per-call times: robust to other processes' load spikes."""
    ts = sorted(ts)
    return ts[int(q * (len(ts) - 1))]


def worker(sizes, rounds: int) -> None:
    import torch
    import torch.distributed as dist

    import mxnet as mx

    kv = mx.kv.create("dist_sync")
    rows = []
    for mb in sizes:
        n = mb * (1 << 20) // 4
        arr = mx.nd.ones((n,))
        raw = torch.ones(n)
        kv.init(mb, arr)
        kv_t: list = []
        raw_t: list = []
        kv.pushpull(mb, arr)  # warm-up (connection buffers, allocations)
        dist.all_reduce(raw)
        for _ in range(rounds * max(4, 64 // mb)):  # alternate: load hits both alike
            _times(lambda k=mb, a=arr: kv.pushpull(k, a), kv_t)
            _times(lambda t=raw: dist.all_reduce(t), raw_t)
        rows.append((mb, 4 * n / _quantile(kv_t) / 1e6, 4 * n / _quantile(raw_t) / 1e6))
    kv.barrier()
    if kv.rank == 0:
        print(f"dist_sync pushpull vs torch.distributed.all_reduce ({dist.get_backend()}, "
              f"{kv.num_workers} workers, float32, first-quartile call time)")
        print(f"{'size':>6} | {'pushpull MB/s':>13} | {'all_reduce MB/s':>15} | ratio")
        print("-" * 50)
        for mb, k, r in rows:
            print(f"{mb:>4}MB | {k:>13.1f} | {r:>15.1f} | {k / r:.2f}x")
        sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 4, 16, 64], help="MB")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.sizes, args.rounds)
        return
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.setdefault("OMP_NUM_THREADS", "1")
    cmd = [sys.executable, os.path.join(REPO, "mxnet", "tools", "launch.py"),
           "-n", str(args.workers), sys.executable, os.path.abspath(__file__), "--worker",
           "--rounds", str(args.rounds), "--sizes", *map(str, args.sizes)]
    sys.exit(subprocess.call(cmd, env=env, cwd=REPO))


if __name__ == "__main__":
    main()
