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
    net.hybridize(inline_limit=3)  # 3 operators: inlined
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


def test_calls_above_inline_limit_show_one_cached_op_node():
    """MXNet's test_gluon.test_inline: above ``inline_limit`` operators (default 2), or with
    static_alloc, the call is one ``_CachedOp`` node over the data and the parameters."""
    net = nn.HybridSequential()
    with net.name_scope():
        for _ in range(3):
            net.add(nn.Dense(10))
    net.initialize()
    lens = {}
    for kwargs in ({"inline_limit": 3}, {"inline_limit": 0}, {}, {"static_alloc": True}):
        net.hybridize(**kwargs)
        with mx.autograd.record():
            y = net(mx.nd.zeros((1, 10)))
        sym = mx.autograd.get_symbol(y)
        lens[str(kwargs)] = len(json.loads(sym.tojson())["nodes"])
        if kwargs != {"inline_limit": 3}:
            assert _ops(sym) == ["null"] * 7 + ["_CachedOp"]
            assert len(sym.list_arguments()) == 7
        y.backward()
    assert lens["{'inline_limit': 3}"] == lens["{'inline_limit': 0}"] + 2 == 10
