"""Creation functions and sparsity-keeping operators of ``mx.nd.sparse``.

Operators that keep sparse outputs here: ``dot(csr, dense)`` (dense result, computed from
the components), ``dot(csr, dense, transpose_a=True)`` (row_sparse result),
``elemwise_add`` / ``elemwise_sub`` / ``add`` / ``subtract`` of two arrays with the same
sparse stype, ``retain``, ``cast_storage``, ``zeros``, ``empty``, ``array``. Everything else
runs on dense data and returns dense arrays.
"""

from __future__ import annotations

import numpy as np
import torch

from .. import _dtype
from .._op._state import state
from .._op._stype_rules import out_stypes
from ..base import MXNetError
from ..context import Context
from . import _sparse_conv as conv
from ._sparse_base import BaseSparseNDArray, CSRNDArray, RowSparseNDArray, new_sparse
from .ndarray import NDArray

__all__ = ["csr_matrix", "row_sparse_array", "zeros", "empty", "array", "dot", "retain",
           "elemwise_add", "elemwise_sub", "elemwise_mul", "add", "subtract", "multiply", "divide",
           "cast_storage", "to_sparse"]

_STYPES = ("csr", "row_sparse")


def _ctx(ctx) -> Context:
    if ctx is None:
        return Context.default_ctx
    if not isinstance(ctx, Context):
        # MXNet fails with a TypeError too (e.g. the pre-1.0 call
        # csr_matrix(data, indptr, indices, shape) puts a list in ctx)
        raise TypeError("ctx must be a Context, got %s" % type(ctx).__name__)
    return ctx


def _torch_dtype(dtype, src=None) -> torch.dtype:
    if dtype is not None:
        return _dtype.to_torch(dtype)
    if isinstance(src, (np.ndarray, NDArray)):
        return _dtype.to_torch(src.dtype)
    return torch.float32


def _tensor(x, dtype=None) -> torch.Tensor:
    if isinstance(x, NDArray):
        t = x._t.detach()
        return t.to(dtype) if dtype is not None else t.clone()
    return torch.as_tensor(np.asarray(x), dtype=dtype)


def to_sparse(t: torch.Tensor, stype: str, ctx: Context):
    """The dense tensor ``t`` stored as ``stype`` ('csr' or 'row_sparse')."""
    if stype == "csr":
        data, indptr, indices = conv.dense_to_csr(t)
        return new_sparse("csr", data, (indptr, indices), t.shape, ctx)
    if stype == "row_sparse":
        data, indices = conv.dense_to_rsp(t)
        return new_sparse("row_sparse", data, (indices,), t.shape, ctx)
    raise MXNetError(f"cast_storage: unknown storage type '{stype}'")


def _check_shape(got: tuple, shape) -> None:
    if shape is not None and tuple(int(d) for d in shape) != got:
        raise ValueError(f"Shape mismatch detected. {got} v.s. {shape}")  # as given


def _is_scipy_csr(x) -> bool:
    return type(x).__module__.startswith("scipy.sparse") and getattr(x, "format", "") == "csr"


