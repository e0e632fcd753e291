"""After a backward pass without retain_graph, arrays computed in the freed graph enter later
computations as constants (MXNet 1.x): carried recurrent states need no detach."""

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon, nd


def test_state_carried_across_batches_is_constant():
    w = nd.array([2.0])
    w.attach_grad()
    state = nd.array([1.0])
    grads = []
    for _ in range(3):
        with autograd.record():
            state = state * w
            loss = state * 3
        loss.backward()
        grads.append(w.grad.asscalar())
    assert grads == [3.0, 6.0, 12.0]  # values MXNet 1.9.1 prints


def test_slices_and_split_outputs_of_freed_graph():
    w = nd.array([2.0])
    w.attach_grad()
    with autograd.record():
        a = nd.array([1.0]) * w
        b = a * 3
    b.backward()
    with pytest.raises(mx.MXNetError):
        b.backward()  # the head itself cannot be differentiated again
    with autograd.record():
        c = a[0:1] * w
        parts = nd.split(nd.concat(a, a, dim=0), num_outputs=2, axis=0)
        d = parts[0] * w
    c.backward()
    assert w.grad.asscalar() == 2.0
    d.backward()
    assert w.grad.asscalar() == 2.0


def test_gluon_rnn_state_reused_without_detach():
    layer = gluon.rnn.GRU(4, input_size=3)
    layer.initialize(mx.init.Constant(0.1))
    state = layer.begin_state(batch_size=2)
    x = nd.ones((5, 2, 3))
    for _ in range(2):
        with autograd.record():
            out, state = layer(x, state)
            loss = out.sum()
        loss.backward()
    g = layer.l0_i2h_weight.grad().asnumpy()
    assert np.isfinite(g).all() and np.abs(g).sum() > 0


def test_hybridized_block_input_from_freed_graph():
    net = gluon.nn.Dense(2, in_units=2)
    net.initialize(mx.init.One())
    net.hybridize()
    h = nd.ones((1, 2))
    for _ in range(2):
        with autograd.record():
            h = net(h)
            loss = h.sum()
        loss.backward()
    # bias starts at 0: the carried h is [2, 2], a constant in the second step (as MXNet)
    np.testing.assert_allclose(net.weight.grad().asnumpy(), [[2, 2], [2, 2]])
