"""relu as MXNet 1.9.1's CPU operators compute it.

``torch.relu`` keeps ``-0.0`` and NaN. MXNet's operators do not quite: both give ``+0`` for
zeros of either sign, and they differ on NaN:

* ``Activation(act_type='relu')`` (and Gluon's ``nn.Activation('relu')``, the ``activation=
  'relu'`` of Dense/Conv layers) runs oneDNN's relu, ``max(x, 0)``: NaN gives 0, and its
  gradient there is 0. A diverging model's NaN activations therefore become zeros.
* ``relu`` (``mx.nd.relu``, ``mx.sym.relu``, ``npx.relu``) keeps NaN.

On float32 CPU data the forward pass is the native kernel ``mxng_relu`` of
``mxnet/_kernels/norm.c`` (as fast as ``torch.relu``: one pass, streaming stores for large
outputs); elsewhere a composition of PyTorch operators with the same results, and under
``torch.compile`` a ``where`` that the compiler fuses. The gradient is ``g`` where the output
is positive, else 0, and for ``relu`` NaN at a NaN input (as MXNet's gradient).

Examples
--------
>>> import torch
>>> from mxnet._op._relu import relu
>>> relu(torch.tensor([float("nan"), -0.0, 2.0]), keep_nan=False)
tensor([0., 0., 2.])
"""

from __future__ import annotations

import torch

from .. import _kernels

__all__ = ["relu", "relu_"]

_INF = float("inf")


def _dense(x: torch.Tensor) -> bool:
    """Whether ``x`` fills its memory without gaps, in its own dimension order."""
    return x.is_contiguous() or (x.dim() == 4 and x.is_contiguous(memory_format=torch.channels_last))


_KERNEL: list = []


def _kernel():
    """``mxng_relu`` of the native library, or None (decided once, outside compilation)."""
    if not _KERNEL:
        _KERNEL.append(_kernels.library("norm").mxng_relu if _kernels.ready("norm") else None)
    return _KERNEL[0]


def _native_ok(x: torch.Tensor) -> bool:
    return x.dtype == torch.float32 and x.device.type == "cpu" and _dense(x)


def _into(x: torch.Tensor, y: torch.Tensor, keep_nan: bool) -> None:
    """``y`` (laid out as ``x``, possibly ``x`` itself) = relu of ``x`` by the kernel."""
    _kernel()(x.data_ptr(), y.data_ptr(), x.numel(), keep_nan, _kernels.threads())


def _forward(x: torch.Tensor, keep_nan: bool) -> torch.Tensor:
    """The values, no autograd."""
    if _native_ok(x) and _kernel() is not None:
        y = torch.empty_like(x)  # same strides: element i of one is element i of the other
        _into(x, y, keep_nan)
        return y
    y = torch.clamp_min(x, 0).add_(0.0)  # -0 + 0 = +0
    return y if keep_nan else y.nan_to_num_(nan=0.0, posinf=_INF, neginf=-_INF)


def _backward(g: torch.Tensor, y: torch.Tensor, keep_nan: bool) -> torch.Tensor:
    """``g`` where the output ``y`` is positive, else 0; NaN where ``y`` is NaN for the relu
    operator (``keep_nan``), as MXNet's relu gradient."""
    if (keep_nan and _native_ok(y) and g.dtype == torch.float32 and _bwd_kernel() is not None
            and g.stride() == y.stride() and g.shape == y.shape):
        gx = torch.empty_like(y)
        _bwd_kernel()(g.data_ptr(), y.data_ptr(), gx.data_ptr(), y.numel(), 1,
                      _kernels.threads())
        return gx
    gx = torch.ops.aten.threshold_backward(g, y, 0)
    return torch.where(torch.isnan(y), y, gx) if keep_nan else gx


_BWD: list = []


def _bwd_kernel():
    """``mxng_relu_bwd`` of the native library, or None."""
    if not _BWD:
        _BWD.append(_kernels.library("norm").mxng_relu_bwd if _kernels.ready("norm") else None)
    return _BWD[0]


class _Relu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, keep_nan):
        y = _forward(x, keep_nan)
        ctx.save_for_backward(y)
        ctx.keep_nan = keep_nan
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return _backward(g, y, ctx.keep_nan), None


class _ReluInplace(_Relu):
    """:class:`_Relu` written over its input (same backward, from the saved output)."""

    @staticmethod
    def forward(ctx, x, keep_nan):
        if _native_ok(x) and _kernel() is not None:
            _into(x, x, keep_nan)
        else:
            x.copy_(_forward(x, keep_nan))
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        ctx.keep_nan = keep_nan
        return x


def relu(x: torch.Tensor, keep_nan: bool) -> torch.Tensor:
    """MXNet's relu of ``x``: ``Activation``'s (``keep_nan=False``: NaN gives 0) or the
    ``relu`` operator's (``keep_nan=True``); ``-0`` gives ``+0`` in both."""
    if not x.is_floating_point():
        return torch.relu(x)
    if torch.compiler.is_compiling():
        keep = (x > 0) | torch.isnan(x) if keep_nan else x > 0
        return torch.where(keep, x, 0.0)
    if x.requires_grad and torch.is_grad_enabled():
        return _Relu.apply(x, keep_nan)
    return _forward(x, keep_nan)


def relu_(x: torch.Tensor, keep_nan: bool) -> torch.Tensor:
    """:func:`relu` written over ``x`` (autograd included); out of place while tracing."""
    if not x.is_floating_point():
        return torch.relu_(x)
    if torch.compiler.is_compiling():
        return relu(x, keep_nan)
    if x.requires_grad and torch.is_grad_enabled():
        return _ReluInplace.apply(x, keep_nan)
    if _native_ok(x) and _kernel() is not None:
        _into(x, x, keep_nan)
        return x
    return x.copy_(_forward(x, keep_nan))
