"""The one execution path: run an operator's kernel on torch tensors."""

from __future__ import annotations

import torch

from ..base import MXNetError
from ._registry import OpDef
from ._state import state

_is_grad_enabled = torch.is_grad_enabled
_set_grad_enabled = torch._C._set_grad_enabled


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
    except MXNetError:
        raise
    except (RuntimeError, ValueError, IndexError, TypeError) as e:
        shapes = ", ".join(str(tuple(t.shape)) for t in tensors)
        raise MXNetError(f"Error in operator {op.name}: {e} (input shapes: [{shapes}])") from None
    if isinstance(out, torch.Tensor):
        return (out,)
    return tuple(out)
