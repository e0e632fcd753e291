"""1x1 convolutions with the native weight gradient (mxnet/_op/_conv_native.py)."""

import pytest
import torch

import mxnet as mx
from mxnet import _kernels
from mxnet._op import _conv_native as cn

pytestmark = pytest.mark.skipif(_kernels.library("gemm") is None,
                                reason="native kernels not built here (no C compiler)")
CL = torch.channels_last


@pytest.fixture(autouse=True)
def _small_shapes_too(monkeypatch):
    """These tests use small arrays: take the native path whatever their size (and not the
    single matrix product of tiny 1x1 convolutions)."""
    from mxnet._op import _conv

    monkeypatch.setattr(cn, "MIN_MACS", 0)
    monkeypatch.setattr(_conv, "TINY_POINTWISE_MACS", 0)


def _data(n, ci, h, w, co, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, ci, h, w, generator=g).to(memory_format=CL)
    wt = torch.randn(co, ci, 1, 1, generator=g)
    return x, wt


@pytest.mark.parametrize("n,ci,h,co,s,bias", [
    (2, 64, 9, 96, 1, False),    # output channels a multiple of the tile
    (3, 64, 7, 10, 1, True),     # a partial last tile (10 = 6 + 4), with a bias
    (1, 128, 5, 7, 1, False),    # 7 = 6 + 1
    (2, 64, 10, 32, 2, False),   # stride 2: every other pixel of every other row
    (2, 64, 9, 13, 2, True),     # stride 2 on an odd size
])
def test_gradients_match_torch(n, ci, h, co, s, bias):
    x, w = _data(n, ci, h, h, co)
    b = torch.randn(co) if bias else None
    assert cn.applies(x.requires_grad_(), w.requires_grad_(), (s, s), (0, 0), (1, 1), 1)
    xr, wr = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    br = b.double().requires_grad_() if bias else None
    bb = b.clone().requires_grad_() if bias else None
    y = cn.conv1x1(x, w, bb, (s, s))
    yr = torch.nn.functional.conv2d(xr, wr, br, s)
    assert y.shape == yr.shape
    torch.testing.assert_close(y.double(), yr, rtol=1e-5, atol=1e-4)
    gy = torch.randn(y.shape, generator=torch.Generator().manual_seed(1)).to(memory_format=CL)
    y.backward(gy)
    yr.backward(gy.double())
    scale = wr.grad.abs().max().item()
    assert (w.grad.double() - wr.grad).abs().max().item() < 1e-5 * scale
    torch.testing.assert_close(x.grad.double(), xr.grad, rtol=1e-5, atol=1e-4)
    if bias:
        torch.testing.assert_close(bb.grad.double(), br.grad, rtol=1e-5, atol=1e-4)


def test_weight_gradient_independent_of_threads():
    x, w = _data(4, 64, 16, 64, 40)
    gy = torch.randn(4, 40, 16, 16).to(memory_format=CL)
    lib = _kernels.library("gemm")
    outs = []
    for nthr in (1, 2, 3):
        dw = torch.empty(40, 64, 1, 1)
        lib.mxng_wgrad_1x1(gy.data_ptr(), x.data_ptr(), dw.data_ptr(), 4, 16, 16, 16, 16, 1,
                           40, 64, nthr)
        outs.append(dw)
    assert torch.equal(outs[0], outs[1]) and torch.equal(outs[0], outs[2])


def test_not_applied_where_it_does_not_fit():
    x, w = _data(2, 64, 8, 8, 16)
    x.requires_grad_()
    w.requires_grad_()
    assert cn.applies(x, w, (1, 1), (0, 0), (1, 1), 1)
    assert not cn.applies(x.contiguous(), w, (1, 1), (0, 0), (1, 1), 1)  # channels first
    assert not cn.applies(x, w, (1, 1), (1, 1), (1, 1), 1)  # padded
    assert not cn.applies(x, w, (1, 1), (0, 0), (2, 2), 1)  # dilated
    assert not cn.applies(x, w, (1, 2), (0, 0), (1, 1), 1)  # unequal strides
    assert not cn.applies(x.double(), w.double(), (1, 1), (0, 0), (1, 1), 1)
    assert not cn.applies(x, w.detach(), (1, 1), (0, 0), (1, 1), 1)  # no weight gradient
    with torch.no_grad():
        assert not cn.applies(x, w, (1, 1), (0, 0), (1, 1), 1)
    x3, w3 = _data(2, 63, 8, 8, 16)  # input channels not a multiple of the tile
    assert not cn.applies(x3.requires_grad_(), w3.requires_grad_(), (1, 1), (0, 0), (1, 1), 1)


