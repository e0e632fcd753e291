"""Float32 accuracy of training-mode BatchNorm where PyTorch's CPU kernel is least accurate:
channels-last arrays (the executor runs conv nets in NHWC memory) and (N, C) arrays, whose
per-channel sums PyTorch takes in one float accumulator over all the rows. MXNet 1.9.1's
float32 gradients are within ~1e-5 of float64 on such nets; the gradients here are compared
with float64 ones at tolerances a single running float sum misses by 10-100x."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import mxnet as mx
from mxnet._op import _norm


def _data(shape, cl, seed=0):
    """x with a large mean and an output gradient with a large per-channel common part
    (both make the sums cancel)."""
    gen = torch.Generator().manual_seed(seed)
    c = shape[1]
    cs = (1, c) + (1,) * (len(shape) - 2)
    x = torch.randn(shape, generator=gen) * 2 + 3
    g = torch.randn(shape, generator=gen) + 4 * torch.rand(cs, generator=gen)
    if cl:
        x = x.contiguous(memory_format=torch.channels_last)
        g = g.contiguous(memory_format=torch.channels_last)
    gamma, beta = torch.rand(c, generator=gen) + 0.5, torch.randn(c, generator=gen)
    return x, g, gamma, beta


def _rel(a, b) -> float:
    a, b = a.detach().double(), b.detach().double()
    return float((a - b).abs().max() / b.abs().max())


@pytest.mark.parametrize(
    "shape,cl", [((4, 64, 16, 32), True), ((16, 32, 32, 32), True), ((2048, 64), False)]
)
@pytest.mark.parametrize("relu", [False, True])
def test_batchnorm_float32_sums_match_float64(shape, cl, relu):
    x, g, gamma, beta = _data(shape, cl)
    c = shape[1]
    xa, ga, ba = (t.clone().requires_grad_() for t in (x, gamma, beta))
    mm, mv = torch.zeros(c), torch.ones(c)
    y, mean, var = _norm._train_norm(xa, ga, ba, 1e-3, False, (mm, mv, 0.9), relu)
    got = torch.autograd.grad(y, [xa, ga, ba], g)
    xd, gd, bd = (t.double().requires_grad_() for t in (x, gamma, beta))
    yd = torch.nn.functional.batch_norm(xd, None, None, gd, bd, True, 0.0, 1e-3)
    if relu:
        yd = torch.relu(yd)
    want = torch.autograd.grad(yd, [xd, gd, bd], g.double())
    red = [0] + list(range(2, x.dim()))
    assert _rel(y, yd) < 3e-7
    assert _rel(mean, x.double().mean(red)) < 1e-7
    assert _rel(var, x.double().var(red, unbiased=False)) < 3e-7
    assert _rel(got[0], want[0]) < 5e-7  # dx
    # dgamma cancels most (sum of g * xhat with g nearly constant per channel)
    assert _rel(got[1], want[1]) < (5e-7 if relu else 5e-6)
    assert _rel(got[2], want[2]) < 3e-7  # dbeta


def _net():
    """A small DenseNet-like graph: a depthwise convolution makes the executor run it in
    channels-last memory, a concat gives an odd channel count."""
    s = mx.sym
    x = s.Variable("data")

    def cbr(h, nf, name, k=3, group=1):
        h = s.Convolution(
            h,
            num_filter=nf,
            kernel=(k, k),
            pad=(k // 2, k // 2),
            num_group=group,
            no_bias=True,
            name=name,
        )
        return s.Activation(s.BatchNorm(h, fix_gamma=False, name=name + "_bn"), act_type="relu")

    h = cbr(x, 32, "c0")
    h = s.concat(x, cbr(h, 32, "c1"), dim=1)  # 35 channels
    h = cbr(h, 64, "c2", k=1)
    h = cbr(h, 64, "c3", group=64)
    for i in range(4, 9):
        h = cbr(h, 48, "c%d" % i, k=1 + 2 * (i % 2))
    w = s.Variable("w_fixed")
    return s.MakeLoss(s.sum(h * w))


def _grads(dtype):
    sym = _net()
    shapes = {"data": (2, 3, 32, 48)}
    arg_shapes, out_shapes, _ = sym.infer_shape(**shapes)
    names = sym.list_arguments()
    ex = sym.simple_bind(
        mx.cpu(),
        grad_req="write",
        **shapes,
        type_dict={n: dtype for n in names + sym.list_auxiliary_states()},
    )
    rng = np.random.RandomState(0)
    for n, shp in zip(names, arg_shapes):
        if n.endswith("gamma"):
            v = rng.uniform(0.5, 1.5, shp)
        elif n.endswith("beta"):
            v = rng.normal(0, 0.1, shp)
        elif n == "data":
            v = rng.uniform(0, 1, shp)
        else:
            v = rng.normal(0, 1.0 / np.sqrt(np.prod(shp[1:])), shp)
        ex.arg_dict[n][:] = v.astype(dtype)
    ex.forward(is_train=True)
    ex.backward()
    return {
        n: g.asnumpy().astype(np.float64)
        for n, g in ex.grad_dict.items()
        if n not in ("data", "w_fixed") and g is not None
    }


def test_executor_channels_last_parameter_gradients_match_float64():
    g32, g64 = _grads("float32"), _grads("float64")
    worst = max((np.abs(g32[n] - g64[n]).max() / np.abs(g64[n]).max(), n) for n in g64)
    assert worst[0] < 3e-5, worst  # a running float sum per channel: ~1e-2
