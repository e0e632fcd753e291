"""Training-mode BatchNorm (optionally with its relu) on the native kernels of
``mxnet/_kernels/norm.c``: one pass for the batch statistics and one for the output
forward; one for the two gradient sums and one for the input gradient backward, the relu's
mask folded into both. Eager PyTorch needs three and two passes plus a relu pass each way.
Each direction is one kernel call (``mxng_bn_fwd``, ``mxng_bn_bwd``), the per-channel
arithmetic included, so that small layers pay little Python.

Used for float32 CPU data in a plain layout (channels first, or channels last as the
convolutions of the executor produce) when the library could be built (see
:mod:`mxnet._kernels`); :func:`usable` says whether a call qualifies. The sums are taken in
short float runs added up in double, so the results are as accurate as float32 allows in
both layouts (PyTorch's channels-last kernel is not: see :data:`RUN_ROWS`).

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

# channels first: below this many values the per-call overhead of a Python autograd node
# outweighs the gain (training forward+backward, one core, against torch's kernels: 266k
# values 0.45 ms against 0.86 with relu, 0.41 against 0.75 without; 65k 0.23 against 0.28
# and 0.22 against 0.25; 16k equal; 256 0.12 against 0.10)
MIN_VALUES = 1 << 15
# channels last (NHWC, or (N, C)): PyTorch's CPU kernel sums each channel over the rows in
# one float accumulator, whose error grows with the rows (3-10x that of the channels-first
# kernel; 1e-3..1e-2 relative in the parameter gradients of a small DenseNet trained through
# the executor, against 1e-5 for MXNet). The kernels here sum runs of RUN_ROWS rows in float,
# then in double, so arrays of more rows than that always come here.
RUN_ROWS = 64


def usable(x: torch.Tensor) -> bool:
    """Whether :func:`train_norm` serves ``x`` (float32, CPU, plain layout, large enough:
    see :data:`MIN_VALUES`, :data:`RUN_ROWS`)."""
    if not (x.dtype == torch.float32 and x.device.type == "cpu" and x.dim() >= 2):
        return False
    lay = layout(x)
    if lay is None:
        return False
    n, _, s, cl = lay
    return (n * s > RUN_ROWS if cl else x.numel() >= MIN_VALUES) and ready()


def _forward(ctx, x, gamma, beta, eps, fixed, relu, moving):
    """One kernel call: the output ``y`` (then relu when ``relu``) and the batch statistics;
    saves what the backward pass needs."""
    y, smean, svar, ab, st = call("bn_fwd", x, None, gamma, beta, eps, fixed, relu)
    _save(ctx, (x, gamma, smean, svar), ab, st, fixed, relu, moving)
    return y, smean, svar


def _save(ctx, saved, ab, st, fixed, relu, moving) -> None:
    ctx.save_for_backward(*saved)
    # the kernel's own intermediates: plain attributes (no saved-tensor bookkeeping)
    ctx.ab, ctx.st, ctx.fixed, ctx.relu, ctx.moving = ab, st, fixed, relu, moving
    ctx.mark_non_differentiable(*saved[2:4])
    ctx.set_materialize_grads(False)  # no zero gradients made for the statistics


def _backward(ctx, gy, relu_out=None):
    """``(dx, dgamma, dbeta, dz)`` for the output gradient ``gy``; folds the moving statistics.
    With ``relu_out`` (the output of a relu after the normalization), ``gy`` is that relu's
    output gradient and ``dz`` the gradient through it (else ``None``)."""
    x, gamma, smean, svar = ctx.saved_tensors[:4]
    ab, st = ctx.ab, ctx.st
    if ctx.moving is not None:
        from ._norm import _fold_moving

        _fold_moving(smean, svar, ctx.moving, None)
    if gy is None:
        return None, None, None, None
    need = ctx.needs_input_grad
    dx, dgamma, dbeta, dz = call("bn_bwd", gy, x, relu_out, gamma, ctx.fixed,
                                 ctx.relu and relu_out is None, smean, ab, st, bool(need[0]))
    return (dx if need[0] else None, dgamma if need[1] else None, dbeta if need[2] else None,
            dz if relu_out is not None else None)


@once_differentiable  # as MXNet's _backward_BatchNorm: no gradient of the gradient
def _once(ctx, gy, relu_out):
    return _backward(ctx, gy, relu_out)


def _grads(ctx, gy, relu_out=None):
    """:func:`_backward`; through ``once_differentiable`` only when a graph of the gradient
    is being recorded (``create_graph``), where it makes that gradient raise when
    differentiated: elsewhere its wrapper is ~10 us a call for nothing."""
    if torch.is_grad_enabled():
        return _once(ctx, gy, relu_out)
    return _backward(ctx, gy, relu_out)


class _NativeNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gamma, beta, eps, fixed, relu, moving):
        return _forward(ctx, x, gamma, beta, eps, fixed, relu, moving)

    @staticmethod
    def backward(ctx, gy, _gmean, _gvar):
        return (*_grads(ctx, gy)[:3], None, None, None, None)


class _NativeNormAddRelu(torch.autograd.Function):
    """``relu(BatchNorm(x) + z)``: a residual unit's end in one pass forward."""

    @staticmethod
    def forward(ctx, x, gamma, beta, z, eps, fixed, moving):
        y, smean, svar, ab, st = call("bn_fwd", x, z, gamma, beta, eps, fixed, False)
        _save(ctx, (x, gamma, smean, svar, y), ab, st, fixed, False, moving)
        return y, smean, svar

    @staticmethod
    def backward(ctx, gy, _gmean, _gvar):
        return (*_grads(ctx, gy, ctx.saved_tensors[4]), None, None, None)


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
