"""``mx.np`` sorting, searching and statistics: ``sort``, ``argsort``, ``unique``,
``bincount``, ``histogram``, ``percentile``, ``quantile`` (registry operators), and the
functions MXNet 1.9.1 hands to official NumPy (``searchsorted``, ``cov``, ``partition``...:
inputs go to NumPy, array results come back as ``mx.np.ndarray``).
"""

from __future__ import annotations

import functools

import numpy as _onp

from .._op import _np_sort  # noqa: F401  (registers the operators)
from ..base import MXNetNotSupportedError, numeric_types
from ..ndarray.ndarray import NDArray
from .multiarray import array, attach_methods, ndarray, np_call

__all__ = ["sort", "argsort", "unique", "bincount", "histogram", "percentile", "quantile",
           "searchsorted", "count_nonzero", "cov", "corrcoef", "msort", "partition",
           "argpartition", "digitize", "histogram_bin_edges", "histogram2d", "histogramdd",
           "ptp", "nanmedian", "nanpercentile", "nanquantile", "lexsort", "in1d", "isin",
           "intersect1d", "setdiff1d", "setxor1d", "union1d"]


def sort(a, axis=-1, kind=None, order=None):
    """A sorted copy of ``a`` along ``axis`` (``None``: the flattened array).

    Examples
    --------
    >>> from mxnet import np
    >>> np.sort(np.array([[3, 1], [0, 2]]))
    array([[1., 3.],
           [0., 2.]])
    """
    if order is not None:
        raise MXNetNotSupportedError("order not supported here")
    return np_call("_npi_sort", [a], {"axis": axis, "is_ascend": True})


def argsort(a, axis=-1, kind=None, order=None):
    """The int64 indices that sort ``a`` along ``axis``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.argsort(np.array([3., 1., 2.]))
    array([1, 2, 0], dtype=int64)
    """
    if order is not None:
        raise MXNetNotSupportedError("order not supported here")
    return np_call("_npi_argsort", [a], {"axis": axis, "is_ascend": True, "dtype": "int64"})


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    """The sorted unique elements of ``ar`` (and optionally first indices, inverse indices
    and counts, all int64).

    Examples
    --------
    >>> from mxnet import np
    >>> np.unique(np.array([3., 1., 3.]))
    array([1., 3.])
    """
    res = np_call("_npi_unique", [ar], {"return_index": return_index,
                                        "return_inverse": return_inverse,
                                        "return_counts": return_counts, "axis": axis})
    return tuple(res) if isinstance(res, list) else res


def bincount(x, weights=None, minlength=0):
    """Occurrences of each value of a non-negative integer array (weighted sums with
    ``weights``).

    Examples
    --------
    >>> from mxnet import np
    >>> np.bincount(np.array([0, 1, 1, 3], dtype='int32'))
    array([1, 2, 0, 1], dtype=int32)
    """
    if not isinstance(x, NDArray) and not _is_sym(x):
        raise TypeError("Input data should be NDarray")
    if minlength < 0:
        raise ValueError("Minlength value should greater than 0")
    if weights is None:
        return np_call("_npi_bincount", [x], {"minlength": minlength, "has_weights": False})
    return np_call("_npi_bincount", [x, weights], {"minlength": minlength,
                                                   "has_weights": True})


def histogram(a, bins=10, range=None, normed=None, weights=None, density=None):  # noqa: A002
    """Counts (int64) of ``a`` in ``bins`` and the bin edges, as a list ``[hist, edges]``.
    ``bins`` is a count (``range`` then required) or an array of edges.

    Examples
    --------
    >>> from mxnet import np
    >>> np.histogram(np.array([1., 2., 2., 7.]), bins=2, range=(0, 8))
    [array([3, 1], dtype=int64), array([0., 4., 8.])]
    """
    if normed is True:
        raise MXNetNotSupportedError("normed is not supported yet...")
    if weights is not None:
        raise MXNetNotSupportedError("weights is not supported yet...")
    if density is True:
        raise MXNetNotSupportedError("density is not supported yet...")
    if isinstance(bins, numeric_types):
        if range is None:
            raise MXNetNotSupportedError("automatic range is not supported yet...")
        return np_call("_npi_histogram", [a], {"bin_cnt": bins, "range": range})
    if isinstance(bins, (list, tuple)):
        raise MXNetNotSupportedError("array_like bins is not supported yet...")
    if isinstance(bins, str):
        raise MXNetNotSupportedError("string bins is not supported yet...")
    if isinstance(bins, NDArray) or _is_sym(bins):
        return np_call("_npi_histogram", [a, bins], {})
    raise ValueError("np.histogram fails with", locals())


def _percentile(a, q, axis, out, overwrite_input, interpolation, keepdims, scale):
    if overwrite_input is not None:
        raise MXNetNotSupportedError("overwrite_input is not supported yet")
    attrs = {"axis": axis, "interpolation": interpolation, "keepdims": keepdims}
    if isinstance(q, numeric_types) and not isinstance(q, _onp.ndarray):
        attrs["q_scalar"] = q * scale
        return np_call("_npi_percentile", [a], attrs, out=out)
    if not isinstance(q, NDArray) and not _is_sym(q):
        raise AssertionError(f"Argument q must have NDArray type, but got {q}")
    if scale != 1:
        q = q * scale
    return np_call("_npi_percentile", [a, q], attrs, out=out)


def percentile(a, q, axis=None, out=None, overwrite_input=None, interpolation="linear",
               keepdims=False):
    """The ``q``-th percentile(s) of ``a`` along ``axis`` (float32 for integer input).

    Examples
    --------
    >>> from mxnet import np
    >>> np.percentile(np.array([[3, 1, 2], [0, 5, 4]]), 50)
    array(2.5)
    """
    return _percentile(a, q, axis, out, overwrite_input, interpolation, keepdims, 1)


