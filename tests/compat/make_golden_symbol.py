"""Write the symbol golden files with REAL MXNet 1.9.1 (run once under the oracle python).

    /root/.cache/mxnet-oracle/bin/python tests/compat/make_golden_symbol.py

For each network: ``<net>-symbol.json`` (``Symbol.save``) and ``<net>.params``
(``mx.nd.save``) holding ``arg:``/``aux:`` parameters, the forward outputs in training
mode (``out:<i>``), the head gradients used (``head:<i>``), the gradients (``grad:<name>``),
the auxiliary states after the training forward (``auxafter:<name>``) and the inference
outputs (``pred:<i>``). Also a hand-written 0.8-era JSON (``legacy08-symbol.json``) with
what MXNet reports after upgrading it (``legacy08-expected.json``).
"""

import json
import os

import numpy as np

import mxnet as mx

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "symbol")


def mlp():
    d = mx.sym.Variable("data")
    h = mx.sym.FullyConnected(d, num_hidden=16, name="fc1")
    h = mx.sym.Activation(h, act_type="relu", name="relu1")
    h = mx.sym.FullyConnected(h, num_hidden=5, name="fc2")
    return mx.sym.SoftmaxOutput(h, name="softmax"), {"data": (4, 10)}


def lenet():
    d = mx.sym.Variable("data")
    c1 = mx.sym.Convolution(d, kernel=(3, 3), num_filter=4, name="conv1")
    t1 = mx.sym.Activation(c1, act_type="tanh", name="tanh1")
    p1 = mx.sym.Pooling(t1, pool_type="max", kernel=(2, 2), stride=(2, 2), name="pool1")
    c2 = mx.sym.Convolution(p1, kernel=(3, 3), num_filter=6, name="conv2")
    t2 = mx.sym.Activation(c2, act_type="tanh", name="tanh2")
    p2 = mx.sym.Pooling(t2, pool_type="avg", kernel=(2, 2), stride=(2, 2), name="pool2")
    f = mx.sym.Flatten(p2, name="flatten")
    f1 = mx.sym.FullyConnected(f, num_hidden=12, name="fc1")
    t3 = mx.sym.Activation(f1, act_type="tanh", name="tanh3")
    f2 = mx.sym.FullyConnected(t3, num_hidden=10, name="fc2")
    return mx.sym.SoftmaxOutput(f2, name="softmax"), {"data": (2, 1, 14, 14)}


def resnet():
    d = mx.sym.Variable("data")
    c0 = mx.sym.Convolution(d, kernel=(3, 3), pad=(1, 1), num_filter=4, no_bias=True,
                            name="conv0")
    b0 = mx.sym.BatchNorm(c0, fix_gamma=False, name="bn0")
    a0 = mx.sym.Activation(b0, act_type="relu", name="relu0")
    c1 = mx.sym.Convolution(a0, kernel=(3, 3), pad=(1, 1), num_filter=4, no_bias=True,
                            name="conv1")
    b1 = mx.sym.BatchNorm(c1, fix_gamma=False, name="bn1")
    a1 = mx.sym.Activation(b1, act_type="relu", name="relu1")
    c2 = mx.sym.Convolution(a1, kernel=(3, 3), pad=(1, 1), num_filter=4, no_bias=True,
                            name="conv2")
    b2 = mx.sym.BatchNorm(c2, name="bn2")
    s = b2 + a0
    a2 = mx.sym.Activation(s, act_type="relu", name="relu2")
    p = mx.sym.Pooling(a2, global_pool=True, pool_type="avg", kernel=(2, 2), name="gpool")
    f = mx.sym.Flatten(p, name="flat")
    fc = mx.sym.FullyConnected(f, num_hidden=3, name="fc")
    return mx.sym.SoftmaxOutput(fc, name="softmax"), {"data": (2, 3, 6, 6)}


def lstm():
    """Two unrolled LSTM steps from FullyConnected/SliceChannel (MXNet's old rnn example)."""
    nh = 6
    x0, x1 = mx.sym.Variable("x0"), mx.sym.Variable("x1")
    iw, ib = mx.sym.Variable("i2h_weight"), mx.sym.Variable("i2h_bias")
    hw, hb = mx.sym.Variable("h2h_weight"), mx.sym.Variable("h2h_bias")
    h = mx.sym.Variable("h0")
    c = mx.sym.Variable("c0")
    for t, x in enumerate((x0, x1)):
        i2h = mx.sym.FullyConnected(x, weight=iw, bias=ib, num_hidden=4 * nh, name=f"t{t}_i2h")
        h2h = mx.sym.FullyConnected(h, weight=hw, bias=hb, num_hidden=4 * nh, name=f"t{t}_h2h")
        gates = mx.sym.SliceChannel(i2h + h2h, num_outputs=4, name=f"t{t}_slice")
        ig = mx.sym.Activation(gates[0], act_type="sigmoid")
        tr = mx.sym.Activation(gates[1], act_type="tanh")
        fg = mx.sym.Activation(gates[2], act_type="sigmoid")
        og = mx.sym.Activation(gates[3], act_type="sigmoid")
        c = fg * c + ig * tr
        h = og * mx.sym.Activation(c, act_type="tanh")
    pred = mx.sym.FullyConnected(h, num_hidden=3, name="pred")
    return mx.sym.LinearRegressionOutput(pred, name="lro"), {
        "x0": (2, 5), "x1": (2, 5), "h0": (2, nh), "c0": (2, nh)}


