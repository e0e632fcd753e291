"""1x1 convolutions run on the native kernels of ``mxnet/_kernels/gemm.c`` when training.

A 1x1 convolution over channels-last data is a matrix product over the pixel rows; its
weight gradient ``dy^T . x`` reduces over every pixel of the batch (10^5 rows in ResNet-50 at
batch 32) into a small matrix. oneDNN's channels-last kernel for that product runs at 65-95%
of a core's peak depending on the shape (MXNet's blocked-layout kernel ~95%); the native
kernel keeps register tiles of the result and streams the rows through L1, at 85-95%.
ResNet-50 at batch 32 on one core: 1.49 s of 1x1 weight gradients per step against
oneDNN's 1.57 s (64 -> 256 channels: 36.6 against 50.3 ms; a few shapes 2-4 ms slower).
The forward product and the input gradient (at stride 2 scattered into zeros) are the kernel's row-tiled matrix
products: oneDNN's channels-last kernels for few channels run well below its blocked-layout
ones that MXNet uses (in-network, 256 -> 64 channels at 56x56: 56 ms against MXNet's 32 ms a
call); the native kernel sums each output in the same order as oneDNN (equal results) and
streams large outputs past the cache (256 -> 64: 33 ms).

Used for float32 CPU channels-last data with a gradient wanted, no padding, dilation or
groups (also inside ``torch.compile``, as the opaque operator ``mxng::conv1x1_wgrad``),
when the kernel library could be built (:mod:`mxnet._kernels`); :func:`applies`
says whether a call qualifies. Results equal oneDNN's within float32 rounding (each block of
128 rows is summed in registers, then added to the result). A gradient of the gradient
(``create_graph=True``) is computed with PyTorch's differentiable kernels instead.

Examples
--------
>>> import torch
>>> from mxnet._op import _conv_native as cn
>>> x = torch.randn(2, 64, 8, 8).to(memory_format=torch.channels_last).requires_grad_()
>>> w = torch.randn(32, 64, 1, 1, requires_grad=True)
>>> y = cn.conv1x1(x, w, None, (1, 1)) if cn.applies(x, w, (1, 1), (0, 0), (1, 1), 1) else None
"""

from __future__ import annotations

import ctypes

import torch
import torch.nn.functional as F

from .. import _kernels

__all__ = ["applies", "conv1x1", "ready"]


_TILE: list[int] = []


def _tile() -> int:
    """Input channels per register tile (0: no kernel). Asked of the library on the first
    call outside ``torch.compile`` (see :func:`mxnet._kernels.ready`); tracing reads it."""
    if not _TILE and not torch.compiler.is_compiling() and _kernels.ready("gemm"):
        _TILE.append(int(_kernels.library("gemm").mxng_wgrad_tile()))
    return _TILE[0] if _TILE else 0


def ready() -> bool:
    """Whether the kernel is loaded."""
    return _tile() > 0


# below this many multiply-adds the Python autograd node's overhead (~50 us a training
# step) outweighs what the kernel saves over oneDNN's
MIN_MACS = 50_000_000


# forward and input gradient on the native matrix product too (False: oneDNN's, for A/Bs)
NATIVE_MM = True


def _mm_ok() -> bool:
    """The forward/input-gradient product is native with AVX-512 tiles only (64 channels):
    the AVX2 build's tiles measured slower than oneDNN's AVX2 kernels."""
    return NATIVE_MM and _tile() >= 64


