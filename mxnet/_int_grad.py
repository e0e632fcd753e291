"""Gradients of integer arrays (MXNet differentiates them; torch cannot).

MXNet 1.x lets ``attach_grad`` mark an integer array and writes integer gradients into its
buffer (``topk``, indexing, ``x * 2``...). Torch tensors of integer dtype cannot carry a
graph, so an integer variable gets a float64 *shadow*: a leaf with the same values that
requires grad. While autograd records, an operator reading an integer array with a shadow
runs a second time on the shadows (:func:`link`); each integer output keeps the result as
its own shadow, whose value is the exact integer output and whose graph reaches the leaf.
``backward`` starts from the heads' shadows and the leaf's gradient is cast into the
integer buffer. Nothing of this runs unless an integer array was marked (``ACTIVE``).

Examples
--------
>>> import mxnet as mx
>>> x = mx.nd.array([1, 5, 3], dtype='int32')
>>> x.attach_grad()
>>> with mx.autograd.record():
...     y = mx.nd.topk(x, k=1, ret_typ='value')
>>> y.backward()
>>> x.grad.asnumpy().tolist()
[0, 1, 0]
"""

from __future__ import annotations

import torch

from .base import MXNetError

__all__ = ["ACTIVE", "make_leaf", "shadow", "tie", "link", "link_with", "graph_tensor"]

ACTIVE = [0]  # set once an integer array has been marked for gradients


def make_leaf(t: torch.Tensor) -> torch.Tensor:
    """Give integer tensor ``t`` (a marked variable) its float64 leaf; return the leaf."""
    leaf = t.detach().to(torch.float64).requires_grad_(True)
    t._mx_leaf = leaf
    ACTIVE[0] = 1
    return leaf


def shadow(t: torch.Tensor):
    """The float64 graph stand-in of integer tensor ``t``, or None."""
    if t.is_floating_point() or t.is_complex():
        return None
    leaf = getattr(t, "_mx_leaf", None)
    if leaf is not None:  # a variable: follow in-place changes of its values
        return leaf + (t.detach().to(torch.float64) - leaf).detach()
    return getattr(t, "_mx_shadow", None)


def tie(real: torch.Tensor, sh: torch.Tensor) -> torch.Tensor:
    """The exact values of ``real`` (as float64) with the gradient path of ``sh``."""
    return real.detach().to(torch.float64) + (sh - sh.detach())


def link(op, attrs: dict, inputs: list, res: tuple) -> tuple:
    """Run ``op`` again on the inputs' shadows; attach the results to integer outputs.

    Float outputs computed from integer inputs (casts) are returned tied to the graph.
    """
    shadows = [shadow(x._t) for x in inputs]
    if all(s is None for s in shadows):
        return res
    from ._op._apply import apply

    try:
        sres = apply(op, attrs, [s if s is not None else x._t for s, x in zip(shadows, inputs)])
    except MXNetError:  # the kernel refuses floats: no gradient path, as for indices
        return res
    if getattr(op, "int_grad_zero", False):  # MXNet's integer kernel passes back zeros
        sres = tuple(t * 0 if t.is_floating_point() and t.requires_grad else t for t in sres)
    out = list(res)
    for i, (r, s) in enumerate(zip(res, sres)):
        if not (s.requires_grad and s.is_floating_point()) or s.shape != r.shape:
            continue
        if r.is_floating_point():
            if not r.requires_grad:
                out[i] = tie(r, s).to(r.dtype)
        else:
            r._mx_shadow = tie(r, s)
    return tuple(out)


def link_with(src, dst, fn) -> None:
    """Attach to ``dst`` the shadow of ``fn`` (an NDArray function) applied to ``src``'s."""
    sh = shadow(src._t)
    if sh is None or dst._t.is_floating_point():
        return
    res = fn(type(src)._wrap(sh, src._ctx))._t
    if res.shape == dst._t.shape:
        dst._t._mx_shadow = tie(dst._t, res)


def graph_tensor(arr) -> torch.Tensor:
    """The tensor ``backward`` starts from for head ``arr`` (its shadow if integer)."""
    t = arr._t
    if t.requires_grad:
        return t
    sh = shadow(t) if ACTIVE[0] else None
    return t if sh is None else sh
