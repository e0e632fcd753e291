"""``mx.sym.np`` creation front ends (what ``F.np.zeros`` and friends are inside a
hybridized block) and the array-taking shape functions of ``mx.np``, which build symbols when
given symbols.

Creation functions build MXNet 1.9.1's operators (``_npi_zeros``, ``_npi_ones``,
``_npi_full``, ``_npi_arange``, ``_npi_eye``, ``_npi_identity``, ``_npi_linspace``,
``_npi_logspace``, ``_npi_indices``, ``_npi_hanning``..., ``_npi_full_like``) with the context
recorded as ``ctx`` the way MXNet writes it.
"""

from __future__ import annotations

import numpy as _onp

from ..._op import _np_create  # noqa: F401  (registers the creation operators)
from ...base import MXNetNotSupportedError
from ...context import current_context
from ...numpy import _shape as _np_shape_mod
from ...numpy._shape import *  # noqa: F401,F403  (array-taking functions dispatch on symbols)
from . import np_symbol_call

_ARRAY_FUNCS = [n for n in _np_shape_mod.__all__ if n not in (
    "eye", "identity", "linspace", "logspace", "indices", "hanning", "hamming", "blackman")
    and n not in _np_shape_mod._shape_fallback.__all__]

__all__ = ["zeros", "ones", "full", "empty", "arange", "eye", "identity", "linspace",
           "logspace", "indices", "hanning", "hamming", "blackman", "zeros_like", "ones_like",
           "full_like", "empty_like"] + _ARRAY_FUNCS


def _ctx(ctx) -> str:
    return str(ctx if ctx is not None else current_context())


def _shape(shape) -> tuple:
    if isinstance(shape, (int, _onp.integer)):
        return (int(shape),)
    return tuple(int(d) for d in shape)


def _dt(dtype, default="float32"):
    return default if dtype is None else dtype


def zeros(shape, dtype=_onp.float32, order="C", ctx=None):
    """A symbol of zeros (``_npi_zeros``; float32 unless ``dtype`` is given).

    Examples
    --------
    >>> from mxnet.symbol import numpy as S
    >>> S.zeros((2, 3)).list_arguments()
    []
    """
    if order != "C":
        raise MXNetNotSupportedError("order must be 'C'")
    return np_symbol_call("_npi_zeros", [], {"shape": _shape(shape), "ctx": _ctx(ctx),
                                             "dtype": _dt(dtype)})


def ones(shape, dtype=_onp.float32, order="C", ctx=None):
    """A symbol of ones (``_npi_ones``; float32 unless ``dtype`` is given).

    Examples
    --------
    >>> from mxnet.symbol import numpy as S
    >>> S.ones((2,), dtype='int32').eval()[0].dtype
    <class 'numpy.int32'>
    """
    if order != "C":
        raise MXNetNotSupportedError("order must be 'C'")
    return np_symbol_call("_npi_ones", [], {"shape": _shape(shape), "ctx": _ctx(ctx),
                                            "dtype": _dt(dtype)})


def empty(shape, dtype=_onp.float32, order="C", ctx=None):
    """An uninitialised symbol (zero-filled here).

    Examples
    --------
    >>> from mxnet.symbol import numpy as S
    >>> S.empty((2,)).eval()[0].shape
    (2,)
    """
    return zeros(shape, dtype, order, ctx)


def full(shape, fill_value, dtype=None, order="C", ctx=None, out=None):
    """A symbol of ``shape`` filled with ``fill_value`` (``_npi_full``).

    Examples
    --------
    >>> from mxnet.symbol import numpy as S
    >>> S.full((2,), 3.).eval()[0].asnumpy()
    array([3., 3.], dtype=float32)
    """
    if order != "C":
        raise MXNetNotSupportedError("order must be 'C'")
    if hasattr(fill_value, "_outputs"):  # a symbol: broadcast it (as MXNet)
        res = _np_shape_mod.broadcast_to(fill_value, _shape(shape))
        return res if dtype is None else res.astype(dtype)
    if isinstance(fill_value, bool) and dtype is None:
        dtype = "bool"  # MXNet: a Python bool fill gives a bool array
    return np_symbol_call("_npi_full", [], {"shape": _shape(shape), "ctx": _ctx(ctx),
                                            "dtype": _dt(dtype), "value": float(fill_value)})


def arange(start, stop=None, step=1, dtype=None, ctx=None):
    """Evenly spaced values in ``[start, stop)`` (``_npi_arange``).

    Examples
    --------
    >>> from mxnet.symbol import numpy as S
    >>> S.arange(3).eval()[0].shape
    (3,)
    """
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if step == 0:
        raise ZeroDivisionError("step cannot be 0")
    return np_symbol_call("_npi_arange", [], {"start": start, "stop": stop, "step": step,
                                              "ctx": _ctx(ctx), "dtype": _dt(dtype)})


def eye(N, M=None, k=0, dtype=_onp.float32, **kwargs):  # noqa: N803
    """A symbol of a 2-D array with ones on the ``k``-th diagonal (``_npi_eye``)."""
    ctx = kwargs.pop("ctx", None)
    return np_symbol_call("_npi_eye", [], {"N": N, "M": M, "k": k, "ctx": _ctx(ctx),
                                           "dtype": _dt(dtype)})


