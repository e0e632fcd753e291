"""``mx.np`` joining and splitting: concatenate/stack/vstack/hstack/dstack/column_stack,
append, split/array_split/hsplit/vsplit/dsplit, delete and insert (MXNet 1.9.1's
``_npi_*`` operators through ``np_call``)."""

from __future__ import annotations

import numpy as _onp

from .._op import _np_join  # noqa: F401  (registers the operators)
from ..base import MXNetError
from ._call import as_list
from ._call import call as np_call
from .multiarray import NDArray

__all__ = ["concatenate", "stack", "vstack", "row_stack", "hstack", "dstack", "column_stack",
           "append", "split", "array_split", "hsplit", "vsplit", "dsplit", "delete", "insert"]


def _seq(fn: str, arrays) -> list:
    if isinstance(arrays, NDArray):
        return [arrays[i] for i in range(arrays.shape[0])]
    arrays = list(arrays)
    if not arrays:
        raise MXNetError(f"{fn}: value 0 for Parameter num_args should be greater equal to 1")
    return arrays


def concatenate(seq, axis=0, out=None):
    """Join arrays along an existing axis (flattened first when ``axis`` is None).

    Examples
    --------
    >>> from mxnet import np
    >>> np.concatenate([np.ones((1, 2)), np.zeros((1, 2))]).shape
    (2, 2)
    """
    seq = _seq("concatenate", seq)
    return np_call("_npi_concatenate", seq, {"axis": axis, "num_args": len(seq)}, out)


def stack(arrays, axis=0, out=None):
    """Join arrays of one shape along a new axis.

    Examples
    --------
    >>> from mxnet import np
    >>> np.stack([np.ones(2), np.zeros(2)], axis=1).shape
    (2, 2)
    """
    arrays = _seq("stack", arrays)
    return np_call("_npi_stack", arrays, {"axis": axis, "num_args": len(arrays)}, out)


def _variadic(opname: str, arrays, out=None):
    arrays = _seq(opname, arrays)
    return np_call(opname, arrays, {"num_args": len(arrays)}, out)


def vstack(arrays, out=None):
    """Stack arrays vertically (1-D arrays become rows).

    Examples
    --------
    >>> from mxnet import np
    >>> np.vstack([np.ones(2), np.zeros(2)]).shape
    (2, 2)
    """
    return _variadic("_npi_vstack", arrays)  # MXNet 1.9.1 ignores ``out`` here


def row_stack(arrays):
    """Same as :func:`vstack`.

    Examples
    --------
    >>> from mxnet import np
    >>> np.row_stack([np.ones(2), np.zeros(2)]).shape
    (2, 2)
    """
    return _variadic("_npi_vstack", arrays)


def hstack(arrays):
    """Stack arrays horizontally (along axis 1, axis 0 for 1-D arrays).

    Examples
    --------
    >>> from mxnet import np
    >>> np.hstack([np.ones(2), np.zeros(3)]).shape
    (5,)
    """
    return _variadic("_npi_hstack", arrays)


def dstack(arrays):
    """Stack arrays depth-wise (along a third axis).

    Examples
    --------
    >>> from mxnet import np
    >>> np.dstack([np.ones(2), np.zeros(2)]).shape
    (1, 2, 2)
    """
    return _variadic("_npi_dstack", arrays)


def column_stack(tup):
    """Stack 1-D arrays as the columns of a 2-D array.

    Examples
    --------
    >>> from mxnet import np
    >>> np.column_stack([np.ones(2), np.zeros(2)]).shape
    (2, 2)
    """
    return _variadic("_npi_column_stack", tup)


def append(arr, values, axis=None):
    """``arr`` with ``values`` appended (both flattened when ``axis`` is None).

    Examples
    --------
    >>> from mxnet import np
    >>> np.append(np.ones(2), np.zeros(1))
    array([1., 1., 0.])
    """
    return np_call("_npi_concatenate", [arr, values], {"axis": axis, "num_args": 2})


def _split_attrs(ary, indices_or_sections, axis_len) -> dict:
    if isinstance(indices_or_sections, (int, _onp.integer)):
        if indices_or_sections == 0:
            raise ZeroDivisionError("integer modulo by zero")
        return {"indices": (), "sections": int(indices_or_sections)}
    if isinstance(indices_or_sections, (list, tuple)):
        return {"indices": (0,) + tuple(int(i) for i in indices_or_sections), "sections": 0}
    raise ValueError("indices_or_sections must either int or tuple / list / set of ints")


def _pieces(opname: str, ary, attrs: dict):
    return as_list(np_call(opname, [ary], {**attrs, "squeeze_axis": False}))


def split(ary, indices_or_sections, axis=0):
    """Split into equal sections (an int) or at the given indices (a list of arrays).

    Examples
    --------
    >>> from mxnet import np
    >>> [p.shape for p in np.split(np.arange(6), 3)]
    [(2,), (2,), (2,)]
    """
    attrs = _split_attrs(ary, indices_or_sections, None)
    if attrs["sections"] and isinstance(ary, NDArray):
        n = ary.shape[axis]
        if n % attrs["sections"]:
            raise ValueError("array split does not result in an equal division")
    return _pieces("_npi_split", ary, {**attrs, "axis": axis})


