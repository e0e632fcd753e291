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


def test_lamb_phases_match_mxnet_191():
    # values printed by MXNet 1.9.1 (CPU) for these calls
    w = np.linspace(-1, 1, 7).astype(np.float32)
    g = np.array([0.3, -0.2, 0.5, 0.1, -0.7, 0.05, 0.9], np.float32)
    W = mx.nd.array(w)
    M = mx.nd.array(np.full(7, 0.01, np.float32))
    V = mx.nd.array(np.full(7, 0.02, np.float32))
    d = mx.nd.lamb_update_phase1(
        W, mx.nd.array(g), M, V, t=3, wd=0.01, epsilon=1e-6, rescale_grad=0.5
    )
    out = mx.nd.lamb_update_phase2(W, d, mx.nd.array([1.2345]), mx.nd.array([0.9876]), lr=0.1)
    f = np.float32
    np.testing.assert_array_equal(
        d.asnumpy(),
        np.array(
            [
                0.024280061945319176,
                -0.0080954534932971,
                0.045181598514318466,
                0.020006703212857246,
                -0.033710919320583344,
                0.02310151606798172,
                0.08678542077541351,
            ],
            f,
        ),
    )
    np.testing.assert_array_equal(
        V.asnumpy(),
        np.array(
            [
                0.020002499222755432,
                0.019990000873804092,
                0.020042499527335167,
                0.01998250000178814,
                0.020102499052882195,
                0.019980626180768013,
                0.020182497799396515,
            ],
            f,
        ),
    )
    np.testing.assert_array_equal(
        out.asnumpy(),
        np.array(
            [
                -1.0030349493026733,
                -0.6656547784805298,
                -0.338981032371521,
                -0.002500837901607156,
                0.3375472128391266,
                0.6637790203094482,
                0.9891518354415894,
            ],
            f,
        ),
    )


def test_lamb_phase1_large_array_bit_exact():
    """Kernel order: var += (1-b2)*g*g left to right; mean/(1. - b1^t) in double; sqrtf."""
    rng = np.random.RandomState(0)
    n = 20000
    f = np.float32
    w, g = rng.randn(n).astype(f), rng.randn(n).astype(f)
    m0, v0 = (rng.randn(n) * 0.1).astype(f), (rng.rand(n) * 0.1).astype(f)
    W, M, V = mx.nd.array(w), mx.nd.array(m0), mx.nd.array(v0)
    d = mx.nd.lamb_update_phase1(
        W, mx.nd.array(g), M, V, t=3, wd=0.01, epsilon=1e-6, rescale_grad=0.5
    )
    gs = g * f(0.5)
    m = f(0.9) * m0 + (f(1) - f(0.9)) * gs
    v = f(0.999) * v0 + (f(1) - f(0.999)) * gs * gs
    b1t, b2t = f(float(f(0.9)) ** 3), f(float(f(0.999)) ** 3)
    mh = (m.astype(np.float64) / (1.0 - np.float64(b1t))).astype(f)
    vh = v / (f(1) - b2t)
    ref = mh / (np.sqrt(vh) + f(1e-6)) + f(0.01) * w
    np.testing.assert_array_equal(V.asnumpy(), v)
    np.testing.assert_array_equal(d.asnumpy(), ref)
