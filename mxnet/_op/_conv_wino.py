"""3x3 convolutions (stride 1, padding 1) by Winograd's F(2x2, 3x3) on the native kernels.

The forward pass and the input gradient of a dense 3x3 convolution with stride 1 and
padding 1 are the same product (the input gradient convolves the output gradient with the
transposed weight turned by 180 degrees). ``mxnet/_kernels/wino.c`` computes it with
Winograd's minimal filtering: each 2x2 block of outputs reads a 4x4 block of inputs, which
after fixed linear transforms of the inputs, the weight and the result needs 16
multiply-adds per channel pair instead of the direct method's 36. On one core (AVX-512) at
ResNet-50's shapes with batch 32, forward and input gradient each take 0.52-0.61x oneDNN's
channels-last time at 56x56 to 14x14 maps and 0.75-0.85x at 7x7 (whose 2x2 blocks overrun
the map). The weight gradient is the same transform run backwards: 16 products summed over
the 2x2 blocks (in blocks of 96, then added up), 0.55-0.65x oneDNN's time.

The results are no less accurate than the direct sums: the inner products run over the
input channels only (not channels x 9 taps), and the transforms add a few roundings; against
a float64 reference the largest relative error measured 3-9e-7, oneDNN's 1-2.5e-6.

Used for float32 CPU channels-last data, a 3x3 kernel with stride 1, padding 1, no
dilation or groups, channel counts that are multiples of the kernel's tile (64 with
AVX-512, 32 with AVX2: there, standalone under load, forward 0.7-0.9x of oneDNN's AVX2
kernels at 56x56 to 14x14 maps and 1.17x at 7x7, weight gradient 0.34-0.73x; the route is
off on plain-C builds), at least ``MIN_MACS`` multiply-adds, when the
kernel library could be built (:mod:`mxnet._kernels`); inside ``torch.compile`` as the opaque
operators ``mxng::wino3x3`` and ``mxng::wino3x3_wgrad``. ``MXNET_NG_WINOGRAD=0`` turns the route off (read once, at
the first convolution). A gradient of the gradient (``create_graph=True``) runs on
PyTorch's kernels.

Examples
--------
>>> import torch
>>> from mxnet._op import _conv_wino as cw
>>> x = torch.randn(2, 64, 8, 8).to(memory_format=torch.channels_last)
>>> w = torch.randn(64, 64, 3, 3)
>>> y = cw.conv3x3(x, w, None) if cw.applies(x, w, (1, 1), (1, 1), (1, 1), 1, 0) else None
"""

from __future__ import annotations

import ctypes
import os

import torch
import torch.nn.functional as F

from .. import _kernels
from ._conv_native import _tile

__all__ = ["applies", "conv3x3", "enabled", "forward", "weights", "MIN_MACS"]

CL = torch.channels_last

# below this many multiply-adds (direct method) the weight transforms and the Python
# autograd node cost more than the product saves
MIN_MACS = 50_000_000

_ON: list[bool] = []


def enabled() -> bool:
    """Whether the route is on: the kernel has vector tiles (AVX-512 or AVX2) and
    ``MXNET_NG_WINOGRAD`` is not ``0``; decided on the first call outside tracing."""
    if not _ON and not torch.compiler.is_compiling():
        _ON.append(os.environ.get("MXNET_NG_WINOGRAD", "1") != "0" and _tile() >= 32
                   and _kernels.ready("wino"))
    return bool(_ON and _ON[0])


def applies(x: torch.Tensor, w: torch.Tensor, stride, pad, dilate, groups: int,
            min_macs: int = MIN_MACS) -> bool:
    """Whether :func:`conv3x3` runs ``conv2d(x, w, b, stride, pad, dilate, groups)``."""
    if not (x.dim() == 4 and tuple(w.shape[2:]) == (3, 3) and groups == 1
            and tuple(stride) == (1, 1) and tuple(pad) == (1, 1) and tuple(dilate) == (1, 1)
            and x.dtype == torch.float32 and w.dtype == torch.float32
            and x.device.type == "cpu" and w.device.type == "cpu"
            and x.is_contiguous(memory_format=CL) and enabled()):
        return False
    n, c, h, wd = x.shape
    tile = _tile()
    return (c % tile == 0 and w.shape[0] % tile == 0 and w.shape[1] == c
            and n * h * wd * c * w.shape[0] * 9 >= min_macs)


