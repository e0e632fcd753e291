"""Inference fusion of convolution chains (mxnet/_executor/_fuse.py) gives the unfused
results: BatchNorm folding, relu and residual post-ops, weight changes between calls,
outputs that must not be overwritten, and the fallback for what oneDNN does not take."""

from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet._executor import _fuse
from mxnet._op._norm import _bn_relu

pytestmark = pytest.mark.skipif(not _fuse.fusion_enabled(), reason="no oneDNN in this torch")


def _count_fused(monkeypatch) -> list:
    calls = []
    orig = _fuse._FusedConv.__call__

    def counted(self, *a):
        calls.append(self)
        return orig(self, *a)

    monkeypatch.setattr(_fuse._FusedConv, "__call__", counted)
    return calls


def _unit(x, name, nf, stride=1, group=1, dilate=1, bias=False, fix_gamma=False):
    c = mx.sym.Convolution(x, num_filter=nf, kernel=(3, 3), stride=(stride, stride),
                           pad=(dilate, dilate), dilate=(dilate, dilate), num_group=group,
                           no_bias=not bias, name=name + "_conv")
    return mx.sym.BatchNorm(c, fix_gamma=fix_gamma, eps=1e-3, name=name + "_bn")


def _residual_net():
    data = mx.sym.Variable("data")
    a = mx.sym.Activation(_unit(data, "a", 8), act_type="relu")
    b = _unit(a, "b", 8)
    sc = _unit(data, "sc", 8, fix_gamma=True)
    out = mx.sym.Activation(b + sc, act_type="relu")
    d = mx.sym.relu(_unit(out, "d", 4, stride=2, group=4, dilate=2, bias=True))
    return mx.sym.Group([mx.sym.Pooling(d, kernel=(2, 2), pool_type="avg"), out])


def _bind(sym, shape, seed=0):
    rng = np.random.RandomState(seed)
    ex = sym.simple_bind(mx.cpu(), data=shape, grad_req="null")
    for name, arr in list(ex.arg_dict.items()) + list(ex.aux_dict.items()):
        if name.endswith("moving_var"):
            arr[:] = rng.uniform(0.5, 1.5, arr.shape)
        else:
            arr[:] = rng.uniform(-0.5, 0.5, arr.shape)
    return ex


def test_fused_executor_matches_unfused(monkeypatch):
    ex = _bind(_residual_net(), (2, 8, 12, 12))
    calls = _count_fused(monkeypatch)
    fused = [o.asnumpy() for o in ex.forward(is_train=False)]
    assert len(calls) == 4  # a (bn+relu), b (bn+add+relu), sc (bn), d (bias+bn+relu)
    monkeypatch.setenv("MXNET_NG_FUSE", "0")
    plain = [o.asnumpy() for o in ex.forward(is_train=False)]
    assert len(calls) == 4
    for f, p in zip(fused, plain):
        np.testing.assert_allclose(f, p, rtol=1e-5, atol=1e-5)


def test_weight_changes_between_calls_are_seen():
    ex = _bind(_residual_net(), (1, 8, 6, 6))
    first = ex.forward(is_train=False)[0].asnumpy()
    ex.arg_dict["a_conv_weight"][:] *= 2
    ex.aux_dict["b_bn_moving_mean"][:] += 0.25
    second = ex.forward(is_train=False)[0].asnumpy()
    import os

    os.environ["MXNET_NG_FUSE"] = "0"
    try:
        plain = ex.forward(is_train=False)[0].asnumpy()
    finally:
        del os.environ["MXNET_NG_FUSE"]
    assert np.abs(first - second).max() > 1e-3
    np.testing.assert_allclose(second, plain, rtol=1e-5, atol=1e-5)


def test_training_forward_is_not_fused(monkeypatch):
    ex = _bind(_residual_net(), (2, 8, 6, 6))
    calls = _count_fused(monkeypatch)
    ex.forward(is_train=True)
    assert not calls


def test_float64_falls_back_to_the_plain_steps():
    sym = _residual_net()
    ex = sym.simple_bind(mx.cpu(), data=(1, 8, 6, 6), type_dict={"data": "float64"},
                         grad_req="null")
    for name, arr in list(ex.arg_dict.items()) + list(ex.aux_dict.items()):
        arr[:] = 0.5 if name.endswith("var") else 0.1
    out = ex.forward(is_train=False)[1]
    assert out.dtype == np.float64 and np.isfinite(out.asnumpy()).all()


