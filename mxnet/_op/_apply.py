"""The one execution path: run an operator's kernel on torch tensors."""

from __future__ import annotations

import torch

from ..base import MXNetError
from ._registry import OpDef
from ._state import state


def apply(op: OpDef, attrs: dict, tensors) -> tuple[torch.Tensor, ...]:
    """Run ``op`` on ``tensors`` with parsed ``attrs``; always returns a tuple of tensors.

    Outside autograd recording no graph is built. Kernel failures become
    :class:`MXNetError` naming the operator and the input shapes.
    """
    try:
        if state.is_recording or not torch.is_grad_enabled():
            out = op.compute(attrs, *tensors)
        else:
            with torch.no_grad():
                out = op.compute(attrs, *tensors)
    except MXNetError:
        raise
    except (RuntimeError, ValueError, IndexError, TypeError) as e:
        shapes = ", ".join(str(tuple(t.shape)) for t in tensors)
        raise MXNetError(f"Error in operator {op.name}: {e} (input shapes: [{shapes}])") from None
    if isinstance(out, torch.Tensor):
        return (out,)
    return tuple(out)
