"""Training-mode BatchNorm (optionally with its relu) on the native kernels of
``mxnet/_kernels/norm.c``: one pass for the batch statistics and one for the output
forward; one for the two gradient sums and one for the input gradient backward, the relu's
mask folded into both. Eager PyTorch needs three and two passes plus a relu pass each way.

Used for float32 CPU data in a plain layout (channels first, or channels last as the large
convolutions produce) when the library could be built (see :mod:`mxnet._kernels`);
:func:`usable` says whether a call qualifies. The results equal PyTorch's within float32
rounding (the statistics are summed in double here, so they are closer to exact).

Examples
--------
>>> import torch
>>> from mxnet._op import _norm_native as nn
>>> x = torch.randn(4, 8, 16, 16)
>>> if nn.usable(x):
...     y, mean, var = nn.train_norm(x, torch.ones(8), torch.zeros(8), 1e-5, False, None)
"""

from __future__ import annotations

import ctypes

import torch
from torch.autograd.function import once_differentiable

from .. import _kernels

__all__ = ["usable", "train_norm"]

# below this many values the per-call overhead of a Python autograd node outweighs the gain
MIN_VALUES = 1 << 15


def _layout(x: torch.Tensor) -> tuple[int, int, int, int] | None:
    """``(N, C, S, channels_last)`` of a plainly laid out array, else ``None``."""
    n, c = x.shape[0], x.shape[1]
    s = x.numel() // max(n * c, 1)
    if x.is_contiguous():
        return n, c, s, int(x.dim() == 2)
    if x.dim() == 4 and x.is_contiguous(memory_format=torch.channels_last):
        return n, c, s, 1
    return None


def usable(x: torch.Tensor) -> bool:
    """Whether :func:`train_norm` serves ``x`` (float32, CPU, plain layout, large enough)."""
    return (
        x.dtype == torch.float32
        and x.device.type == "cpu"
        and x.dim() >= 2
        and x.numel() >= MIN_VALUES
        and _layout(x) is not None
        and _kernels.library("norm") is not None
    )


def _ptr(t: torch.Tensor) -> ctypes.c_void_p:
    return ctypes.c_void_p(t.data_ptr())


def _forward(x, gamma, beta, eps, fixed):
    """Batch statistics of ``x`` and the per-channel affine map ``a, b`` they give."""
    lib = _kernels.library("norm")
    n, c, s, cl = _layout(x)
    mean = torch.empty(c, dtype=torch.float64)
    var = torch.empty(c, dtype=torch.float64)
    lib.mxng_bn_stats(_ptr(x), n, c, s, cl, _ptr(mean), _ptr(var), _kernels.threads())
    invstd = torch.rsqrt(var + eps)
    g = torch.ones(c, dtype=torch.float64) if fixed else gamma.double()
    a = (g * invstd).float()
    b = (beta.double() - mean * g * invstd).float()
    return lib, (n, c, s, cl), mean.float(), var.float(), g, invstd, a, b


def _save(ctx, x, smean, svar, g, invstd, a, b, fixed, relu, moving, *extra):
    ctx.save_for_backward(x, smean, a, b, *extra)
    ctx.g, ctx.invstd, ctx.svar = g, invstd, svar
    ctx.fixed, ctx.relu, ctx.moving = fixed, relu, moving
    ctx.mark_non_differentiable(smean, svar)


