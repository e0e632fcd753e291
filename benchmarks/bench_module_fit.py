"""``Module.fit`` images/sec of a symbolic net on synthetic data.

``--model lenet`` (default): the seed's LeNet symbol on MNIST-shaped data, batch 128.
``--model mobilenet0.25``: the Gluon model zoo's MobileNet 0.25 turned into a symbol
(``net(mx.sym.var('data'))``, as MXNet's ``example/gluon/image_classification.py
--mode symbolic`` does) on CIFAR-shaped 3x32x32 data, 10 classes: many small layers, so it
measures per-operator overhead. Public MXNet API only, so the same file runs under
mxnet-ng and under real MXNet:

    .venv/bin/python benchmarks/bench_module_fit.py [--model M]              # this interpreter
    .venv/bin/python benchmarks/bench_module_fit.py [--model M] --compare    # beside MXNet
"""

import argparse
import json
import os
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ORACLE = os.path.expanduser("~/.cache/mxnet-oracle/bin/python")


def lenet(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.Convolution(data, kernel=(5, 5), num_filter=20)
    net = mx.sym.Pooling(mx.sym.Activation(net, act_type="tanh"), pool_type="max",
                         kernel=(2, 2), stride=(2, 2))
    net = mx.sym.Convolution(net, kernel=(5, 5), num_filter=50)
    net = mx.sym.Pooling(mx.sym.Activation(net, act_type="tanh"), pool_type="max",
                         kernel=(2, 2), stride=(2, 2))
    net = mx.sym.Activation(mx.sym.FullyConnected(mx.sym.Flatten(net), num_hidden=500),
                            act_type="tanh")
    net = mx.sym.FullyConnected(net, num_hidden=10)
    return mx.sym.SoftmaxOutput(net, name="softmax")


def mobilenet(mx):
    from mxnet.gluon.model_zoo import vision

    net = vision.get_model("mobilenet0.25", classes=10)
    return mx.sym.SoftmaxOutput(net(mx.sym.var("data")), name="softmax")


MODELS = {"lenet": (lenet, (1, 28, 28)), "mobilenet0.25": (mobilenet, (3, 32, 32))}


def run(batch, nbatches, epochs, model="lenet"):
    import numpy as np

    import mxnet as mx

    build, shape = MODELS[model]
    rng = np.random.RandomState(0)
    x = rng.rand(batch * nbatches, *shape).astype("float32")
    y = rng.randint(0, 10, batch * nbatches).astype("float32")
    it = mx.io.NDArrayIter(x, y, batch_size=batch)
    mod = mx.mod.Module(build(mx), context=mx.cpu())
    mod.fit(it, num_epoch=1, optimizer="sgd", optimizer_params={"learning_rate": 0.05})
    tic = time.time()
    mod.fit(it, num_epoch=epochs, optimizer="sgd", optimizer_params={"learning_rate": 0.05})
    mx.nd.waitall()
    return batch * nbatches * epochs / (time.time() - tic)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", choices=sorted(MODELS), default="lenet")
    p.add_argument("--batch", type=int, default=None, help="128 (lenet), 32 (mobilenet0.25)")
    p.add_argument("--nbatches", type=int, default=20)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compare", action="store_true")
    p.add_argument("--rounds", type=int, default=3, help="alternating runs per side (--compare)")
    p.add_argument("--oracle", default=os.environ.get("MXNET_ORACLE_PYTHON", DEFAULT_ORACLE))
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.batch is None:
        args.batch = 128 if args.model == "lenet" else 32
    if not args.compare:
        rate = run(args.batch, args.nbatches, args.epochs, args.model)
        print(json.dumps({"img_s": rate}) if args.json
              else f"{args.model} Module.fit: {rate:.1f} img/s")
        return
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    sides = [(label, py, extra) for label, py, extra in (
        ("mxnet-ng", sys.executable, {"PYTHONPATH": REPO}), ("MXNet 1.9.1", args.oracle, {}))
        if os.path.exists(py) or print(f"{label}: interpreter {py} not found, skipped")]
    rates: dict = {label: [] for label, _, _ in sides}
    # the sides alternate, one process each per round: machine load drifts over minutes
    for _ in range(args.rounds):
        for label, py, extra in sides:
            out = subprocess.run([py, os.path.abspath(__file__), "--json", "--model", args.model,
                                  "--batch", str(args.batch), "--nbatches", str(args.nbatches),
                                  "--epochs", str(args.epochs)], env={**env, **extra},
                                 cwd="/tmp", capture_output=True, text=True, check=True).stdout
            rates[label].append(json.loads(out.strip().splitlines()[-1])["img_s"])
    med = {label: sorted(r)[len(r) // 2] for label, r in rates.items()}
    for label, r in rates.items():
        runs = " ".join(f"{v:.0f}" for v in r)
        print(f"{label:12s} {args.model} Module.fit batch {args.batch}: {med[label]:8.1f} img/s "
              f"(median of {len(r)} alternating runs: {runs})")
    if len(med) == 2:
        ours, theirs = med["mxnet-ng"], med["MXNet 1.9.1"]
        print(f"ratio mxnet-ng / MXNet (img/s): {ours / theirs:.2f}x")


if __name__ == "__main__":
    main()