def record(name, net, shapes, rng):
    net.save(os.path.join(OUT, f"{name}-symbol.json"))
    ex = net.simple_bind(mx.cpu(), **shapes)
    data = {}
    for n, a in ex.arg_dict.items():
        if n.endswith("label"):
            v = rng.randint(0, 3, a.shape).astype(np.float32)
        else:
            v = rng.uniform(-0.5, 0.5, a.shape).astype(np.float32)
        a[:] = v
        data["arg:" + n] = a.copy()
    for n, a in ex.aux_dict.items():
        v = rng.uniform(0.1, 1.0, a.shape).astype(np.float32)
        a[:] = v
        data["aux:" + n] = a.copy()
    outs = ex.forward(is_train=True)
    heads = []
    for i, o in enumerate(outs):
        data[f"out:{i}"] = o.copy()
        hgrad = mx.nd.array(rng.uniform(-1, 1, o.shape).astype(np.float32))
        data[f"head:{i}"] = hgrad
        heads.append(hgrad)
    ex.backward(heads)
    for n, g in ex.grad_dict.items():
        if g is not None:
            data["grad:" + n] = g.copy()
    for n, a in ex.aux_dict.items():
        data["auxafter:" + n] = a.copy()
    # inference with the original aux states
    ex2 = net.bind(mx.cpu(), {k[4:]: v for k, v in data.items() if k.startswith("arg:")},
                   aux_states={k[4:]: v.copy() for k, v in data.items() if k.startswith("aux:")})
    for i, o in enumerate(ex2.forward(is_train=False)):
        data[f"pred:{i}"] = o.copy()
    mx.nd.save(os.path.join(OUT, f"{name}.params"), data)


LEGACY08 = {
    "nodes": [
        {"op": "null", "name": "data", "inputs": []},
        {"op": "null", "name": "conv_weight", "param": {}, "inputs": []},
        {"op": "null", "name": "conv_bias", "param": {}, "inputs": []},
        {"op": "Convolution", "name": "conv",
         "param": {"kernel": "(3, 3)", "num_filter": "4", "no_bias": "False"},
         "attr": {"ctx_group": "stage1", "weight_lr_mult": "0.5"},
         "inputs": [[0, 0], [1, 0], [2, 0]], "backward_source_id": -1},
        {"op": "null", "name": "bn_gamma", "param": {}, "inputs": []},
        {"op": "null", "name": "bn_beta", "param": {}, "inputs": []},
        {"op": "BatchNorm", "name": "bn", "param": {"eps": "0.001", "fix_gamma": "False"},
         "inputs": [[3, 0], [4, 0], [5, 0]], "backward_source_id": -1},
        {"op": "Activation", "name": "relu", "param": {"act_type": "relu"},
         "inputs": [[6, 0]], "backward_source_id": -1},
        {"op": "null", "name": "fc_weight", "param": {}, "inputs": []},
        {"op": "null", "name": "fc_bias", "param": {}, "inputs": []},
        {"op": "FullyConnected", "name": "fc", "param": {"num_hidden": "3"},
         "attr": {"lr_mult": "2"},
         "inputs": [[7, 0], [8, 0], [9, 0]], "backward_source_id": -1},
        {"op": "argmax", "name": "am", "param": {"axis": "-1"}, "inputs": [[10, 0]],
         "backward_source_id": -1},
    ],
    "arg_nodes": [0, 1, 2, 4, 5, 8, 9],
    "heads": [[10, 0], [11, 0]],
}


def legacy():
    path = os.path.join(OUT, "legacy08-symbol.json")
    with open(path, "w") as f:
        json.dump(LEGACY08, f, indent=2)
    s = mx.sym.load(path)
    expected = {
        "list_arguments": s.list_arguments(),
        "list_auxiliary_states": s.list_auxiliary_states(),
        "list_outputs": s.list_outputs(),
        "attr_dict": s.attr_dict(),
        "tojson": s.tojson(),
        "infer_shape": [list(map(list, x)) for x in s.infer_shape(data=(2, 3, 5, 5))],
    }
    with open(os.path.join(OUT, "legacy08-expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.RandomState(42)
    for name, fn in (("mlp", mlp), ("lenet", lenet), ("resnet", resnet), ("lstm", lstm)):
        net, shapes = fn()
        record(name, net, shapes, rng)
    legacy()


def verify(folder):
    """Load every ``*.json`` that mxnet-ng wrote into ``folder``; report MXNet's view.

    Run ``python tests/compat/make_golden_symbol.py --verify DIR`` under the oracle after
    writing files with our ``Symbol.save``: each must load and re-serialise identically.
    """
    import sys

    bad = 0
    for fn in sorted(os.listdir(folder)):
        if not fn.endswith(".json"):
            continue
        text = open(os.path.join(folder, fn)).read()
        try:
            s = mx.sym.load_json(text)
            same = s.tojson() == text
        except Exception as e:  # report and go on
            print(f"{fn}: FAILED to load: {e}")
            bad += 1
            continue
        print(f"{fn}: loads, {len(s.list_arguments())} arguments, identical re-save: {same}")
        bad += not same
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "--verify":
        verify(sys.argv[2])
    else:
        main()
