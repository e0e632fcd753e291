"""MXNet 1.9.1's multi-tensor AdamW kernel (``multi_adamw_update``, used by gluonnlp's
aggregated BERTAdam): its own moment arithmetic, bit for bit."""

import numpy as np

import mxnet as mx
from mxnet.ndarray.contrib import adamw_update, multi_adamw_update, multi_mp_adamw_update

_W0 = np.array([-0.6518948, 0.5, 0.01, -0.2], dtype=np.float32)
_G = np.array([-2.83267, 1e-3, 0.3, -5.0], dtype=np.float32)
_KW = dict(beta1=0.9, beta2=0.999, epsilon=1e-6)


def _emulate(w, g, m, v, lr, wd, eta, scale, b1=0.9, b2=0.999, eps=1e-6):
    """NumPy float32 of the kernel: m = b1*(m-g)+g, v = b2*(v-g*g)+g*g, sqrtf exact."""
    f = np.float32
    g = f(scale) * g
    m = f(b1) * (m - g) + g
    adj = g * g
    v = f(b2) * (v - adj) + adj
    w = w - f(eta) * (f(lr) * m / (np.sqrt(v) + f(eps)) + f(wd) * w)
    return w, m, v


def test_first_step_matches_mxnet_191():
    # values printed by MXNet 1.9.1 (CPU) for this call
    w = mx.nd.array(_W0)
    m, v = mx.nd.zeros(4), mx.nd.zeros(4)
    multi_adamw_update(
        [w],
        [mx.nd.array(_G)],
        [m],
        [v],
        out=[w],
        size=1,
        lrs=[1.0],
        wds=[0.01],
        etas=[0.1],
        rescale_grad=mx.nd.full((1,), 1.0),
        **_KW,
    )
    np.testing.assert_array_equal(
        w.asnumpy(),
        np.array(
            [-0.335022509098053, 0.192964106798172, -0.30621224641799927, 0.1164281815290451],
            dtype=np.float32,
        ),
    )
    np.testing.assert_array_equal(
        v.asnumpy(),
        np.array(
            [
                0.008024215698242188,
                9.999894245993346e-10,
                8.999556303024292e-05,
                0.024999618530273438,
            ],
            dtype=np.float32,
        ),
    )
    np.testing.assert_array_equal(
        m.asnumpy(),
        np.array(
            [-0.2832670211791992, 0.00010000000474974513, 0.030000001192092896, -0.5],
            dtype=np.float32,
        ),
    )


def test_single_tensor_adamw_keeps_its_own_form():
    # adamw_update uses (1 - beta) * g: a different variance than the multi kernel
    w = mx.nd.array(_W0)
    m, v = mx.nd.zeros(4), mx.nd.zeros(4)
    adamw_update(
        w,
        mx.nd.array(_G),
        m,
        v,
        out=w,
        lr=1,
        wd=0.01,
        eta=0.1,
        rescale_grad=mx.nd.full((1,), 1.0),
        **_KW,
    )
    assert v.asnumpy()[0] == np.float32(0.008023915812373161)


def test_large_arrays_bit_exact_over_steps():
    rng = np.random.RandomState(0)
    n = 4096
    w = [rng.randn(n).astype(np.float32), rng.randn(7).astype(np.float32)]
    ref = [(x.copy(), np.zeros_like(x), np.zeros_like(x)) for x in w]
    ws = [mx.nd.array(x) for x in w]
    ms = [mx.nd.zeros(x.shape) for x in w]
    vs = [mx.nd.zeros(x.shape) for x in w]
    for _ in range(3):
        gs = [rng.randn(*x.shape).astype(np.float32) for x in w]
        multi_adamw_update(
            ws,
            [mx.nd.array(g) for g in gs],
            ms,
            vs,
            out=ws,
            size=2,
            lrs=[0.7, 1.0],
            wds=[0.01, 0.0],
            etas=[0.1, 0.2],
            rescale_grad=mx.nd.full((1,), 0.5),
            **_KW,
        )
        ref = [
            _emulate(r[0], g, r[1], r[2], lr, wd, eta, 0.5)
            for r, g, lr, wd, eta in zip(ref, gs, (0.7, 1.0), (0.01, 0.0), (0.1, 0.2))
        ]
    for i in range(2):
        np.testing.assert_array_equal(ws[i].asnumpy(), ref[i][0])
        np.testing.assert_array_equal(ms[i].asnumpy(), ref[i][1])
        np.testing.assert_array_equal(vs[i].asnumpy(), ref[i][2])


def test_mixed_precision_updates_master_and_half_weight():
    rng = np.random.RandomState(1)
    w32 = rng.randn(64).astype(np.float32)
    g16 = rng.randn(64).astype(np.float16)
    w = mx.nd.array(w32).astype("float16")
    master = mx.nd.array(w32)
    m, v = mx.nd.zeros(64), mx.nd.zeros(64)
    multi_mp_adamw_update(
        [w],
        [mx.nd.array(g16, dtype="float16")],
        [m],
        [v],
        [master],
        out=[w],
        size=1,
        lrs=[1.0],
        wds=[0.01],
        etas=[0.1],
        rescale_grad=mx.nd.full((1,), 1.0),
        **_KW,
    )
    ref_w, _, _ = _emulate(
        w32,
        g16.astype(np.float32),
        np.zeros(64, np.float32),
        np.zeros(64, np.float32),
        1.0,
        0.01,
        0.1,
        1.0,
    )
    np.testing.assert_array_equal(master.asnumpy(), ref_w)
    np.testing.assert_array_equal(w.asnumpy(), ref_w.astype(np.float16))


def test_non_finite_or_zero_rescale_skips_the_update():
    for scale in (0.0, float("nan")):
        w = mx.nd.array(_W0)
        m, v = mx.nd.zeros(4), mx.nd.zeros(4)
        multi_adamw_update(
            [w],
            [mx.nd.array(_G)],
            [m],
            [v],
            out=[w],
            size=1,
            lrs=[1.0],
            wds=[0.01],
            etas=[0.1],
            rescale_grad=mx.nd.full((1,), scale),
            **_KW,
        )
        np.testing.assert_array_equal(w.asnumpy(), _W0)
        assert not m.asnumpy().any() and not v.asnumpy().any()
