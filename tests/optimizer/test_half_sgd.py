"""float16 SGD without multi_precision: MXNet 1.9.1's half_t kernels round the parameters and
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
