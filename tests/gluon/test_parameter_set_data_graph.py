"""Parameter.set_data between a recorded forward and its backward (MXNet 1.9.1 semantics)."""

import mxnet as mx
from mxnet import autograd, gluon


def test_set_data_under_pause_then_backward_reads_new_value():
    # example/gluon/sn_gan: spectral normalisation stores its power-iteration vector
    # with set_data under autograd.pause() before the loss's backward; MXNet's backward
    # reads the parameter's current memory (gradient from the new value, values from
    # an MXNet 1.9.1 run).
    p = gluon.Parameter("u", shape=(1, 2))
    p.initialize(init=mx.init.One())
    w = mx.nd.array([[1.0, 2.0], [3.0, 4.0]])
    w.attach_grad()
    with autograd.record():
        y = mx.nd.dot(p.data(), w).sum()
        with autograd.pause():
            p.set_data(mx.nd.array([[10.0, 20.0]]))
    y.backward()
    assert y.asscalar() == 10.0
    assert w.grad.asnumpy().tolist() == [[10.0, 10.0], [20.0, 20.0]]
    assert p.data().asnumpy().tolist() == [[10.0, 20.0]]


def test_set_data_refreshes_hybridized_conv_outputs():
    net = gluon.nn.Conv2D(2, 1, in_channels=1)
    net.initialize(mx.init.One())
    net.hybridize()
    x = mx.nd.ones((1, 1, 2, 2))
    assert net(x).asnumpy().max() == 1.0
    net.weight.set_data(mx.nd.full((2, 1, 1, 1), 3.0))
    assert net(x).asnumpy().max() == 3.0
