"""np.flip without axis (a graph node with axis None), np.full of an array fill in a graph,
npx.nonzero of 0-d arrays (MXNet 1.9.1)."""

import json

import numpy as onp

import mxnet as mx
from mxnet import np, npx
from mxnet.gluon import HybridBlock


@mx.util.use_np
class _Flip(HybridBlock):
    def hybrid_forward(self, F, x):
        return F.np.flip(x)


def test_flip_all_axes_hybridized_and_json():
    net = _Flip()
    net.hybridize()
    a = onp.arange(6.0).reshape(2, 3)
    onp.testing.assert_array_equal(net(np.array(a)).asnumpy(), a[::-1, ::-1])
    assert float(net(np.array(5.0))) == 5.0
    s = mx.sym.np.flip(mx.sym.var("x").as_np_ndarray())
    assert json.loads(s.tojson())["nodes"][1]["attrs"] == {"axis": "None"}


@mx.util.use_np
class _Full(HybridBlock):
    def hybrid_forward(self, F, v):
        return F.np.full((2, 3), v, dtype="int8")


def test_full_with_array_fill_value_hybridized():
    net = _Full()
    net.hybridize()
    out = net(np.array([1.0, 2.0, 3.0]))
    assert out.dtype == onp.int8 and out.asnumpy().tolist() == [[1, 2, 3], [1, 2, 3]]


def test_npx_nonzero_of_zero_dim():
    with mx.util.np_shape(True):
        assert npx.nonzero(np.array(3.0)).asnumpy().tolist() == [[0]]
        assert npx.nonzero(np.array(0.0)).shape == (0, 1)
        assert np.nonzero(np.array(3.0))[0].asnumpy().tolist() == [0]
