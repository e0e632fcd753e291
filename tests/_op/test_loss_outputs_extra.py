"""SoftmaxOutput: a label with the data's exact shape holds probabilities (MXNet's rule)."""

import numpy as np

import mxnet as mx
from mxnet import autograd


def _grad(data_shape, label_shape, value, **kw):
    x = mx.nd.array(np.arange(np.prod(data_shape)).reshape(data_shape) * 0.1)
    x.attach_grad()
    with autograd.record():
        y = mx.nd.SoftmaxOutput(x, mx.nd.full(label_shape, value), **kw)
    y.backward()
    return x.grad.asnumpy()


def test_n_by_1_label_like_data_is_probabilities():
    # oracle: softmax over one column is 1, gradient 1 - label = 1
    np.testing.assert_allclose(_grad((6, 1), (6, 1), 0), np.ones((6, 1)))
    np.testing.assert_allclose(_grad((6, 1), (6, 1), 0, preserve_shape=True), np.ones((6, 1)))


def test_n_label_is_class_indices():
    np.testing.assert_allclose(_grad((6, 1), (6,), 0), np.zeros((6, 1)))
