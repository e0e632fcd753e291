"""MXNet 1.9.1 details of split kernels, np-shape scalars in samplers, 'null' integer variables."""

import numpy as onp
import pytest

import mxnet as mx
from mxnet.gluon import HybridBlock


def test_split_kernels_divide_unequal_sections_like_array_split():
    x = mx.nd.arange(7)
    parts = mx.nd._internal._split_v2(x, indices=(), sections=4, axis=0)
    assert [p.shape for p in parts] == [(2,), (2,), (2,), (1,)]
    parts = mx.nd._internal._npi_split(mx.nd.arange(2), indices=(), sections=4, axis=0)
    assert [p.shape for p in parts] == [(1,), (1,), (0,), (0,)]
    with pytest.raises(ValueError):  # the np.split front end still insists on equal parts
        mx.np.split(mx.np.arange(7), 3)


@mx.util.use_np
class _ArraySplit(HybridBlock):
    def hybrid_forward(self, F, x):
        return F.np.array_split(x, 3, axis=0)


def test_hybridized_array_split_unequal():
    net = _ArraySplit()
    net.hybridize()
    outs = net(mx.np.array(onp.arange(7.0)))
    assert [o.asnumpy().tolist() for o in outs] == [[0, 1, 2], [3, 4], [5, 6]]


def test_nd_random_scalar_shape_under_np_shape():
    with mx.util.np_shape(True):
        assert mx.nd.random.uniform(shape=()).shape == ()
        assert mx.nd.random.normal(shape=()).shape == ()
    with pytest.raises(mx.base.MXNetError):
        mx.nd.random.uniform(shape=())


def test_null_req_bool_variable_in_graph():
    a = mx.np.ones((2, 3), dtype="bool")
    a.attach_grad("null")
    c = mx.np.ones((2, 3), dtype="bool")
    c.attach_grad("add")
    with mx.autograd.record():
        y = mx.np.concatenate([a, c])
    y.backward()
    assert a.grad is None
    assert c.grad.dtype == onp.bool_
