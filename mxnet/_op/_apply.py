"""The one execution path: run an operator's kernel on torch tensors."""

from __future__ import annotations

import torch

from ..base import MXNetError
from ._registry import OpDef
from ._state import state

_is_grad_enabled = torch.is_grad_enabled
_set_grad_enabled = torch._C._set_grad_enabled


class OpValueError(ValueError):
    """A ``ValueError`` an operator raises as MXNet does (a failed ``constraint_check``):
    both execution paths pass it through instead of wrapping it in :class:`MXNetError`."""


def apply(op: OpDef, attrs: dict, tensors) -> tuple[torch.Tensor, ...]:
    """Run ``op`` on ``tensors`` with parsed ``attrs``; always returns a tuple of tensors.

    Outside autograd recording no graph is built. Kernel failures become
    :class:`MXNetError` naming the operator and the input shapes.
    """
    try:
        if state.is_recording or not _is_grad_enabled():
            out = op.compute(attrs, *tensors)
        else:
            # cheaper than ``with torch.no_grad()`` on this hot path
            _set_grad_enabled(False)
            try:
                out = op.compute(attrs, *tensors)
            finally:
                _set_grad_enabled(True)
    except (MXNetError, OpValueError):
        raise
    except (RuntimeError, ValueError, IndexError, TypeError) as e:
        bad = _broadcast_failure(op, tensors)
        if bad is not None:
            raise MXNetError(bad) from None
        shapes = ", ".join(str(tuple(t.shape)) for t in tensors)
        raise MXNetError(f"Error in operator {op.name}: {e} (input shapes: [{shapes}])") from None
    out = (out,) if isinstance(out, torch.Tensor) else tuple(out)
    if state.is_recording and not op.mutates:
        out = _link_constant_outputs(out, tensors)
    return out


def _broadcast_failure(op: OpDef, tensors) -> str | None:
    """MXNet's shape-check message when a two-operand broadcasting operator
    (``broadcast_*``, ``_npi_*``) gets shapes that do not broadcast, else None."""
    if len(tensors) != 2 or not op.name.startswith(("broadcast_", "_npi_")):
        return None
    if not all(isinstance(t, torch.Tensor) for t in tensors):
        return None
    a, b = (tuple(t.shape) for t in tensors)
    try:
        torch.broadcast_shapes(a, b)
        return None
    except RuntimeError:
        pass
    fmt = ["[" + ",".join(str(d) for d in s) + "]" for s in (a, b)]
    # MXNet's words, then the operator's name (MXNet names it only in its stack trace)
    return ("Check failed: l == 1 || r == 1: operands could not be broadcast together "
            f"with shapes {fmt[0]} {fmt[1]} (operator {op.name})")


class _ZeroLink(torch.autograd.Function):
    """Identity on ``out`` whose backward sends zero gradients to ``inputs``."""

    @staticmethod
    def forward(ctx, out, *inputs):
        ctx.specs = [(t.shape, t.dtype, t.device) for t in inputs]
        return out.view_as(out)

    @staticmethod
    def backward(ctx, g):
        return (None, *[torch.zeros(s, dtype=d, device=v) for s, d, v in ctx.specs])


def _ignores_head(fn) -> bool:
    return getattr(getattr(fn, "_forward_cls", None), "ignores_head", False)


def reaches_head_ignoring(t: torch.Tensor, limit: int = 256) -> bool:
    """Whether the recorded history of ``t`` holds an operator whose backward ignores the
    head gradient (``SoftmaxOutput``, ``*RegressionOutput``, ``make_loss``, ``Custom``):
    the gradient such an operator sends is not zero even when a ``BlockGrad`` after it
    sends it zeros. Looks at most ``limit`` autograd nodes."""
    seen = set()
    todo = [t.grad_fn]
    while todo and len(seen) < limit:
        fn = todo.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        if _ignores_head(fn):
            return True
        todo.extend(nxt for nxt, _ in fn.next_functions)
    return False


def block_grad(x: torch.Tensor) -> torch.Tensor:
    """``BlockGrad``: ``x`` without its gradient path. While recording, an ``x`` computed by
    a head-ignoring operator stays linked with zero gradients (MXNet runs that operator's
    backward all the same: Sockeye's ``BlockGrad(SoftmaxOutput(...))`` loss), in hybridized
    graphs too, where no :func:`apply` links the outputs."""
    out = x.detach()
    if x.requires_grad and _is_grad_enabled() and reaches_head_ignoring(x):
        return _ZeroLink.apply(out, x)
    return out


def _link_constant_outputs(out: tuple, tensors) -> tuple:
    # MXNet records every op, so a float output with no gradient path (BlockGrad,
    # logical_not, zeros_like, argmax...) still backpropagates: zeros to its inputs
    if all(o.requires_grad or not o.is_floating_point() for o in out):
        return out
    needs = [t for t in tensors if isinstance(t, torch.Tensor) and t.requires_grad]
    if not needs:
        return out
    return tuple(_ZeroLink.apply(o, *needs) if not o.requires_grad and o.is_floating_point()
                 else o for o in out)
