"""3x3 convolutions by Winograd's F(2x2, 3x3) on the native kernel (mxnet/_op/_conv_wino.py)."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import mxnet as mx
from mxnet._op import _conv_wino as cw

pytestmark = pytest.mark.skipif(
    mx._kernels.library("wino") is None or not cw.enabled(),
    reason="no vector-tiled native kernel here (AVX-512 or AVX2 build)")
CL = torch.channels_last


def _rel(a: torch.Tensor, ref: torch.Tensor) -> float:
    return float((a.detach().double() - ref).abs().max() / ref.abs().max())


@pytest.mark.parametrize("n,c,h,w,k,bias", [
    (2, 64, 8, 8, 64, False),     # whole 2x2 blocks
    (3, 64, 7, 9, 128, True),     # odd height and width: the last blocks overrun the map
    (1, 128, 5, 3, 64, False),    # fewer output than input channels
    (2, 64, 1, 1, 64, True),      # a single pixel: only the centre tap reads data
])
def test_forward_and_gradients_match_float64(n, c, h, w, k, bias):
    g = torch.Generator().manual_seed(1)
    x = torch.randn(n, c, h, w, generator=g).contiguous(memory_format=CL)
    wt = torch.randn(k, c, 3, 3, generator=g) / (3 * c ** 0.5)
    b = torch.randn(k, generator=g) if bias else None
    xs, ws = x.clone().requires_grad_(), wt.clone().requires_grad_()
    bs = b.clone().requires_grad_() if bias else None
    y = cw.conv3x3(xs, ws, bs)
    xr, wr = x.double().requires_grad_(), wt.double().requires_grad_()
    br = b.double().requires_grad_() if bias else None
    yr = F.conv2d(xr, wr, br, 1, 1)
    assert y.shape == yr.shape and y.is_contiguous(memory_format=CL)
    # the direct float32 sums reach 1-2.5e-6 here; the Winograd products are no worse
    assert _rel(y, yr) < 1.5e-6
    gy = torch.randn(y.shape, generator=g)
    y.backward(gy)
    yr.backward(gy.double())
    assert _rel(xs.grad, xr.grad) < 1.5e-6
    assert _rel(ws.grad, wr.grad) < 1e-5
    if bias:
        assert _rel(bs.grad, br.grad) < 1e-5


def test_the_registry_convolution_takes_the_route(monkeypatch):
    calls = []
    impl = cw._impl
    monkeypatch.setattr(cw, "_impl", lambda a, w, flip: calls.append(flip) or impl(a, w, flip))
    monkeypatch.setattr(cw, "MIN_MACS", 0)
    monkeypatch.setattr(cw.applies, "__defaults__", (0,))
    rng = np.random.RandomState(0)
    x = mx.nd.array(rng.randn(2, 64, 96, 96))  # large maps run channels-last
    w = mx.nd.array(rng.randn(64, 64, 3, 3) * 0.05)
    x.attach_grad()
    w.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(x, w, kernel=(3, 3), pad=(1, 1), num_filter=64, no_bias=True)
    y.backward(mx.nd.ones_like(y))
    assert calls == [False, True]  # forward, then the input gradient
    X = torch.tensor(x.asnumpy(), dtype=torch.float64, requires_grad=True)
    W = torch.tensor(w.asnumpy(), dtype=torch.float64, requires_grad=True)
    Y = F.conv2d(X, W, None, 1, 1)
    Y.backward(torch.ones_like(Y))
    assert _rel(torch.from_numpy(y.asnumpy()), Y.detach()) < 1.5e-6
    assert _rel(torch.from_numpy(x.grad.asnumpy()), X.grad) < 1.5e-6
    assert _rel(torch.from_numpy(w.grad.asnumpy()), W.grad) < 1e-5


@pytest.mark.parametrize("why,stride,pad,dilate,groups", [
    ("stride", (2, 2), (1, 1), (1, 1), 1),
    ("pad", (1, 1), (0, 0), (1, 1), 1),
    ("dilate", (1, 1), (1, 1), (2, 2), 1),
    ("groups", (1, 1), (1, 1), (1, 1), 2),
    ("nchw", (1, 1), (1, 1), (1, 1), 1),
    ("channels", (1, 1), (1, 1), (1, 1), 1),
    ("small", (1, 1), (1, 1), (1, 1), 1),
])
def test_route_refuses_what_it_does_not_compute(why, stride, pad, dilate, groups):
    x = torch.randn(4, 64, 64, 64).contiguous(memory_format=CL)
    w = torch.randn(64, 64, 3, 3)
    assert cw.applies(x, w, (1, 1), (1, 1), (1, 1), 1)
    if why == "nchw":
        x = x.contiguous()
    elif why == "channels":
        x, w = torch.randn(4, 48, 64, 64).contiguous(memory_format=CL), torch.randn(64, 48, 3, 3)
    elif why == "small":
        x = torch.randn(1, 64, 8, 8).contiguous(memory_format=CL)
    assert not cw.applies(x, w, stride, pad, dilate, groups)


def test_gradient_of_gradient_uses_torch_kernels():
    g = torch.Generator().manual_seed(2)
    x = torch.randn(1, 64, 4, 4, generator=g).contiguous(memory_format=CL).requires_grad_()
    w = (torch.randn(64, 64, 3, 3, generator=g) * 0.05).requires_grad_()
    y = cw.conv3x3(x, w, None)
    (gx,) = torch.autograd.grad(y.square().sum(), x, create_graph=True)
    (gw,) = torch.autograd.grad(gx.sum(), w)
    xr, wr = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    (gxr,) = torch.autograd.grad(F.conv2d(xr, wr, None, 1, 1).square().sum(), xr,
                                 create_graph=True)
    (gwr,) = torch.autograd.grad(gxr.sum(), wr)
    assert _rel(gx.detach(), gxr.detach()) < 1e-5 and _rel(gw, gwr) < 1e-5


def test_compiled_graph_keeps_the_kernel_opaque():
    x = torch.randn(2, 64, 6, 6).contiguous(memory_format=CL)
    w = torch.randn(64, 64, 3, 3) * 0.05
    f = torch.compile(lambda a, b: cw._run(a, b, False), fullgraph=True)
    torch.testing.assert_close(f(x, w), cw._impl(x, w, False), rtol=0, atol=0)


def test_weight_gradient_does_not_depend_on_the_thread_count():
    import ctypes

    lib = mx._kernels.library("wino")
    g = torch.Generator().manual_seed(3)
    x = torch.randn(3, 64, 9, 7, generator=g).contiguous(memory_format=CL)
    dy = torch.randn(3, 64, 9, 7, generator=g).contiguous(memory_format=CL)
    out = []
    for nthr in (1, 2, 3):
        dw = torch.empty(64, 64, 3, 3)
        assert lib.mxng_wino_wgrad(ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(dy.data_ptr()),
                                   ctypes.c_void_p(dw.data_ptr()), 3, 9, 7, 64, 64, nthr) == 0
        out.append(dw)
    assert torch.equal(out[0], out[1]) and torch.equal(out[0], out[2])
    ref = torch.ops.aten.convolution_backward(dy.double(), x.double(), out[0].double(), None,
                                              [1, 1], [1, 1], [1, 1], False, [0, 0], 1,
                                              [False, True, False])[1]
    assert _rel(out[0], ref) < 1e-6


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_non_finite_values_as_the_direct_sums_give_them(bad):
    """An Inf input pixel gives +-Inf in the outputs that read it, as the direct sums do;
    the transforms would mix +Inf and -Inf into NaN, so those calls are computed directly
    (NaN stays NaN in the same places); the same for the input and weight gradients."""
    g = torch.Generator().manual_seed(4)
    x = torch.randn(1, 64, 6, 6, generator=g)
    x[0, 3, 2, 2] = bad
    x = x.contiguous(memory_format=CL).requires_grad_()
    w = (torch.randn(64, 64, 3, 3, generator=g) * 0.05).requires_grad_()
    y = cw.conv3x3(x, w, None)
    ref = F.conv2d(x.detach(), w.detach(), None, 1, 1)
    assert int((~torch.isfinite(ref)).sum()) == 9 * 64
    torch.testing.assert_close(y, ref, rtol=1e-5, atol=1e-5, equal_nan=True)
    gy = torch.zeros(y.shape)
    gy[0, :, 3, 3] = bad
    y.backward(gy)
    rx, rw, _ = torch.ops.aten.convolution_backward(gy, x.detach(), w.detach(), None, [1, 1],
                                                    [1, 1], [1, 1], False, [0, 0], 1,
                                                    [True, True, False])
    torch.testing.assert_close(x.grad, rx, rtol=1e-5, atol=1e-5, equal_nan=True)
    torch.testing.assert_close(w.grad, rw, rtol=1e-5, atol=1e-5, equal_nan=True)


def test_forward_does_not_depend_on_the_thread_count():
    import ctypes

    lib = mx._kernels.library("wino")
    g = torch.Generator().manual_seed(5)
    x = torch.randn(3, 64, 13, 11, generator=g).contiguous(memory_format=CL)
    u = cw.weights(torch.randn(128, 64, 3, 3, generator=g))
    out = []
    for nthr in (1, 2, 3):
        y = torch.empty((3, 128, 13, 11), memory_format=CL)
        assert lib.mxng_wino_conv(ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(u.data_ptr()),
                                  ctypes.c_void_p(y.data_ptr()), 3, 13, 11, 64, 128, None, None,
                                  0, nthr) == 0
        out.append(y)
    assert torch.equal(out[0], out[1]) and torch.equal(out[0], out[2])
