"""``mx.np`` selection and padding: take, where, nonzero/argwhere/flatnonzero, pad, diff and
ediff1d (MXNet 1.9.1's ``_npi_*`` operators through ``np_call``)."""

from __future__ import annotations

import numpy as _onp

from .._op import _np_select  # noqa: F401  (registers the operators)
from ..base import MXNetNotSupportedError, numeric_types
from ._call import call as np_call
from .multiarray import NDArray, attach_methods

__all__ = ["take", "where", "nonzero", "argwhere", "flatnonzero", "pad", "diff", "ediff1d",
           "unravel_index", "shares_memory", "may_share_memory"]


def take(a, indices, axis=None, mode="raise", out=None):
    """Elements of ``a`` at ``indices`` along ``axis`` (of the flattened array by default).

    Examples
    --------
    >>> from mxnet import np
    >>> np.take(np.array([4., 5., 6.]), np.array([0, 2]))
    array([4., 6.])
    """
    if mode not in ("raise", "wrap", "clip"):
        raise MXNetNotSupportedError(f"function take does not support mode '{mode}'")
    if axis is None:
        flat = np_call("_np_reshape", [a], {"newshape": (-1,), "order": "C"})
        return np_call("_npi_take", [flat, indices], {"axis": 0, "mode": mode}, out)
    return np_call("_npi_take", [a, indices], {"axis": axis, "mode": mode}, out)


def where(condition, x=None, y=None):
    """Elements of ``x`` where ``condition`` holds, else of ``y``; with only ``condition``,
    the indices of its non-zero elements (like :func:`nonzero`).

    Examples
    --------
    >>> from mxnet import np
    >>> np.where(np.array([True, False]), np.ones(2), np.zeros(2))
    array([1., 0.])
    """
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    if isinstance(condition, numeric_types):
        return x if condition else y
    xs = not isinstance(x, NDArray) and not hasattr(x, "_outputs")
    ys = not isinstance(y, NDArray) and not hasattr(y, "_outputs")
    if xs and ys:
        return np_call("_npi_where_scalar2", [condition], {"x": float(x), "y": float(y)})
    if xs:
        return np_call("_npi_where_lscalar", [condition, y], {"scalar": float(x)})
    if ys:
        return np_call("_npi_where_rscalar", [condition, x], {"scalar": float(y)})
    return np_call("_npi_where", [condition, x, y])


def nonzero(a):
    """The indices of the non-zero elements: one int64 array per dimension (a tuple).

    Examples
    --------
    >>> from mxnet import np
    >>> np.nonzero(np.array([0., 3., 0., 4.]))
    (array([1, 3], dtype=int64),)
    """
    res = np_call("_npi_nonzero", [a])
    if not isinstance(res, NDArray):
        return res
    t = res.T
    return tuple(t[i] for i in range(t.shape[0]))


def argwhere(a):
    """The (N, ndim) indices of the non-zero elements.

    Examples
    --------
    >>> from mxnet import np
    >>> np.argwhere(np.array([0., 1.])).shape
    (1, 1)
    """
    res = np_call("_npi_nonzero", [a])
    if isinstance(res, NDArray) and a.ndim == 0:
        return res[:, :0]
    return res


def flatnonzero(a):
    """The indices of the non-zero elements of the flattened array.

    Examples
    --------
    >>> from mxnet import np
    >>> np.flatnonzero(np.array([[0., 1.], [2., 0.]]))
    array([1, 2], dtype=int64)
    """
    flat = np_call("_np_reshape", [a], {"newshape": (-1,), "order": "C"})
    return nonzero(flat)[0]


