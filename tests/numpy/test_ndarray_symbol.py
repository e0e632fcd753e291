"""``mx.sym.np._Symbol``: node names and scalar attributes of its operators, basic indexing
in hybridized blocks, and mixing with classic symbols (as MXNet 1.9.1 builds them)."""

import json

import numpy as onp
import pytest

import mxnet as mx
from mxnet import np, npx
from mxnet.gluon import HybridBlock
from mxnet.symbol.numpy import _Symbol


def _var(name):
    s = mx.sym.var(name)
    s.__class__ = _Symbol
    return s


def _nodes(s):
    return [(n["op"], n["name"], n.get("attrs")) for n in json.loads(s.tojson())["nodes"]
            if n["op"] != "null"]


def test_node_names_and_scalar_attrs():
    x, y = _var("x"), _var("y")
    with mx.name.NameManager():
        assert _nodes(x + y) == [("_npi_add", "add0", None)]
        assert _nodes(2 + x) == [("_npi_add_scalar", "add_scalar0",
                                  {"is_int": "True", "scalar": "2.0"})]
        # MXNet marks the scalar of a reflected subtraction as a float
        assert _nodes(2 - x) == [("_npi_rsubtract_scalar", "rsubtract_scalar0",
                                  {"is_int": "False", "scalar": "2.0"})]
        assert _nodes(x * 2.5)[0][2] == {"is_int": "False", "scalar": "2.5"}
        assert _nodes(-x) == [("_npi_multiply_scalar", "multiply_scalar1",
                               {"is_int": "False", "scalar": "-1.0"})]
        assert _nodes(x.T) == [("_np_transpose", "transpose0", {"axes": "None"})]
        out = (x < 2).list_outputs()
        assert out == ["less_scalar0_output"]


def test_mixing_with_classic_symbols_raises():
    x, z = _var("x"), mx.sym.var("z")
    with pytest.raises(TypeError):
        x + z
    with pytest.raises(TypeError):
        z + x
    with pytest.raises(IndexError):
        x[None]


class _Index(HybridBlock):
    def __init__(self, key):
        super().__init__()
        self.key = key

    def hybrid_forward(self, F, x):
        return x[self.key] * 2 - 1


@pytest.mark.parametrize("key", [0, -1, slice(1, 3), (slice(1, 3), 0),
                                 (1, slice(None, None, 2)), slice(None, None, -1), (-1, -2)],
                         ids=repr)
def test_hybridized_basic_indexing(key):
    a = np.array(onp.arange(24).reshape(4, 6))
    block = _Index(key)
    want = block(a).asnumpy()
    block.hybridize()
    npx.set_np()
    try:
        got = block(a)
    finally:
        npx.reset_np()
    assert type(got) is np.ndarray
    onp.testing.assert_array_equal(got.asnumpy(), want)


def test_sym_np_module_exposes_front_ends():
    import mxnet.symbol.numpy as sym_np

    x = _var("x")
    y = sym_np.multiply(x, x)
    assert type(y) is _Symbol and _nodes(y)[0][0] == "_npi_multiply"
    with pytest.raises(AttributeError):
        _ = sym_np.no_such_function
