"""Worker script of tests/tools/test_launch.py, run by ``python -m mxnet.tools.launch``.

``sync OUTDIR``: dist_sync through raw push/pull, gluon.Trainer and Module.fit, each on this
worker's shard of a batch, then rank 1 kills itself and rank 0 reports the error it gets.
``async OUTDIR``: dist_async linear regression; the workers run different numbers of steps.
The single-process references (same functions, ``kvstore='local'``) run in the test.
"""

import os
import signal
import sys
import time

import numpy as np

import mxnet as mx
from mxnet import gluon
from mxnet import kvstore as kvs
from mxnet import optimizer as opt
from mxnet.base import MXNetError

N = 8


def data():
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (N, 3)).astype("float32")
    y = (x @ np.array([1.0, -2.0, 0.5], "float32") + 0.3).astype("float32")
    return x, y.reshape(N, 1)


def shard(a, rank, n, batch=N):
    """Rows of ``a`` that worker ``rank`` of ``n`` sees in each batch of ``batch`` rows."""
    per = batch // n
    return np.concatenate([a[j + rank * per:j + (rank + 1) * per]
                           for j in range(0, len(a), batch)])


def raw_train(kv, x, y, steps=5):
    kv.init([0, 1], [mx.nd.zeros((3,)), mx.nd.zeros((1,))])
    kv.set_optimizer(opt.SGD(learning_rate=0.1, momentum=0.9, rescale_grad=1.0 / N))
    w, b = mx.nd.zeros((3,)), mx.nd.zeros((1,))
    for _ in range(steps):
        err = x @ w.asnumpy() + b.asnumpy() - y[:, 0]
        kv.push([0, 1], [mx.nd.array(x.T @ err), mx.nd.array([err.sum()])])
        kv.pull([0, 1], out=[w, b])
    return np.concatenate([w.asnumpy(), b.asnumpy()])


def gluon_train(kvstore, x, y, steps=5):
    net = gluon.nn.Dense(1, in_units=3)
    net.initialize(mx.init.Constant(0.1))
    trainer = gluon.Trainer(net.collect_params(), "sgd",
                            {"learning_rate": 0.1, "momentum": 0.9}, kvstore=kvstore)
    loss_fn = gluon.loss.L2Loss()
    for _ in range(steps):
        with mx.autograd.record():
            loss = loss_fn(net(mx.nd.array(x)), mx.nd.array(y))
        loss.backward()
        trainer.step(N)
    return np.concatenate([net.weight.data().asnumpy().ravel(), net.bias.data().asnumpy()])


class _TwoLayer(gluon.nn.Block):
    """An MLP with a parameter the forward pass never uses."""

    def __init__(self):
        super().__init__()
        with self.name_scope():
            self.fc1 = gluon.nn.Dense(5, in_units=3, activation="relu")
            self.fc2 = gluon.nn.Dense(1, in_units=5)
            self.unused = gluon.nn.Dense(2, in_units=3)

    def forward(self, x):
        return self.fc2(self.fc1(x))


def gluon_overlap(kvstore, x, y, update_on_kvstore, steps=4):
    """Trainer steps with an unused parameter and one round with two backward passes.
    Returns the final weights and how many keys were started during backward."""
    mx.random.seed(7)
    net = _TwoLayer()
    net.initialize(mx.init.Xavier())
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1, "momentum": 0.9},
                            kvstore=kvstore, update_on_kvstore=update_on_kvstore)
    started = 0
    for step in range(steps):
        for _ in range(2 if step == 2 else 1):
            with mx.autograd.record():
                loss = gluon.loss.L2Loss()(net(mx.nd.array(x)), mx.nd.array(y))
            loss.backward()
        ov = getattr(trainer, "_overlap", None)
        started += ov._next if ov is not None else 0
        trainer.step(N, ignore_stale_grad=True)
    w = [p.data().asnumpy().ravel() for p in net.collect_params().values()]
    return np.concatenate(w), started


def module_train(kvstore, x, y, batch):
    d = mx.sym.Variable("data")
    h = mx.sym.Activation(mx.sym.FullyConnected(d, num_hidden=4, name="fc1"), act_type="relu")
    out = mx.sym.LinearRegressionOutput(mx.sym.FullyConnected(h, num_hidden=1, name="fc2"),
                                        name="lro")
    rng = np.random.RandomState(1)
    args = {"fc1_weight": rng.uniform(-1, 1, (4, 3)), "fc1_bias": np.zeros(4),
            "fc2_weight": rng.uniform(-1, 1, (1, 4)), "fc2_bias": np.zeros(1)}
    args = {k: mx.nd.array(v) for k, v in args.items()}
    it = mx.io.NDArrayIter(x, y, batch_size=batch, label_name="lro_label")
    mod = mx.mod.Module(out, label_names=["lro_label"])
    mod.fit(it, num_epoch=3, kvstore=kvstore, optimizer="sgd", eval_metric="mse",
            optimizer_params={"learning_rate": 0.1}, arg_params=args)
    params = mod.get_params()[0]
    return np.concatenate([params[k].asnumpy().ravel() for k in sorted(params)])