def quantile(a, q, axis=None, out=None, overwrite_input=None, interpolation="linear",
             keepdims=False):
    """The ``q``-th quantile(s) (``q`` in [0, 1]) of ``a`` along ``axis``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.quantile(np.array([1., 2., 3., 4.]), 0.5)
    array(2.5)
    """
    return _percentile(a, q, axis, out, overwrite_input, interpolation, keepdims, 100)


def _is_sym(x) -> bool:
    from ..symbol import Symbol

    return isinstance(x, Symbol)


# ---------------------------------------------------------------------------------------
# functions MXNet 1.9.1 runs with official NumPy


def _to_onp(obj):
    if isinstance(obj, NDArray):
        return obj.asnumpy(), obj.ctx
    if isinstance(obj, (list, tuple)):
        items, ctx = [], None
        for o in obj:
            v, c = _to_onp(o)
            items.append(v)
            ctx = ctx if ctx is not None else c
        return type(obj)(items), ctx
    return obj, None


def _to_mx(obj, ctx):
    if isinstance(obj, _onp.ndarray):
        # not ascontiguousarray: it turns a 0-d result (cov of a 1-D array) into shape (1,)
        res = array(obj if obj.flags.c_contiguous else obj.copy(order="C"), dtype=obj.dtype)
        return res if ctx is None else res.as_in_ctx(ctx)
    if isinstance(obj, list):
        return [_to_mx(o, ctx) for o in obj]
    if isinstance(obj, tuple):  # NumPy 2's named results (QRResult...) as plain tuples
        return tuple(_to_mx(o, ctx) for o in obj)
    if isinstance(obj, _onp.bool_):
        return array(obj, dtype=_onp.bool_)
    return obj


def _fallback(fn, name: str):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        from ..autograd import is_recording

        if is_recording():
            raise ValueError(f"Falling back to NumPy operator {name} with autograd active is "
                             "not supported.Please consider moving the operator to the outside "
                             "of the autograd scope.")
        new_args, ctx = _to_onp(args)
        new_kwargs = {}
        for k, v in kwargs.items():
            new_kwargs[k], c = _to_onp(v)
            ctx = ctx if ctx is not None else c
        res = fn(*new_args, **new_kwargs)
        # MXNet 1.9.1 binds these names to NumPy's own functions: only mx.np arrays among
        # the arguments bring the result back as mx.np arrays (lists give NumPy results)
        return res if ctx is None else _to_mx(res, ctx)

    call.__module__ = "numpy"
    return call


def _msort(a):
    return _onp.sort(a, axis=0)


searchsorted = _fallback(_onp.searchsorted, "searchsorted")
count_nonzero = _fallback(_onp.count_nonzero, "count_nonzero")
cov = _fallback(_onp.cov, "cov")
corrcoef = _fallback(_onp.corrcoef, "corrcoef")
msort = _fallback(_msort, "msort")
partition = _fallback(_onp.partition, "partition")
argpartition = _fallback(_onp.argpartition, "argpartition")
digitize = _fallback(_onp.digitize, "digitize")
histogram_bin_edges = _fallback(_onp.histogram_bin_edges, "histogram_bin_edges")
histogram2d = _fallback(_onp.histogram2d, "histogram2d")
histogramdd = _fallback(_onp.histogramdd, "histogramdd")
ptp = _fallback(_onp.ptp, "ptp")
nanmedian = _fallback(_onp.nanmedian, "nanmedian")
def _numpy1_quantile(fn):
    """``fn`` (nanpercentile / nanquantile) with NumPy 1.x's results on any NumPy: the
    ``interpolation=`` keyword (``method=`` in NumPy 2), and linear interpolation of
    float16/float32 data done in float64 (NumPy 2 keeps float32; MXNet 1.9.1 ran NumPy 1)."""

    @functools.wraps(fn)
    def call(a, q, *args, **kwargs):
        method = kwargs.pop("interpolation", None)
        if method is not None:
            kwargs["method"] = method
        arr = _onp.asarray(a)
        if (kwargs.get("method", "linear") == "linear" and arr.dtype.kind == "f"
                and arr.dtype.itemsize < 8 and _onp.lib.NumpyVersion(_onp.__version__) >= "2.0.0"):
            a = arr.astype(_onp.float64)
        return fn(a, q, *args, **kwargs)

    return call


nanpercentile = _fallback(_numpy1_quantile(_onp.nanpercentile), "nanpercentile")
nanquantile = _fallback(_numpy1_quantile(_onp.nanquantile), "nanquantile")
lexsort = _fallback(_onp.lexsort, "lexsort")
in1d = _fallback(getattr(_onp, "in1d", _onp.isin), "in1d")
isin = _fallback(_onp.isin, "isin")
intersect1d = _fallback(_onp.intersect1d, "intersect1d")
setdiff1d = _fallback(_onp.setdiff1d, "setdiff1d")
setxor1d = _fallback(_onp.setxor1d, "setxor1d")
union1d = _fallback(_onp.union1d, "union1d")


# ---------------------------------------------------------------------------------------
# ndarray methods


def _sort_method(self, axis=-1, kind=None, order=None):
    # MXNet 1.9.1's ndarray.sort raises the result of np.sort, which is a TypeError
    raise TypeError("exceptions must derive from BaseException")


def _argsort_method(self, axis=-1, kind=None, order=None):
    return argsort(self, axis=axis, kind=kind, order=order)


attach_methods({"sort": _sort_method, "argsort": _argsort_method})
_ = ndarray
