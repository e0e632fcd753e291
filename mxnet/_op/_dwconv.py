"""Depthwise convolutions of small maps on the native kernel of ``mxnet/_kernels/dwconv.c``.

A depthwise 2-D convolution (``num_group`` equal to the channel count, one filter per
channel) of a small map is little work, but PyTorch's oneDNN call costs 0.2-0.8 ms of setup
forward+backward whatever the size: MobileNet-0.25 on 32x32 CIFAR images spends most of its
convolution time there (32x128x2x2 data: 0.39 ms forward+backward through oneDNN, ~0.05 ms
here). Used for float32 CPU data without dilation, up to ``MAX_MACS`` multiply-adds, outside
``torch.compile``, where the kernel library could be built (:mod:`mxnet._kernels`). The
result is channels-last, like the grouped route of :mod:`mxnet._op._conv`. The weight
gradient is summed in double; a gradient of the gradient (``create_graph=True``) runs on
PyTorch's kernels.

Examples
--------
>>> import torch
>>> from mxnet._op import _dwconv
>>> x, w = torch.randn(2, 8, 4, 4), torch.randn(8, 1, 3, 3)
>>> y = _dwconv.conv(x, w, None, (1, 1), (1, 1)) if _dwconv.applies(x, w, (1, 1), 8) else None
"""

from __future__ import annotations

import torch

from .. import _kernels

__all__ = ["applies", "conv", "MAX_MACS"]

CL = torch.channels_last

# up to this many multiply-adds the native loops (plus the Python autograd node) beat
# oneDNN's call forward+backward (32x128x2x2: 166 against 391 us; at 0.59M even)
MAX_MACS = 1 << 19


def _lib():
    return _kernels.library("dwconv") if _kernels.ready("dwconv") else None


def _out(h: int, k: int, s: int, p: int) -> int:
    return (h + 2 * p - k) // s + 1


def applies(x: torch.Tensor, w: torch.Tensor, dilate, groups: int, stride=(1, 1),
            pad=(0, 0)) -> bool:
    """Whether :func:`conv` runs ``conv2d(x, w, b, stride, pad, groups=groups)``."""
    if not (x.dim() == 4 and groups > 1 and groups == x.shape[1] == w.shape[0]
            and w.shape[1] == 1 and x.dtype == torch.float32 and w.dtype == torch.float32
            and x.device.type == "cpu" and all(v == 1 for v in dilate)
            and not torch.compiler.is_compiling()):
        return False
    ho = _out(x.shape[2], w.shape[2], stride[0], pad[0])
    wo = _out(x.shape[3], w.shape[3], stride[1], pad[1])
    macs = x.shape[0] * x.shape[1] * ho * wo * w.shape[2] * w.shape[3]
    return ho > 0 and wo > 0 and macs <= MAX_MACS and _lib() is not None


def _geometry(x, w, stride, pad):
    n, c, h, wd = x.shape
    kh, kw = w.shape[2], w.shape[3]
    ho, wo = _out(h, kh, stride[0], pad[0]), _out(wd, kw, stride[1], pad[1])
    return (n, h, wd, c, kh, kw, ho, wo, stride[0], stride[1], pad[0], pad[1])


def _taps(w: torch.Tensor) -> torch.Tensor:
    """``w`` [C, 1, KH, KW] as [KH, KW, C] (a tap's channels contiguous)."""
    return w.reshape(w.shape[0], -1).t().contiguous()


class _Depthwise(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, b, stride, pad):
        x = x.contiguous(memory_format=CL)
        geo = _geometry(x, w, stride, pad)
        n, _, _, c, _, _, ho, wo = geo[:8]
        y = torch.empty((n, c, ho, wo), dtype=torch.float32, memory_format=CL)
        bias = b.contiguous() if b is not None else None
        wt = _taps(w)  # held until the call returns
        rc = _lib().mxng_dw_fwd(x.data_ptr(), wt.data_ptr(),
                                bias.data_ptr() if bias is not None else None, y.data_ptr(), *geo)
        if rc != 0:
            raise MemoryError("Convolution (depthwise): out of memory")
        ctx.save_for_backward(x, w, wt)
        ctx.conf = (stride, pad, b is not None)
        return y

    @staticmethod
    def backward(ctx, g):
        x, w, wt = ctx.saved_tensors
        stride, pad, has_b = ctx.conf
        need = ctx.needs_input_grad
        gb = g.sum((0, 2, 3)) if has_b and need[2] else None
        if torch.is_grad_enabled():  # create_graph: PyTorch's differentiable kernels
            gx, gw, _ = torch.ops.aten.convolution_backward(
                g, x, w, None, list(stride), list(pad), [1, 1], False, [0, 0], x.shape[1],
                [bool(need[0]), bool(need[1]), False])
            return gx, gw, gb, None, None
        g = g.contiguous(memory_format=CL)
        gx = torch.empty(x.shape, dtype=torch.float32, memory_format=CL) if need[0] else None
        taps = torch.empty((w.shape[2] * w.shape[3], w.shape[0]), dtype=torch.float32)
        rc = _lib().mxng_dw_bwd(g.data_ptr(), x.data_ptr(), wt.data_ptr(),
                                gx.data_ptr() if gx is not None else None, taps.data_ptr(),
                                *_geometry(x, w, stride, pad))
        if rc != 0:
            raise MemoryError("Convolution (depthwise): out of memory")
        gw = taps.t().reshape(w.shape) if need[1] else None
        return gx, gw, gb, None, None


def conv(x, w, b, stride, pad) -> torch.Tensor:
    """``F.conv2d(x, w, b, stride, pad, groups=C)`` for a depthwise ``w`` (see
    :func:`applies`); the result is channels-last."""
    return _Depthwise.apply(x, w, b, tuple(stride), tuple(pad))