def cow_semantics(kv, rank):
    """The stored value after an in-place pushpull survives later writes to the array
    (the store keeps a copy-on-write clone): one array within a chunk, one over it (the
    job runs with 16-byte chunks)."""
    got = []
    for key, size in ((12, 3), (13, 6)):
        a = mx.nd.ones((size,)) * (rank + 1)
        kv.init(key, mx.nd.zeros((size,)))
        kv.pushpull(key, a)  # a = 3
        kv.pushpull(key, a)  # a = 6 (the store's clone of a is dropped, not copied)
        a[:] = 100  # written in place: the store keeps 6
        a += 1
        p = mx.nd.zeros((size,))
        kv.pull(key, out=p)
        kv.pushpull(key, a)  # a = 202
        q = mx.nd.zeros((size,))
        kv.pull(key, out=q)
        a[:] = -1
        got += [p[:3].asnumpy(), q[:3].asnumpy(), a[:3].asnumpy()]
    return np.stack(got)


def run_sync(outdir):
    kv = kvs.create("dist_sync")
    rank, n = kv.rank, kv.num_workers
    kv.init(10, mx.nd.ones((2, 2)) * (rank + 5))  # every worker gets rank 0's value
    first = mx.nd.zeros((2, 2))
    kv.pull(10, out=first)
    kv.push(10, [mx.nd.ones((2, 2), ctx=mx.cpu(i)) * (rank + 1) for i in range(2)])
    summed = [mx.nd.zeros((2, 2), ctx=mx.cpu(i)) for i in range(2)]
    kv.pull(10, out=summed)
    both = mx.nd.arange(6) * (rank + 1)  # pushpull in place (no updater), then pull
    kv.init(11, mx.nd.zeros((6,)))
    kv.pushpull(11, both)
    pulled = mx.nd.zeros((6,))
    kv.pull(11, out=pulled)
    res_cow = cow_semantics(kv, rank)
    x, y = data()
    xs, ys = shard(x, rank, n), shard(y, rank, n)
    res = {"cow": res_cow, "n": n, "first": first.asnumpy(), "summed": summed[1].asnumpy(),
           "pushpull": np.stack([both.asnumpy(), pulled.asnumpy()]), "raw": raw_train(kv, xs, ys), "gluon": gluon_train("dist_sync", xs, ys),
           "module": module_train("dist_sync", shard(x, rank, n, 4), shard(y, rank, n, 4),
                                  batch=4 // n)}
    for uok in (False, True):
        os.environ["MXNET_KVSTORE_OVERLAP"] = "0"
        res[f"plain{int(uok)}"], _ = gluon_overlap("dist_sync", xs, ys, uok)
        del os.environ["MXNET_KVSTORE_OVERLAP"]
        res[f"overlap{int(uok)}"], res[f"started{int(uok)}"] = gluon_overlap(
            "dist_sync", xs, ys, uok)
    np.savez(os.path.join(outdir, f"sync{rank}.npz"), **res)
    kv.barrier()
    kv.init(99, mx.nd.ones((2,)))
    if rank == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    t0 = time.time()
    try:
        for _ in range(50):
            kv.push(99, mx.nd.ones((2,)))
            time.sleep(0.1)
        msg = "no error"
    except MXNetError as e:
        msg = str(e)
    with open(os.path.join(outdir, "die.txt"), "w") as f:
        f.write(f"{time.time() - t0:.2f}\n{msg}")
    os._exit(0)  # torch.distributed teardown aborts once a peer is gone


def run_async(outdir):
    kv = kvs.create("dist_async")
    rank, n = kv.rank, kv.num_workers
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (64, 16)).astype("float32")
    w_true = np.linspace(-1, 1, 16).astype("float32")
    y = x @ w_true
    kv.init("w", mx.nd.zeros((16,)))
    kv.set_optimizer(opt.SGD(learning_rate=0.2, rescale_grad=1.0 / 32))
    xs, ys = x[rank::n], y[rank::n]
    w = mx.nd.zeros((16,))
    steps = 150 if rank == 0 else 60  # no lock-step: dist_sync would hang here
    for _ in range(steps):
        kv.pull("w", out=w)
        err = xs @ w.asnumpy() - ys
        kv.push("w", mx.nd.array(xs.T @ err))
    kv.barrier()
    kv.pull("w", out=w)
    net = gluon.nn.Dense(1, in_units=16, use_bias=False)
    net.initialize(mx.init.Zero())
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.2},
                            kvstore="dist_async")
    for _ in range(steps):
        with mx.autograd.record():
            loss = gluon.loss.L2Loss()(net(mx.nd.array(xs)), mx.nd.array(ys))
        loss.backward()
        trainer.step(len(xs))
    trainer._kvstore.barrier()
    trainer._kvstore.pull(0, out=net.weight.data())
    kv.barrier()
    ready = os.path.join(outdir, "past_barrier")
    if rank == 1:
        open(ready, "w").close()
    else:  # a dead server (once rank 1 no longer needs its rendezvous): requests fail at once
        while not os.path.exists(ready):
            time.sleep(0.05)
        os.kill(kv._ps.server_pids[0], signal.SIGKILL)
    msg, t0 = "no error", time.time()
    while time.time() - t0 < 10:
        try:
            kv.push("w", mx.nd.ones((16,)))
        except MXNetError as e:
            msg = str(e)
            break
        time.sleep(0.05)
    np.savez(os.path.join(outdir, f"async{rank}.npz"), w=w.asnumpy(), w_true=w_true,
             n=n, rank=rank, gluon=net.weight.data().asnumpy().ravel(), msg=msg)


if __name__ == "__main__":
    with open(os.path.join(sys.argv[2], f"pid{os.getpid()}"), "w") as f:
        f.write(str(os.getpid()))
    {"sync": run_sync, "async": run_async}[sys.argv[1]](sys.argv[2])
