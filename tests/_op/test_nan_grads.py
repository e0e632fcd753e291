"""Forward values and gradients at NaN inputs, as MXNet 1.9.1 (CPU) gives them.

(relu, Activation(relu) and clip follow torch at NaN inputs: see README, "Differences".)"""

import numpy as np
import pytest

import mxnet as mx

NAN = np.nan
X = [NAN, -1.0, 2.0, 0.0]

# (nd function, symbol function, forward, gradient for a head gradient of ones)
CASES = {
    "leaky": (
        lambda x: mx.nd.LeakyReLU(x, act_type="leaky"),
        lambda x: mx.sym.LeakyReLU(x, act_type="leaky"),
        [NAN, -0.25, 2, 0],
        [1, 0.25, 1, 0.25],
    ),
    "elu": (
        lambda x: mx.nd.LeakyReLU(x, act_type="elu"),
        lambda x: mx.sym.LeakyReLU(x, act_type="elu"),
        [NAN, 0.25 * np.expm1(-1.0), 2, 0],
        [1, 0.25 * np.exp(-1.0), 1, 0.25],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_nan_forward_and_gradient_nd(name):
    f, _, fwd, grad = CASES[name]
    x = mx.nd.array(X)
    x.attach_grad()
    with mx.autograd.record():
        y = f(x)
    y.backward(mx.nd.ones((4,)))
    np.testing.assert_allclose(y.asnumpy(), fwd, rtol=1e-5, equal_nan=True)
    np.testing.assert_allclose(x.grad.asnumpy(), grad, rtol=1e-5, equal_nan=True)
    np.testing.assert_allclose(f(mx.nd.array(X)).asnumpy(), fwd, rtol=1e-5, equal_nan=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_nan_forward_and_gradient_symbol(name):
    _, f, fwd, grad = CASES[name]
    g = mx.nd.zeros((4,))
    ex = f(mx.sym.Variable("a")).bind(mx.cpu(), {"a": mx.nd.array(X)}, args_grad={"a": g})
    out = ex.forward(is_train=True)[0].asnumpy()
    ex.backward(mx.nd.ones((4,)))
    np.testing.assert_allclose(out, fwd, rtol=1e-5, equal_nan=True)
    np.testing.assert_allclose(g.asnumpy(), grad, rtol=1e-5, equal_nan=True)
