"""mx.contrib.autograd: the pre-1.0 autograd interface (checked against MXNet 1.9.1)."""

import numpy as np

import mxnet as mx
from mxnet.contrib import autograd as cag


def test_sections_switch_recording_and_training_together():
    assert cag.set_is_training(True) is False
    assert mx.autograd.is_recording() and mx.autograd.is_training()
    assert cag.set_is_training(False) is True
    assert not mx.autograd.is_recording()
    with cag.train_section():
        assert mx.autograd.is_recording() and mx.autograd.is_training()
        with cag.test_section():
            assert not mx.autograd.is_recording() and not mx.autograd.is_training()
        assert mx.autograd.is_training()
    assert not mx.autograd.is_training()


def test_grad_and_loss_and_grad():
    x = mx.nd.array([[1.0, -2.0], [3.0, 0.5]])
    y = mx.nd.array([[2.0, 1.0], [1.0, 1.0]])
    grads, loss = cag.grad_and_loss(lambda a, b: a * a * b)(x, y)
    np.testing.assert_allclose(loss.asnumpy(), (x * x * y).asnumpy())
    np.testing.assert_allclose(grads[0].asnumpy(), (2 * x * y).asnumpy())
    np.testing.assert_allclose(grads[1].asnumpy(), (x * x).asnumpy())
    only = cag.grad(lambda a, b: mx.nd.exp(a) + b, argnum=[0])(x, y)
    assert len(only) == 1
    np.testing.assert_allclose(only[0].asnumpy(), np.exp(x.asnumpy()), rtol=1e-6)


def test_mark_variables_and_compute_gradient():
    x = mx.nd.array([1.0, 2.0, 3.0])
    gx = mx.nd.zeros_like(x)
    cag.mark_variables([x], [gx])
    with cag.train_section():
        z = mx.nd.Dropout(x * 2, p=0.0) + 1
    cag.compute_gradient([z])
    assert gx.asnumpy().tolist() == [2.0, 2.0, 2.0]
    with cag.train_section():
        z = x * x
    cag.backward([z], [mx.nd.array([1.0, 0.0, 2.0])])
    assert gx.asnumpy().tolist() == [2.0, 0.0, 12.0]
