"""Depthwise convolutions of small maps on the native kernel (mxnet/_op/_dwconv.py)."""

import numpy as np
import pytest
import torch

import mxnet as mx
from mxnet._op import _dwconv

pytestmark = pytest.mark.skipif(mx._kernels.library("dwconv") is None,
                                reason="native kernels not built here (no C compiler)")
CL = torch.channels_last


@pytest.mark.parametrize("n,c,h,w,k,s,p,bias,cl", [
    (2, 8, 6, 5, (3, 3), (1, 1), (1, 1), False, True),    # few channels, odd width
    (3, 16, 4, 4, (3, 3), (2, 2), (1, 1), True, False),   # stride 2, bias, NCHW input
    (2, 24, 2, 2, (3, 3), (1, 1), (1, 1), False, True),   # 2x2 maps (MobileNet at 32x32)
    (1, 5, 7, 6, (5, 3), (2, 1), (2, 0), True, True),     # non-square kernel and stride
    (2, 4, 3, 3, (3, 3), (1, 1), (2, 2), False, False),   # padding wider than half the kernel
    (2, 7, 5, 9, (1, 3), (1, 3), (0, 1), False, True),    # stride wider than the kernel
])
def test_matches_float64_convolution(n, c, h, w, k, s, p, bias, cl):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, c, h, w, generator=g)
    x = x.contiguous(memory_format=CL) if cl else x
    wt = torch.randn(c, 1, *k, generator=g)
    b = torch.randn(c, generator=g) if bias else None
    assert _dwconv.applies(x, wt, (1, 1), c, s, p)
    xs, ws = x.clone().requires_grad_(), wt.clone().requires_grad_()
    bs = b.clone().requires_grad_() if bias else None
    y = _dwconv.conv(xs, ws, bs, s, p)
    xr, wr = x.double().requires_grad_(), wt.double().requires_grad_()
    br = b.double().requires_grad_() if bias else None
    yr = torch.nn.functional.conv2d(xr, wr, br, s, p, 1, c)
    assert y.shape == yr.shape and y.is_contiguous(memory_format=CL)
    torch.testing.assert_close(y.double(), yr, rtol=1e-5, atol=1e-5)
    gy = torch.randn(y.shape, generator=g)
    y.backward(gy)
    yr.backward(gy.double())
    torch.testing.assert_close(xs.grad.double(), xr.grad, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(ws.grad.double(), wr.grad, rtol=1e-5, atol=1e-5)
    if bias:
        torch.testing.assert_close(bs.grad.double(), br.grad, rtol=1e-5, atol=1e-5)


def test_convolution_operator_takes_it_and_weight_only_gradient(monkeypatch):
    calls = []
    conv = _dwconv.conv
    monkeypatch.setattr(_dwconv, "conv", lambda *a: calls.append(1) or conv(*a))
    x = mx.nd.random.normal(shape=(4, 32, 4, 4))
    w = mx.nd.random.normal(shape=(32, 1, 3, 3))
    w.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(x, w, kernel=(3, 3), pad=(1, 1), num_filter=32, num_group=32,
                              no_bias=True)
    y.backward()
    assert calls == [1]
    want = torch.nn.functional.conv2d(torch.from_numpy(x.asnumpy()).double(),
                                      torch.from_numpy(w.asnumpy()).double().requires_grad_(),
                                      None, 1, 1, 1, 32)
    np.testing.assert_allclose(y.asnumpy(), want.detach().numpy(), rtol=1e-5, atol=1e-5)
    wr = torch.from_numpy(w.asnumpy()).double().requires_grad_()
    torch.nn.functional.conv2d(torch.from_numpy(x.asnumpy()).double(), wr, None, 1, 1, 1,
                               32).sum().backward()
    np.testing.assert_allclose(w.grad.asnumpy(), wr.grad.numpy(), rtol=1e-5, atol=1e-4)


def test_second_order_gradient_and_limits():
    x = torch.randn(2, 8, 4, 4, requires_grad=True)
    w = torch.randn(8, 1, 3, 3, requires_grad=True)
    (gx,) = torch.autograd.grad(_dwconv.conv(x, w, None, (1, 1), (1, 1)).pow(2).sum(), x,
                                create_graph=True)
    xr, wr = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    (gr,) = torch.autograd.grad(torch.nn.functional.conv2d(xr, wr, None, 1, 1, 1, 8).pow(2)
                                .sum(), xr, create_graph=True)
    torch.testing.assert_close(torch.autograd.grad(gx.sum(), w)[0].double(),
                               torch.autograd.grad(gr.sum(), wr)[0], rtol=1e-4, atol=1e-4)
    big = torch.randn(32, 64, 32, 32)
    assert not _dwconv.applies(big, torch.randn(64, 1, 3, 3), (1, 1), 64, (1, 1), (1, 1))
    assert not _dwconv.applies(x, w, (2, 2), 8)  # dilated
    assert not _dwconv.applies(x.double(), w.double(), (1, 1), 8)
    assert not _dwconv.applies(x, torch.randn(16, 1, 3, 3), (1, 1), 8)  # multiplier 2
