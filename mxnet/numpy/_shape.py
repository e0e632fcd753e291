"""``mx.np`` shape manipulation: reshape, transpose and axis moves, squeeze/expand_dims,
broadcasting, flips and rolls, tile/repeat, and the ``atleast_*d`` family.

Every function runs an MXNet 1.9.1 registry operator through ``np_call``, so it works on
``mx.np.ndarray`` (imperative, autograd) and on ``mx.sym.np`` symbols (hybridized blocks).
"""

from __future__ import annotations

import numpy as _onp

from .._op import _np_shape  # noqa: F401  (registers the operators)
from ..base import MXNetError, MXNetNotSupportedError, numeric_types
from ._call import as_list
from ._call import call as np_call
from .multiarray import NDArray, attach_methods

__all__ = ["reshape", "transpose", "swapaxes", "moveaxis", "rollaxis", "expand_dims", "squeeze",
           "broadcast_to", "broadcast_arrays", "atleast_1d", "atleast_2d", "atleast_3d",
           "ravel", "flip", "fliplr", "flipud", "roll", "rot90", "tile", "repeat", "copy",
           "shape", "size", "ndim"]


def _tuple(v):
    """A shape-like parameter as a tuple; anything else is passed on for the operator's
    parameter check to reject (``MXNetError: Invalid Parameter format``)."""
    if isinstance(v, (int, _onp.integer)):
        return (int(v),)
    if isinstance(v, (list, tuple)):
        return tuple(int(d) if isinstance(d, _onp.integer) else d for d in v)
    return v


def _supported(x) -> None:
    from ..symbol import Symbol

    if not isinstance(x, (NDArray, Symbol)):
        raise TypeError(f"type {type(x)} not supported")


def reshape(a, newshape, order="C", out=None):
    """``a`` with a new shape (one dimension may be -1); a new array.

    Examples
    --------
    >>> from mxnet import np
    >>> np.reshape(np.arange(6), (2, -1)).shape
    (2, 3)
    """
    if order != "C":
        raise MXNetNotSupportedError("reshape: only order='C' is supported")
    return np_call("_np_reshape", [a], {"newshape": _tuple(newshape), "order": order}, out)


def transpose(a, axes=None):
    """``a`` with its axes permuted (reversed by default).

    Examples
    --------
    >>> from mxnet import np
    >>> np.transpose(np.ones((2, 3))).shape
    (3, 2)
    """
    if axes is not None:
        axes = _tuple(axes)
        if len(set(axes)) != len(axes):
            raise ValueError(f"repeated axis in transpose {axes}")
    return np_call("_np_transpose", [a], {"axes": axes})


def swapaxes(a, axis1, axis2):
    """``a`` with two axes interchanged.

    Examples
    --------
    >>> from mxnet import np
    >>> np.swapaxes(np.ones((1, 2, 3)), 0, 2).shape
    (3, 2, 1)
    """
    return np_call("_npi_swapaxes", [a], {"dim1": axis1, "dim2": axis2})


def moveaxis(a, source, destination):
    """``a`` with the ``source`` axes moved to ``destination``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.moveaxis(np.ones((1, 2, 3)), 0, -1).shape
    (2, 3, 1)
    """
    return np_call("_np_moveaxis", [a], {"source": _tuple(source),
                                         "destination": _tuple(destination)})


def rollaxis(a, axis, start=0):
    """Roll ``axis`` backwards until it lies before position ``start``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.rollaxis(np.ones((1, 2, 3)), 2).shape
    (3, 1, 2)
    """
    n = a.ndim
    if not -n <= axis < n:
        raise _onp.exceptions.AxisError(f"axis {axis} is out of bounds for array of "
                                        f"dimension {n}")
    axis %= n
    if start < 0:
        start += n
    if not 0 <= start <= n:
        raise ValueError(f"start arg requires {-n} <= start < {n + 1}")
    if axis < start:
        start -= 1
    if axis == start:
        return copy(a)
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return transpose(a, axes)


def expand_dims(a, axis):
    """``a`` with a new axis of length one at ``axis``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.expand_dims(np.ones((2,)), 0).shape
    (1, 2)
    """
    return np_call("_npi_expand_dims", [a], {"axis": axis})


def squeeze(a, axis=None, out=None):
    """``a`` without its length-one axes (only those in ``axis`` when given).

    Examples
    --------
    >>> from mxnet import np
    >>> np.squeeze(np.ones((1, 2, 1))).shape
    (2,)
    """
    return np_call("_np_squeeze", [a], {"axis": None if axis is None else _tuple(axis)}, out)


def broadcast_to(array, shape):  # noqa: A002  (NumPy's name)
    """``array`` broadcast to ``shape``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.broadcast_to(np.ones((3,)), (2, 3)).shape
    (2, 3)
    >>> np.broadcast_to(2.0, (2,)).dtype  # a scalar: np.full (float32)
    dtype('float32')
    """
    if _onp.isscalar(array):
        from ._fill import full

        return full(shape, array)
    return np_call("_npi_broadcast_to", [array], {"shape": _tuple(shape)})


def broadcast_arrays(*args):
    """The arrays broadcast against each other (a list).

    Examples
    --------
    >>> from mxnet import np
    >>> [x.shape for x in np.broadcast_arrays(np.ones((2, 1)), np.ones((3,)))]
    [(2, 3), (2, 3)]
    """
    shape = _onp.broadcast_shapes(*[tuple(x.shape) for x in args])
    return [broadcast_to(x, shape) for x in args]


