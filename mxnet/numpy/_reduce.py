"""``mx.np`` reductions (sum, prod, mean, std, var, max/min, argmax/argmin, all/any, cumsum,
average) and products (dot, matmul, tensordot, inner, outer, vdot, einsum).

Each function runs an MXNet 1.9.1 registry operator through ``np_call``, so it works on
``mx.np.ndarray`` and on ``mx.sym.np`` symbols. A full reduction gives a 0-d array.
"""

from __future__ import annotations

import numpy as _onp

from .._dtype import dtype_name
from .._op import _np_dot, _np_reduce  # noqa: F401  (registers the operators)
from ._math import np_call
from .multiarray import NDArray

__all__ = ["sum", "prod", "product", "mean", "std", "var", "max", "amax", "min", "amin",
           "argmax", "argmin", "all", "any", "sometrue", "cumsum", "average", "dot", "matmul",
           "tensordot", "inner", "outer", "vdot", "einsum", "trace", "polyval"]

_builtin_all = all


_ARRAY_TYPES: list = []


def _is_array(x) -> bool:
    if not _ARRAY_TYPES:
        from ..symbol import Symbol

        _ARRAY_TYPES.append((NDArray, Symbol))
    return isinstance(x, _ARRAY_TYPES[0])


def _need(x, arg: str = "a") -> None:
    if not _is_array(x):
        raise AssertionError(f"Argument {arg} must have NDArray type, but got {x}")


def _axis(axis):
    if axis is None:
        return None
    if isinstance(axis, (int, _onp.integer)):
        return int(axis)
    return tuple(int(a) for a in axis)


def _dt(dtype):
    return None if dtype is None else dtype_name(dtype)


def sum(a, axis=None, dtype=None, keepdims=False, initial=None, out=None):  # noqa: A001
    """Sum over ``axis`` (all axes by default: a 0-d array); bool sums to int64.

    Examples
    --------
    >>> from mxnet import np
    >>> np.sum(np.array([[1., 2.], [3., 4.]]), axis=0)
    array([4., 6.])
    """
    _need(a)
    return np_call("_np_sum", [a], {"axis": _axis(axis), "dtype": _dt(dtype),
                                    "keepdims": keepdims, "initial": initial}, out)


def prod(a, axis=None, dtype=None, keepdims=False, initial=None, out=None):
    """Product over ``axis`` (all axes by default).

    Examples
    --------
    >>> from mxnet import np
    >>> np.prod(np.array([1., 2., 3.]))
    array(6.)
    """
    _need(a)
    return np_call("_np_prod", [a], {"axis": _axis(axis), "dtype": _dt(dtype),
                                     "keepdims": keepdims, "initial": initial}, out)


product = prod


def mean(a, axis=None, dtype=None, out=None, keepdims=False):
    """Arithmetic mean over ``axis``; integer and bool arrays give float32.

    Examples
    --------
    >>> from mxnet import np
    >>> np.mean(np.array([1, 2], dtype='int32'))
    array(1.5)
    """
    _need(a)
    return np_call("_npi_mean", [a], {"axis": _axis(axis), "dtype": _dt(dtype),
                                      "keepdims": keepdims}, out)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """Standard deviation over ``axis`` with ``ddof`` delta degrees of freedom.

    Examples
    --------
    >>> from mxnet import np
    >>> np.std(np.array([1., 3.]))
    array(1.)
    """
    _need(a)
    return np_call("_npi_std", [a], {"axis": _axis(axis), "dtype": _dt(dtype),
                                     "ddof": int(ddof), "keepdims": keepdims}, out)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """Variance over ``axis`` with ``ddof`` delta degrees of freedom.

    Examples
    --------
    >>> from mxnet import np
    >>> np.var(np.array([1., 3.]))
    array(1.)
    """
    _need(a)
    return np_call("_npi_var", [a], {"axis": _axis(axis), "dtype": _dt(dtype),
                                     "ddof": int(ddof), "keepdims": keepdims}, out)


