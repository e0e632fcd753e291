"""Float (float32) parameters and constants of MXNet 1.9.1 seen in float64 results: clip bounds
and the degrees/radians factors and erf/erfinv derivatives. clip: float64 data is clipped to
the float32-rounded bound (values checked on MXNet 1.9.1)."""

import numpy as np

import mxnet as mx

LO, HI = float(np.float32(0.3)), float(np.float32(0.7))  # 0.30000001192092896, 0.699999988...


def test_nd_clip_float64_uses_float32_bounds():
    x = mx.nd.array([0.1, 0.5, 0.9], dtype="float64")
    assert mx.nd.clip(x, 0.3, 0.7).asnumpy().tolist() == [LO, 0.5, HI]
    assert x.clip(0.3, 0.7).asnumpy().tolist() == [LO, 0.5, HI]
    s = mx.sym.clip(mx.sym.var("x"), a_min=0.3, a_max=0.7)
    assert s.eval(x=x)[0].asnumpy().tolist() == [LO, 0.5, HI]


def test_np_clip_float64_uses_float32_bounds():
    x = mx.np.array([0.1, 0.5, 0.9], dtype="float64")
    assert mx.np.clip(x, 0.3, 0.7).asnumpy().tolist() == [LO, 0.5, HI]
    assert mx.np.clip(x, None, 0.7).asnumpy().tolist() == [0.1, 0.5, HI]


def test_clip_int_and_float32_unchanged():
    assert mx.nd.clip(mx.nd.array([1, 5, 9], dtype="int32"), 2.5, 7.9).asnumpy().tolist() == [
        2,
        5,
        7,
    ]
    y = mx.nd.clip(mx.nd.array([0.1, 0.5, 0.9]), 0.3, 0.7).asnumpy()
    assert y.dtype == np.float32 and y.tolist() == [LO, 0.5, HI]


def test_degrees_radians_use_float32_factors():
    # MXNet 1.9.1: float64 degrees(1.0) == 57.2957763671875 (180/PI with a float PI)
    x = [0.3, 1.0, -2.5]
    for mod in (mx.nd, mx.np):
        d = mod.degrees(mod.array(x, dtype="float64")).asnumpy().tolist()
        r = mod.radians(mod.array(x, dtype="float64")).asnumpy().tolist()
        assert d == [17.18873291015625, 57.2957763671875, -143.23944091796875]
        assert r == [0.005235987715423107, 0.01745329238474369, -0.043633230961859226]
    g = mx.nd.array(x, dtype="float64")
    g.attach_grad()
    with mx.autograd.record():
        y = mx.nd.degrees(g)
    y.backward()
    assert g.grad.asnumpy().tolist() == [57.2957763671875] * 3


def test_erf_erfinv_gradients_use_mxnet_constants():
    # MXNet 1.9.1 float64 gradients: 2/sqrtf(PI) and 0.5*sqrtf(PI) (float square root)
    for op, xs, grads in [
        ("erf", [0.0, 0.25, 0.5], [1.1283791331978021, 1.0600140975321624, 0.8787825525358813]),
        ("erfinv", [0.0, 0.25, 0.5], [0.8862269520759583, 0.9323782626156073, 1.112584852395182]),
    ]:
        x = mx.nd.array(xs, dtype="float64")
        x.attach_grad()
        with mx.autograd.record():
            y = getattr(mx.nd, op)(x)
        y.backward()
        np.testing.assert_allclose(x.grad.asnumpy(), grads, rtol=1e-15, atol=0)
    # second order still works through the explicit derivative
    x = mx.nd.array([0.3], dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        (g,) = mx.autograd.grad(mx.nd.erf(x), [x], create_graph=True)
    g.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [-2 * 0.3 * g.asnumpy()[0]], rtol=1e-12)
