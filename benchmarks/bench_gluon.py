"""Gluon speed side by side with real MXNet 1.9.1: the seed's CIFAR-10 LeNet training loop
(batch 128 and 512, plain and hybridized) and model-zoo ResNet-50 v1 hybridized inference.

    .venv/bin/python benchmarks/bench_gluon.py [--iters 5] [--resnet-batch 8] [--threads N]
        [--oracle /root/.cache/mxnet-oracle/bin/python] [--skip-resnet]

The same file runs under the oracle (``--worker``), so both sides build identical networks
from the public API. Rates are images/second (wall clock, best of the timed rounds); the
ratio column is mxnet-ng / MXNet (above 1: mxnet-ng is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time


def lenet(nn):
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(channels=6, kernel_size=5, activation="relu"),
                nn.MaxPool2D(pool_size=2, strides=2),
                nn.Conv2D(channels=16, kernel_size=5, activation="relu"),
                nn.MaxPool2D(pool_size=2, strides=2),
                nn.Flatten(),
                nn.Dense(120, activation="relu"),
                nn.Dense(84, activation="relu"),
                nn.Dense(10))
    return net


def _lenet_step(mx, batch, hybrid):
    import numpy as np

    from mxnet import autograd, gluon
    from mxnet.gluon import nn

    net = lenet(nn)
    net.initialize(ctx=mx.cpu())
    if hybrid:
        net.hybridize()
    crit = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    rng = np.random.RandomState(0)
    x = mx.nd.array(rng.uniform(-1, 1, (batch, 3, 32, 32)))
    y = mx.nd.array(rng.randint(0, 10, batch))

    def step():
        with autograd.record():
            loss = crit(net(x), y)
        loss.backward()
        trainer.step(batch)
        loss.wait_to_read()

    return step


def bench_lenet_pair(mx, batch, iters, rounds=8):
    """Plain and hybridized nets built side by side; their timed rounds alternate so that
    the load of other jobs hits both alike. Best images/s of each (8 rounds: with 4, the
    hybridized/plain ratio wandered +-5% between runs on the 2-core machine)."""
    steps = {False: _lenet_step(mx, batch, False), True: _lenet_step(mx, batch, True)}
    for step in steps.values():
        step()
        step()
    best = {False: 0.0, True: 0.0}
    for _ in range(rounds):
        for hybrid, step in steps.items():
            t0 = time.perf_counter()
            for _ in range(iters):
                step()
            mx.nd.waitall()
            best[hybrid] = max(best[hybrid], batch * iters / (time.perf_counter() - t0))
    return best


def bench_resnet(mx, batch, iters):
    import numpy as np

    from mxnet.gluon.model_zoo import vision

    net = vision.get_model("resnet50_v1")
    net.initialize(ctx=mx.cpu())
    net.hybridize(static_alloc=True, static_shape=True)
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (batch, 3, 224, 224)))
    net(x).wait_to_read()
    net(x).wait_to_read()
    best = 0.0
    for _ in range(2):
        t0 = time.perf_counter()
        for _ in range(iters):
            net(x).wait_to_read()
        best = max(best, batch * iters / (time.perf_counter() - t0))
    return best


def run_all(mx, a):
    res = {}
    for batch in (128, 512):
        best = bench_lenet_pair(mx, batch, max(1, a.iters * 128 // batch))
        for hybrid in (False, True):
            res[f"LeNet train bs{batch} {'hybridized' if hybrid else 'plain'}"] = best[hybrid]
    if not a.skip_resnet:
        res[f"ResNet-50 v1 hybridized inference bs{a.resnet_batch}"] = bench_resnet(
            mx, a.resnet_batch, max(1, a.iters // 2))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=6)
    ap.add_argument("--resnet-batch", type=int, default=8)
    ap.add_argument("--threads", type=int, default=0, help="threads for both (0: defaults)")
    ap.add_argument("--oracle", default="/root/.cache/mxnet-oracle/bin/python")
    ap.add_argument("--skip-resnet", action="store_true")
    ap.add_argument("--worker", choices=["oracle"], help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker == "oracle":
        import mxnet as mx

        print(json.dumps(run_all(mx, a)))
        return
    env = dict(os.environ)
    if a.threads:
        env["OMP_NUM_THREADS"] = str(a.threads)
        env["MXNET_CPU_WORKER_NTHREADS"] = str(a.threads)
    oracle = None
    if os.path.exists(a.oracle):
        cmd = [a.oracle, os.path.abspath(__file__), "--worker", "oracle", "--iters",
               str(a.iters), "--resnet-batch", str(a.resnet_batch)]
        if a.skip_resnet:
            cmd.append("--skip-resnet")
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/tmp")
        if out.returncode == 0:
            oracle = json.loads(out.stdout.strip().splitlines()[-1])
        else:
            print("oracle run failed:", out.stderr[-2000:], file=sys.stderr)
    else:
        print(f"oracle python {a.oracle} not found: mxnet-ng only", file=sys.stderr)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import torch

    import mxnet as mx

    if a.threads:
        torch.set_num_threads(a.threads)
    ours = run_all(mx, a)
    print(f"images/sec, torch threads {torch.get_num_threads()}")
    print(f"{'benchmark':46s} {'mxnet-ng':>10s} {'MXNet 1.9.1':>12s} {'ratio':>7s}")
    for key, v in ours.items():
        o = oracle.get(key) if oracle else None
        ratio = f"{v / o:.2f}x" if o else "n/a"
        ostr = f"{o:12.1f}" if o else f"{'n/a':>12s}"
        print(f"{key:46s} {v:10.1f} {ostr} {ratio:>7s}")


if __name__ == "__main__":
    main()
