"""More storage-aware ``mx.nd.sparse`` front ends (MXNet 1.9.1 storage rules).

- ``sgd_update`` / ``sgd_mom_update`` / ``adam_update`` with a row_sparse ``grad`` and
  ``lazy_update=True`` (the default) update only the gradient's rows of the weight and
  states, in place (``out`` must be given);
- ``add_n`` of row_sparse arrays is row_sparse (rows: the union);
- ``concat`` of csr arrays along ``dim=0`` is csr;
- ``broadcast_mul`` / ``broadcast_div`` of a csr array by a dense 2-D array is csr (same
  structure);
- ``clip`` of a sparse array keeps its storage when ``a_min <= 0 <= a_max`` (else MXNet
  has no kernel: MXNetError).

Other cases compute densely through the registry operators.
"""

from __future__ import annotations

import inspect

import torch

from .._op._registry import get_op
from ..base import MXNetError, _Null
from ._namespace import function_for
from ._sparse_base import BaseSparseNDArray, CSRNDArray, RowSparseNDArray, new_sparse

__all__ = [
    "sgd_update",
    "sgd_mom_update",
    "adam_update",
    "add_n",
    "concat",
    "broadcast_mul",
    "broadcast_div",
    "clip",
]


def _finish(res, out):
    if out is None:
        return res
    res.copyto(out)
    return out


# -- lazy optimizer updates -------------------------------------------------------------
def _lazy(opname: str, states: tuple[str, ...]):
    dense = function_for(opname)
    op = get_op(opname)
    sig = inspect.signature(dense)

    def fn(*args, out=None, name=None, **kwargs):
        grad = args[1] if len(args) > 1 else kwargs.get("grad")
        if not isinstance(grad, RowSparseNDArray):  # the common (dense) case: no overhead
            return dense(*args, out=out, name=name, **kwargs)
        bound = sig.bind(*args, **kwargs)
        vals = {k: v for k, v in bound.arguments.items() if k not in ("out", "name")}
        extra = vals.pop("kwargs", {})
        grad = vals.get("grad")
        params = {
            k: v for k, v in vals.items() if k not in ("weight", "grad") + states and v is not _Null
        }
        params.update(extra)
        if not isinstance(grad, RowSparseNDArray) or not op.parse_attrs(params).get(
            "lazy_update", True
        ):
            return dense(*args, out=out, name=name, **kwargs)
        if out is None:
            raise MXNetError(
                f"Check failed: req == kWriteInplace: kWriteInplace is expected "
                f"for sparse {opname} (pass out=weight)"
            )
        attrs = op.parse_attrs(params)
        weight = vals["weight"]
        state_arrays = [vals[s] for s in states]
        rows = grad._saux[0]
        w_full = weight._t.detach().clone()
        st_full = [s._t.detach().clone() for s in state_arrays]
        st_rows = [s[rows] for s in st_full]
        new_rows = op.compute(attrs, w_full[rows], grad._sdata.detach(), *st_rows)
        if isinstance(new_rows, (tuple, list)):
            new_rows = new_rows[0]
        w_full[rows] = new_rows.to(w_full.dtype)
        for arr, full, part in zip(state_arrays, st_full, st_rows):
            full[rows] = part
            arr._assign_tensor(full)
        out._assign_tensor(w_full)
        return out

    fn.__name__ = opname
    fn.__signature__ = sig
    fn.__module__ = dense.__module__
    # the operator's own documentation (MXNet has one operator for both storage types)
    fn.__doc__ = (dense.__doc__ or "") + (
        "\n\nWith a row_sparse ``grad`` and ``lazy_update=True`` only the gradient's rows "
        "of the weight and states change (in place, ``out=weight``)."
    )
    return fn


sgd_update = _lazy("sgd_update", ())
sgd_mom_update = _lazy("sgd_mom_update", ("mom",))
adam_update = _lazy("adam_update", ("mean", "var"))
LAZY_UPDATES = ("sgd_update", "sgd_mom_update", "adam_update")


def _nag_front():
    """``nag_mom_update``: with ``out=weight`` MXNet's kernel writes the new weight before
    the momentum reads it, so the momentum's weight-decay term sees the new weight."""
    from .._op._optim import _nag_step

    dense = function_for("nag_mom_update")
    op = get_op("nag_mom_update")
    sig = inspect.signature(dense)

    def fn(*args, out=None, name=None, **kwargs):
        weight = args[0] if args else kwargs.get("weight")
        if out is None or out is not weight or weight.stype != "default":
            return dense(*args, out=out, name=name, **kwargs)
        vals = dict(sig.bind(*args, **kwargs).arguments)
        params = dict(vals.pop("kwargs", {}))
        params.update(
            {k: v for k, v in vals.items() if k not in ("weight", "grad", "mom") and v is not _Null}
        )
        a = op.parse_attrs(params)
        mom = vals["mom"]
        w = weight._t.detach().clone()
        m = mom._t.detach().clone()
        g = vals["grad"]._t.detach()
        _nag_step(a, w, g, m, a["lr"], a["wd"], a["momentum"], aliased=True, out=w)
        mom._assign_tensor(m)
        out._assign_tensor(w)
        return out

    fn.__name__ = "nag_mom_update"
    fn.__signature__ = sig
    fn.__module__ = dense.__module__
    fn.__doc__ = dense.__doc__
    return fn


# front ends that replace the generated mx.nd functions (not listed under mx.nd.sparse)
DENSE_FRONTS = {"nag_mom_update": _nag_front()}