def test_gluon_resnet_hybridized_inference_and_training_between():
    mx.random.seed(7)  # (values reach 1e11: unseeded draws made single elements cancel)
    net = gluon.model_zoo.vision.resnet18_v1(classes=10)
    net.initialize(mx.init.Xavier())
    x = mx.nd.random.uniform(shape=(2, 3, 32, 32))
    net(x)
    for name, p in net.collect_params().items():
        if name.endswith("running_var"):
            p.set_data(mx.nd.random.uniform(0.5, 1.5, p.shape))
        elif name.endswith(("running_mean", "gamma", "beta")):
            p.set_data(mx.nd.random.uniform(-0.2, 0.2, p.shape) + name.endswith("gamma"))
    eager = net(x).asnumpy()
    scale = float(np.abs(eager).max())  # fused and unfused sums round differently
    net.hybridize(static_alloc=True)
    np.testing.assert_allclose(net(x).asnumpy(), eager, rtol=1e-4, atol=1e-5 * scale)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01})
    with autograd.record():
        loss = net(x).mean()
    loss.backward()
    trainer.step(2)
    after = net(x).asnumpy()
    net.hybridize(active=False)
    np.testing.assert_allclose(after, net(x).asnumpy(), rtol=1e-4,
                               atol=1e-5 * float(np.abs(after).max()))
    assert np.abs(after - eager).max() > 1e-4


def test_inplace_relu_keeps_training_gradients(monkeypatch):
    data = mx.sym.Variable("data")
    c = mx.sym.Convolution(data, num_filter=4, kernel=(3, 3), name="c")
    r1 = mx.sym.Activation(c, act_type="relu")  # overwrites c: nobody else reads it
    f = mx.sym.FullyConnected(r1, num_hidden=6, name="f")
    t = mx.sym.tanh(f)
    r2 = mx.sym.relu(t)  # tanh needs its output for backward: a fresh array
    g = mx.sym.FullyConnected(r2, num_hidden=3, name="g")
    sym = mx.sym.Group([mx.sym.relu(g), g])  # g is an output: never overwritten

    def run(flag):
        monkeypatch.setenv("MXNET_NG_FUSE", flag)
        ex = _bind(sym, (2, 3, 6, 6), seed=3)
        ex2 = sym.simple_bind(mx.cpu(), data=(2, 3, 6, 6))
        ex2.copy_params_from({k: v for k, v in ex.arg_dict.items()}, allow_extra_params=True)
        outs = [o.asnumpy() for o in ex2.forward(is_train=True)]
        ex2.backward([mx.nd.ones(o.shape) for o in outs])
        return outs, {k: v.asnumpy() for k, v in ex2.grad_dict.items()}

    calls = []
    orig = _fuse._relu_inplace
    monkeypatch.setattr(_fuse, "_relu_inplace", lambda a, x: calls.append(1) or orig(a, x))
    (o1, g1), (o0, g0) = run("1"), run("0")
    assert len(calls) == 1  # only the relu after the convolution
    for a, b in zip(o1, o0):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    for k in g0:
        np.testing.assert_allclose(g1[k], g0[k], rtol=1e-6, atol=1e-6, err_msg=k)
    assert (o1[1] < 0).any()  # g kept its negative values


def test_relu_input_read_twice_is_not_overwritten():
    data = mx.sym.Variable("data")
    c = mx.sym.FullyConnected(data, num_hidden=4, name="c")
    sym = mx.sym.relu(c) * c  # c is read by the product too (which saves it for backward)
    ex = sym.simple_bind(mx.cpu(), data=(3, 5))
    for arr in ex.arg_dict.values():
        arr[:] = np.random.RandomState(0).uniform(-1, 1, arr.shape)
    out = ex.forward(is_train=True)[0].asnumpy()
    ex.backward(mx.nd.ones(out.shape))
    cv = ex.arg_dict["data"].asnumpy() @ ex.arg_dict["c_weight"].asnumpy().T \
        + ex.arg_dict["c_bias"].asnumpy()
    np.testing.assert_allclose(out, np.maximum(cv, 0) * cv, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ex.grad_dict["c_bias"].asnumpy(),
                               (2 * np.maximum(cv, 0)).sum(0), rtol=1e-5, atol=1e-5)


