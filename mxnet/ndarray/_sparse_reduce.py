"""Storage-aware ``mx.nd._internal._square_sum``: on a RowSparseNDArray with ``axis=1`` and
``keepdims=True`` MXNet returns a RowSparseNDArray over the same stored rows."""

from __future__ import annotations

from .._op._registry import get_op
from ..base import _Null
from ._sparse_base import RowSparseNDArray, new_sparse

__all__ = ["square_sum"]


def square_sum(data=None, axis=_Null, keepdims=_Null, exclude=_Null, out=None, name=None, **kwargs):
    """Sum of squares over ``axis`` (``_square_sum``); row_sparse in, ``axis=1``,
    ``keepdims=True`` -> row_sparse out, other cases dense.

    Examples
    --------
    >>> r = mx.nd.array([[1., 2.], [0., 0.], [3., 0.]]).tostype('row_sparse')
    >>> mx.nd._internal._square_sum(r, axis=1, keepdims=True).stype
    'row_sparse'
    """
    from ._namespace import function_for

    params = {
        k: v
        for k, v in (("axis", axis), ("keepdims", keepdims), ("exclude", exclude))
        if v is not _Null
    }
    params.update(kwargs)
    a = get_op("_square_sum").parse_attrs(params)
    axes = a["axis"]
    axes = tuple(axes) if isinstance(axes, (tuple, list)) else (axes,)
    if (
        isinstance(data, RowSparseNDArray)
        and data.ndim == 2
        and a["keepdims"]
        and not a["exclude"]
        and axes in ((1,), (-1,))
    ):
        vals = (data._sdata * data._sdata).sum(dim=1, keepdim=True)
        res = new_sparse(
            "row_sparse", vals, (data._saux[0].clone(),), (data.shape[0], 1), data._ctx
        )
        if out is not None:
            res.copyto(out)
            return out
        return res
    return function_for("_square_sum")(data, out=out, **params)
