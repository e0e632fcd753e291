"""``autograd.get_symbol`` of a hybridized block's output shows the block's operators."""

import json

import mxnet as mx
from mxnet.gluon import nn


def _ops(sym):
    return [n["op"] for n in json.loads(sym.tojson())["nodes"]]


def test_get_symbol_through_a_hybridized_block():
    net = nn.HybridSequential()
    with net.name_scope():
        for _ in range(3):
            net.add(nn.Dense(10))
    net.initialize()
    net.hybridize()
    x = mx.nd.ones((1, 10))
    with mx.autograd.record():
        y = net(x) * 2
    sym = mx.autograd.get_symbol(y)
    assert _ops(sym).count("FullyConnected") == 3
    assert _ops(sym)[-1] == "_mul_scalar"
    assert len(sym.list_arguments()) == 7  # data + 3 weights + 3 biases
    y.backward()
    out = sym.eval(**{n: a for n, a in zip(sym.list_arguments(),
                                           [x] + [p.data() for p in
                                                  net.collect_params().values()])})[0]
    assert out.shape == (1, 10)


def test_inputs_made_by_operators_without_inputs_are_variables():
    x = mx.nd.ones((2,))
    x.attach_grad()
    with mx.autograd.record():
        y = x * mx.nd.zeros((2,)) + x
    assert _ops(mx.autograd.get_symbol(y)) == ["null", "null", "broadcast_mul", "broadcast_add"]
