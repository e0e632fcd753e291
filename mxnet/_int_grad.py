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

__all__ = ["ACTIVE", "make_leaf", "shadow", "tie", "link", "link_with", "link_step",
           "graph_tensor", "shadowed"]

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


class _Truncate(torch.autograd.Function):
    """Identity whose gradient is truncated to integers (MXNet's integer gradient buffers)."""

    @staticmethod
    def forward(ctx, x):  # type: ignore[override]
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        return g.trunc()


def tie(real: torch.Tensor, sh: torch.Tensor) -> torch.Tensor:
    """The exact values of ``real`` (as float64) with the gradient path of ``sh``.

    The gradient reaching an integer ``real`` is truncated, as MXNet stores it in an array of
    ``real``'s integer dtype."""
    if not real.is_floating_point() and sh.requires_grad:
        sh = _Truncate.apply(sh)
    return real.detach().to(torch.float64) + (sh - sh.detach())


def shadowed(r: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """Integer ``r`` cast from graph tensor ``x``, given ``x``'s gradient path (MXNet passes
    gradients through casts to integer types)."""
    ACTIVE[0] = 1
    r._mx_shadow = tie(r, x.to(torch.float64))
    return r


def _graph_of(s: torch.Tensor) -> torch.Tensor:
    """The float tensor carrying ``s``'s gradient: ``s`` itself or an integer's shadow."""
    if s.is_floating_point():
        return s
    return getattr(s, "_mx_shadow", s)


def _zero_tied(outs, shadows) -> tuple:
    """Zeros in place of the float outputs, still tied to the input shadows' graph (a zero
    gradient; built from the finite shadows, so no NaN from the outputs' own backward)."""
    live = [s for s in shadows if s is not None and s.requires_grad]
    if not live:
        return tuple(outs)
    z = sum((s * 0).sum() for s in live)
    return tuple(torch.zeros_like(t) + z if t.is_floating_point() and t.requires_grad else t
                 for t in outs)


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
        sres = _zero_tied(sres, shadows)
    out = list(res)
    for i, (r, s) in enumerate(zip(res, sres)):
        s = _graph_of(s)
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


def link_step(run, tensors: list, outs: tuple, zero: bool = False) -> tuple:
    """Run one graph step (``run(tensors)``) again on the shadows of integer inputs and tie
    its outputs to that run, as :func:`link` does for imperative operators (executors)."""
    shadows = [shadow(t) for t in tensors]
    if all(s is None for s in shadows):
        return outs
    try:
        souts = run([t if s is None else s for s, t in zip(shadows, tensors)])
    except (MXNetError, RuntimeError, TypeError, ValueError, IndexError):
        return outs  # the kernel refuses float inputs: no gradient path, as for indices
    if isinstance(souts, torch.Tensor):
        souts = (souts,)
    if zero:  # MXNet's integer kernel passes back zeros
        souts = _zero_tied(souts, shadows)
    res = list(outs)
    for i, (r, s) in enumerate(zip(outs, souts)):
        s = _graph_of(s)
        if not (s.requires_grad and s.is_floating_point()) or s.shape != r.shape:
            continue
        if r.is_floating_point():
            if not r.requires_grad:
                res[i] = tie(r, s).to(r.dtype)
        else:
            r._mx_shadow = tie(r, s)
    return tuple(res)


def graph_tensor(arr) -> torch.Tensor:
    """The tensor ``backward`` starts from for head ``arr`` (its shadow if integer)."""
    t = arr._t
    if t.requires_grad:
        return t
    sh = shadow(t) if ACTIVE[0] else None
    return t if sh is None else sh