def _backward(ctx, gy, x, smean, a, b, relu_out=None):
    """``(dx, dgamma, dbeta, dz)`` for the output gradient ``gy``; folds the moving statistics.
    With ``relu_out`` (the output of a relu after the normalization), ``gy`` is that relu's
    output gradient and ``dz`` the gradient through it (else ``None``)."""
    if ctx.moving is not None:
        from ._norm import _fold_moving

        _fold_moving(smean, ctx.svar, ctx.moving, None)
    if gy is None:
        return None, None, None, None
    lib = _kernels.library("norm")
    n, c, s, cl = _layout(x)
    fmt = torch.channels_last if cl and x.dim() == 4 else torch.contiguous_format
    gy = gy.contiguous(memory_format=fmt)
    nthr = _kernels.threads()
    sdy = torch.empty(c, dtype=torch.float64)
    sdyx = torch.empty(c, dtype=torch.float64)
    dz = None
    if relu_out is not None:  # one pass: the relu's gradient dz and the sums over it
        dz = torch.empty_like(x)
        lib.mxng_bn_grad_sums_relu_out(_ptr(gy), _ptr(relu_out), _ptr(dz), _ptr(x), n, c, s,
                                       cl, _ptr(smean), _ptr(sdy), _ptr(sdyx), nthr)
        gy = dz
    else:
        lib.mxng_bn_grad_sums(_ptr(gy), _ptr(x), n, c, s, cl, _ptr(smean), _ptr(a), _ptr(b),
                              int(ctx.relu), _ptr(sdy), _ptr(sdyx), nthr)
    need = ctx.needs_input_grad
    dx = dgamma = dbeta = None
    if need[0]:
        m = float(n * s)
        inv = ctx.invstd
        big_a = ctx.g * inv
        big_b = -big_a * inv * inv * (sdyx / m)
        big_d = -big_a * (sdy / m) - big_b * smean.double()
        fa, fb, fd = big_a.float(), big_b.float(), big_d.float()
        dx = torch.empty_like(x)
        lib.mxng_bn_grad_apply(_ptr(gy), _ptr(x), _ptr(dx), n, c, s, cl, _ptr(fa), _ptr(fb),
                               _ptr(fd), _ptr(a), _ptr(b), int(ctx.relu), nthr)
    if need[1]:
        dgamma = torch.zeros(c) if ctx.fixed else (sdyx * ctx.invstd).float()
    if need[2]:
        dbeta = sdy.float()
    return dx, dgamma, dbeta, dz


class _NativeNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gamma, beta, eps, fixed, relu, moving):
        lib, (n, c, s, cl), smean, svar, g, invstd, a, b = _forward(x, gamma, beta, eps, fixed)
        y = torch.empty_like(x)
        lib.mxng_bn_apply(_ptr(x), _ptr(y), n, c, s, cl, _ptr(a), _ptr(b), int(relu),
                          _kernels.threads())
        _save(ctx, x, smean, svar, g, invstd, a, b, fixed, relu, moving)
        return y, smean, svar

    @staticmethod
    @once_differentiable  # as MXNet's _backward_BatchNorm: no gradient of the gradient
    def backward(ctx, gy, _gmean, _gvar):
        return (*_backward(ctx, gy, *ctx.saved_tensors)[:3], None, None, None, None)


class _NativeNormAddRelu(torch.autograd.Function):
    """``relu(BatchNorm(x) + z)``: a residual unit's end in one pass forward."""

    @staticmethod
    def forward(ctx, x, gamma, beta, z, eps, fixed, moving):
        lib, (n, c, s, cl), smean, svar, g, invstd, a, b = _forward(x, gamma, beta, eps, fixed)
        y = torch.empty_like(x)
        lib.mxng_bn_apply_add_relu(_ptr(x), _ptr(z), _ptr(y), n, c, s, cl, _ptr(a), _ptr(b),
                                   _kernels.threads())
        _save(ctx, x, smean, svar, g, invstd, a, b, fixed, False, moving, y)
        return y, smean, svar

    @staticmethod
    @once_differentiable  # as MXNet's _backward_BatchNorm: no gradient of the gradient
    def backward(ctx, gy, _gmean, _gvar):
        x, smean, a, b, y = ctx.saved_tensors
        dx, dgamma, dbeta, dz = _backward(ctx, gy, x, smean, a, b, relu_out=y)
        return dx, dgamma, dbeta, dz, None, None, None


def add_relu_usable(x: torch.Tensor, z: torch.Tensor) -> bool:
    """Whether :func:`train_norm_add_relu` serves ``x`` with the residual ``z``."""
    return (usable(x) and z.dtype == x.dtype and z.device == x.device
            and z.shape == x.shape and z.stride() == x.stride())


def train_norm_add_relu(x, gamma, beta, z, eps: float, fixed: bool, moving):
    """``relu(BatchNorm(x) + z)`` in training mode (see :func:`train_norm`; ``z`` laid out as
    ``x``, :func:`add_relu_usable`): ``(out, batch mean, biased batch variance)``."""
    return _NativeNormAddRelu.apply(x, gamma, beta, z, float(eps), bool(fixed), moving)


def train_norm(x, gamma, beta, eps: float, fixed: bool, moving, relu: bool = False):
    """Training-mode BatchNorm over dim 1 of ``x`` (see :func:`usable`):
    ``(out, batch mean, biased batch variance)``; ``relu`` applies max(., 0) to ``out``.
    ``moving`` = ``(moving_mean, moving_var, momentum)`` is updated in the backward pass, as
    MXNet 1.9.1 does, or ``None``."""
    return _NativeNorm.apply(x, gamma, beta, float(eps), bool(fixed), bool(relu), moving)
