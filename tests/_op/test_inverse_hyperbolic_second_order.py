"""arcsinh / arccosh second-order gradients carry MXNet 1.9.1's sign (its backward
operators differentiate to ``+x * f'(x)**3``; values recorded with the oracle)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd

CASES = [("arcsinh", [0.5, -1.0, 2.0], [0.17888543, -0.7071067, 0.8049844]),
         ("arccosh", [1.5, 2.0, 3.0], [0.53665626, 0.7698003, 0.5966213])]


@pytest.mark.parametrize("name,xs,want", CASES)
@pytest.mark.parametrize("ns", ["nd", "np"])
def test_second_order_matches_mxnet(name, xs, want, ns):
    mod = mx.nd if ns == "nd" else mx.np
    x = mod.array(xs)
    x.attach_grad()
    with autograd.record():
        y = getattr(mod, name)(x)
        g = autograd.grad(y, x, head_grads=mod.array([1.0, 2.0, 3.0]), create_graph=True,
                          retain_graph=True)[0]
    g.backward(mod.array([0.5, 1.0, 1.5]))
    x0 = np.array(xs)
    first = 1 / np.sqrt(x0 * x0 + 1) if name == "arcsinh" else 1 / np.sqrt(x0 * x0 - 1)
    np.testing.assert_allclose(g.asnumpy(), first * [1, 2, 3], rtol=1e-5)
    np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-5)