def applies(x: torch.Tensor, w: torch.Tensor, stride, pad, dilate, groups: int) -> bool:
    """Whether :func:`conv1x1` should run ``conv2d(x, w, ...)``: float32 CPU channels-last
    data, a 1x1 kernel without padding, dilation or groups, and a weight gradient wanted."""
    if not (w.requires_grad and torch.is_grad_enabled() and x.dim() == 4
            and tuple(w.shape[2:]) == (1, 1) and groups == 1 and x.dtype == torch.float32
            and w.dtype == torch.float32 and x.device.type == "cpu"
            and all(v == 0 for v in pad) and all(v == 1 for v in dilate)
            and stride[0] == stride[1]
            and x.is_contiguous(memory_format=torch.channels_last)):
        return False
    pixels = x.shape[0] * (x.shape[2] // stride[0]) * (x.shape[3] // stride[1])
    if pixels * x.shape[1] * w.shape[0] < MIN_MACS:
        return False
    tile = _tile()
    return tile > 0 and x.shape[1] % tile == 0


def _wgrad_impl(g: torch.Tensor, x: torch.Tensor, w: torch.Tensor, s: int) -> torch.Tensor:
    """The weight gradient of ``conv2d(x, w, stride=s)`` (1x1 ``w``) for the output
    gradient ``g``, as an operator ``torch.compile`` keeps opaque."""
    lib = _kernels.library("gemm")
    g = g.contiguous(memory_format=torch.channels_last)
    x = x.contiguous(memory_format=torch.channels_last)
    n, co, ho, wo = g.shape
    dw = torch.empty(w.shape, dtype=torch.float32)
    lib.mxng_wgrad_1x1(ctypes.c_void_p(g.data_ptr()), ctypes.c_void_p(x.data_ptr()),
                       ctypes.c_void_p(dw.data_ptr()), n, ho, wo, x.shape[2], x.shape[3], s,
                       co, x.shape[1], _kernels.threads())
    return dw


_wgrad_op = torch.library.custom_op("mxng::conv1x1_wgrad", mutates_args=())(_wgrad_impl)


@_wgrad_op.register_fake
def _(g, x, w, s):
    return torch.empty(w.shape, dtype=torch.float32)


def _mm_impl(a: torch.Tensor, w: torch.Tensor, s: int, dgrad: bool) -> torch.Tensor:
    """Forward ``conv2d(a, w, stride=s)`` of a 1x1 ``w``, or (``dgrad``, stride 1) the input
    gradient for the output gradient ``a``: a row-tiled matrix product over the pixels."""
    lib = _kernels.library("gemm")
    a = a.contiguous(memory_format=torch.channels_last)
    w = w.contiguous()
    n, k, h, wd = a.shape
    co = w.shape[1] if dgrad else w.shape[0]
    ho, wo = (h - 1) // s + 1, (wd - 1) // s + 1
    out = torch.empty((n, co, ho, wo), dtype=torch.float32, memory_format=torch.channels_last)
    rc = lib.mxng_rows_gemm(ctypes.c_void_p(a.data_ptr()), ctypes.c_void_p(w.data_ptr()),
                            ctypes.c_void_p(out.data_ptr()), n * ho * wo, k, co, ho, wo, h, wd,
                            s, 0 if dgrad else 1, _kernels.threads())
    if rc != 0:
        raise MemoryError("1x1 convolution: could not allocate the weight panels")
    return out


_mm_op = torch.library.custom_op("mxng::conv1x1_mm", mutates_args=())(_mm_impl)


@_mm_op.register_fake
def _(a, w, s, dgrad):
    n, _, h, wd = a.shape
    co = w.shape[1] if dgrad else w.shape[0]
    shape = (n, co, (h - 1) // s + 1, (wd - 1) // s + 1)
    return torch.empty(shape, dtype=torch.float32, memory_format=torch.channels_last)


def _mm(a: torch.Tensor, w: torch.Tensor, s: int, dgrad: bool) -> torch.Tensor:
    if torch.compiler.is_compiling():
        return torch.ops.mxng.conv1x1_mm(a, w, s, dgrad)
    return _mm_impl(a, w, s, dgrad)


def _wgrad(g: torch.Tensor, x: torch.Tensor, w: torch.Tensor, s: int) -> torch.Tensor:
    if torch.compiler.is_compiling():
        return torch.ops.mxng.conv1x1_wgrad(g, x, w, s)
    return _wgrad_impl(g, x, w, s)  # eager: skip the dispatcher's Python round trip


class _Conv1x1(torch.autograd.Function):
    """``conv2d`` with a 1x1 kernel whose weight gradient is the native kernel's."""

    @staticmethod
    def forward(ctx, x, w, b, stride):
        ctx.save_for_backward(x, w)
        ctx.conf = (list(stride), b is not None)
        if _mm_ok() and b is None and w.shape[0] % _tile() == 0:
            return _mm(x, w, stride[0], False)
        return F.conv2d(x, w, b, stride)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        stride, has_b = ctx.conf
        need = ctx.needs_input_grad
        native = need[1] and not torch.is_grad_enabled()  # create_graph: torch's kernels
        native_x = _mm_ok() and need[0] and not torch.is_grad_enabled() and x.shape[1] % _tile() == 0
        mask = [bool(need[0]) and not native_x, bool(need[1]) and not native,
                bool(has_b and need[2])]
        gx = gw = gb = None
        if any(mask):
            gx, gw, gb = torch.ops.aten.convolution_backward(
                g, x, w, [w.shape[0]] if has_b else None, stride, [0, 0], [1, 1], False,
                [0, 0], 1, mask)
        if native_x:
            gx = _mm(g, w, 1, True)
            if stride[0] > 1:  # the pixels the convolution read get their gradient, the rest 0
                sub, s = gx, stride[0]
                gx = torch.empty(x.shape, dtype=torch.float32, memory_format=torch.channels_last)
                gx.zero_()
                gx[:, :, ::s, ::s] = sub
        if native:
            gw = _wgrad(g, x, w, stride[0])
        return gx, gw, gb, None


def conv1x1(x, w, b, stride) -> torch.Tensor:
    """``F.conv2d(x, w, b, stride)`` for a 1x1 ``w`` (see :func:`applies`) on the native
    kernels: forward, input gradient (stride 1) and weight gradient."""
    return _Conv1x1.apply(x, w, b, tuple(stride))
