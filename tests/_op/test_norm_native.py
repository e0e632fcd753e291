"""Training-mode BatchNorm on the native kernels (mxnet/_op/_norm_native.py) against a
float64 reference, in both layouts, with and without the fused relu and fix_gamma."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import mxnet as mx
from mxnet import _kernels
from mxnet._op import _norm_native

pytestmark = pytest.mark.skipif(_kernels.library("norm") is None,
                                reason=f"native kernels unavailable: {_kernels.status()}")


@pytest.fixture(autouse=True)
def _small_arrays_too(monkeypatch):
    """These tests use small arrays: take the native BatchNorm whatever their size."""
    from mxnet._op import _norm_native

    monkeypatch.setattr(_norm_native, "MIN_VALUES", 1 << 15)


def _reference(x, gamma, beta, eps, fixed, relu, g):
    xd = x.detach().double().requires_grad_()
    w = torch.ones_like(gamma, dtype=torch.float64) if fixed else gamma.detach().double()
    w.requires_grad_()
    b = beta.detach().double().requires_grad_()
    y = torch.nn.functional.batch_norm(xd, None, None, w, b, True, 0.0, eps)
    if relu:
        y = torch.relu(y)
    grads = torch.autograd.grad(y, [xd, w, b], g.double())
    return y, grads


def _close(a, b, tol=2e-6):
    a, b = a.detach().double(), b.detach().double()
    assert float((a - b).abs().max()) <= tol * (float(b.abs().max()) + 1e-12)


@pytest.mark.parametrize("shape,cl", [((4, 16, 24, 24), True), ((4, 16, 24, 24), False),
                                      ((512, 96), False), ((4, 8, 1200), False)])
@pytest.mark.parametrize("relu", [False, True])
@pytest.mark.parametrize("fixed", [False, True])
def test_matches_float64_reference(shape, cl, relu, fixed):
    torch.manual_seed(3)
    x = torch.randn(*shape) * 2 + 30  # a large mean: the shifted sums keep the variance
    if cl:
        x = x.contiguous(memory_format=torch.channels_last)
    c = shape[1]
    gamma = (torch.rand(c) + 0.5).requires_grad_()
    beta = torch.randn(c).requires_grad_()
    xa = x.clone().requires_grad_()
    assert _norm_native.usable(xa)
    y, mean, var = _norm_native.train_norm(xa, gamma, beta, 1e-3, fixed, None, relu)
    g = torch.randn_like(y)
    grads = torch.autograd.grad(y, [xa, gamma, beta], g)
    yr, gr = _reference(x, gamma, beta, 1e-3, fixed, relu, g)
    red = [0] + list(range(2, x.dim()))
    _close(y, yr)
    _close(mean, x.double().mean(red))
    _close(var, x.double().var(red, unbiased=False), 1e-5)
    _close(grads[0], gr[0])
    if fixed:
        assert not grads[1].any()
    else:
        _close(grads[1], gr[1])
    _close(grads[2], gr[2])
    assert y.is_contiguous(memory_format=torch.channels_last if cl else torch.contiguous_format)


def test_fused_relu_rounds_as_relu_after_batchnorm():
    # the relu variant gives bit for bit what BatchNorm then relu gives (hybridizing a net,
    # which fuses the pair, changes no number)
    torch.manual_seed(0)
    x = torch.randn(2, 64, 16, 16)
    gamma, beta = (torch.rand(64) + 0.5).requires_grad_(), torch.randn(64).requires_grad_()
    g = torch.randn_like(x)
    xa, xb = x.clone().requires_grad_(), x.clone().requires_grad_()
    y1 = _norm_native.train_norm(xa, gamma, beta, 1e-5, False, None, True)[0]
    y2 = torch.relu(_norm_native.train_norm(xb, gamma, beta, 1e-5, False, None, False)[0])
    assert torch.equal(y1, y2)
    for p, q in zip(torch.autograd.grad(y1, [xa, gamma, beta], g),
                    torch.autograd.grad(y2, [xb, gamma, beta], g)):
        assert torch.equal(p, q)


def test_moving_statistics_move_in_backward_only():
    x = torch.randn(8, 16, 32, 32).requires_grad_()
    mm, mv = torch.zeros(16), torch.ones(16)
    y, mean, var = _norm_native.train_norm(x, torch.ones(16), torch.zeros(16), 1e-5, False,
                                           (mm, mv, 0.9))
    assert not mm.any() and torch.equal(mv, torch.ones(16))  # MXNet: updated by backward
    y.sum().backward()
    torch.testing.assert_close(mm, 0.1 * mean)
    torch.testing.assert_close(mv, 0.9 + 0.1 * var)


def test_what_is_not_served():
    assert not _norm_native.usable(torch.randn(2, 4, 8, 8))  # too small to gain
    assert not _norm_native.usable(torch.randn(8, 16, 32, 32, dtype=torch.float64))
    assert not _norm_native.usable(torch.randn(8, 32, 32, 16).permute(0, 3, 1, 2)[:, :, 1:])


def test_batchnorm_operator_uses_it_and_matches_oracle_formula():
    # mx.nd.BatchNorm in training mode: output and moving statistics as MXNet computes them
    rng = np.random.RandomState(0)
    x = mx.nd.array(rng.normal(3, 2, (8, 16, 20, 20)))
    gamma, beta = mx.nd.array(rng.uniform(0.5, 1.5, 16)), mx.nd.array(rng.normal(0, 1, 16))
    mm, mv = mx.nd.zeros(16), mx.nd.ones(16)
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.BatchNorm(x, gamma, beta, mm, mv, fix_gamma=False, eps=1e-3, momentum=0.8)
    y.backward()
    xn = x.asnumpy().astype(np.float64)
    mean, var = xn.mean((0, 2, 3)), xn.var((0, 2, 3))
    want = (xn - mean[:, None, None]) / np.sqrt(var[:, None, None] + 1e-3)
    want = want * gamma.asnumpy()[:, None, None] + beta.asnumpy()[:, None, None]
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mm.asnumpy(), 0.2 * mean, rtol=1e-5)
    np.testing.assert_allclose(mv.asnumpy(), 0.8 + 0.2 * var, rtol=1e-5)
    # the gradient of sum(y) with respect to x is zero for batch statistics
    np.testing.assert_allclose(x.grad.asnumpy(), 0, atol=1e-4)


def _child_norm(q):
    # only NumPy and per-channel torch work here besides the kernels: torch's own parallel
    # loops hang in a forked child just the same (DataLoader workers set one thread)
    x = torch.from_numpy(np.random.RandomState(0).normal(size=(8, 16, 32, 32)).astype("f4"))
    y = _norm_native.train_norm(x, torch.ones(16), torch.zeros(16), 1e-5, False, None)[0]
    q.put(float(y.numpy().mean()))


def test_runs_in_a_forked_process_after_threads_were_used():
    # GNU OpenMP's thread pool does not survive fork(): the kernels run serially in a child
    import multiprocessing as mp

    torch.set_num_threads(max(torch.get_num_threads(), 2))
    x = torch.randn(8, 16, 32, 32)
    _norm_native.train_norm(x, torch.ones(16), torch.zeros(16), 1e-5, False, None)
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child_norm, args=(q,))
    p.start()
    p.join(60)
    hung = p.is_alive()
    if hung:
        p.kill()
    assert not hung and p.exitcode == 0
    assert abs(q.get(timeout=5)) < 1e-5


def test_no_gradient_of_the_gradient():
    # MXNet's _backward_BatchNorm has no gradient either: asking for one raises, never a
    # silently missing term
    x = torch.randn(8, 16, 32, 32).requires_grad_()
    gamma = torch.ones(16, requires_grad=True)
    y = _norm_native.train_norm(x, gamma, torch.zeros(16), 1e-5, False, None)[0]
    (gx,) = torch.autograd.grad((y * y).sum(), [x], create_graph=True)
    with pytest.raises(RuntimeError):
        gx.sum().backward()
