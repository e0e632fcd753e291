"""GPU throughput of mxnet-ng beside PyTorch eager on the same GPU, in one run.

Rows (images/sec, float32, ResNet-50 at 224x224 unless ``--size`` says otherwise):

- ``gluon train``: model-zoo ``resnet50_v1`` hybridized, ``autograd.record`` + ``backward`` +
  ``Trainer.step`` (SGD with momentum), beside the same network written in PyTorch with
  ``torch.optim.SGD``.
- ``symbol fwd+bwd``: ResNet-50 built with ``mx.sym`` through ``simple_bind`` (the network of
  ``bench_symbol_resnet.py``), beside PyTorch forward+backward.
- ``gluon inference``: hybridized model-zoo network, ``is_train=False``, beside PyTorch
  ``eval()`` under ``torch.no_grad()``.

    python benchmarks/bench_gpu.py [--batch 64] [--size 224] [--iters 20]

The oracle (MXNet 1.9.1 from PyPI) has no CUDA build, so the peer here is PyTorch eager. The
ratio printed is ours/peer throughput (higher is better for us). Needs a CUDA GPU.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _rate(step, batch: int, iters: int, sync) -> float:
    for _ in range(3):
        step()
    sync()
    t0 = time.perf_counter()
    for _ in range(iters):
        step()
    sync()
    return batch * iters / (time.perf_counter() - t0)


def ours_gluon_train(mx, batch, size, iters):
    from mxnet import autograd, gluon

    ctx = mx.gpu(0)
    net = gluon.model_zoo.vision.resnet50_v1()
    net.initialize(mx.init.Xavier(), ctx=ctx)
    net.hybridize(static_alloc=True, static_shape=True)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01, "momentum": 0.9})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    x = mx.nd.random.uniform(shape=(batch, 3, size, size), ctx=ctx)
    y = mx.nd.array(np.random.randint(0, 1000, batch), ctx=ctx)

    def step():
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(batch)

    return _rate(step, batch, iters, mx.nd.waitall)


def ours_symbol(mx, batch, size, iters):
    from bench_symbol_resnet import resnet50

    sym = resnet50(mx)
    ex = sym.simple_bind(mx.gpu(0), data=(batch, 3, size, size))
    for name, arr in ex.arg_dict.items():
        if name.endswith("weight"):
            arr[:] = mx.nd.random.normal(0, 0.02, arr.shape, ctx=arr.context)
        elif name.endswith("gamma"):
            arr[:] = 1
    ex.arg_dict["data"][:] = mx.nd.random.uniform(shape=(batch, 3, size, size), ctx=mx.gpu(0))

    def step():
        ex.forward(is_train=True)
        ex.backward()

    return _rate(step, batch, iters, mx.nd.waitall)


def ours_inference(mx, batch, size, iters):
    net = mx.gluon.model_zoo.vision.resnet50_v1()
    net.initialize(mx.init.Xavier(), ctx=mx.gpu(0))
    net.hybridize(static_alloc=True, static_shape=True)
    x = mx.nd.random.uniform(shape=(batch, 3, size, size), ctx=mx.gpu(0))
    return _rate(lambda: net(x), batch, iters, mx.nd.waitall)


def peer_rates(batch, size, iters):
    import torch
    import torch.nn.functional as F
    from torch_peers import resnet50

    dev = torch.device("cuda")
    net = resnet50().to(dev)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    x = torch.rand(batch, 3, size, size, device=dev)
    y = torch.randint(0, 1000, (batch,), device=dev)

    def train():
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(net(x), y).backward()
        opt.step()

    def fwd_bwd():
        net.zero_grad(set_to_none=True)
        F.cross_entropy(net(x), y).backward()

    def infer():
        with torch.no_grad():
            net(x)

    sync = torch.cuda.synchronize
    res = {"gluon train": _rate(train, batch, iters, sync),
           "symbol fwd+bwd": _rate(fwd_bwd, batch, iters, sync)}
    net.eval()
    res["gluon inference"] = _rate(infer, batch, iters, sync)
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args(argv)
    import mxnet as mx

    if mx.context.num_gpus() == 0:
        print("bench_gpu: no CUDA GPU visible; nothing to measure")
        return 1
    import torch

    print(f"GPU: {torch.cuda.get_device_name(0)}; batch {args.batch}, {args.size}x{args.size}")
    ours = {"gluon train": ours_gluon_train(mx, args.batch, args.size, args.iters),
            "symbol fwd+bwd": ours_symbol(mx, args.batch, args.size, args.iters),
            "gluon inference": ours_inference(mx, args.batch, args.size, args.iters)}
    peer = peer_rates(args.batch, args.size, args.iters)
    print(f"{'row':<18}{'mxnet-ng img/s':>16}{'torch img/s':>14}{'ratio':>8}")
    for row, val in ours.items():
        print(f"{row:<18}{val:>16.1f}{peer[row]:>14.1f}{val / peer[row]:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
