"""cumsum of float16 arrays rounds every running sum to float16 (MXNet's kernel, as NumPy)."""

import numpy as onp

import mxnet as mx


def test_float16_cumsum_matches_numpy_rounding():
    r = onp.random.RandomState(0).uniform(-1, 1, 2000).astype("float16")
    onp.testing.assert_array_equal(mx.np.cumsum(mx.np.array(r, dtype="float16")).asnumpy(),
                                   onp.cumsum(r))
    m = r.reshape(40, 50)
    onp.testing.assert_array_equal(mx.nd.cumsum(mx.nd.array(m, dtype="float16"), axis=1)
                                   .asnumpy(), onp.cumsum(m, axis=1))


def test_float16_cumsum_gradient():
    x = mx.np.array(onp.ones((3, 4)), dtype="float16")
    x.attach_grad()
    with mx.autograd.record():
        y = mx.np.cumsum(x, axis=1)
    y.backward()
    assert x.grad.asnumpy().tolist() == [[4, 3, 2, 1]] * 3
