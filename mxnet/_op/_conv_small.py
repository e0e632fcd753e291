"""The input gradient of strided convolutions over few input channels, on a native kernel.

ResNet's 7x7/2 stem over RGB images: oneDNN computes its input gradient slowly (see
:mod:`mxnet._op._conv_phase`), and the phase form that replaces it pads the output
gradient into a buffer 5% larger than itself (108 MB at batch 32, page faults included
in every step) and runs a 12-output-channel convolution oneDNN is not fast at either
(in-network 267 ms a step at batch 32 on one core; MXNet 1.9.1: 106 ms).
``mxnet/_kernels/smallconv.c`` computes, for blocks of output pixels, each pixel's window
gradient ``dy[m, :] . W`` with the register-tiled product of ``tiles.h`` and adds it back
into the image, pixel by pixel in order (169 ms standalone against the phase form's
204 ms, same machine and load). Same sums in another order: float32 results differ from
oneDNN's in the last bits.

Used by the phase route for float32 CPU data when the output channels are a multiple of
the kernel's 64-channel tile (AVX-512 builds) and the kernel library could be built;
inside ``torch.compile`` as the opaque operator ``mxng::small_conv_dgrad``. The result is
channels-last.

Examples
--------
>>> import torch
>>> from mxnet._op import _conv_small as cs
>>> g, w = torch.randn(2, 64, 16, 16), torch.randn(64, 3, 7, 7)
>>> dx = cs.input_grad(g, w, [2, 3, 32, 32], [2, 2], [3, 3]) if cs.applies(g, w) else None
"""

from __future__ import annotations

import ctypes

import torch

from .. import _kernels
from ._conv_native import _mm_ok, _tile

__all__ = ["applies", "input_grad", "ready"]

CL = torch.channels_last
_READY: list[bool] = []


def ready() -> bool:
    """Whether the kernel is loaded with 64-channel tiles (decided outside tracing)."""
    if not _READY and not torch.compiler.is_compiling():
        _READY.append(_mm_ok() and _kernels.ready("smallconv"))
    return bool(_READY and _READY[0])


def applies(g: torch.Tensor, w: torch.Tensor) -> bool:
    """Whether :func:`input_grad` computes the input gradient for ``g`` and ``w``."""
    return (g.dtype == torch.float32 and w.dtype == torch.float32 and g.device.type == "cpu"
            and w.device.type == "cpu" and ready() and w.shape[0] % _tile() == 0)


def _impl(g: torch.Tensor, w: torch.Tensor, x_shape: list[int], stride: list[int],
          pad: list[int]) -> torch.Tensor:
    g = g.contiguous(memory_format=CL)
    wkt = w.permute(0, 2, 3, 1).contiguous()  # [O][kh][kw][C]: the windows' (ky, kx, c) order
    n, c, h, wd = x_shape
    dx = torch.empty(x_shape, dtype=torch.float32, memory_format=CL)
    rc = _kernels.library("smallconv").mxng_small_dgrad(
        ctypes.c_void_p(g.data_ptr()), ctypes.c_void_p(wkt.data_ptr()),
        ctypes.c_void_p(dx.data_ptr()), n, h, wd, c, w.shape[0], w.shape[2], w.shape[3],
        stride[0], stride[1], pad[0], pad[1], _kernels.threads())
    if rc != 0:
        raise MemoryError("Convolution (input gradient, few input channels): could not "
                          "allocate its buffers")
    return dx


_op = torch.library.custom_op("mxng::small_conv_dgrad", mutates_args=())(_impl)


@_op.register_fake
def _(g, w, x_shape, stride, pad):
    return torch.empty(x_shape, dtype=torch.float32, memory_format=CL)


def input_grad(g: torch.Tensor, w: torch.Tensor, x_shape, stride, pad) -> torch.Tensor:
    """The gradient of ``conv2d(x, w, stride=stride, padding=pad)`` with respect to ``x``
    (shape ``x_shape``) for the output gradient ``g`` (see :func:`applies`)."""
    args = (g, w, [int(v) for v in x_shape], [int(v) for v in stride], [int(v) for v in pad])
    if torch.compiler.is_compiling():
        return torch.ops.mxng.small_conv_dgrad(*args)
    return _impl(*args)