def pad(x, pad_width=None, mode="constant", **kwargs):
    """``x`` padded on each axis by ``pad_width`` (``(before, after)`` pairs) with ``mode``
    'constant' (``constant_values``), 'edge', 'reflect', 'symmetric', 'maximum' or 'minimum'.

    Examples
    --------
    >>> from mxnet import np
    >>> np.pad(np.array([[1., 2.]]), ((1, 0), (0, 1)))
    array([[0., 0., 0.],
           [1., 2., 0.]])
    """
    if _onp.asarray(pad_width).dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    if not isinstance(pad_width, tuple):
        raise TypeError("`pad_width` must be tuple.")
    if mode in ("linear_ramp", "wrap", "median", "mean", "empty"):
        raise ValueError(f"mode {{'{mode}'}} is not supported.")
    if callable(mode):
        raise ValueError("mode {'<function>'} is not supported.")
    allowed = {"constant": ["constant_values"], "edge": [], "maximum": ["stat_length"],
               "minimum": ["stat_length"], "reflect": ["reflect_type"],
               "symmetric": ["reflect_type"]}
    if mode not in allowed:
        raise ValueError(f"mode {mode!r} is not supported")
    extra = set(kwargs) - set(allowed[mode])
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {extra}")
    if mode == "constant":
        if isinstance(kwargs.get("constant_values", 0), tuple):
            raise TypeError("unsupported constant_values type: {'tuple'}.")
    elif mode in ("reflect", "symmetric"):
        rt = kwargs.get("reflect_type", "even")
        if rt not in ("even", None):
            raise ValueError(f"unsupported reflect_type '{rt}'")
    elif kwargs.get("stat_length") is not None:
        raise ValueError(f"unsupported stat_length '{kwargs['stat_length']}'")
    # MXNet 1.9.1 pads with 0 whatever ``constant_values`` says (its front end drops it)
    pw = pad_width
    if all(isinstance(p, (int, _onp.integer)) for p in pw):
        pw = ((pw[0], pw[-1]),)
    attrs = {"pad_width": tuple(tuple(int(e) for e in p) for p in pw), "mode": mode}
    if mode == "constant":
        attrs["constant_value"] = 0.0
    return np_call("_npi_pad", [x], attrs)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th discrete difference along ``axis``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.diff(np.array([1., 4., 9.]))
    array([3., 5.])
    """
    if prepend is not None or append is not None:
        raise MXNetNotSupportedError("prepend and append options are not supported yet")
    return np_call("_npi_diff", [a], {"n": n, "axis": axis})


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences between consecutive elements of the flattened array, with optional
    values prepended (``to_begin``) and appended (``to_end``).

    Examples
    --------
    >>> from mxnet import np
    >>> np.ediff1d(np.array([1., 2., 4.]), to_begin=0.)
    array([0., 1., 2.])
    """
    ins = [ary]
    attrs = {"to_begin_arr_given": False, "to_end_arr_given": False,
             "to_begin_scalar": None, "to_end_scalar": None}
    for name, v in (("begin", to_begin), ("end", to_end)):
        if v is None:
            continue
        if isinstance(v, NDArray) or hasattr(v, "_outputs"):
            ins.append(v)
            attrs[f"to_{name}_arr_given"] = True
        else:  # a list fails the scalar parameter's parsing, as in MXNet 1.9.1
            attrs[f"to_{name}_scalar"] = v
    return np_call("_npi_ediff1d", ins, attrs)


def unravel_index(indices, shape, order="C"):
    """The coordinates (a tuple of arrays, or of ints for an int) of flat ``indices`` in an
    array of ``shape``; integer index arrays keep their dtype.

    Examples
    --------
    >>> from mxnet import np
    >>> np.unravel_index(np.array([1, 5], dtype='int64'), (2, 3))
    (array([0, 1], dtype=int64), array([1, 2], dtype=int64))
    """
    from ..base import MXNetError
    from .multiarray import array

    if order != "C":
        raise MXNetNotSupportedError("Do not support column-major (Fortran-style) order at this "
                                  "moment")
    if hasattr(indices, "_outputs"):  # a symbol: MXNet's NumPy fallback Custom node
        from ..numpy_op_fallback import custom_symbol

        return custom_symbol("unravel_index_fallback", indices, shape=shape)
    if not isinstance(indices, NDArray):
        res = _onp.unravel_index(indices, shape)
        return tuple(int(r) if _onp.ndim(r) == 0 else r for r in res)
    idx = indices.asnumpy()
    if idx.dtype.kind not in "iu":
        raise MXNetError("unravel_index: only int indices permitted (got "
                         f"{idx.dtype.name})")
    try:
        res = _onp.unravel_index(idx, shape)
    except ValueError as e:
        raise MXNetError(f"unravel_index: {e}") from None
    return tuple(array(r.astype(idx.dtype), dtype=idx.dtype, ctx=indices.ctx) for r in res)


def shares_memory(a, b, max_work=None) -> bool:
    """Whether ``a`` and ``b`` share memory (views made by basic indexing do; operator
    outputs, ``reshape`` included, are new arrays).

    Examples
    --------
    >>> from mxnet import np
    >>> a = np.arange(6)
    >>> np.shares_memory(a, a[1:]), np.shares_memory(a, np.ones(6))
    (True, False)
    """
    return bool(np_call("_npi_share_memory", [a, b]).item())


def may_share_memory(a, b, max_work=None) -> bool:
    """Same as :func:`shares_memory` (the check is exact).

    Examples
    --------
    >>> from mxnet import np
    >>> a = np.arange(6)
    >>> np.may_share_memory(a, a[:2])
    True
    """
    return shares_memory(a, b, max_work)


def _method_take(self, indices, axis=None, mode="raise"):
    return take(self, indices, axis, mode)


def _method_nonzero(self):
    return nonzero(self)


attach_methods({"take": _method_take, "nonzero": _method_nonzero})
