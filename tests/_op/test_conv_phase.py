"""The phase-form input gradient of strided convolutions over few channels
(mxnet/_op/_conv_phase.py) equals torch's own, and Convolution uses it."""

import numpy as np
import pytest
import torch

import mxnet as mx
from mxnet._op import _conv_phase
from mxnet._op._conv_phase import phase_conv2d, phase_input_grad


@pytest.mark.parametrize("n,c,h,w,o,k,stride,pad", [
    (2, 3, 32, 32, 8, (7, 7), (2, 2), (3, 3)),  # ResNet's stem
    (2, 3, 11, 9, 5, (3, 3), (2, 2), (1, 1)),   # odd sizes
    (1, 2, 10, 10, 4, (5, 5), (3, 3), (0, 0)),
    (2, 1, 9, 12, 3, (4, 2), (2, 3), (2, 1)),   # unequal strides, kernels, pads
    (2, 4, 8, 8, 6, (1, 1), (2, 2), (0, 0)),    # kernel smaller than the stride
])
def test_phase_gradient_matches_torch(n, c, h, w, o, k, stride, pad):
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(n, c, h, w, generator=gen, dtype=torch.float64)
    wt = torch.randn(o, c, *k, generator=gen, dtype=torch.float64)
    y = torch.nn.functional.conv2d(x, wt, None, stride, pad)
    g = torch.randn(y.shape, generator=gen, dtype=torch.float64)
    ref = torch.ops.aten.convolution_backward(g, x, wt, None, list(stride), list(pad), [1, 1],
                                              False, [0, 0], 1, [True, False, False])[0]
    torch.testing.assert_close(phase_input_grad(g, wt, stride, pad, (h, w)), ref)
    b = torch.randn(o, generator=gen, dtype=torch.float64)
    xs, ws, bs = (t.clone().requires_grad_() for t in (x, wt, b))
    out = phase_conv2d(xs, ws, bs, stride, pad)
    out.backward(g)
    xr, wr, br = (t.clone().requires_grad_() for t in (x, wt, b))
    torch.nn.functional.conv2d(xr, wr, br, stride, pad).backward(g)
    for got, want in ((out, y + b.view(1, -1, 1, 1)), (xs.grad, xr.grad), (ws.grad, wr.grad),
                      (bs.grad, br.grad)):
        torch.testing.assert_close(got, want)


def test_convolution_takes_the_phase_form_for_data_gradients(monkeypatch):
    calls = []
    orig = _conv_phase.phase_input_grad
    monkeypatch.setattr(_conv_phase, "phase_input_grad",
                        lambda *a: calls.append(1) or orig(*a))
    rng = np.random.RandomState(0)
    x = mx.nd.array(rng.randn(2, 3, 15, 15))
    w = mx.nd.array(rng.randn(4, 3, 7, 7))
    b = mx.nd.array(rng.randn(4))
    for arr in (x, w, b):
        arr.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(x, w, b, kernel=(7, 7), stride=(2, 2), pad=(3, 3), num_filter=4)
    y.backward(mx.nd.ones(y.shape))
    assert calls == [1]
    xt, wt, bt = (torch.tensor(a.asnumpy(), requires_grad=True) for a in (x, w, b))
    torch.nn.functional.conv2d(xt, wt, bt, 2, 3).backward(torch.ones(y.shape))
    for arr, t in ((x, xt), (w, wt), (b, bt)):
        np.testing.assert_allclose(arr.grad.asnumpy(), t.grad.numpy(), rtol=1e-4, atol=1e-4)
    with mx.autograd.record():  # no data gradient wanted: torch's own kernel
        mx.nd.Convolution(x.detach(), w, b, kernel=(7, 7), stride=(2, 2), pad=(3, 3),
                          num_filter=4).backward()
    assert calls == [1]
