"""mx.sym.histogram (values from MXNet 1.9.1)."""

import pytest

import mxnet as mx


def test_symbol_histogram_count_and_edges():
    x = mx.sym.var("x")
    h = mx.sym.histogram(x, bins=5, range=(0, 10))
    assert h.list_outputs() == ["_histogram0_output0", "_histogram0_output1"] or \
        len(h.list_outputs()) == 2
    ex = h.bind(mx.cpu(), {"x": mx.nd.array([0, 1, 2, 3, 9.9, 10, 11])})
    counts, edges = [o.asnumpy().tolist() for o in ex.forward()]
    assert counts == [2, 2, 0, 0, 2]
    assert edges == [0, 2, 4, 6, 8, 10]
    h2 = mx.sym.histogram(x, bins=mx.sym.var("b"))
    ex = h2.bind(mx.cpu(), {"x": mx.nd.array([0, 1, 2, 3, 9.9]),
                            "b": mx.nd.array([0, 2, 5, 10])})
    assert ex.forward()[0].asnumpy().tolist() == [2, 2, 1]
    with pytest.raises(ValueError, match="null range"):
        mx.sym.histogram(x, bins=3)


def test_parameterless_operators_keep_unknown_keywords():
    a = mx.nd.ones((2, 3))
    assert mx.nd.broadcast_maximum(a, a, axis=1).shape == (2, 3)  # accepted, as in MXNet
    s = mx.sym.broadcast_add(mx.sym.var("x"), mx.sym.var("y"), axis=0)
    assert s.list_attr() == {"axis": "0"}
    assert mx.sym.load_json(s.tojson()).list_attr() == {"axis": "0"}
    with pytest.raises(mx.base.MXNetError, match="Cannot find argument 'foo'"):
        mx.nd.sum(a, foo=1)  # operators with parameters still reject them
