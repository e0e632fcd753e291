"""MXNet's rule for graphs a backward pass has freed: arrays computed in them are constants.

In MXNet 1.x, ``backward()`` without ``retain_graph`` releases the recorded graph, and an
array computed while recording it (a recurrent state carried to the next batch, say) simply
enters later computations as a constant: its history is cut. torch instead keeps the link
and fails on the next backward ("backward through the graph a second time"). So after such
a backward the nodes of the freed graph are tagged, and an operator recorded later detaches
any input whose history starts at a tagged node (``detach_freed``). The outputs of one
operator call share a record, so a sibling output not on the differentiated path (an RNN's
final state) is cut as well.
"""

from __future__ import annotations

import torch

__all__ = ["ANY", "mark_freed", "detach_freed", "link_outputs"]

ANY = [False]  # whether any graph was freed yet (the checks cost nothing before)
_KEY = "mx_freed"
_OP = "mx_op"
# the node type that accumulates a leaf's gradient (never a tensor's ``grad_fn``)
_ACC = type((torch.zeros(1, requires_grad=True) * 1).grad_fn.next_functions[0][0])


class _CallRecord:
    """Shared by the outputs of one operator call: freed when any of them is."""

    __slots__ = ("freed",)

    def __init__(self):
        self.freed = False


def mark_freed(tensors) -> None:
    """Tag every node of the graphs behind ``tensors`` (after a non-retaining backward)."""
    stack = [t.grad_fn for t in tensors if t.grad_fn is not None]
    if stack:
        ANY[0] = True
    push = stack.append
    pop = stack.pop
    key, op = _KEY, _OP
    while stack:
        node = pop()
        md = node.metadata
        if key in md:
            continue
        md[key] = True
        rec = md.get(op)
        if rec is not None:
            rec.freed = True
        for n, _ in node.next_functions:
            # (AccumulateGrad nodes of leaves are no array's grad_fn: nothing to tag)
            if n is not None and type(n) is not _ACC:
                push(n)


def _is_freed(t: torch.Tensor) -> bool:
    gf = t.grad_fn
    if gf is None:
        return False
    md = gf.metadata
    if md.get(_KEY):
        return True
    rec = md.get(_OP)
    return rec is not None and rec.freed


def detach_freed(arrays) -> None:
    """Cut the history of each array (NDArray) that comes from a freed graph, in place."""
    for x in arrays:
        t = getattr(x, "_t", None)
        if t is not None and t.grad_fn is not None and _is_freed(t):
            x._t = t.detach()


def link_outputs(tensors) -> None:
    """Give the outputs of one operator call a shared record (see module docstring)."""
    rec = _CallRecord()
    for t in tensors:
        gf = t.grad_fn
        if gf is not None:
            gf.metadata.setdefault(_OP, rec)
