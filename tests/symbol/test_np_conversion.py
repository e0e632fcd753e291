"""Symbol.as_np_ndarray/as_nd_ndarray and zero-size creation in NumPy-shape graphs."""

import mxnet as mx
from mxnet.symbol.numpy import _Symbol


def test_symbol_conversions():
    s = mx.sym.var("x") * 2
    assert s.as_nd_ndarray() is s
    n = s.as_np_ndarray()
    assert isinstance(n, _Symbol) and n.list_arguments() == ["x"]
    assert type(n.as_nd_ndarray()) is mx.sym.Symbol


def test_zero_size_creation_in_hybridized_np_block():
    from mxnet import np, npx
    from mxnet.gluon import HybridBlock

    class Zeros(HybridBlock):
        def hybrid_forward(self, F, x):
            return F.np.zeros((0,))

    prev = mx.util.is_np_array()
    npx.set_np()
    try:
        b = Zeros()
        b.hybridize()
        assert b(np.ones((2,))).shape == (0,)
    finally:
        if not prev:
            npx.reset_np()


def test_json_marks_numpy_shape_graphs():
    import json

    from mxnet import npx

    prev = mx.util.is_np_array()
    npx.set_np()
    try:
        s = mx.sym.np.exp(mx.sym.var("x").as_np_ndarray())
        attrs = json.loads(s.tojson())["attrs"]
    finally:
        if not prev:
            npx.reset_np()
    assert attrs == {"is_np_shape": ["int", 1], "mxnet_version": ["int", 10901]}
    assert json.loads(mx.sym.var("y").tojson())["attrs"] == {"mxnet_version": ["int", 10901]}


def test_use_np_wraps_inherited_methods():
    from mxnet import gluon
    from mxnet.util import use_np

    @use_np
    class Net(gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            with self.name_scope():
                self.w = self.params.get("w", shape=(2,))

        def hybrid_forward(self, F, x, w):
            return x + w

    n = Net()
    n.initialize()
    assert isinstance(n.w.data(), mx.np.ndarray)
    assert isinstance(n(mx.np.ones((2,))), mx.np.ndarray)
    assert not mx.util.is_np_array()


def test_nd_and_sym_numpy_namespaces():
    assert mx.nd.np is mx.np and mx.nd.npx is mx.npx
    assert isinstance(mx.sym.np.zeros((2,)), _Symbol)
    x = mx.sym.var("x").as_np_ndarray()
    assert isinstance(mx.sym.npx.relu(x), _Symbol)


def test_np_symbol_methods_keep_the_np_class():
    x = mx.sym.var("x").as_np_ndarray()
    assert isinstance(x.astype("float16"), _Symbol)
    assert isinstance(x.sum(), _Symbol)
