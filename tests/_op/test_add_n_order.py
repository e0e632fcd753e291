"""add_n / ElementWiseSum summation order and copy semantics of MXNet 1.9.1.

Its kernel adds 3 or 4 inputs right to left (a + (b + (c + d))) and other counts left to
right; float32 sums differ in the last bit otherwise (Sockeye's checkpoint averaging).
"""

import numpy as np

import mxnet as mx


def _v(x):
    return mx.nd.array([x], dtype="float32")


def test_add_n_three_and_four_inputs_right_to_left():
    # 1 + 1e8 rounds to 1e8 in float32: the order decides between 1 and 0
    assert mx.nd.add_n(_v(1), _v(1e8), _v(-1e8)).asscalar() == 1.0
    assert mx.nd.add_n(_v(1), _v(0), _v(1e8), _v(-1e8)).asscalar() == 1.0
    assert mx.nd.add_n(_v(1e8), _v(1), _v(-1e8)).asscalar() == 0.0
    s = mx.sym.add_n(*[mx.sym.var(n) for n in "abc"])
    assert s.eval(a=_v(1), b=_v(1e8), c=_v(-1e8))[0].asscalar() == 1.0


def test_add_n_two_and_five_inputs_left_to_right():
    assert mx.nd.add_n(_v(1), _v(1e8)).asscalar() == np.float32(1e8)
    assert mx.nd.add_n(_v(1), _v(1e8), _v(-1e8), _v(0), _v(0)).asscalar() == 0.0


def test_add_n_single_input_is_a_copy():
    x = mx.nd.ones((2,))
    y = mx.nd.add_n(x)
    y[:] = 5
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 1.0])
    x = mx.nd.ones((2,))
    x.attach_grad()
    with mx.autograd.record():
        z = mx.nd.add_n(x) * 2
    z.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [2.0, 2.0])
