"""The input gradient of strided 2-D convolutions over few channels, as one convolution.

oneDNN computes the data gradient of a convolution with few input channels and a stride
(ResNet's 7x7/2 stem over RGB images) slowly: 185 ms for ResNet-50's stem at batch 16 on
one core, where its weight gradient takes 45 ms and MXNet 1.9.1 needs 55 ms. The same
gradient splits by output phase: the input pixels ``s*a + r`` (for each ``r < s``) receive
gradient from a fixed subset of the kernel taps, so each phase is an ordinary stride-1
correlation of the output gradient with a sub-kernel. Stacking the phases' sub-kernels
(zero-padded to one window) as output channels gives a single convolution with
``C * s_h * s_w`` outputs whose result ``pixel_shuffle`` interleaves back: 76 ms for the
stem. Same sums, in another order (float rounding differs in the last bits). Float32 data
whose output channels are a multiple of 64 takes the native kernel of
:mod:`mxnet._op._conv_small` instead (no padded copy of the output gradient).

Examples
--------
>>> import torch
>>> from mxnet._op._conv_phase import phase_input_grad
>>> w = torch.randn(8, 3, 7, 7)
>>> g = torch.randn(2, 8, 16, 16)
>>> phase_input_grad(g, w, (2, 2), (3, 3), (32, 32)).shape
torch.Size([2, 3, 32, 32])
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from . import _conv_small

__all__ = ["phase_conv_applies", "phase_conv2d", "phase_input_grad"]

# input channels up to which the phase form is used (measured faster for 3, the RGB stem)
_MAX_IN_CHANNELS = 4


def phase_conv_applies(x: torch.Tensor, w: torch.Tensor, stride, dilate, groups: int) -> bool:
    """Whether :func:`phase_conv2d` should run this convolution: 2-D float CPU data whose
    gradient is wanted, a stride above 1, few input channels, no groups or dilation."""
    return (x.dim() == 4 and x.requires_grad and x.device.type == "cpu"
            and x.dtype in (torch.float32, torch.float64) and groups == 1
            and x.shape[1] <= _MAX_IN_CHANNELS and max(stride) > 1
            and all(v == 1 for v in dilate) and torch.is_grad_enabled())


def _phases(k: int, s: int, p: int):
    """Per output phase ``r``: (offset of its taps in the shared window, the kernel taps in
    window order); then the window's offset into the output gradient and its size."""
    found = []
    for r in range(s):
        k0 = (r + p) % s  # first tap reaching input pixels s*a + r
        n = len(range(k0, k, s))
        if n:
            shift = (r + p - k0) // s  # output index of tap k0 for input pixel a
            found.append((r, shift - n + 1, [k0 + s * (n - 1 - u) for u in range(n)]))
    lo = min(off for _, off, _ in found)
    size = max(off + len(taps) for _, off, taps in found) - lo
    return [(r, off - lo, taps) for r, off, taps in found], lo, size


def phase_input_grad(g: torch.Tensor, w: torch.Tensor, stride, pad, in_size) -> torch.Tensor:
    """The gradient of ``conv2d(x, w, stride=stride, padding=pad)`` with respect to ``x``
    (spatial size ``in_size``) for the output gradient ``g``, as one stride-1 convolution."""
    sh, sw = stride
    (ph_h, lo_h, kh), (ph_w, lo_w, kw) = _phases(w.shape[2], sh, pad[0]), _phases(
        w.shape[3], sw, pad[1])
    c, o = w.shape[1], w.shape[0]
    wt = w.transpose(0, 1)  # (C, O, kh, kw)
    stacked = w.new_zeros(c, sh, sw, o, kh, kw)
    for r, uh, taps_h in ph_h:
        rows = wt[:, :, taps_h]
        for q, uw, taps_w in ph_w:
            stacked[:, r, q, :, uh:uh + len(taps_h), uw:uw + len(taps_w)] = rows[:, :, :, taps_w]
    stacked = stacked.reshape(c * sh * sw, o, kh, kw)
    rows_out, cols_out = -(-in_size[0] // sh), -(-in_size[1] // sw)
    # the window of phase pixel a starts at output-gradient index a + lo
    top, left = -lo_h, -lo_w
    bottom = rows_out + kh - 1 + lo_h - g.shape[2]
    right = cols_out + kw - 1 + lo_w - g.shape[3]
    gp = F.pad(g, (max(left, 0), max(right, 0), max(top, 0), max(bottom, 0)))
    if min(top, left, bottom, right) < 0:
        gp = gp[:, :, max(-top, 0):gp.shape[2] - max(-bottom, 0),
                max(-left, 0):gp.shape[3] - max(-right, 0)]
    out = F.conv2d(gp, stacked)  # (N, C*sh*sw, rows_out, cols_out)
    n = out.shape[0]
    if sh == sw:
        out = F.pixel_shuffle(out, sh)
    else:
        out = out.reshape(n, c, sh, sw, rows_out, cols_out).permute(0, 1, 4, 2, 5, 3)
        out = out.reshape(n, c, rows_out * sh, cols_out * sw)
    return out[:, :, :in_size[0], :in_size[1]]


class _PhaseConv2d(torch.autograd.Function):
    """``conv2d`` whose input gradient is :func:`phase_input_grad`."""

    @staticmethod
    def forward(ctx, x, w, b, stride, pad):
        ctx.save_for_backward(x, w)
        ctx.conf = (list(stride), list(pad), b is not None)
        return F.conv2d(x, w, b, stride, pad)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        stride, pad, has_b = ctx.conf
        need = ctx.needs_input_grad
        gx = gw = gb = None
        if need[1] or (has_b and need[2]):
            _, gw, gb = torch.ops.aten.convolution_backward(
                g, x, w, [w.shape[0]] if has_b else None, stride, pad, [1, 1], False,
                [0, 0], 1, [False, bool(need[1]), bool(has_b and need[2])])
        if need[0] and not torch.is_grad_enabled() and _conv_small.applies(g, w):
            gx = _conv_small.input_grad(g, w, x.shape, stride, pad)  # native kernel
        elif need[0]:
            gx = phase_input_grad(g, w, stride, pad, tuple(x.shape[2:]))
        return gx, gw, gb, None, None


def phase_conv2d(x, w, b, stride, pad) -> torch.Tensor:
    """``F.conv2d(x, w, b, stride, pad)`` with the phase-form input gradient."""
    return _PhaseConv2d.apply(x, w, b, tuple(stride), tuple(pad))
