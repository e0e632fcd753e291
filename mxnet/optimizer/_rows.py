"""Storage-aware application of an in-place update to a weight and its states.

Optimizer kernels work on dense torch tensors. A sparse NDArray's ``_t`` is a dense view
rebuilt on each access, so an in-place kernel must run on that view and write it back.
With a ``row_sparse`` gradient and lazy updating, MXNet only touches the rows listed in
the gradient: the kernel then runs on those rows alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch

from .._op._registry import get_op
from ..base import MXNetError

__all__ = ["apply_update", "check_sparse_wd", "op_inplace"]


def apply_update(weight, grad, states: Sequence, fn: Callable, lazy: bool = False) -> None:
    """Run ``fn(w, g, states)`` in place on torch tensors and store the results back.

    Parameters
    ----------
    weight, grad : NDArray
        The weight (any storage type) and its gradient.
    states : sequence of NDArray or None
        Optimizer states updated in place by ``fn``.
    fn : callable
        ``fn(w, g, [s, ...])`` updating ``w`` and the states in place.
    lazy : bool
        When true and ``grad`` is ``row_sparse``, only the gradient's rows are updated.

    Examples
    --------
    >>> apply_update(w, g, [mom], lambda w, g, s: w.sub_(g))  # doctest: +SKIP
    """
    w_all = weight._t
    s_all = [None if s is None else s._t for s in states]
    with torch.no_grad():
        if lazy and grad.stype == "row_sparse":
            idx = grad.indices._t.long()
            if idx.numel():
                w_rows = w_all[idx]
                s_rows = [None if t is None else t[idx] for t in s_all]
                fn(w_rows, grad.data._t.to(w_rows.dtype), s_rows)
                w_all[idx] = w_rows
                for t, r in zip(s_all, s_rows):
                    if t is not None:
                        t[idx] = r
        else:
            fn(w_all, grad._t, s_all)
    if weight.stype != "default":
        weight._t = w_all
    for s, t in zip(states, s_all):
        if s is not None and s.stype != "default":
            s._t = t


def op_inplace(name: str, w: torch.Tensor, *tensors: torch.Tensor, **params) -> None:
    """Run registered update operator ``name`` on tensors, writing the new weight into ``w``.

    Examples
    --------
    >>> op_inplace("ftrl_update", w, g, z, n, lr=0.1)  # doctest: +SKIP
    """
    op = get_op(name)
    attrs = op.parse_attrs(params)
    new = op.compute(attrs, w, *tensors)
    if isinstance(new, (tuple, list)):
        new = new[0]
    w.copy_(new)


def check_sparse_wd(name: str, grad, wd: float) -> None:
    """MXNet's sparse ``name`` kernel has no weight decay: raise like it does."""
    if grad.stype == "row_sparse" and wd != 0.0:
        raise MXNetError(f"Operator not implemented: operator = {name} with wd={wd} and a "
                         "row_sparse gradient (weight decay is not supported there)")


def _densify(x, pairs: list):
    from ..ndarray import NDArray

    if isinstance(x, NDArray) and x.stype != "default":
        dense = NDArray._wrap(x._t, x.context)
        pairs.append((x, dense))
        return dense
    if isinstance(x, (list, tuple)):
        return type(x)(_densify(y, pairs) for y in x)
    return x


def dense_fallback(method: Callable) -> Callable:
    """Wrap ``update``/``update_multi_precision`` so that sparse weights and states are
    updated through dense copies written back afterwards (MXNet's storage fallback).

    Examples
    --------
    >>> Opt.update = dense_fallback(Opt.update)  # doctest: +SKIP
    """
    if getattr(method, "_dense_fallback", False):
        return method

    def wrapped(self, index, weight, grad, state):
        pairs: list = []
        weight2 = _densify(weight, pairs)
        state2 = _densify(state, pairs)
        if not pairs:
            return method(self, index, weight, grad, state)
        res = method(self, index, weight2, grad, state2)
        for orig, dense in pairs:
            orig._t = dense._t
        return res

    wrapped._dense_fallback = True
    wrapped.__name__ = method.__name__
    wrapped.__doc__ = method.__doc__
    return wrapped
