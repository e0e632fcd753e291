"""float16 SGD and Adam without multi_precision: MXNet 1.9.1's half_t kernels round the parameters and
every intermediate product/sum to float16 (checked bit for bit against MXNet 1.9.1)."""

import numpy as np
import pytest

import mxnet as mx

h16 = np.float16


def _r(x):
    return np.asarray(x, np.float32).astype(np.float16)


def _mul(a, b):
    return _r(
        np.asarray(a, np.float16).astype(np.float32) * np.asarray(b, np.float16).astype(np.float32)
    )


def _sub(a, b):
    return _r(
        np.asarray(a, np.float16).astype(np.float32) - np.asarray(b, np.float16).astype(np.float32)
    )


def _gterm(g, lr, rg, clip):
    if clip >= 0:
        return _mul(h16(lr), np.clip(_mul(h16(rg), g), -h16(clip), h16(clip)))
    return _mul(_mul(h16(lr), h16(rg)), g)


def _data():
    rng = np.random.RandomState(0)
    w = rng.uniform(-1, 1, 400).astype(np.float16)
    g = rng.uniform(-1, 1, 400).astype(np.float16)
    m = rng.uniform(-0.1, 0.1, 400).astype(np.float16)
    return w, g, m


CASES = [(0.01, 0.05, 1.0, -1.0), (0.2, 0.02, 1.0, -1.0), (0.1, 0.01, 0.5, 0.3)]


@pytest.mark.parametrize("lr,wd,rg,clip", CASES)
def test_sgd_update_rounds_like_half_kernels(lr, wd, rg, clip):
    w, g, _ = _data()
    out = mx.nd.sgd_update(
        mx.nd.array(w, dtype="float16"),
        mx.nd.array(g, dtype="float16"),
        lr=lr,
        wd=wd,
        rescale_grad=rg,
        clip_gradient=clip,
    ).asnumpy()
    factor = _sub(h16(1.0), _mul(h16(lr), h16(wd)))
    ref = _sub(_mul(factor, w), _gterm(g, lr, rg, clip))
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("lr,wd,rg,clip", CASES)
def test_sgd_mom_update_and_multi_sgd_round_like_half_kernels(lr, wd, rg, clip):
    w, g, m = _data()
    mom = mx.nd.array(m, dtype="float16")
    out = mx.nd.sgd_mom_update(
        mx.nd.array(w, dtype="float16"),
        mx.nd.array(g, dtype="float16"),
        mom,
        lr=lr,
        wd=wd,
        momentum=0.9,
        rescale_grad=rg,
        clip_gradient=clip,
    ).asnumpy()
    new_mom = _sub(
        _sub(_mul(h16(0.9), m), _mul(_mul(h16(lr), h16(wd)), w)), _gterm(g, lr, rg, clip)
    )
    np.testing.assert_array_equal(mom.asnumpy(), new_mom)
    np.testing.assert_array_equal(out, _r(w.astype(np.float32) + new_mom.astype(np.float32)))
    # multi_sgd_update (what the SGD optimizer runs) without momentum: w + (0 - lr*wd*w - lr*g)
    res = mx.nd.array(w, dtype="float16")
    mx.nd.multi_sgd_update(
        mx.nd.array(w, dtype="float16"),
        mx.nd.array(g, dtype="float16"),
        lrs=(lr,),
        wds=(wd,),
        rescale_grad=rg,
        clip_gradient=clip,
        num_weights=1,
        out=[res],
    )
    step = _sub(_sub(h16(0.0), _mul(_mul(h16(lr), h16(wd)), w)), _gterm(g, lr, rg, clip))
    np.testing.assert_array_equal(res.asnumpy(), _r(w.astype(np.float32) + step.astype(np.float32)))


def _add(a, b):
    return _r(
        np.asarray(a, np.float16).astype(np.float32) + np.asarray(b, np.float16).astype(np.float32)
    )


def _div(a, b):
    return _r(
        np.asarray(a, np.float16).astype(np.float32) / np.asarray(b, np.float16).astype(np.float32)
    )


@pytest.mark.parametrize(
    "lr,wd,rg,clip,eps", [(0.01, 0.0, 1.0, -1.0, 1e-8), (0.1, 0.01, 0.5, 0.3, 1e-4)]
)
def test_adam_update_rounds_like_the_half_kernel(lr, wd, rg, clip, eps):
    w, g, m = _data()
    v = np.abs(m)
    mean, var = mx.nd.array(m, dtype="float16"), mx.nd.array(v, dtype="float16")
    out = mx.nd.adam_update(
        mx.nd.array(w, dtype="float16"),
        mx.nd.array(g, dtype="float16"),
        mean,
        var,
        lr=lr,
        wd=wd,
        rescale_grad=rg,
        clip_gradient=clip,
        epsilon=eps,
    ).asnumpy()
    gr = _add(_mul(g, h16(rg)), _mul(w, h16(wd)))
    if clip >= 0:
        gr = np.clip(gr, -h16(clip), h16(clip))
    ref_m = _add(_mul(m, h16(0.9)), _mul(gr, _sub(h16(1.0), h16(0.9))))
    ref_v = _add(_mul(v, h16(0.999)), _mul(_mul(gr, _sub(h16(1.0), h16(0.999))), gr))
    ref_w = _sub(
        w, _div(_mul(ref_m, h16(lr)), _add(_r(np.sqrt(ref_v.astype(np.float32))), h16(eps)))
    )
    np.testing.assert_array_equal(mean.asnumpy(), ref_m)
    np.testing.assert_array_equal(var.asnumpy(), ref_v)
    np.testing.assert_array_equal(out, ref_w)


