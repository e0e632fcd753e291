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

import torch
from torch.autograd.function import once_differentiable

from ._norm_ops import call, layout, ready

__all__ = ["usable", "train_norm"]

# below this many values the per-call overhead of a Python autograd node outweighs the gain
# (training forward+backward with relu, one core: 2.1M values 4.5 ms against torch's 6.8,
# 524k 1.05 against 1.35, 262k 0.67 against 0.63, 65k 0.43 against 0.37)
MIN_VALUES = 1 << 19


def usable(x: torch.Tensor) -> bool:
    """Whether :func:`train_norm` serves ``x`` (float32, CPU, plain layout, large enough)."""
    return (
        x.dtype == torch.float32
        and x.device.type == "cpu"
        and x.dim() >= 2
        and x.numel() >= MIN_VALUES
        and layout(x) is not None
        and ready()
    )


def _forward(x, gamma, beta, eps, fixed):
    """Batch statistics of ``x`` and the per-channel affine map ``a, b`` they give."""
    mean, var = call("bn_stats", x)
    invstd = torch.rsqrt(var + eps)
    g = torch.ones_like(mean) if fixed else gamma.double()
    a = (g * invstd).float()
    b = (beta.double() - mean * g * invstd).float()
    return mean.float(), var.float(), g, invstd, a, b


def _save(ctx, x, smean, svar, g, invstd, a, b, fixed, relu, moving, *extra):
    ctx.save_for_backward(x, smean, a, b, g, invstd, svar, *extra)
    ctx.fixed, ctx.relu, ctx.moving = fixed, relu, moving
    ctx.mark_non_differentiable(smean, svar)


def _backward(ctx, gy, x, smean, a, b, g, invstd, svar, relu_out=None):
    """``(dx, dgamma, dbeta, dz)`` for the output gradient ``gy``; folds the moving statistics.
    With ``relu_out`` (the output of a relu after the normalization), ``gy`` is that relu's
    output gradient and ``dz`` the gradient through it (else ``None``)."""
    if ctx.moving is not None:
        from ._norm import _fold_moving

        _fold_moving(smean, svar, ctx.moving, None)
    if gy is None:
        return None, None, None, None
    dz = None
    if relu_out is not None:  # one pass: the relu's gradient dz and the sums over it
        dz, sdy, sdyx = call("bn_grad_sums_relu_out", gy, relu_out, x, smean)
        gy = dz
    else:
        sdy, sdyx = call("bn_grad_sums", gy, x, smean, a, b, ctx.relu)
    need = ctx.needs_input_grad
    dx = dgamma = dbeta = None
    if need[0]:
        m = float(x.numel() // x.shape[1])
        big_a = g * invstd
        big_b = -big_a * invstd * invstd * (sdyx / m)
        big_d = -big_a * (sdy / m) - big_b * smean.double()
        dx = call("bn_grad_apply", gy, x, big_a.float(), big_b.float(), big_d.float(),
                                          a, b, ctx.relu and relu_out is None)
    if need[1]:
        dgamma = torch.zeros_like(sdy, dtype=torch.float32) if ctx.fixed else (
            sdyx * invstd).float()
    if need[2]:
        dbeta = sdy.float()
    return dx, dgamma, dbeta, dz


class _NativeNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gamma, beta, eps, fixed, relu, moving):
        smean, svar, g, invstd, a, b = _forward(x, gamma, beta, eps, fixed)
        y = call("bn_apply", x, a, b, relu)
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
        smean, svar, g, invstd, a, b = _forward(x, gamma, beta, eps, fixed)
        y = call("bn_apply_add_relu", x, z, a, b)
        _save(ctx, x, smean, svar, g, invstd, a, b, fixed, False, moving, y)
        return y, smean, svar

    @staticmethod
    @once_differentiable  # as MXNet's _backward_BatchNorm: no gradient of the gradient
    def backward(ctx, gy, _gmean, _gvar):
        *saved, y = ctx.saved_tensors
        dx, dgamma, dbeta, dz = _backward(ctx, gy, *saved, relu_out=y)
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