def _atleast(nd: int):
    def fn(*arys):
        if not arys:
            raise ValueError(f"atleast_{nd}d needs at least one array")
        res = as_list(np_call(f"_np_atleast_{nd}d", list(arys), {"num_args": len(arys)}))
        return res[0] if len(arys) == 1 else res

    fn.__name__ = f"atleast_{nd}d"
    fn.__doc__ = (f"The inputs with at least {nd} dimensions (one array, or a list).\n\n"
                  f"    Examples\n    --------\n    >>> from mxnet import np\n"
                  f"    >>> np.atleast_{nd}d(np.array(1.)).ndim\n    {nd}\n")
    return fn


atleast_1d = _atleast(1)
atleast_2d = _atleast(2)
atleast_3d = _atleast(3)


def ravel(x, order="C"):
    """The flattened array (a new 1-D array).

    Examples
    --------
    >>> from mxnet import np
    >>> np.ravel(np.ones((2, 2))).shape
    (4,)
    """
    if order == "F":
        raise MXNetNotSupportedError("order F is not supported")
    if isinstance(x, numeric_types):
        return _onp.reshape(x, -1)
    return np_call("_np_reshape", [x], {"newshape": (-1,), "order": "C"})


def flip(m, axis=None, out=None):
    """``m`` with the order of elements reversed along ``axis`` (all axes by default).

    Examples
    --------
    >>> from mxnet import np
    >>> np.flip(np.array([1., 2., 3.]))
    array([3., 2., 1.])
    """
    if isinstance(m, numeric_types):
        return _onp.flip(m, axis)
    _supported(m)
    return np_call("_npi_flip", [m], {"axis": None if axis is None else _tuple(axis)}, out)


def fliplr(m):
    """``m`` with its columns in reverse order (axis 1).

    Examples
    --------
    >>> from mxnet import np
    >>> np.fliplr(np.array([[1., 2.]]))
    array([[2., 1.]])
    """
    return flip(m, 1)


def flipud(m):
    """``m`` with its rows in reverse order (axis 0).

    Examples
    --------
    >>> from mxnet import np
    >>> np.flipud(np.array([[1.], [2.]]))
    array([[2.],
           [1.]])
    """
    return flip(m, 0)


def roll(a, shift, axis=None):
    """``a`` with its elements shifted circularly along ``axis`` (flattened by default).

    Examples
    --------
    >>> from mxnet import np
    >>> np.roll(np.arange(4), 1)
    array([3., 0., 1., 2.])
    """
    return np_call("_np_roll", [a], {"shift": _tuple(shift),
                                     "axis": None if axis is None else _tuple(axis)})


def rot90(m, k=1, axes=(0, 1)):
    """``m`` rotated by 90 degrees ``k`` times in the plane of ``axes``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.rot90(np.array([[1., 2.], [3., 4.]]))
    array([[2., 4.],
           [1., 3.]])
    """
    return np_call("_npi_rot90", [m], {"k": k, "axes": _tuple(axes)})


def tile(A, reps):  # noqa: N803  (NumPy's name)
    """``A`` repeated ``reps`` times along each axis.

    Examples
    --------
    >>> from mxnet import np
    >>> np.tile(np.array([1., 2.]), 2)
    array([1., 2., 1., 2.])
    """
    if isinstance(A, numeric_types):
        return _onp.tile(A, reps)
    _supported(A)
    return np_call("_npi_tile", [A], {"reps": _tuple(reps)})


def repeat(a, repeats, axis=None):
    """Each element of ``a`` repeated ``repeats`` times (flattened when ``axis`` is None).

    Examples
    --------
    >>> from mxnet import np
    >>> np.repeat(np.array([1., 2.]), 2)
    array([1., 1., 2., 2.])
    """
    if isinstance(repeats, float):
        raise MXNetError(f"Invalid Parameter format for repeats expect int but value="
                         f"'{repeats}', in operator _np_repeat")
    return np_call("_np_repeat", [a], {"repeats": repeats, "axis": axis})


def copy(a, out=None):
    """A copy of ``a``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.copy(np.array([1., 2.]))
    array([1., 2.])
    """
    return np_call("_np_copy", [a], {}, out)


def shape(a) -> tuple:
    """The shape of ``a`` (a tuple).

    Examples
    --------
    >>> from mxnet import np
    >>> np.shape(np.ones((2, 3)))
    (2, 3)
    """
    return _onp.shape(a) if not isinstance(a, NDArray) else a.shape


def size(a, axis=None) -> int:
    """The number of elements of ``a`` (along ``axis`` when given).

    Examples
    --------
    >>> from mxnet import np
    >>> np.size(np.ones((2, 3)), 1)
    3
    """
    if not isinstance(a, NDArray):
        return _onp.size(a, axis)
    return a.size if axis is None else a.shape[axis]


def ndim(a) -> int:
    """The number of dimensions of ``a``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.ndim(np.ones((2, 3)))
    2
    """
    return a.ndim if isinstance(a, NDArray) else _onp.ndim(a)


def _method_repeat(self, repeats, axis=None):
    return repeat(self, repeats, axis)


def _method_broadcast_to(self, shape):
    return broadcast_to(self, shape)


attach_methods({"repeat": _method_repeat, "broadcast_to": _method_broadcast_to})


# the rest of B's front ends, so that ``mx.np`` needs one import line for all of them
from . import _create, _join, _select, _shape_fallback  # noqa: E402
from ._create import *  # noqa: E402,F401,F403
from ._join import *  # noqa: E402,F401,F403
from ._select import *  # noqa: E402,F401,F403
from ._shape_fallback import *  # noqa: E402,F401,F403

__all__ += _create.__all__ + _join.__all__ + _select.__all__ + _shape_fallback.__all__