def weights(w: torch.Tensor, flip: bool = False) -> torch.Tensor:
    """The Winograd transform of a 3x3 weight ``w`` [O, I, 3, 3] for :func:`forward`
    (``flip``: of the transposed weight turned by 180 degrees, for the input gradient)."""
    o, i = (w.shape[1], w.shape[0]) if flip else (w.shape[0], w.shape[1])
    # the weight as [in][3][3][out], the kernel's vectors running over the output channels
    # (the unflipped one as a 2-D transpose of [O, I*9]: 2.6x faster than the 4-D permute)
    wt = (w.permute(0, 2, 3, 1) if flip else w.reshape(w.shape[0], -1).t()).contiguous()
    u = torch.empty((16, o // _tile(), i, _tile()), dtype=torch.float32)
    _kernels.library("wino").mxng_wino_weights(ctypes.c_void_p(wt.data_ptr()),
                                               ctypes.c_void_p(u.data_ptr()), o, i, int(flip))
    return u


def _ptr(t: torch.Tensor | None):
    return None if t is None else ctypes.c_void_p(t.data_ptr())


def forward(a: torch.Tensor, u: torch.Tensor, bias: torch.Tensor | None = None,
            res: torch.Tensor | None = None, relu: bool = False) -> torch.Tensor | None:
    """``conv2d(a, w, padding=1)`` for the transformed weight ``u`` (:func:`weights`), plus
    ``bias`` [O] and ``res`` (the result's shape) and relu, each when given: channels-last
    float32 ``a`` [N, I, H, W], channels-last result; ``None`` when a convolution value is
    not finite (an Inf or NaN in ``a`` or the weight: the transforms would spread it over
    whole 2x2 output blocks), for the caller to compute directly."""
    a = a.contiguous(memory_format=CL)
    n, i, h, wd = a.shape
    o = u.shape[1] * u.shape[3]
    if res is not None:
        res = res.contiguous(memory_format=CL)
    out = torch.empty((n, o, h, wd), dtype=torch.float32, memory_format=CL)
    rc = _kernels.library("wino").mxng_wino_conv(
        _ptr(a), _ptr(u), _ptr(out), n, h, wd, i, o, _ptr(bias), _ptr(res), int(relu),
        _kernels.threads())
    if rc < 0:
        raise MemoryError("Convolution (3x3 Winograd): could not allocate the block buffers")
    return out if rc == 0 else None


def _impl(a: torch.Tensor, w: torch.Tensor, flip: bool) -> torch.Tensor:
    """``conv2d(a, w, padding=1)``, or (``flip``) ``conv_transpose2d(a, w, padding=1)``;
    non-finite values are left to oneDNN's direct sums (see :func:`forward`)."""
    out = forward(a, weights(w, flip))
    if out is None:
        conv = F.conv_transpose2d if flip else F.conv2d
        out = conv(a.contiguous(memory_format=CL), w, None, 1, 1)
    return out


_op = torch.library.custom_op("mxng::wino3x3", mutates_args=())(_impl)


@_op.register_fake
def _(a, w, flip):
    o = w.shape[1] if flip else w.shape[0]
    return torch.empty((a.shape[0], o, a.shape[2], a.shape[3]), dtype=torch.float32,
                       memory_format=CL)


def _run(a: torch.Tensor, w: torch.Tensor, flip: bool) -> torch.Tensor:
    if torch.compiler.is_compiling():
        return torch.ops.mxng.wino3x3(a, w, flip)
    return _impl(a, w, flip)  # eager: skip the dispatcher's Python round trip


def _wgrad_impl(x: torch.Tensor, g: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """The weight gradient of ``conv2d(x, w, padding=1)`` for the output gradient ``g``."""
    lib = _kernels.library("wino")
    x = x.contiguous(memory_format=CL)
    g = g.contiguous(memory_format=CL)
    n, i, h, wd = x.shape
    dw = torch.empty(w.shape, dtype=torch.float32)
    rc = lib.mxng_wino_wgrad(ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(g.data_ptr()),
                             ctypes.c_void_p(dw.data_ptr()), n, h, wd, i, w.shape[0],
                             _kernels.threads())
    if rc != 0:
        raise MemoryError("Convolution (3x3 Winograd): could not allocate the weight-gradient "
                          "buffers")
    if not bool(torch.isfinite(dw).all()):  # Inf/NaN in x or dy: oneDNN's direct sums
        dw = torch.ops.aten.convolution_backward(g, x, w, None, [1, 1], [1, 1], [1, 1], False,
                                                 [0, 0], 1, [False, True, False])[1]
    return dw


_wgrad_op = torch.library.custom_op("mxng::wino3x3_wgrad", mutates_args=())(_wgrad_impl)


@_wgrad_op.register_fake
def _(x, g, w):
    return torch.empty(w.shape, dtype=torch.float32)


def _wgrad(x: torch.Tensor, g: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    if torch.compiler.is_compiling():
        return torch.ops.mxng.wino3x3_wgrad(x, g, w)
    return _wgrad_impl(x, g, w)


class _Conv3x3(torch.autograd.Function):
    """``conv2d(x, w, b, padding=1)`` of a 3x3 ``w``: forward, input and weight gradients
    by Winograd's F(2x2, 3x3)."""

    @staticmethod
    def forward(ctx, x, w, b):
        ctx.save_for_backward(x, w)
        ctx.has_b = b is not None
        y = _run(x, w, False)
        if b is not None:
            y = y.add_(b.view(1, -1, 1, 1))
        return y

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        need = ctx.needs_input_grad
        g = g.contiguous(memory_format=CL)
        gx = gw = gb = None
        native = not torch.is_grad_enabled()  # create_graph: torch's differentiable kernels
        if native:
            gx = _run(g, w, True) if need[0] else None
            gw = _wgrad(x, g, w) if need[1] else None
            gb = g.sum((0, 2, 3)) if ctx.has_b and need[2] else None
        elif any(need):
            gx, gw, gb = torch.ops.aten.convolution_backward(
                g, x, w, [w.shape[0]] if ctx.has_b else None, [1, 1], [1, 1], [1, 1], False,
                [0, 0], 1, [bool(need[0]), bool(need[1]), bool(ctx.has_b and need[2])])
        return gx, gw, gb


def conv3x3(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor | None) -> torch.Tensor:
    """``F.conv2d(x, w, b, 1, 1)`` for a 3x3 ``w`` (see :func:`applies`): channels-last
    result, forward and gradients by the Winograd kernels."""
    return _Conv3x3.apply(x, w, b)