def max(a, axis=None, keepdims=False, out=None):  # noqa: A001
    """The largest element over ``axis``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.max(np.array([[1., 5.], [3., 2.]]), axis=1)
    array([5., 3.])
    """
    _need(a)
    return np_call("_np_max", [a], {"axis": _axis(axis), "keepdims": keepdims}, out)


def min(a, axis=None, keepdims=False, out=None):  # noqa: A001
    """The smallest element over ``axis``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.min(np.array([[1., 5.], [3., 2.]]), axis=1)
    array([1., 2.])
    """
    _need(a)
    return np_call("_np_min", [a], {"axis": _axis(axis), "keepdims": keepdims}, out)


amax, amin = max, min


def argmax(a, axis=None, out=None):
    """Index (int64) of the largest element, in the flattened array by default.

    Examples
    --------
    >>> from mxnet import np
    >>> np.argmax(np.array([1., 3., 2.]))
    array(1, dtype=int64)
    """
    _need(a)
    return np_call("_npi_argmax", [a], {"axis": _axis(axis), "keepdims": False}, out)


def argmin(a, axis=None, out=None):
    """Index (int64) of the smallest element, in the flattened array by default.

    Examples
    --------
    >>> from mxnet import np
    >>> np.argmin(np.array([1., 3., 0.]))
    array(2, dtype=int64)
    """
    _need(a)
    return np_call("_npi_argmin", [a], {"axis": _axis(axis), "keepdims": False}, out)


def all(a, axis=None, keepdims=False, out=None):  # noqa: A001
    """Whether every element along ``axis`` is non-zero (bool).

    Examples
    --------
    >>> from mxnet import np
    >>> np.all(np.array([1., 0.]))
    array(False)
    """
    _need(a)
    return np_call("_np_all", [a], {"axis": _axis(axis), "keepdims": keepdims}, out)


def any(a, axis=None, keepdims=False, out=None):  # noqa: A001
    """Whether some element along ``axis`` is non-zero (bool).

    Examples
    --------
    >>> from mxnet import np
    >>> np.any(np.array([1., 0.]))
    array(True)
    """
    _need(a)
    return np_call("_np_any", [a], {"axis": _axis(axis), "keepdims": keepdims}, out)


sometrue = any


