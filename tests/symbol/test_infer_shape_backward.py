"""Symbolic shape inference that flows from an operator's output back to its inputs, as
MXNet 1.9.1's FInferShape rules do (a ``zeros`` of shape ``(0, n)`` gets its batch size
from where its value is used)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.gluon import HybridBlock


def test_where_gives_x_and_y_the_output_shape():
    c = mx.sym.var("c")
    z = mx.sym.zeros(shape=(0, 4))
    out = mx.sym.elemwise_add(mx.sym.where(c, z, z), c)
    args, outs, _ = out.infer_shape(c=(3, 4))
    assert outs == [(3, 4)]


class _ZeroStateWhere(HybridBlock):
    # GluonTS's DeepAR: begin_state = F.zeros((0, n)) passed through F.where, then used
    def hybrid_forward(self, F, x):
        z = F.zeros(shape=(0, 4))
        c = x.slice_axis(axis=1, begin=0, end=1).repeat(repeats=4, axis=1)
        return F.where(c, z + 2, z) * c + 1


def test_hybridized_where_of_unknown_zeros_runs():
    net = _ZeroStateWhere()
    net.hybridize()
    x = mx.nd.array([[1, 0], [0, 0], [1, 1]])
    y = net(x).asnumpy()
    np.testing.assert_array_equal(y, np.array([[3.0] * 4, [1.0] * 4, [3.0] * 4]))


def test_where_without_any_known_output_still_fails():
    class _Bad(HybridBlock):
        def hybrid_forward(self, F, x):
            z = F.zeros(shape=(0, 4))
            return F.broadcast_mul(z, x)

    net = _Bad()
    net.hybridize()
    with pytest.raises(mx.MXNetError):
        net(mx.nd.ones((3, 4))).asnumpy()


def test_where_passes_partial_shape_to_fully_connected():
    # MXNet merges x/y/output dims: where(c, zeros((0, 4)), ...) gives a (0, 4) output that
    # FullyConnected completes from its own output (an LSTM begin state, GluonTS DeepAR with
    # RNNZoneoutCell); the batch size then flows back through where to the zeros
    c = mx.sym.var("c")
    x = mx.sym.var("x")
    z = mx.sym.zeros(shape=(0, 4))
    h = mx.sym.FullyConnected(mx.sym.where(c, z, z), num_hidden=3, name="h2h")
    out = h + mx.sym.FullyConnected(x, num_hidden=3, name="i2h")
    args, outs, _ = out.infer_shape(c=(2, 4), x=(2, 5))
    assert outs == [(2, 3)]
    assert dict(zip(out.list_arguments(), args))["h2h_weight"] == (3, 4)