def array_split(ary, indices_or_sections, axis=0):
    """Like :func:`split`, but ``N`` sections need not divide the axis evenly.

    Examples
    --------
    >>> from mxnet import np
    >>> [p.shape for p in np.array_split(np.arange(7), 3)]
    [(3,), (2,), (2,)]
    """
    if isinstance(indices_or_sections, (int, _onp.integer)):
        k = int(indices_or_sections)
        if isinstance(ary, NDArray) and k > 0:
            n = ary.shape[axis]
            each, extra = divmod(n, k)
            sizes = [each + 1] * extra + [each] * (k - extra)
            starts = [sum(sizes[:i]) for i in range(k)]
            return _pieces("_npi_split", ary, {"indices": tuple(starts), "sections": 0,
                                               "axis": axis})
        return _pieces("_npi_split", ary, {"indices": (), "sections": k, "axis": axis})
    return split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """Split horizontally (along axis 1; axis 0 for 1-D arrays).

    Examples
    --------
    >>> from mxnet import np
    >>> [p.shape for p in np.hsplit(np.ones((2, 4)), 2)]
    [(2, 2), (2, 2)]
    """
    attrs = _split_attrs(ary, indices_or_sections, None)
    if isinstance(ary, NDArray):
        if ary.ndim == 0:
            raise ValueError("hsplit only works on arrays of 1 or more dimensions")
        if attrs["sections"] and ary.shape[1 if ary.ndim > 1 else 0] % attrs["sections"]:
            raise ValueError("array split does not result in an equal division")
    return _pieces("_npi_hsplit", ary, {**attrs, "axis": 1})


def vsplit(ary, indices_or_sections):
    """Split vertically (along axis 0; the array needs at least 2 dimensions).

    Examples
    --------
    >>> from mxnet import np
    >>> [p.shape for p in np.vsplit(np.ones((4, 2)), 2)]
    [(2, 2), (2, 2)]
    """
    if isinstance(ary, NDArray) and ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """Split depth-wise (along axis 2; the array needs at least 3 dimensions).

    Examples
    --------
    >>> from mxnet import np
    >>> [p.shape for p in np.dsplit(np.ones((1, 1, 4)), 2)]
    [(1, 1, 2), (1, 1, 2)]
    """
    if isinstance(ary, NDArray) and ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    attrs = _split_attrs(ary, indices_or_sections, None)
    if attrs["sections"] and isinstance(ary, NDArray) and ary.shape[2] % attrs["sections"]:
        raise ValueError("array split does not result in an equal division")
    return _pieces("_npi_dsplit", ary, {**attrs, "axis": 2})


def _slice_attrs(obj: slice) -> dict:
    return {"start": obj.start, "stop": obj.stop, "step": obj.step}


def delete(arr, obj, axis=None):
    """``arr`` without the sub-arrays ``obj`` (int, slice or integer array) along ``axis``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.delete(np.arange(4), 1)
    array([0., 2., 3.])
    """
    if not isinstance(arr, NDArray) and not hasattr(arr, "_outputs"):
        raise TypeError("'arr' can not support type {}".format(type(arr).__name__))
    if isinstance(obj, slice):
        if obj.start is None and obj.stop is None and obj.step is None and \
                isinstance(arr, NDArray):
            obj = slice(0, arr.size if axis is None else arr.shape[axis], 1)
        return np_call("_npi_delete", [arr], {**_slice_attrs(obj), "axis": axis})
    if isinstance(obj, (int, _onp.integer)):
        return np_call("_npi_delete", [arr], {"int_ind": int(obj), "axis": axis})
    if not isinstance(obj, NDArray) and not hasattr(obj, "_outputs"):
        raise TypeError(f"'obj' can not support type {type(obj)}")
    return np_call("_npi_delete", [arr, obj], {"axis": axis})


def insert(arr, obj, values, axis=None):
    """``arr`` with ``values`` inserted before index/indices ``obj`` along ``axis``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.insert(np.array([1., 2.]), 1, 5.)
    array([1., 5., 2.])
    """
    if not isinstance(arr, NDArray) and not hasattr(arr, "_outputs"):
        raise AssertionError(f"Argument arr must have NDArray type, but got {arr}")
    scalar = not isinstance(values, NDArray) and not hasattr(values, "_outputs")
    if scalar and not isinstance(values, (int, float, _onp.number)):
        raise TypeError("'values' can not support type {}".format(type(values).__name__))
    ins = [arr] if scalar else [arr, values]
    base = {"val": float(values) if scalar else None, "axis": axis}
    if isinstance(obj, slice):
        return np_call("_npi_insert_slice", ins, {**base, **_slice_attrs(obj)})
    if isinstance(obj, (int, _onp.integer)):
        return np_call("_npi_insert_scalar", ins, {**base, "int_ind": int(obj)})
    if not isinstance(obj, NDArray) and not hasattr(obj, "_outputs"):
        raise TypeError(f"'values' can not support type {type(obj)}")
    return np_call("_npi_insert_tensor", ins + [obj], base)