def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along ``axis`` (of the flattened array by default).

    Examples
    --------
    >>> from mxnet import np
    >>> np.cumsum(np.array([1., 2., 3.]))
    array([1., 3., 6.])
    """
    _need(a)
    return np_call("_np_cumsum", [a], {"axis": _axis(axis), "dtype": _dt(dtype)}, out)


def average(a, axis=None, weights=None, returned=False, out=None):
    """Weighted average over ``axis``; with ``returned`` also the sum of the weights.

    Examples
    --------
    >>> from mxnet import np
    >>> np.average(np.array([1., 2.]), weights=np.array([3., 1.]))
    array(1.25)
    """
    _need(a)
    attrs = {"axis": _axis(axis), "returned": returned, "weighted": weights is not None}
    if weights is None:
        res = np_call("_npi_average", [a], attrs, out)
    else:
        _need(weights, "weights")
        res = np_call("_npi_average", [a, weights], attrs, out)
    return list(res) if returned else res


def dot(a, b, out=None):
    """Dot product with NumPy's rules (floating-point inputs of one dtype).

    Examples
    --------
    >>> from mxnet import np
    >>> np.dot(np.array([1., 2.]), np.array([3., 4.]))
    array(11.)
    """
    _need(a)
    _need(b, "b")
    return np_call("_np_dot", [a, b], {}, out)


def matmul(a, b, out=None, **kwargs):
    """Matrix product; leading axes broadcast as stacks of matrices (no 0-d inputs).

    Examples
    --------
    >>> from mxnet import np
    >>> np.matmul(np.ones((2, 3)), np.ones((3, 4))).shape
    (2, 4)
    """
    _need(a)
    _need(b, "b")
    return np_call("_npi_matmul", [a, b], {}, out)


def tensordot(a, b, axes=2):
    """Sum of products over ``axes`` (an int N: the last N axes of ``a`` with the first N
    of ``b``; or a pair of axis lists).

    Examples
    --------
    >>> from mxnet import np
    >>> np.tensordot(np.ones((2, 3)), np.ones((3, 4)), axes=1).shape
    (2, 4)
    """
    _need(a)
    _need(b, "b")
    if isinstance(axes, (int, _onp.integer)):
        return np_call("_npi_tensordot_int_axes", [a, b], {"axes": int(axes)})
    if len(axes) != 2:
        raise ValueError("Axes must consist of two arrays.")
    aa, ba = axes
    aa = (aa,) if isinstance(aa, (int, _onp.integer)) else tuple(aa)
    ba = (ba,) if isinstance(ba, (int, _onp.integer)) else tuple(ba)
    if len(aa) != len(ba):
        raise ValueError("Axes length mismatch")
    return np_call("_npi_tensordot", [a, b], {"a_axes_summed": tuple(int(x) for x in aa),
                                              "b_axes_summed": tuple(int(x) for x in ba)})


def inner(a, b):
    """Inner product over the last axes of ``a`` and ``b``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.inner(np.array([1., 2.]), np.array([3., 4.]))
    array(11.)
    """
    return tensordot(a, b, ([-1], [-1]))


def _flat(x):
    return np_call("_np_reshape", [x], {"newshape": (-1,), "order": "C"})


def outer(a, b):
    """Outer product of the flattened inputs.

    Examples
    --------
    >>> from mxnet import np
    >>> np.outer(np.array([1., 2.]), np.array([3., 4., 5.])).shape
    (2, 3)
    """
    _need(a)
    _need(b, "b")
    return tensordot(_flat(a), _flat(b), 0)


def vdot(a, b):
    """Dot product of the flattened inputs (a 0-d array).

    Examples
    --------
    >>> from mxnet import np
    >>> np.vdot(np.array([[1., 2.]]), np.array([3., 4.]))
    array(11.)
    """
    _need(a)
    _need(b, "b")
    return tensordot(_flat(a), _flat(b), 1)


def einsum(*operands, **kwargs):
    """Einstein summation: ``einsum(subscripts, *arrays, out=None, optimize=False)``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.einsum('ij,jk->ik', np.ones((2, 3)), np.ones((3, 4))).shape
    (2, 4)
    """
    out = kwargs.pop("out", None)
    optimize = kwargs.pop("optimize", False)
    if kwargs:
        raise TypeError(f"einsum() got unexpected keyword arguments {sorted(kwargs)}")
    if not operands or not isinstance(operands[0], str):
        raise TypeError("einsum: the first argument must be the subscripts string")
    subscripts, arrays = operands[0], list(operands[1:])
    for x in arrays:
        _need(x, "operands")
    return np_call("_npi_einsum", arrays, {"num_args": len(arrays), "subscripts": subscripts,
                                           "optimize": int(bool(optimize))}, out)


def trace(a, offset=0, axis1=0, axis2=1, out=None):
    """Sum along the ``offset`` diagonal of the 2-D sub-arrays on ``axis1``/``axis2``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.trace(np.arange(9).reshape(3, 3))
    array(12.)
    """
    _need(a)
    return np_call("_np_trace", [a], {"offset": int(offset), "axis1": int(axis1),
                                      "axis2": int(axis2)}, out)


def polyval(p, x):
    """The polynomial with coefficients ``p`` (highest power first) evaluated at ``x``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.polyval(np.array([1., 2., 3.]), np.array([1., 2.]))
    array([ 6., 11.])
    """
    if not _is_array(p) or not _is_array(x):
        raise TypeError("type not supported")
    return np_call("_npi_polyval", [p, x], {})
