"""``mx.np`` creation functions beyond ``zeros``/``ones``/``full``/``arange``: ``eye``,
``identity``, ``linspace``, ``logspace``, ``indices``, ``meshgrid``, the window functions,
``tril``, ``diag``, ``diagflat``, ``diagonal`` and ``diag_indices_from``.

Each runs an MXNet 1.9.1 registry operator (``_npi_eye``, ``_npi_linspace``...), so the
functions taking arrays also build symbols inside hybridized blocks.
"""

from __future__ import annotations

import numpy as _onp

from .._op import _np_create  # noqa: F401  (registers the creation operators)
from ..base import MXNetNotSupportedError
from ..context import Context
from ._call import call as np_call
from .multiarray import NDArray

__all__ = ["eye", "identity", "linspace", "logspace", "indices", "meshgrid", "hanning",
           "hamming", "blackman", "tril", "diag", "diagflat", "diagonal", "diag_indices_from"]


def _dt(dtype, default="float32"):
    return default if dtype is None else dtype


def _ctx(ctx) -> Context | None:
    if ctx is None or isinstance(ctx, Context):
        return ctx
    return Context(ctx) if isinstance(ctx, str) else ctx


def eye(N, M=None, k=0, dtype=_onp.float32, **kwargs):  # noqa: N803  (NumPy's names)
    """A 2-D array with ones on the ``k``-th diagonal and zeros elsewhere.

    Examples
    --------
    >>> from mxnet import np
    >>> np.eye(2, dtype='int32')
    array([[1, 0],
           [0, 1]], dtype=int32)
    """
    ctx = _ctx(kwargs.pop("ctx", kwargs.pop("device", None)))
    if kwargs:
        raise TypeError(f"eye() got unexpected keyword arguments {sorted(kwargs)}")
    return np_call("_npi_eye", [], {"N": N, "M": M, "k": k, "ctx": ctx,
                                    "dtype": _dt(dtype)})


def identity(n, dtype=None, ctx=None):
    """The ``n`` x ``n`` identity matrix (float32 unless ``dtype`` is given).

    Examples
    --------
    >>> from mxnet import np
    >>> np.identity(2)
    array([[1., 0.],
           [0., 1.]])
    """
    if not isinstance(n, (int, _onp.integer)):
        raise TypeError(f"Input 'n' should be an integer, got {type(n).__name__}")
    if n < 0:
        raise ValueError("Input 'n' cannot be negative")
    return np_call("_npi_identity", [], {"shape": (int(n), int(n)), "ctx": _ctx(ctx),
                                         "dtype": _dt(dtype)})


def _check_range_args(start, stop, axis):
    if isinstance(start, (list, _onp.ndarray, NDArray)) or \
            isinstance(stop, (list, _onp.ndarray, NDArray)):
        raise MXNetNotSupportedError("start and stop only support int")
    if axis != 0:
        raise MXNetNotSupportedError("the function only support axis 0")


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, ctx=None):
    """``num`` evenly spaced samples over ``[start, stop]`` (``stop`` excluded when
    ``endpoint`` is False); with ``retstep`` also the spacing.

    Examples
    --------
    >>> from mxnet import np
    >>> np.linspace(0, 1, 5)
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """
    _check_range_args(start, stop, axis)
    out = np_call("_npi_linspace", [], {"start": start, "stop": stop, "num": num,
                                        "endpoint": endpoint, "ctx": _ctx(ctx),
                                        "dtype": _dt(dtype)})
    if retstep:
        # MXNet 1.9.1 divides by num - 1 even when endpoint is False
        return out, (stop - start) / (num - 1)
    return out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, ctx=None):
    """``num`` samples evenly spaced on a log scale, from ``base**start`` to
    ``base**stop``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.logspace(0, 2, 3)
    array([  1.,  10., 100.])
    """
    _check_range_args(start, stop, axis)
    return np_call("_npi_logspace", [], {"start": start, "stop": stop, "num": num,
                                         "endpoint": endpoint, "base": base,
                                         "ctx": _ctx(ctx), "dtype": _dt(dtype)})


def indices(dimensions, dtype=_onp.int32, ctx=None):
    """An array of shape ``(len(dimensions),) + dimensions`` holding each axis' index.

    Examples
    --------
    >>> from mxnet import np
    >>> np.indices((2, 2))[0]
    array([[0, 0],
           [1, 1]], dtype=int32)
    """
    if not isinstance(dimensions, (tuple, list)):
        raise ValueError("The dimensions must be sequence of ints")
    return np_call("_npi_indices", [], {"dimensions": tuple(int(d) for d in dimensions),
                                        "dtype": _dt(dtype, "int32"), "ctx": _ctx(ctx)})


