"""Input gradient of strided few-channel convolutions on the native kernel
(mxnet/_op/_conv_small.py, used by the phase route of mxnet/_op/_conv_phase.py)."""

import ctypes

import pytest
import torch
import torch.nn.functional as F

import mxnet as mx
from mxnet._op import _conv_phase, _conv_small

pytestmark = pytest.mark.skipif(not _conv_small.ready(),
                                reason="no native kernel with 64-channel tiles here")
CL = torch.channels_last


def _rel(a, ref):
    return float((a.detach().double() - ref).abs().max() / ref.abs().max())


@pytest.mark.parametrize("n,c,h,w,o,k,s,p", [
    (2, 3, 17, 15, 64, (7, 7), (2, 2), (3, 3)),    # the stem, odd sizes: borders clipped
    (3, 4, 12, 11, 128, (5, 3), (3, 2), (2, 1)),   # non-square kernel, stride and padding
    (1, 1, 9, 9, 64, (3, 3), (2, 2), (0, 0)),      # no padding, one channel
])
def test_input_gradient_matches_float64(n, c, h, w, o, k, s, p):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, c, h, w, generator=g)
    wt = torch.randn(o, c, *k, generator=g) * 0.1
    y = F.conv2d(x, wt, None, s, p)
    dy = torch.randn(y.shape, generator=g)
    assert _conv_small.applies(dy, wt)
    dx = _conv_small.input_grad(dy, wt, x.shape, s, p)
    ref = torch.ops.aten.convolution_backward(
        dy.double(), x.double(), wt.double(), None, list(s), list(p), [1, 1], False, [0, 0], 1,
        [True, False, False])[0]
    assert dx.shape == x.shape and dx.is_contiguous(memory_format=CL)
    assert _rel(dx, ref) < 1e-6


def test_result_does_not_depend_on_the_thread_count():
    lib = mx._kernels.library("smallconv")
    g = torch.Generator().manual_seed(1)
    dy = torch.randn(3, 64, 6, 6, generator=g).contiguous(memory_format=CL)
    wkt = torch.randn(64, 7, 7, 3, generator=g)
    out = []
    for nthr in (1, 2, 3):
        dx = torch.empty((3, 3, 12, 12), memory_format=CL)
        assert lib.mxng_small_dgrad(ctypes.c_void_p(dy.data_ptr()),
                                    ctypes.c_void_p(wkt.data_ptr()),
                                    ctypes.c_void_p(dx.data_ptr()),
                                    3, 12, 12, 3, 64, 7, 7, 2, 2, 3, 3, nthr) == 0
        out.append(dx)
    assert torch.equal(out[0], out[1]) and torch.equal(out[0], out[2])


def test_the_registry_convolution_uses_it(monkeypatch):
    calls = []
    impl = _conv_small._impl
    monkeypatch.setattr(_conv_small, "_impl", lambda *a: calls.append(1) or impl(*a))
    x = mx.nd.random.normal(shape=(2, 3, 32, 32))
    w = mx.nd.random.normal(shape=(64, 3, 7, 7)) * 0.1
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(x, w, kernel=(7, 7), stride=(2, 2), pad=(3, 3), num_filter=64,
                              no_bias=True)
    y.backward(mx.nd.ones_like(y))
    assert calls == [1]
    ref = _conv_phase.phase_input_grad(torch.ones(y.shape, dtype=torch.float64),
                                       torch.from_numpy(w.asnumpy()).double(), (2, 2), (3, 3),
                                       (32, 32))
    assert _rel(torch.from_numpy(x.grad.asnumpy()), ref) < 1e-6


def test_float64_and_few_output_channels_keep_the_phase_form():
    assert not _conv_small.applies(torch.zeros(1, 64, 4, 4, dtype=torch.float64),
                                   torch.zeros(64, 3, 7, 7, dtype=torch.float64))
    assert not _conv_small.applies(torch.zeros(1, 48, 4, 4), torch.zeros(48, 3, 7, 7))