def csr_matrix(arg1, shape=None, ctx=None, dtype=None) -> CSRNDArray:
    """Create a CSRNDArray.

    ``arg1`` is ``(data, indices, indptr)``, ``(data, (row, col))``, a shape ``(M, N)``
    (all zeros), a dense array/NDArray, a CSRNDArray or a ``scipy.sparse.csr_matrix``.

    Examples
    --------
    >>> mx.nd.sparse.csr_matrix(([1., 2.], [1, 0], [0, 1, 2]), shape=(2, 2)).indices
    <BLANKLINE>
    [1 0]
    <NDArray 2 @cpu(0)>
    """
    ctx = _ctx(ctx)
    dev = ctx.torch_device
    if isinstance(arg1, tuple) and len(arg1) == 2 and all(
            isinstance(d, (int, np.integer)) for d in arg1):
        _check_shape(tuple(int(d) for d in arg1), shape)
        return zeros("csr", arg1, ctx, dtype)
    if isinstance(arg1, tuple) and len(arg1) == 3:
        data, indices, indptr = arg1
        td = _torch_dtype(dtype, data)
        data_t = _tensor(data, td).reshape(-1)
        indptr_t = _tensor(indptr, torch.int64).reshape(-1)
        indices_t = _tensor(indices, torch.int64).reshape(-1)
        if shape is None:
            if not indices_t.numel():
                raise ValueError("invalid shape")
            shape = (indptr_t.numel() - 1, int(indices_t.max()) + 1)
        out = new_sparse("csr", data_t.to(dev), (indptr_t.to(dev), indices_t.to(dev)),
                         shape, ctx)
        out.check_format(full_check=False)
        return out
    if isinstance(arg1, tuple) and len(arg1) == 2:  # COO: (data, (row, col))
        data, (row, col) = arg1
        td = _torch_dtype(dtype, data)
        vals = _tensor(data, td).reshape(-1)
        r, c = _tensor(row, torch.int64).reshape(-1), _tensor(col, torch.int64).reshape(-1)
        if shape is None:
            shape = (int(r.max()) + 1 if r.numel() else 0, int(c.max()) + 1 if c.numel() else 0)
        dense = torch.zeros(tuple(shape), dtype=td)
        dense.index_put_((r, c), vals, accumulate=True)
        return to_sparse(dense.to(dev), "csr", ctx)
    if _is_scipy_csr(arg1):
        m = arg1
        if not m.has_canonical_format:  # MXNet sums duplicates and sorts (on a copy)
            m = m.copy()
            m.sum_duplicates()
            m.sort_indices()
        return csr_matrix((m.data, m.indices, m.indptr), shape=m.shape, ctx=ctx,
                          dtype=dtype if dtype is not None else m.dtype)
    if isinstance(arg1, CSRNDArray):
        out = arg1.copyto(ctx)
        return out.astype(dtype) if dtype is not None else out
    if isinstance(arg1, RowSparseNDArray):
        raise ValueError("Unexpected input type: RowSparseNDArray")
    t = _tensor(arg1, _torch_dtype(dtype, arg1))
    _check_shape(tuple(t.shape), shape)
    return to_sparse(t.to(dev), "csr", ctx)


def row_sparse_array(arg1, shape=None, ctx=None, dtype=None) -> RowSparseNDArray:
    """Create a RowSparseNDArray.

    ``arg1`` is ``(data, indices)``, a shape (all zeros), a dense array/NDArray or a
    RowSparseNDArray.

    Examples
    --------
    >>> mx.nd.sparse.row_sparse_array(([[1., 2.]], [1]), shape=(3, 2)).indices
    <BLANKLINE>
    [1]
    <NDArray 1 @cpu(0)>
    """
    ctx = _ctx(ctx)
    dev = ctx.torch_device
    if isinstance(arg1, tuple) and arg1 and all(isinstance(d, (int, np.integer))
                                                for d in arg1):
        _check_shape(tuple(int(d) for d in arg1), shape)
        return zeros("row_sparse", arg1, ctx, dtype)
    if isinstance(arg1, tuple) and len(arg1) == 2:
        data, indices = arg1
        td = _torch_dtype(dtype, data)
        data_t = _tensor(data, td)
        idx = _tensor(indices, torch.int64).reshape(-1)
        if shape is None:
            if not idx.numel():
                raise ValueError("invalid shape")
            shape = (int(idx.max()) + 1,) + tuple(data_t.shape[1:])
        if data_t.dim() != len(shape) and data_t.numel() == idx.numel() * int(
                np.prod(shape[1:], dtype=np.int64)):
            data_t = data_t.reshape((idx.numel(),) + tuple(shape[1:]))
        out = new_sparse("row_sparse", data_t.to(dev), (idx.to(dev),), shape, ctx)
        out.check_format(full_check=False)
        return out
    if isinstance(arg1, RowSparseNDArray):
        out = arg1.copyto(ctx)
        return out.astype(dtype) if dtype is not None else out
    if isinstance(arg1, CSRNDArray):
        raise ValueError("Unexpected input type: CSRNDArray")
    t = _tensor(arg1, _torch_dtype(dtype, arg1))
    _check_shape(tuple(t.shape), shape)
    return to_sparse(t.to(dev), "row_sparse", ctx)