def meshgrid(*xi, **kwargs):
    """Coordinate matrices from coordinate vectors (``indexing`` 'xy' or 'ij').

    Examples
    --------
    >>> from mxnet import np
    >>> xs, ys = np.meshgrid(np.arange(2), np.arange(3))
    >>> xs.shape
    (3, 2)
    """
    from ._shape import broadcast_to, reshape

    indexing = kwargs.pop("indexing", "xy")
    sparse = kwargs.pop("sparse", False)
    copy = kwargs.pop("copy", True)
    del copy
    if kwargs:
        raise TypeError(f"meshgrid() got unexpected keyword arguments {sorted(kwargs)}")
    if sparse:
        raise MXNetNotSupportedError("sparse=False is not implemented")
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    n = len(xi)
    outs = []
    for i, x in enumerate(xi):
        shape = [1] * n
        shape[i] = -1
        if indexing == "xy" and n > 1 and i < 2:
            shape[0], shape[1] = shape[1], shape[0]
        outs.append(reshape(x, tuple(shape)))
    if n == 0:
        return outs
    full = [int(_onp.prod(x.shape)) for x in xi]
    if indexing == "xy" and n > 1:
        full[0], full[1] = full[1], full[0]
    return [broadcast_to(o, tuple(full)) for o in outs]


def _window(opname: str):
    def fn(M, dtype=_onp.float32, ctx=None):  # noqa: N803
        return np_call(opname, [], {"M": M, "ctx": _ctx(ctx), "dtype": _dt(dtype)})

    fn.__name__ = opname[5:]
    fn.__doc__ = (f"The {opname[5:]} window of ``M`` points (float32 unless ``dtype`` is "
                  f"given).\n\n    Examples\n    --------\n    >>> from mxnet import np\n"
                  f"    >>> np.{opname[5:]}(3).shape\n    (3,)\n")
    return fn


hanning = _window("_npi_hanning")
hamming = _window("_npi_hamming")
blackman = _window("_npi_blackman")


def tril(m, k=0):
    """The lower triangle of ``m`` (elements above the ``k``-th diagonal zeroed).

    Examples
    --------
    >>> from mxnet import np
    >>> np.tril(np.ones((2, 2)))
    array([[1., 0.],
           [1., 1.]])
    """
    return np_call("_npi_tril", [m], {"k": k})


def diag(array, k=0):  # noqa: A002  (NumPy's name)
    """The ``k``-th diagonal of a 2-D array, or a 2-D array with a 1-D array on it.

    Examples
    --------
    >>> from mxnet import np
    >>> np.diag(np.array([1., 2.]))
    array([[1., 0.],
           [0., 2.]])
    """
    return np_call("_np_diag", [array], {"k": k})


def diagflat(array, k=0):  # noqa: A002
    """A 2-D array with the flattened input on the ``k``-th diagonal.

    Examples
    --------
    >>> from mxnet import np
    >>> np.diagflat(np.array([1., 2.])).shape
    (2, 2)
    """
    return np_call("_np_diagflat", [array], {"k": k})


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonals of ``a`` over ``axis1``/``axis2`` (appended as the last axis).

    Examples
    --------
    >>> from mxnet import np
    >>> np.diagonal(np.arange(4).reshape(2, 2))
    array([0., 3.])
    """
    return np_call("_np_diagonal", [a], {"offset": offset, "axis1": axis1, "axis2": axis2})


def diag_indices_from(arr):
    """The index arrays of the main diagonal of an (n, n, ..., n) array (a tuple).

    Examples
    --------
    >>> from mxnet import np
    >>> np.diag_indices_from(np.ones((2, 2)))[0]
    array([0, 1], dtype=int64)
    """
    if isinstance(arr, NDArray) and (arr.ndim < 2 or len(set(arr.shape)) != 1):
        raise ValueError("All dimensions of input must be of equal length" if arr.ndim >= 2
                         else "input array must be at least 2-d")
    res = np_call("_npi_diag_indices_from", [arr])
    if isinstance(res, NDArray):
        return tuple(res[i] for i in range(res.shape[0]))
    return res
