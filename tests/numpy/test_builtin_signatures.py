"""mx.np built-in operators take MXNet 1.9.1's positional order (``np.max(x, 0, True)`` keeps
dims) and report its signatures; NumPy fallbacks (resize, unravel_index) as Custom nodes."""

import inspect
import json

import numpy as onp

import mxnet as mx
from mxnet import np
from mxnet.gluon import HybridBlock


def test_reductions_positional_keepdims():
    x = np.arange(6.0).reshape(2, 3)
    for fn in (np.max, np.min, np.amax, np.amin, np.any, np.all, np.sometrue):
        assert fn(x, 0, True).shape == (1, 3)
    assert np.sum(x, 0, None, True).shape == (1, 3)
    assert np.prod(x, 0, None, True).shape == (1, 3)


def test_builtin_signatures_match_op_docs():
    from mxnet import _numpy_op_doc
    from mxnet.numpy_op_signature import _get_builtin_op
    from mxnet.operator import get_all_registered_operators

    names = [n for n in get_all_registered_operators() if n.startswith("_np_")]
    assert names
    for n in names:
        doc = getattr(_numpy_op_doc, n)
        assert str(inspect.signature(_get_builtin_op(n))) == str(inspect.signature(doc))
    assert str(inspect.signature(np.sum)) == (
        "(a, axis=None, dtype=None, keepdims=False, initial=None, out=None)")


@mx.util.use_np
class _Fallbacks(HybridBlock):
    def hybrid_forward(self, F, x):
        return F.np.resize(x, (2, 3)), F.np.unravel_index(x, (2, 3))


def test_fallbacks_hybridized_as_custom_nodes():
    net = _Fallbacks()
    net.hybridize()
    r, u = net(np.array([1, 4], dtype="int32"))
    assert r.asnumpy().tolist() == [[1, 4, 1], [4, 1, 4]]
    assert u.asnumpy().tolist() == [[0, 1], [1, 1]]
    s = mx.sym.np.resize(mx.sym.var("x").as_np_ndarray(), (2, 3))
    node = json.loads(s.tojson())["nodes"][1]
    assert node["op"] == "Custom" and node["attrs"]["op_type"] == "resize_fallback"
    onp.testing.assert_array_equal(np.resize(np.array([1.0, 2.0, 3.0]), (2, 2)).asnumpy(),
                                   [[1, 2], [3, 1]])


def test_sym_np_dir_lists_front_ends():
    names = dir(mx.sym.np)
    for n in ("sum", "tensordot", "linalg", "random", "einsum", "full", "_Symbol"):
        assert n in names


def test_npx_node_names_follow_front_end_names():
    mx.npx.set_np()
    try:
        x = mx.sym.var("x").as_np_ndarray()
        w = mx.sym.var("w").as_np_ndarray()
        fc = mx.sym.npx.fully_connected(x, w, num_hidden=3, no_bias=True)
        assert fc.name.startswith("fully_connected")
        assert mx.sym.npx.fully_connected(x, w, num_hidden=3, no_bias=True, name="fc1").name \
            == "fc1"
        from mxnet.gluon import nn

        ln = nn.LayerNorm(prefix="ln_")
        ln.initialize()
        ln.hybridize()
        ln(np.ones((2, 3)))
        sym = ln._cached_graph[1]
        assert sym.name == "ln_layer_norm0"
    finally:
        mx.npx.reset_np()