def test_batchnorm_relu_training_runs_rewritten_steps(monkeypatch):
    """A BatchNorm -> relu pair runs as one rewritten step under autograd (the rewritten
    steps once failed here and the executor silently reran step by step); values, gradients
    and moving statistics equal the plain steps'."""
    data = mx.sym.Variable("data")
    c = mx.sym.Convolution(data, num_filter=4, kernel=(3, 3), name="c")
    b = mx.sym.BatchNorm(c, fix_gamma=False, name="bn")
    sym = mx.sym.FullyConnected(mx.sym.Activation(b, act_type="relu"), num_hidden=3, name="f")

    def run(flag):
        monkeypatch.setenv("MXNET_NG_FUSE", flag)
        ex = sym.simple_bind(mx.cpu(), data=(2, 3, 8, 8))
        ref = _bind(sym, (2, 3, 8, 8), seed=5)
        for name, arr in list(ref.arg_dict.items()) + list(ref.aux_dict.items()):
            (ex.aux_dict if name in ex.aux_dict else ex.arg_dict)[name][:] = arr
        outs = [o.asnumpy() for o in ex.forward(is_train=True)]
        ex.backward([mx.nd.ones(o.shape) for o in outs])
        return ex, outs, {k: v.asnumpy() for k, v in ex.grad_dict.items()}

    (ex1, o1, g1), (ex0, o0, g0) = run("1"), run("0")
    ops = [st[5].op.name for st in ex1._prog._fast]
    assert ex1._prog.fused_fallbacks == 0 and "Activation" not in ops
    assert any(st[0] is _bn_relu for st in ex1._prog._fast)
    np.testing.assert_allclose(o1[0], o0[0], rtol=1e-6, atol=1e-6)
    for k in g0:
        np.testing.assert_allclose(g1[k], g0[k], rtol=1e-5, atol=1e-6, err_msg=k)
    for k, v in ex0.aux_dict.items():
        np.testing.assert_allclose(ex1.aux_dict[k].asnumpy(), v.asnumpy(), rtol=1e-6,
                                   err_msg=k)
    assert not np.allclose(ex1.aux_dict["bn_moving_var"].asnumpy(), 1)  # moved by backward


def test_winograd_chains_match_unfused(monkeypatch):
    """3x3 chains the Winograd route takes (64 channels, channels-last data) run its kernel
    with BatchNorm folded and bias, residual and relu in its output transform."""
    from mxnet._op import _conv_wino

    if not _conv_wino.enabled():
        pytest.skip("no vector-tiled native kernel here")
    data = mx.sym.Variable("data")
    a = mx.sym.Activation(_unit(data, "a", 64, bias=True), act_type="relu")
    out = mx.sym.Activation(_unit(a, "b", 64) + a, act_type="relu")
    ex = _bind(mx.sym.Group([out, _unit(out, "c", 64)]), (1, 64, 96, 96))
    monkeypatch.setattr(_conv_wino, "MIN_MACS", 0)
    monkeypatch.setattr(_conv_wino.applies, "__defaults__", (0,))
    used = []
    forward = _conv_wino.forward
    def spy(a, u, bias=None, res=None, relu=False):
        used.append((bias is not None, res is not None, relu))
        return forward(a, u, bias, res, relu)

    monkeypatch.setattr(_conv_wino, "forward", spy)
    fused = [o.asnumpy() for o in ex.forward(is_train=False)]
    # a reads the NCHW data: oneDNN; b: residual + relu, c: BatchNorm only (its shift is
    # the bias each time)
    assert sorted(used) == [(True, False, False), (True, True, True)], used
    monkeypatch.setenv("MXNET_NG_FUSE", "0")
    used.clear()
    plain = [o.asnumpy() for o in ex.forward(is_train=False)]
    assert len(used) == 3  # the unfused convolutions take the route too (b and c, then a)
    for f, p in zip(fused, plain):
        np.testing.assert_allclose(f, p, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("hybridize", [False, True])
def test_relu_rewrites_keep_mxnet_nan_rules(hybridize):
    """Activation(relu) gives 0 (gradient 0) for NaN, the relu operator keeps NaN, also where
    the executor runs relu in place over a dense/conv output or after max pooling."""
    d = gluon.nn.Dense(2, activation="relu", in_units=2, weight_initializer=mx.init.One(),
                       bias_initializer="zeros")
    d.initialize()
    if hybridize:
        d.hybridize()
    x = mx.nd.array([[np.nan, 1.0]])
    x.attach_grad()
    with autograd.record():
        y = d(x)
    y.backward()
    assert y.asnumpy().tolist() == [[0.0, 0.0]]
    assert x.grad.asnumpy().tolist() == [[0.0, 0.0]]
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=2, no_bias=True, name="fc")
    img = mx.sym.Reshape(fc, shape=(1, 1, 1, 2))
    out = mx.sym.Group([mx.sym.relu(fc), mx.sym.Pooling(mx.sym.Activation(
        img, act_type="relu"), kernel=(1, 2), stride=(1, 2), pool_type="max")])
    ex = out.simple_bind(mx.cpu(), data=(1, 2))
    ex.arg_dict["fc_weight"][:] = 1.0
    ex.arg_dict["data"][:] = mx.nd.array([[np.nan, 1.0]])
    kept, pooled = (o.asnumpy() for o in ex.forward(is_train=True))
    assert np.isnan(kept).all() and pooled.ravel().tolist() == [0.0]
