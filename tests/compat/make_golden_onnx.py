"""Write golden files for ``mx.onnx`` export (run ONCE under the MXNet 1.9.1 oracle, with
``onnx`` installed there).

For each small network: the ``-symbol.json`` and ``.params`` that MXNet 1.9.1 wrote, an
input, MXNet's forward output, the ``.onnx`` file MXNet's own exporter wrote (opset of the
installed onnx, 1.13.1 here) and what that exporter named (graph inputs and
outputs, parameter initializers, node output tensors that carry MXNet node names).

Usage: ``cd /tmp && ORACLE_PY tests/compat/make_golden_onnx.py OUT_DIR``.
"""

import json
import os
import sys

import numpy as np


def _nets(mx):
    from mxnet.gluon import nn

    def mlp():
        net = nn.HybridSequential(prefix="mlp_")
        with net.name_scope():
            net.add(nn.Dense(16, activation="relu"), nn.Dropout(0.5), nn.Dense(10))
        return net, (2, 8)

    def cnn():
        net = nn.HybridSequential(prefix="cnn_")
        with net.name_scope():
            net.add(
                nn.Conv2D(4, 3, padding=1),
                nn.BatchNorm(),
                nn.Activation("relu"),
                nn.MaxPool2D(2),
                nn.Conv2DTranspose(2, 2, strides=2),
                nn.LeakyReLU(0.1),
                nn.AvgPool2D(2),
                nn.GlobalMaxPool2D(),
                nn.Flatten(),
                nn.Dense(3),
            )
        return net, (1, 3, 8, 8)

    return {"mlp": mlp, "cnn": cnn}


def _module_sym(mx):
    data = mx.sym.var("data")
    h = mx.sym.FullyConnected(data, num_hidden=6, name="fc1")
    h = mx.sym.Activation(h, act_type="tanh", name="tanh1")
    h = mx.sym.Concat(h, mx.sym.sigmoid(h, name="sig1"), dim=1, name="cat1")
    h = mx.sym.FullyConnected(h, num_hidden=3, name="fc2")
    return mx.sym.softmax(h, name="softmax")


def _describe(onnx, path, params):
    m = onnx.load(path)
    g = m.graph
    inits = [i.name for i in g.initializer if i.name in params]
    outs = sorted({o for n in g.node for o in n.output})
    return {
        "graph_name": g.name,
        "inputs": [i.name for i in g.input],
        "outputs": [o.name for o in g.output],
        "param_initializers": inits,
        "node_outputs": outs,
    }


def main(out):
    import onnx

    import mxnet as mx

    os.makedirs(out, exist_ok=True)
    mx.random.seed(0)
    rng = np.random.RandomState(0)
    meta = {}
    for name, make in _nets(mx).items():
        net, shape = make()
        net.initialize(mx.init.Xavier())
        net.hybridize()
        x = rng.uniform(-1, 1, shape).astype(np.float32)
        y = net(mx.nd.array(x)).asnumpy()
        prefix = os.path.join(out, name)
        net.export(prefix)
        params = {k.split(":", 1)[1] for k in mx.nd.load(prefix + "-0000.params")}
        mx.onnx.export_model(
            prefix + "-symbol.json",
            prefix + "-0000.params",
            [shape],
            np.float32,
            os.path.join(out, name + ".onnx"),
        )
        meta[name] = dict(
            _describe(onnx, os.path.join(out, name + ".onnx"), params),
            shape=list(shape),
            x=x.tolist(),
            y=y.tolist(),
        )
    sym = _module_sym(mx)
    shape = (2, 5)
    arg_shapes, _, _ = sym.infer_shape(data=shape)
    args = {
        n: mx.nd.array(rng.uniform(-1, 1, s))
        for n, s in zip(sym.list_arguments(), arg_shapes)
        if n != "data"
    }
    x = rng.uniform(-1, 1, shape).astype(np.float32)
    exe = sym.bind(mx.cpu(), dict(args, data=mx.nd.array(x)))
    y = exe.forward()[0].asnumpy()
    sym.save(os.path.join(out, "module-symbol.json"))
    mx.nd.save(os.path.join(out, "module-0000.params"), {f"arg:{k}": v for k, v in args.items()})
    path = os.path.join(out, "module.onnx")
    mx.onnx.export_model(sym, args, [shape], np.float32, path)
    meta["module"] = dict(
        _describe(onnx, path, set(args)), shape=list(shape), x=x.tolist(), y=y.tolist()
    )
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/compat/golden/onnx")
