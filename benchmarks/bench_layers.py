"""Single-layer forward+backward CPU time of ResNet-50's layer shapes, mxnet-ng against the
oracle, side by side: where a whole-network gap (bench_symbol_resnet.py) comes from.

    .venv/bin/python benchmarks/bench_layers.py [--reps 5] [--all-channels-last]
        [--oracle /root/.cache/mxnet-oracle/bin/python]

Each side is a long-lived process that binds every layer once (``simple_bind``, batch 32,
one thread, ``grad_req='write'`` for the data too, as in the network) and warms up; the
timed steps then alternate between the processes layer by layer, so machine load hits both
alike. Prints the minimum CPU time per step of each side and the ratio (above 1: mxnet-ng
faster). Data arrives in NCHW arrays on both sides; ``--all-channels-last`` makes mxnet-ng
convert every convolution's input to channels-last as it does inside the network for large
maps (the conversion copies are then part of its time).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

LAYERS = [  # name, data shape, Convolution arguments (None: BatchNorm + relu)
    ("conv1x1 64->256 @56", (32, 64, 56, 56), {"num_filter": 256, "kernel": (1, 1)}),
    ("conv1x1 256->64 @56", (32, 256, 56, 56), {"num_filter": 64, "kernel": (1, 1)}),
    ("conv3x3 64 @56", (32, 64, 56, 56), {"num_filter": 64, "kernel": (3, 3), "pad": (1, 1)}),
    ("conv3x3 128 @28", (32, 128, 28, 28),
     {"num_filter": 128, "kernel": (3, 3), "pad": (1, 1)}),
    ("conv1x1 512->128 @28", (32, 512, 28, 28), {"num_filter": 128, "kernel": (1, 1)}),
    ("conv3x3 256 @14", (32, 256, 14, 14),
     {"num_filter": 256, "kernel": (3, 3), "pad": (1, 1)}),
    ("conv1x1 1024->256 @14", (32, 1024, 14, 14), {"num_filter": 256, "kernel": (1, 1)}),
    ("conv3x3/2 128 @56", (32, 128, 56, 56),
     {"num_filter": 128, "kernel": (3, 3), "pad": (1, 1), "stride": (2, 2)}),
    ("stem 7x7/2 3->64 @224", (32, 3, 224, 224),
     {"num_filter": 64, "kernel": (7, 7), "pad": (3, 3), "stride": (2, 2)}),
    ("BatchNorm+relu 256 @56", (32, 256, 56, 56), None),
]


def _serve(all_cl: bool) -> None:
    import numpy as np

    import mxnet as mx

    if all_cl and "torch" in sys.modules:
        import mxnet._op._conv as conv

        conv.LARGE_CL_PIXELS = 0
    steps = {}
    for name, shape, kw in LAYERS:
        d = mx.sym.Variable("data")
        if kw is None:
            s = mx.sym.Activation(mx.sym.BatchNorm(d, fix_gamma=False, name="bn"),
                                  act_type="relu")
        else:
            s = mx.sym.Convolution(d, no_bias=True, name="c", **kw)
        ex = s.simple_bind(mx.cpu(), data=shape)
        rng = np.random.RandomState(0)
        for a in ex.arg_dict.values():
            a[:] = rng.normal(0, 0.1, a.shape)
        head = mx.nd.ones(ex.outputs[0].shape)

        def step(ex=ex, head=head):
            ex.forward(is_train=True)
            ex.backward(head)
            for g in ex.grad_arrays:
                g.wait_to_read()

        for _ in range(3):
            step()
        steps[name] = step
    print("ready", flush=True)
    for line in sys.stdin:
        name = line.rstrip("\n")
        if name not in steps:
            break
        c0 = time.process_time()
        steps[name]()
        print(json.dumps(time.process_time() - c0), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--all-channels-last", action="store_true")
    ap.add_argument("--oracle", default="/root/.cache/mxnet-oracle/bin/python")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.serve:
        _serve(a.all_channels_last)
        return
    env = dict(os.environ, OMP_NUM_THREADS="1", MXNET_CPU_WORKER_NTHREADS="1")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    me = os.path.abspath(__file__)
    extra = ["--all-channels-last"] if a.all_channels_last else []
    sides = {
        "oracle": subprocess.Popen([a.oracle, me, "--serve"], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, env=env, cwd="/tmp"),
        "ours": subprocess.Popen([sys.executable, me, "--serve", *extra], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True, cwd="/tmp",
                                 env=dict(env, PYTHONPATH=repo)),
    }
    for p in sides.values():
        while p.stdout.readline().strip() != "ready":
            pass
    times: dict = {(n, k): [] for n, _, _ in LAYERS for k in sides}
    for _ in range(a.reps):
        for n, _, _ in LAYERS:
            for k, p in sides.items():
                p.stdin.write(n + "\n")
                p.stdin.flush()
                times[(n, k)].append(json.loads(p.stdout.readline()))
    print(f"{'layer (batch 32, fwd+bwd, 1 thread)':38s} {'MXNet ms':>9s} {'ours ms':>9s}  ratio")
    for n, _, _ in LAYERS:
        o, u = min(times[(n, "oracle")]), min(times[(n, "ours")])
        print(f"{n:38s} {o * 1e3:9.1f} {u * 1e3:9.1f}  {o / u:.2f}x")
    for p in sides.values():
        p.stdin.write("stop\n")
        p.stdin.flush()
        p.wait(timeout=60)


if __name__ == "__main__":
    main()
