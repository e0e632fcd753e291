"""``BatchNorm -> relu`` pairs run as one step (mxnet/_executor/_fuse_train.py) only where
nothing else reads BatchNorm's outputs; results equal the unfused steps'."""

from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx
from mxnet import _kernels
from mxnet._executor import _fuse_train
from mxnet._executor._fuse_train import bn_relu_steps
from mxnet._op._norm import _bn_relu


@pytest.fixture(autouse=True)
def _small_arrays_too(monkeypatch):
    """These tests use small arrays: take the native BatchNorm whatever their size."""
    from mxnet._op import _norm_native

    monkeypatch.setattr(_norm_native, "MIN_VALUES", 1 << 15)


def _prog(sym, shape):
    ex = sym.simple_bind(mx.cpu(), data=shape)
    p = ex._prog
    keep = set(range(len(p.arg_names) + len(p.aux_names))) | set(p.heads)
    return ex, p, keep


def _net(extra_reader=False, group_bn=False):
    data = mx.sym.Variable("data")
    c = mx.sym.Convolution(data, num_filter=8, kernel=(3, 3), pad=(1, 1), name="c")
    b = mx.sym.BatchNorm(c, fix_gamma=False, name="bn")
    r = mx.sym.Activation(b, act_type="relu", name="r")
    out = mx.sym.FullyConnected(r, num_hidden=3, name="f")
    if extra_reader:
        out = mx.sym.broadcast_add(out, mx.sym.sum(b))
    return mx.sym.Group([out, b]) if group_bn else out


def _train_step(ex, seed):
    """Random arguments, one training forward/backward: (output, gradients, aux states)."""
    rng = np.random.RandomState(seed)
    for v in ex.arg_dict.values():
        v[:] = rng.uniform(-1, 1, v.shape)
    out = ex.forward(is_train=True)[0].asnumpy()
    ex.backward(mx.nd.ones(out.shape))
    return (out, {k: g.asnumpy() for k, g in ex.grad_dict.items()},
            {k: a.asnumpy() for k, a in ex.aux_dict.items()})


def test_pair_merged_and_results_equal(monkeypatch):
    results = []
    for flag in ("1", "0"):
        monkeypatch.setenv("MXNET_NG_FUSE", flag)
        ex, p, keep = _prog(_net(), (4, 3, 48, 48))  # BatchNorm over 73728 values
        if flag == "1":
            steps = bn_relu_steps(p.steps, keep)
            assert [st[0] is _bn_relu for st in steps].count(True) == 1
            assert len(steps) == len(p.steps) - 1
        results.append(_train_step(ex, 0))
    (o1, g1, a1), (o0, g0, a0) = results
    np.testing.assert_allclose(o1, o0, rtol=1e-5, atol=1e-5)
    for k in g0:
        np.testing.assert_allclose(g1[k], g0[k], rtol=1e-4, atol=1e-4, err_msg=k)
    for k in a0:
        np.testing.assert_allclose(a1[k], a0[k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_not_merged_when_batchnorm_output_is_read_elsewhere():
    for kw in ({"extra_reader": True}, {"group_bn": True}):
        _ex, p, keep = _prog(_net(**kw), (2, 3, 8, 8))
        assert bn_relu_steps(p.steps, keep) is None, kw


def _residual(bn_first=True):
    data = mx.sym.Variable("data")
    # 16 channels: an 8-channel convolution would run channels-last (oneDNN pads 8 to 16)
    # while the residual stays NCHW, and layouts that differ are not fused
    c = mx.sym.Convolution(data, num_filter=16, kernel=(3, 3), pad=(1, 1), name="c")
    b = mx.sym.BatchNorm(c, fix_gamma=False, name="bn")
    s = (b + data) if bn_first else (data + b)
    r = mx.sym.Activation(s, act_type="relu", name="r")
    return mx.sym.FullyConnected(r, num_hidden=3, name="f")


def test_residual_end_fused_gives_the_same_numbers(monkeypatch):
    native = []
    orig = _fuse_train.bn_add_relu_native

    def counted(*a):
        r = orig(*a)
        native.append(r is not None)
        return r

    monkeypatch.setattr(_fuse_train, "bn_add_relu_native", counted)
    for bn_first in (True, False):
        results = []
        for flag in ("1", "0"):
            monkeypatch.setenv("MXNET_NG_FUSE", flag)
            ex, p, keep = _prog(_residual(bn_first), (4, 16, 48, 48))
            if flag == "1":
                steps = bn_relu_steps(p.steps, keep)
                assert [type(st[0]).__name__ for st in steps].count("_BNAddRelu") == 1
                assert len(steps) == len(p.steps) - 2
            results.append(_train_step(ex, 1))
        (o1, g1, a1), (o0, g0, a0) = results
        # the fused pass rounds as BatchNorm, add and relu do one after the other
        np.testing.assert_array_equal(o1, o0)
        for k in g0:
            np.testing.assert_array_equal(g1[k], g0[k], err_msg=k)
        for k in a0:
            np.testing.assert_array_equal(a1[k], a0[k], err_msg=k)
    assert len(native) == 2
    if _kernels.library("norm") is not None:
        assert native == [True, True]


def test_residual_end_outside_training_runs_the_original_steps():
    ex, _p, _keep = _prog(_residual(), (2, 16, 6, 6))
    for v in ex.arg_dict.values():
        v[:] = 0.5
    out = ex.forward(is_train=False)[0].asnumpy()
    c = mx.nd.Convolution(ex.arg_dict["data"], ex.arg_dict["c_weight"], ex.arg_dict["c_bias"],
                          num_filter=16, kernel=(3, 3), pad=(1, 1))
    b = mx.nd.BatchNorm(c, ex.arg_dict["bn_gamma"], ex.arg_dict["bn_beta"],
                        ex.aux_dict["bn_moving_mean"], ex.aux_dict["bn_moving_var"],
                        fix_gamma=False)
    r = mx.nd.relu(b + ex.arg_dict["data"])
    want = mx.nd.FullyConnected(r, ex.arg_dict["f_weight"], ex.arg_dict["f_bias"], num_hidden=3)
    np.testing.assert_allclose(out, want.asnumpy(), rtol=1e-5, atol=1e-5)