# -- add_n / concat -----------------------------------------------------------------------
def add_n(*args, out=None, name=None, **kwargs):
    """Element-wise sum; row_sparse when every input is row_sparse.

    Examples
    --------
    >>> a = mx.nd.array([[1., 0.], [0., 0.]]).tostype('row_sparse')
    >>> mx.nd.sparse.add_n(a, a).stype
    'row_sparse'
    """
    arrays = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    if (
        not arrays
        or not all(isinstance(a, RowSparseNDArray) for a in arrays)
        or len({a.shape for a in arrays}) != 1
    ):
        return function_for("add_n")(*arrays, out=out, name=name, **kwargs)
    idx = torch.unique(torch.cat([a._saux[0] for a in arrays]))
    first = arrays[0]
    vals = torch.zeros((idx.numel(),) + tuple(first._sdata.shape[1:]), dtype=first._sdata.dtype)
    for a in arrays:
        if a._saux[0].numel():
            vals.index_add_(0, torch.searchsorted(idx, a._saux[0]), a._sdata.to(vals.dtype))
    return _finish(new_sparse("row_sparse", vals, (idx,), first.shape, first._ctx), out)


def concat(*data, dim=_Null, num_args=_Null, out=None, name=None, **kwargs):
    """Concatenate; csr arrays along ``dim=0`` give a csr array.

    Examples
    --------
    >>> a = mx.nd.array([[1., 0.]]).tostype('csr')
    >>> mx.nd.sparse.concat(a, a, dim=0).stype
    'csr'
    """
    arrays = list(data[0]) if len(data) == 1 and isinstance(data[0], (list, tuple)) else list(data)
    axis = 1 if dim is _Null else int(dim)
    if (
        arrays
        and axis == 0
        and all(isinstance(a, CSRNDArray) for a in arrays)
        and len({a.shape[1] for a in arrays}) == 1
        and len({a.dtype for a in arrays}) == 1
    ):
        ptrs, offset = [torch.zeros(1, dtype=torch.int64)], 0
        for a in arrays:
            ptrs.append(a._saux[0][1:] + offset)
            offset += int(a._saux[0][-1])
        res = new_sparse(
            "csr",
            torch.cat([a._sdata for a in arrays]),
            (torch.cat(ptrs), torch.cat([a._saux[1] for a in arrays])),
            (sum(a.shape[0] for a in arrays), arrays[0].shape[1]),
            arrays[0]._ctx,
        )
        return _finish(res, out)
    params = {k: v for k, v in (("dim", dim), ("num_args", num_args)) if v is not _Null}
    return function_for("Concat")(*arrays, out=out, name=name, **params, **kwargs)


# -- csr (x) dense broadcast --------------------------------------------------------------
def _csr_broadcast(opname: str, fn):
    dense = function_for(opname)

    def wrapper(lhs=None, rhs=None, out=None, name=None, **kwargs):
        if (
            isinstance(lhs, CSRNDArray)
            and not isinstance(rhs, BaseSparseNDArray)
            and getattr(rhs, "ndim", 0) == 2
            and not kwargs
        ):
            try:
                full = rhs._t.broadcast_to(lhs.shape)
            except RuntimeError:
                full = None
            if full is not None:
                indptr, indices = lhs._saux
                rows = torch.repeat_interleave(torch.arange(lhs.shape[0]), indptr.diff())
                vals = fn(lhs._sdata, full[rows, indices].to(lhs._sdata.dtype))
                res = new_sparse(
                    "csr", vals, (indptr.clone(), indices.clone()), lhs.shape, lhs._ctx
                )
                return _finish(res, out)
        return dense(lhs, rhs, out=out, name=name, **kwargs)

    wrapper.__name__ = opname
    wrapper.__signature__ = inspect.signature(wrapper)
    wrapper.__doc__ = (
        f"``{opname}``; a csr ``lhs`` with a dense 2-D ``rhs`` gives csr "
        "(the lhs structure).\n\nExamples\n--------\n"
        ">>> a = mx.nd.array([[1., 0.]]).tostype('csr')\n"
        f">>> mx.nd.sparse.{opname}(a, mx.nd.ones((1, 2))).stype\n'csr'\n"
    )
    return wrapper


broadcast_mul = _csr_broadcast("broadcast_mul", torch.mul)
broadcast_div = _csr_broadcast("broadcast_div", torch.div)


def clip(data=None, a_min=_Null, a_max=_Null, out=None, name=None, **kwargs):
    """Clip to ``[a_min, a_max]``; sparse storage is kept when the range contains 0.

    Examples
    --------
    >>> r = mx.nd.array([[5., 0.]]).tostype('row_sparse')
    >>> mx.nd.sparse.clip(r, -1, 2).stype
    'row_sparse'
    """
    if isinstance(data, BaseSparseNDArray):
        params = {k: v for k, v in (("a_min", a_min), ("a_max", a_max)) if v is not _Null}
        a = get_op("clip").parse_attrs({**params, **kwargs})
        lo, hi = float(a["a_min"]), float(a["a_max"])
        if not lo <= 0.0 <= hi:
            raise MXNetError(
                f"Operator not implemented: operator = clip\ninput storage types "
                f"= [{data.stype}, ] (a sparse input needs a_min <= 0 <= a_max; "
                f"got a_min={lo}, a_max={hi})"
            )
        return _finish(data._rebuild(lambda t: torch.clamp(t, lo, hi)), out)
    return function_for("clip")(data, a_min, a_max, out=out, name=name, **kwargs)
