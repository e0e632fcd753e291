"""MXNet 1.9.1's CPU ``multi_sum_sq`` (a sequential float32 sum, used by gluonnlp's gradient
norms and by LAMB's trust ratio) and its multi-tensor LAMB kernel, bit for bit."""

import numpy as np

import mxnet as mx
from mxnet.ndarray.contrib import multi_lamb_update


def test_multi_sum_sq_is_a_sequential_float32_sum():
    x = ((np.arange(300000) % 1000) / 7).astype(np.float32)
    out = mx.nd.multi_sum_sq(mx.nd.array(x), mx.nd.array(x[:10]), num_arrays=2).asnumpy()
    # MXNet 1.9.1 prints 2037812736.0; the exact sum is 2037756122.01
    assert out[0] == np.float32(2037812736.0)
    assert out[0] == np.cumsum(x * x, dtype=np.float32)[-1]
    assert out[1] == np.cumsum(x[:10] ** 2, dtype=np.float32)[-1]


def test_multi_sum_sq_float16_squares_round_to_half():
    h = np.linspace(-3, 3, 5001).astype(np.float16)
    out = mx.nd.multi_sum_sq(mx.nd.array(h, dtype="float16"), num_arrays=1).asnumpy()
    assert out.dtype == np.float32
    assert out[0] == np.float32(15009.234375)  # MXNet 1.9.1


def test_multi_lamb_matches_mxnet_191_small():
    w = np.linspace(-1, 1, 6).astype(np.float32)
    g = np.array([0.3, -0.2, 0.5, 0.1, -0.7, 0.05], np.float32)
    W, M, V = mx.nd.array(w), mx.nd.zeros(6), mx.nd.zeros(6)
    for t in (1, 2):
        multi_lamb_update(
            [W],
            [mx.nd.array(g * t)],
            [M],
            [V],
            [t],
            [0.1],
            [0.01],
            out=[W],
            num_tensors=1,
            epsilon=1e-6,
            bias_correction=True,
            rescale_grad=0.5,
        )
    expect = [
        -1.135523796081543,
        -0.4622461795806885,
        -0.3366393744945526,
        0.06280484050512314,
        0.7360819578170776,
        0.861691951751709,
    ]
    np.testing.assert_array_equal(W.asnumpy(), np.array(expect, np.float32))


def _emulate(w, g, m, v, t, lr, wd, scale, bc, b1=0.9, b2=0.999, eps=1e-6):
    """NumPy of the kernel: float32 moments, the direction formed in double, sequential
    float32 sums of squares for the trust ratio."""
    f = np.float32
    g = g * f(scale)
    m = f(b1) * m + (f(1) - f(b1)) * g
    v = f(b2) * v + (f(1) - f(b2)) * g * g
    mh, vh = m, v
    if bc:
        mh = m / (f(1) - np.power(f(b1), f(t)))
        vh = v / (f(1) - np.power(f(b2), f(t)))
    d = (
        mh.astype(np.float64) / (np.sqrt(vh.astype(np.float64)) + np.float64(f(eps)))
        + (f(wd) * w).astype(np.float64)
    ).astype(f)
    r1 = f(np.sqrt(np.float64(np.cumsum(w * w, dtype=f)[-1])))
    r2 = f(np.sqrt(np.float64(np.cumsum(d * d, dtype=f)[-1])))
    return w - (f(lr) * (r1 / r2)) * d, m, v


def test_multi_lamb_large_arrays_bit_exact():
    rng = np.random.RandomState(0)
    n = 20000
    w = rng.randn(n).astype(np.float32)
    m0 = (rng.randn(n) * 0.1).astype(np.float32)
    v0 = (rng.rand(n) * 0.1).astype(np.float32)
    g = rng.randn(n).astype(np.float32)
    for bc in (True, False):
        W, M, V = mx.nd.array(w), mx.nd.array(m0), mx.nd.array(v0)
        multi_lamb_update(
            [W],
            [mx.nd.array(g)],
            [M],
            [V],
            [3],
            [0.1],
            [0.01],
            out=[W],
            num_tensors=1,
            epsilon=1e-6,
            bias_correction=bc,
            rescale_grad=0.5,
        )
        rw, rm, rv = _emulate(w, g, m0, v0, 3, 0.1, 0.01, 0.5, bc)
        np.testing.assert_array_equal(M.asnumpy(), rm)
        np.testing.assert_array_equal(V.asnumpy(), rv)
        np.testing.assert_array_equal(W.asnumpy(), rw)