def identity(n, dtype=None, ctx=None):
    """A symbol of the ``n`` x ``n`` identity matrix (``_npi_identity``).

    Examples
    --------
    >>> from mxnet.symbol import numpy as S
    >>> S.eye(2).eval()[0].shape
    (2, 2)
    """
    return np_symbol_call("_npi_identity", [], {"shape": (int(n), int(n)), "ctx": _ctx(ctx),
                                                "dtype": _dt(dtype)})


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, ctx=None):
    """A symbol of ``num`` evenly spaced samples (``_npi_linspace``).

    Examples
    --------
    >>> from mxnet.symbol import numpy as S
    >>> S.linspace(0, 1, 3).eval()[0].asnumpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """
    if axis != 0:
        raise MXNetNotSupportedError("the function only support axis 0")
    res = np_symbol_call("_npi_linspace", [], {"start": start, "stop": stop, "num": int(num),
                                               "endpoint": endpoint, "ctx": _ctx(ctx),
                                               "dtype": _dt(dtype)})
    if retstep:
        return res, (stop - start) / (num - 1)
    return res


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, ctx=None):
    """A symbol of samples evenly spaced on a log scale (``_npi_logspace``).

    Examples
    --------
    >>> from mxnet.symbol import numpy as S
    >>> S.logspace(0, 2, 3).eval()[0].asnumpy()
    array([  1.,  10., 100.], dtype=float32)
    """
    if axis != 0:
        raise MXNetNotSupportedError("the function only support axis 0")
    return np_symbol_call("_npi_logspace", [], {"start": start, "stop": stop, "num": int(num),
                                                "endpoint": endpoint, "base": base,
                                                "ctx": _ctx(ctx), "dtype": _dt(dtype)})


def indices(dimensions, dtype=_onp.int32, ctx=None):
    """A symbol of the grid indices of ``dimensions`` (``_npi_indices``).

    Examples
    --------
    >>> from mxnet.symbol import numpy as S
    >>> S.indices((2, 3)).eval()[0].shape
    (2, 2, 3)
    """
    return np_symbol_call("_npi_indices", [], {"dimensions": _shape(dimensions),
                                               "dtype": _dt(dtype, "int32"), "ctx": _ctx(ctx)})


def _window(opname: str):
    def fn(M, dtype=_onp.float32, ctx=None):  # noqa: N803
        return np_symbol_call(opname, [], {"M": M, "ctx": _ctx(ctx), "dtype": _dt(dtype)})

    fn.__name__ = opname[5:]
    fn.__doc__ = f"A symbol of the {opname[5:]} window of ``M`` points (``{opname}``)."
    return fn


hanning = _window("_npi_hanning")
hamming = _window("_npi_hamming")
blackman = _window("_npi_blackman")


def full_like(a, fill_value, dtype=None, order="C", ctx=None, out=None):
    """A symbol of ``a``'s shape filled with ``fill_value`` (``_npi_full_like``).

    Examples
    --------
    >>> import mxnet as mx
    >>> from mxnet.symbol import numpy as S
    >>> x = S._as_np_sym(mx.sym.var('x'))
    >>> S.full_like(x, 2.).list_arguments()
    ['x']
    """
    return np_symbol_call("_npi_full_like", [a], {"fill_value": float(fill_value),
                                                  "ctx": _ctx(ctx), "dtype": dtype})


def zeros_like(a, dtype=None, order="C", ctx=None, out=None):
    """A symbol of zeros in ``a``'s shape (``_npi_full_like``).

    Examples
    --------
    >>> import mxnet as mx
    >>> from mxnet.symbol import numpy as S
    >>> x = S._as_np_sym(mx.sym.var('x'))
    >>> S.zeros_like(x).list_arguments()
    ['x']
    """
    return full_like(a, 0, dtype, order, ctx)


def ones_like(a, dtype=None, order="C", ctx=None, out=None):
    """A symbol of ones in ``a``'s shape (``_npi_full_like``).

    Examples
    --------
    >>> import mxnet as mx
    >>> from mxnet.symbol import numpy as S
    >>> x = S._as_np_sym(mx.sym.var('x'))
    >>> S.ones_like(x).list_arguments()
    ['x']
    """
    return full_like(a, 1, dtype, order, ctx)


def empty_like(prototype, dtype=None, order="C", subok=False, shape=None):
    """An uninitialised symbol (zero-filled here) in ``prototype``'s shape.

    Examples
    --------
    >>> import mxnet as mx
    >>> from mxnet.symbol import numpy as S
    >>> x = S._as_np_sym(mx.sym.var('x'))
    >>> S.empty_like(x).list_arguments()
    ['x']
    """
    return full_like(prototype, 0, dtype, order)


def broadcast_to(array, shape):
    """``array`` broadcast to ``shape``; a scalar gives a ``full`` symbol (as MXNet).

    Examples
    --------
    >>> from mxnet.symbol import numpy as S
    >>> S.broadcast_to(1.0, (2,)).eval()[0].asnumpy()
    array([1., 1.], dtype=float32)
    """
    if _onp.isscalar(array):
        return full(shape, array)
    return _np_shape_mod.broadcast_to(array, shape)
