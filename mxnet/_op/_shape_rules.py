"""Output-shape rules of the element-wise operator families, in plain Python.

Tracing ``compute`` on meta tensors (the registry's default shape inference) makes torch
import its compiler stack on the first element-wise meta operation (~3 s once per process),
which MXNet programs would pay at their first ``simple_bind``/``infer_shape``. The families
below declare their output shapes instead; anything unusual (incompatible shapes) falls
back to tracing, so error messages stay the kernels' own.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["same_out", "elemwise_out", "broadcast_out", "same_type"]


def same_out(attrs: dict, shapes: list) -> list:
    """One output shaped like the first input."""
    return [tuple(shapes[0])]


def elemwise_out(name: str) -> Callable:
    """Inputs of one common shape give an output of that shape."""

    def rule(attrs: dict, shapes: list) -> list:
        first = tuple(shapes[0])
        if all(tuple(s) == first for s in shapes[1:]):
            return [first]
        from ._registry import get_op

        return get_op(name).trace_shapes(attrs, shapes)

    return rule


def broadcast_out(name: str) -> Callable:
    """NumPy broadcasting of the input shapes."""

    def rule(attrs: dict, shapes: list) -> list:
        nd = max(len(s) for s in shapes)
        out = []
        for k in range(nd):
            dims = {s[len(s) - nd + k] for s in shapes if len(s) - nd + k >= 0}
            big = dims - {1}
            if len(big) > 1:  # incompatible: let the kernel report it
                from ._registry import get_op

                return get_op(name).trace_shapes(attrs, shapes)
            out.append(big.pop() if big else 1)
        return [tuple(out)]

    return rule


def same_type(attrs: dict, dtypes: list) -> tuple[list, list]:
    """Inputs and the output all of the first known input dtype (dtype inference without
    tracing the kernel)."""
    first = next((t for t in dtypes if t is not None), None)
    return [first if t is None else t for t in dtypes], [first]