def test_second_order_gradient_uses_torch_kernels():
    x, w = _data(2, 64, 6, 6, 8)
    x.requires_grad_()
    w.requires_grad_()
    y = cn.conv1x1(x, w, None, (1, 1))
    (gw,) = torch.autograd.grad((y * y).sum(), w, create_graph=True)
    (ggx,) = torch.autograd.grad(gw.sum(), x)
    xr, wr = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    yr = torch.nn.functional.conv2d(xr, wr)
    (gwr,) = torch.autograd.grad((yr * yr).sum(), wr, create_graph=True)
    (ggxr,) = torch.autograd.grad(gwr.sum(), xr)
    torch.testing.assert_close(ggx.double(), ggxr, rtol=1e-4, atol=1e-3)


def test_nhwc_convolution_through_autograd(monkeypatch):
    """mx.nd.Convolution with layout NHWC: the data arrive channels-last, so the 1x1
    weight gradient runs natively; it equals a float64 computation."""
    calls = []
    native = cn._wgrad
    monkeypatch.setattr(cn, "_wgrad", lambda *a: calls.append(1) or native(*a))
    x = mx.nd.random.normal(shape=(2, 5, 5, 64))
    w = mx.nd.random.normal(shape=(24, 1, 1, 64))
    x.attach_grad()
    w.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(x, w, kernel=(1, 1), num_filter=24, no_bias=True, layout="NHWC")
    y.backward(mx.nd.ones_like(y))
    xd = torch.tensor(x.asnumpy(), dtype=torch.float64)
    ref = xd.sum(dim=(0, 1, 2))  # dW[o, i] = sum over pixels of x[., i] (dy = 1)
    got = torch.tensor(w.grad.asnumpy(), dtype=torch.float64)[:, 0, 0, :]
    torch.testing.assert_close(got, ref.expand(24, 64), rtol=1e-5, atol=1e-4)
    assert calls == [1]


def test_small_convolutions_stay_on_onednn(monkeypatch):
    monkeypatch.setattr(cn, "MIN_MACS", 50_000_000)
    x, w = _data(2, 64, 8, 8, 16)  # 2*8*8 pixels * 64 * 16 = 131k multiply-adds
    assert not cn.applies(x.requires_grad_(), w.requires_grad_(), (1, 1), (0, 0), (1, 1), 1)
    x, w = _data(8, 64, 32, 32, 256)  # 537M
    assert cn.applies(x.requires_grad_(), w.requires_grad_(), (1, 1), (0, 0), (1, 1), 1)


@pytest.mark.parametrize("n,ci,h,co,s", [
    (2, 64, 9, 128, 1),    # 162 pixel rows: partial row tiles and a partial row block
    (1, 128, 11, 64, 2),   # stride 2 on an odd size
    (4, 64, 64, 256, 1),   # 4M outputs: written with streaming stores
])
def test_native_forward_and_input_gradient(monkeypatch, n, ci, h, co, s):
    if cn._tile() < 64:
        pytest.skip("the native forward product needs AVX-512")
    calls = []
    impl = cn._mm_impl
    monkeypatch.setattr(cn, "_mm_impl", lambda *a: calls.append(a[3]) or impl(*a))
    x, w = _data(n, ci, h, h, co, seed=3)
    x.requires_grad_()
    w.requires_grad_()
    y = cn.conv1x1(x, w, None, (s, s))
    xr, wr = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    yr = torch.nn.functional.conv2d(xr, wr, None, s)
    assert y.is_contiguous(memory_format=CL) and y.shape == yr.shape
    torch.testing.assert_close(y.double(), yr, rtol=1e-5, atol=1e-4)
    gy = torch.randn(y.shape, generator=torch.Generator().manual_seed(4)).to(memory_format=CL)
    y.backward(gy)
    yr.backward(gy.double())
    assert x.grad.is_contiguous(memory_format=CL)
    torch.testing.assert_close(x.grad.double(), xr.grad, rtol=1e-5, atol=1e-4)
    assert calls == [False, True]  # forward, then input gradient


def test_native_products_independent_of_threads():
    x, w = _data(2, 64, 12, 12, 64)
    lib = _kernels.library("gemm")
    outs = []
    for nthr in (1, 2, 3):
        y = torch.empty(2, 64, 12, 12).to(memory_format=CL)
        assert lib.mxng_rows_gemm(x.data_ptr(), w.data_ptr(), y.data_ptr(), 2 * 144, 64, 64,
                                  12, 12, 12, 12, 1, 1, nthr) == 0
        outs.append(y)
    assert torch.equal(outs[0], outs[1]) and torch.equal(outs[0], outs[2])
    torch.testing.assert_close(outs[0], torch.nn.functional.conv2d(x, w), rtol=1e-5, atol=1e-4)