def zeros(stype, shape, ctx=None, dtype=None, **kwargs):
    """An all-zero array of storage ``stype`` ('csr', 'row_sparse' or 'default').

    Examples
    --------
    >>> mx.nd.sparse.zeros('row_sparse', (3, 2)).data.shape
    (0, 2)
    """
    if stype == "default":
        from .ndarray import zeros as dense_zeros

        return dense_zeros(shape, ctx=ctx, dtype=dtype, **kwargs)
    if stype not in _STYPES:
        raise ValueError(f"unknown storage type{stype}")
    ctx = _ctx(ctx)
    dev = ctx.torch_device
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    td = _torch_dtype(dtype)
    idx = torch.zeros(0, dtype=torch.int64, device=dev)
    if stype == "csr":
        if len(shape) != 2:
            raise MXNetError(f"zeros: csr storage needs a 2-D shape, got {shape}")
        return new_sparse("csr", torch.zeros(0, dtype=td, device=dev),
                          (torch.zeros(shape[0] + 1, dtype=torch.int64, device=dev), idx),
                          shape, ctx)
    return new_sparse("row_sparse", torch.zeros((0,) + shape[1:], dtype=td, device=dev),
                      (idx,), shape, ctx)


def empty(stype, shape, ctx=None, dtype=None):
    """Same as :func:`zeros` for sparse storage (no stored values)."""
    return zeros(stype, shape, ctx, dtype)


def array(source_array, ctx=None, dtype=None):
    """A sparse array from a CSRNDArray, RowSparseNDArray or ``scipy.sparse.csr_matrix``."""
    if isinstance(source_array, CSRNDArray) or _is_scipy_csr(source_array):
        return csr_matrix(source_array, ctx=ctx, dtype=dtype)
    if isinstance(source_array, RowSparseNDArray):
        return row_sparse_array(source_array, ctx=ctx, dtype=dtype)
    raise ValueError("Please use mx.nd.array to create an NDArray with source_array of type ",
                     type(source_array))


def cast_storage(data, stype, out=None, name=None):
    """Convert ``data`` to storage ``stype`` ('default', 'csr' or 'row_sparse')."""
    try:
        res = data.tostype(stype)
    except ValueError as e:  # the operator form raises MXNet's error type
        raise MXNetError(f"Operator not implemented: operator = cast_storage: {e}") from None
    if out is not None:
        res.copyto(out)
        return out
    return res


def dot(lhs, rhs, transpose_a=False, transpose_b=False, forward_stype=None, out=None,
        name=None):
    """Matrix product; ``csr x dense`` gives dense, ``csr.T x dense`` gives row_sparse,
    ``dense x csr`` gives csr; ``forward_stype`` picks the result's storage type.

    Examples
    --------
    >>> a = mx.nd.sparse.csr_matrix(([2.], [1], [0, 1]), shape=(1, 2))
    >>> mx.nd.sparse.dot(a, mx.nd.ones((2, 3))).asnumpy().tolist()
    [[2.0, 2.0, 2.0]]
    """
    if isinstance(lhs, CSRNDArray) and not isinstance(rhs, BaseSparseNDArray) and \
            rhs.ndim != 2:
        raise MXNetError(f"dot: sparse dot only supports 2 dimensional rhs, got shape "
                         f"{rhs.shape}")
    if isinstance(lhs, CSRNDArray) and not isinstance(rhs, BaseSparseNDArray) and \
            not transpose_b:
        res = _csr_dot(lhs, rhs, transpose_a)
    else:
        from ._namespace import function_for

        kw = {"transpose_a": transpose_a, "transpose_b": transpose_b}
        res = function_for("dot")(lhs, rhs, **kw)
    # the result's storage type as MXNet infers it (forward_stype wins when given)
    target = out_stypes("dot", {"transpose_a": transpose_a, "forward_stype": forward_stype},
                        [lhs.stype, rhs.stype], 1)[0]
    if res.stype != target and not state.is_recording:
        if res.stype != "default":
            res = res.tostype("default")
        if target != "default":
            res = res.tostype(target)
    if out is not None:
        res.copyto(out)
        return out
    return res


