"""Memory estimate behind ``Executor.debug_str``'s ``Total N MB allocated`` line (private)."""

from __future__ import annotations

import math

from ..base import MXNetError
from ..symbol._node import topo_order

__all__ = ["graph_bytes", "gradient_flows"]

_BLOCKING = ("BlockGrad", "stop_gradient")


def gradient_flows(sym, grad_req: list[str]) -> bool:
    """Whether a gradient reaches some argument whose ``grad_req`` is not ``'null'``."""
    need = {n for n, r in zip(sym.list_arguments(), grad_req) if r != "null"}
    stack, seen = [e[0] for e in sym._outputs], set()
    while stack and need:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.op is None:
            if node.name in need:
                return True
        elif node.op.name not in _BLOCKING:
            stack.extend(src for src, _ in node.inputs)
    return False


def graph_bytes(sym, arg_arrays, grad_req: list[str]) -> int:
    """Intermediate storage of a bound graph: every node output is kept for backward when a
    gradient flows, else two buffers of the largest output are reused.

    Examples
    --------
    >>> x = mx.sym.var('x')
    >>> graph_bytes(x * 2, [mx.nd.ones((1024, 256))], ['null']) >> 20
    2
    """
    known = {n: a.shape for n, a in zip(sym.list_arguments(), arg_arrays)}
    try:
        _, shapes, _ = sym.get_internals()._infer_shape_raw(True, **known)
    except MXNetError:
        return 0
    sizes = [math.prod(s or (0,)) * 4 for s in shapes]
    has_ops = any(n.op is not None for n in topo_order(e[0] for e in sym._outputs))
    if not sizes or not has_ops:
        return 0
    return 2 * sum(sizes) if gradient_flows(sym, grad_req) else 2 * max(sizes)
