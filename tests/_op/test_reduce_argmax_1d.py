"""argmax/argmin of a 1-D array along its axis give shape (1,) in MXNet 1.x (never 0-d)."""

import mxnet as mx


def test_argmax_argmin_1d_axis0_shape():
    x = mx.nd.array([1, 3, 2])
    assert mx.nd.argmax(x, axis=0).shape == (1,)
    assert x.argmax(axis=0).asnumpy().tolist() == [1.0]
    assert mx.nd.argmin(x, axis=0).asnumpy().tolist() == [0.0]
    assert mx.nd.argmax(x, axis=0, keepdims=True).shape == (1,)
    assert mx.nd.argmax(mx.nd.array([[1, 2]]), axis=1).shape == (1,)
