"""Shared checks of the Gluon tests: eager == hybridized == exported-and-imported."""

from __future__ import annotations

import numpy as np

import mxnet as mx
from mxnet import autograd, gluon, initializer


def _run(block, inputs, train, ograd_seed=0, input_grad=True):
    xs = [mx.nd.array(x) for x in inputs]
    for x in xs if input_grad else ():  # Embedding's indices take no gradient (MXNet raises)
        x.attach_grad()
    with autograd.record(train_mode=train):
        out = block(*xs)
    outs = out if isinstance(out, (list, tuple)) else [out]
    rng = np.random.RandomState(ograd_seed)
    heads = [mx.nd.array(rng.uniform(-1, 1, o.shape)) for o in outs]
    autograd.backward(outs, heads)
    grads = {
        p.name: p.grad().asnumpy() for p in block.collect_params().values() if p.grad_req != "null"
    }
    return ([o.asnumpy() for o in outs], [x.grad.asnumpy() for x in xs if input_grad], grads)


def _close(a, b, atol, what):
    assert len(a) == len(b), what
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=atol, err_msg=what)


def check_layer(block, inputs, tmp_path, train=False, atol=1e-5, init=None, input_grad=True):
    """Eager, hybridized and exported-then-imported runs give the same outputs and grads."""
    block.initialize(init or initializer.Xavier())
    ref = _run(block, inputs, train, input_grad=input_grad)
    block.hybridize()
    hyb = _run(block, inputs, train, input_grad=input_grad)
    for a, b, what in zip(ref, hyb, ("output", "input grad", "param grad")):
        if isinstance(a, dict):
            assert a.keys() == b.keys()
            _close(list(a.values()), [b[k] for k in a], atol, "hybridized " + what)
        else:
            _close(a, b, atol, "hybridized " + what)
    path = str(tmp_path / "layer")
    block.export(path)
    names = ["data"] if len(inputs) == 1 else [f"data{i}" for i in range(len(inputs))]
    imp = gluon.SymbolBlock.imports(path + "-symbol.json", names, path + "-0000.params")
    got = _run(imp, inputs, train, input_grad=input_grad)
    _close(ref[0], got[0], atol, "imported output")
    _close(ref[1], got[1], atol, "imported input grad")
    for k, v in ref[2].items():
        np.testing.assert_allclose(v, got[2][k], rtol=1e-5, atol=atol, err_msg=k)
    return ref