def test_nag_optimizer_float16_rounds_like_the_half_kernel():
    w, g, m = _data()
    lr, wd = 0.2, 0.02
    opt = mx.optimizer.NAG(momentum=0.9, learning_rate=lr, wd=wd)
    weight = mx.nd.array(w, dtype="float16")
    mom = mx.nd.array(m, dtype="float16")
    opt.update(0, weight, mx.nd.array(g, dtype="float16"), mom)
    m1 = _mul(h16(0.9), m)
    step = _mul(_add(g, _mul(h16(wd), w)), h16(lr))
    ref_w = _add(_sub(w, m1), _mul(_sub(m1, step), _add(h16(0.9), h16(1.0))))
    # in place (out=weight): the momentum reads the freshly written weight
    ref_m = _sub(m1, _mul(_add(g, _mul(h16(wd), ref_w)), h16(lr)))
    np.testing.assert_array_equal(weight.asnumpy(), ref_w)
    np.testing.assert_array_equal(mom.asnumpy(), ref_m)


def test_signum_update_float16_rounds_like_the_half_kernel():
    w, g, m = _data()
    lr, wd, wd_lh = 0.2, 0.02, 0.01
    mom = mx.nd.array(m, dtype="float16")
    out = mx.nd.signum_update(
        mx.nd.array(w, dtype="float16"),
        mx.nd.array(g, dtype="float16"),
        mom,
        lr=lr,
        wd=wd,
        wd_lh=wd_lh,
        momentum=0.9,
    ).asnumpy()
    one_m = _sub(h16(1.0), h16(0.9))
    ref_m = _sub(
        _sub(_mul(h16(0.9), m), _mul(_mul(one_m, h16(wd)), w)), _mul(_mul(one_m, h16(1.0)), g)
    )
    keep = _sub(h16(1.0), _mul(h16(lr), h16(wd_lh)))
    ref_w = _add(_mul(keep, w), _mul(np.sign(ref_m), h16(lr)))
    np.testing.assert_array_equal(mom.asnumpy(), ref_m)
    np.testing.assert_array_equal(out, ref_w)


def test_adamax_float16_uses_float16_scalars_like_mxnet_ndarray_ops():
    # MXNet's Adamax is written with NDArray ops: every scalar is DType(scalar)
    w, g, _ = _data()
    opt = mx.optimizer.Adamax(learning_rate=0.2, wd=0.02)
    weight = mx.nd.array(w, dtype="float16")
    m, u = opt.create_state(0, weight)
    opt.update(0, weight, mx.nd.array(g, dtype="float16"), (m, u))
    lr = 0.2 / (1.0 - 0.9)
    gr = _add(_mul(g, h16(1.0)), _mul(h16(0.02), w))
    ref_m = _add(_mul(np.zeros_like(w), h16(0.9)), _mul(h16(1.0 - 0.9), gr))
    ref_u = np.maximum(_mul(h16(0.999), np.zeros_like(w)), np.abs(gr))
    ref_w = _sub(w, _div(_mul(h16(lr), ref_m), ref_u))
    np.testing.assert_array_equal(m.asnumpy(), ref_m)
    np.testing.assert_array_equal(weight.asnumpy(), ref_w)


def test_dcasgd_float16_uses_float16_scalars():
    w, g, _ = _data()
    lr, wd, lam = 0.2, 0.02, 0.3
    opt = mx.optimizer.DCASGD(learning_rate=lr, wd=wd, lamda=lam)
    weight = mx.nd.array(w, dtype="float16")
    state = opt.create_state(0, weight)
    prev = state[1].asnumpy()
    opt.update(0, weight, mx.nd.array(g, dtype="float16"), state)
    inner = _add(_add(g, _mul(h16(wd), w)), _mul(_mul(_mul(h16(lam), g), g), _sub(w, prev)))
    ref = _add(w, _mul(inner, h16(-lr)))
    np.testing.assert_array_equal(weight.asnumpy(), ref)


def test_preloaded_multi_sgd_float16_keeps_float32_learning_rates():
    # the preloaded form reads lrs/wds from float32 arrays: lr and lr * wd are not rounded
    w, g, _ = _data()
    lr, wd = 0.013, 0.05
    out = [mx.nd.array(w, dtype="float16")]
    mx.nd.preloaded_multi_sgd_update(
        mx.nd.array(w, dtype="float16"),
        mx.nd.array(g, dtype="float16"),
        mx.nd.array([lr]),
        mx.nd.array([wd]),
        num_weights=1,
        out=out,
    )
    lw = np.float32(lr) * np.float32(wd)
    decay = _r(w.astype(np.float32) * lw)
    grad_term = _mul(_r(np.float32(lr) * np.float32(h16(1.0))), g)
    step = _sub(_sub(h16(0.0), decay), grad_term)
    np.testing.assert_array_equal(out[0].asnumpy(), _add(w, step))
