"""Worker process of tests/kvstore/test_dist.py (run with RANK/WORLD_SIZE/MASTER_* set)."""

import os
import sys

import numpy as np

import mxnet as mx
from mxnet import kvstore as kvs
from mxnet import optimizer as opt
from mxnet.base import MXNetError


def data():
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (8, 3)).astype("float32")
    y = (x @ np.array([1.0, -2.0, 0.5], "float32") + 0.3).astype("float32")
    return x, y


def grads(w, b, x, y):
    err = x @ w + b - y
    return (x.T @ err).astype("float32"), np.array([err.sum()], "float32")


def train(kv, x, y, total, steps=5):
    kv.init([0, 1], [mx.nd.zeros((3,)), mx.nd.zeros((1,))])
    kv.set_optimizer(opt.SGD(learning_rate=0.1, momentum=0.9, rescale_grad=1.0 / total))
    w, b = mx.nd.zeros((3,)), mx.nd.zeros((1,))
    for _ in range(steps):
        gw, gb = grads(w.asnumpy(), b.asnumpy(), x, y)
        kv.push([0, 1], [mx.nd.array(gw), mx.nd.array(gb)])
        kv.pull([0, 1], out=[w, b])
    return w.asnumpy(), b.asnumpy()


def main(mode, out):
    kv = kvs.create("dist_sync")
    rank, n = kv.rank, kv.num_workers
    if mode == "sum_train":
        kv.init(10, mx.nd.ones((2, 2)) * (rank + 5))
        first = mx.nd.zeros((2, 2))
        kv.pull(10, out=first)
        kv.push(10, [mx.nd.ones((2, 2), ctx=mx.cpu(i)) * (rank + 1) for i in range(2)])
        res = mx.nd.zeros((2, 2))
        kv.pull(10, out=res)
        kv.barrier()
        x, y = data()
        half = len(x) // n
        w, b = train(kv, x[rank * half:(rank + 1) * half], y[rank * half:(rank + 1) * half],
                     len(x))
        np.savez(out, first=first.asnumpy(), res=res.asnumpy(), n=n, w=w, b=b)
        kv.barrier()
        mode = "die"
    if mode == "die":
        kv.init(20, mx.nd.ones((2,)))
        if rank == 1:
            sys.exit(0)
        try:
            for _ in range(3):
                kv.push(20, mx.nd.ones((2,)))
            msg = "no error"
        except MXNetError as e:
            msg = str(e)
        np.savez(out.replace(".npz", "_die.npz"), msg=np.array(msg))
        os._exit(0)  # skip torch.distributed teardown, which aborts once a peer is gone


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