def _csr_dot(lhs: CSRNDArray, rhs: NDArray, transpose_a: bool):
    data, (indptr, indices) = lhs._sdata, lhs._saux
    r = rhs._t
    tracked = state.is_recording and r.requires_grad
    if not tracked:
        r = r.detach()
    m, k = lhs.shape
    inner = m if transpose_a else k
    if r.shape[0] != inner:
        raise MXNetError(f"dot: shape mismatch: lhs {lhs.shape} (transpose_a={transpose_a}) "
                         f"and rhs {tuple(r.shape)}")
    if data.dtype != r.dtype:
        raise MXNetError(f"dot: lhs dtype {lhs.dtype} and rhs dtype {rhs.dtype} differ")
    rows = conv.csr_rows(indptr)
    if not transpose_a:
        res = torch.zeros((m, r.shape[1]), dtype=r.dtype, device=r.device)
        res.index_add_(0, rows, data.unsqueeze(1) * r[indices])
        return NDArray._wrap(res, lhs._ctx)
    res = torch.zeros((k, r.shape[1]), dtype=r.dtype, device=r.device)
    res.index_add_(0, indices, data.unsqueeze(1) * r[rows])
    if tracked:  # the recorded result stays dense so gradients can flow through it
        return NDArray._wrap(res, lhs._ctx)
    keep = torch.unique(indices)
    return new_sparse("row_sparse", res[keep], (keep,), (k, r.shape[1]), lhs._ctx)


def retain(data, indices=None, out=None, name=None, **kwargs):
    """Keep the rows of a RowSparseNDArray whose index is in ``indices``.

    Examples
    --------
    >>> r = mx.nd.sparse.row_sparse_array(([[1.], [2.]], [0, 2]), shape=(3, 1))
    >>> mx.nd.sparse.retain(r, mx.nd.array([2])).indices.asnumpy().tolist()
    [2]
    """
    if kwargs:
        raise MXNetError(f"Cannot find argument '{next(iter(kwargs))}' (operator _sparse_retain)")
    if indices is None:
        raise MXNetError("retain: required input 'indices' is missing (operator _sparse_retain)")
    if not isinstance(data, RowSparseNDArray):
        raise MXNetError("retain: data must be a RowSparseNDArray, got storage type "
                         f"'{getattr(data, 'stype', type(data).__name__)}'")
    have = data._saux[0]
    want = torch.unique(_tensor(indices, torch.int64).reshape(-1).to(have.device))
    if want.numel() and (int(want.min()) < 0 or int(want.max()) >= data.shape[0]):
        raise MXNetError(f"retain: indices out of range for shape {data.shape}")
    # like MXNet, the result stores exactly the requested rows (zeros where data had none)
    vals = torch.zeros((want.numel(),) + tuple(data._sdata.shape[1:]),
                       dtype=data._sdata.dtype, device=have.device)
    if have.numel() and want.numel():
        pos = torch.searchsorted(have, want).clamp(max=have.numel() - 1)
        hit = have[pos] == want
        vals[hit] = data._sdata[pos[hit]]
    res = new_sparse("row_sparse", vals, (want,), data.shape, data._ctx)
    if out is not None:
        res.copyto(out)
        return out
    return res


def _coo(a: BaseSparseNDArray) -> tuple[torch.Tensor, torch.Tensor]:
    if a.stype == "csr":
        return torch.stack([conv.csr_rows(a._saux[0]), a._saux[1]]), a._sdata
    return a._saux[0].unsqueeze(0), a._sdata


def _combine(lhs, rhs, sign: int, opname: str):
    if lhs.shape != rhs.shape:
        raise MXNetError(f"{opname}: shape mismatch: lhs {lhs.shape} vs rhs {rhs.shape}")
    if lhs.dtype != rhs.dtype:
        raise MXNetError(f"{opname}: dtype mismatch: lhs {lhs.dtype} vs rhs {rhs.dtype}")
    (i1, v1), (i2, v2) = _coo(lhs), _coo(rhs)
    idx = torch.cat([i1, i2], 1)
    vals = torch.cat([v1.detach(), v2.detach() * sign])
    size = lhs.shape if lhs.stype == "csr" else (lhs.shape[0],)
    if lhs.stype == "row_sparse":
        size = size + tuple(vals.shape[1:])
    coo = torch.sparse_coo_tensor(idx, vals, size, check_invariants=False).coalesce()
    ci, cv = coo.indices(), coo.values()
    if lhs.stype == "row_sparse":
        return new_sparse("row_sparse", cv, (ci[0],), lhs.shape, lhs._ctx)
    counts = torch.bincount(ci[0], minlength=lhs.shape[0])
    indptr = torch.zeros(lhs.shape[0] + 1, dtype=torch.int64, device=cv.device)
    indptr[1:] = torch.cumsum(counts, 0)
    return new_sparse("csr", cv, (indptr, ci[1]), lhs.shape, lhs._ctx)


def _elemwise(lhs, rhs, sign, opname, out):
    if isinstance(lhs, BaseSparseNDArray) and isinstance(rhs, BaseSparseNDArray) and \
            lhs.stype == rhs.stype:
        res = _combine(lhs, rhs, sign, opname)
    else:
        from ._namespace import function_for

        res = function_for(opname)(lhs, rhs)
    if out is not None:
        res.copyto(out)
        return out
    return res


def elemwise_mul(lhs, rhs, out=None, name=None):
    """``lhs * rhs``; two arrays of the same sparse stype give that stype (the product is
    formed densely, then only its non-zeros are stored), other combinations a dense array."""
    if isinstance(lhs, BaseSparseNDArray) and isinstance(rhs, BaseSparseNDArray) and \
            lhs.stype == rhs.stype:
        if lhs.shape != rhs.shape:
            raise MXNetError(f"elemwise_mul: shape mismatch: lhs {lhs.shape} vs rhs "
                             f"{rhs.shape}")
        res = to_sparse(lhs._dense() * rhs._dense(), lhs.stype, lhs._ctx)
    else:
        from ._namespace import function_for

        res = function_for("elemwise_mul")(lhs, rhs)
    if out is not None:
        res.copyto(out)
        return out
    return res


def multiply(lhs, rhs):
    """``lhs * rhs`` with broadcasting; same-stype sparse operands stay sparse."""
    if isinstance(lhs, BaseSparseNDArray) and isinstance(rhs, BaseSparseNDArray):
        return elemwise_mul(lhs, rhs)
    if isinstance(lhs, NDArray) and isinstance(rhs, NDArray) and lhs.shape == rhs.shape:
        from ._namespace import function_for  # one sparse operand keeps its stype

        return function_for("elemwise_mul")(lhs, rhs)
    return lhs * rhs


def elemwise_add(lhs, rhs, out=None, name=None):
    """``lhs + rhs``; two arrays of the same sparse stype give that stype (union of
    the stored positions), other combinations a dense array."""
    return _elemwise(lhs, rhs, 1, "elemwise_add", out)


def elemwise_sub(lhs, rhs, out=None, name=None):
    """``lhs - rhs``; sparse like :func:`elemwise_add`."""
    return _elemwise(lhs, rhs, -1, "elemwise_sub", out)


def add(lhs, rhs):
    """``lhs + rhs`` with broadcasting; same-stype sparse operands stay sparse."""
    if isinstance(lhs, BaseSparseNDArray) and isinstance(rhs, BaseSparseNDArray):
        return elemwise_add(lhs, rhs)
    return lhs + rhs


def subtract(lhs, rhs):
    """``lhs - rhs`` with broadcasting; same-stype sparse operands stay sparse."""
    if isinstance(lhs, BaseSparseNDArray) and isinstance(rhs, BaseSparseNDArray):
        return elemwise_sub(lhs, rhs)
    return lhs - rhs


def divide(lhs, rhs):
    """``lhs / rhs``; a sparse array divided by a scalar stays sparse."""
    return lhs / rhs
