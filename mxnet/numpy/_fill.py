"""``mx.np`` creation functions over plain values: ``array``, ``asarray``, ``zeros``,
``ones``, ``empty``, ``full``, the ``*_like`` forms and ``arange`` (MXNet 1.9.1's defaults:
float32 unless a dtype is given or the source is a NumPy / ``mx.np`` array).

Imported by :mod:`mxnet.numpy.multiarray` once its ``ndarray`` class exists (import that
module, not this one, first).
"""

from __future__ import annotations

import math

import numpy as _onp
import torch

from .. import _dtype
from ..base import MXNetError, MXNetNotSupportedError
from ..context import Context, current_context
from ..ndarray.ndarray import NDArray
from .multiarray import ndarray

__all__ = ["array", "asarray", "zeros", "ones", "empty", "full", "zeros_like", "ones_like",
           "empty_like", "full_like", "arange"]


def _ctx(ctx=None, device=None) -> Context:
    c = ctx if ctx is not None else device
    if c is None:
        return current_context()
    if isinstance(c, str):
        return Context(c)
    return c


def _wrap_tensor(t: torch.Tensor, ctx: Context) -> ndarray:
    return ndarray._wrap(t, ctx)


def _default_dtype(dtype):
    return _onp.float32 if dtype is None else dtype


def array(object, dtype=None, ctx=None, device=None) -> ndarray:  # noqa: A002
    """An array from any array-like (Python lists default to float32, NumPy arrays and
    ``mx.np`` arrays keep their dtype).

    Examples
    --------
    >>> from mxnet import np
    >>> np.array([1, 2, 3])
    array([1., 2., 3.])
    """
    c = _ctx(ctx, device)
    if isinstance(object, NDArray) and not isinstance(object, ndarray):
        raise ValueError("If you're trying to create a mxnet.numpy.ndarray from mx.nd.NDArray, "
                         "please use the zero-copy as_np_ndarray function.")
    if isinstance(object, NDArray):
        dt = _dtype.to_torch(dtype) if dtype is not None else object._t.dtype
        t = object._t.detach().to(device=c.torch_device, dtype=dt, copy=True)
        return _wrap_tensor(t, c)
    if isinstance(object, _onp.generic):  # a NumPy scalar keeps its dtype, as MXNet
        object = _onp.asarray(object)
    if isinstance(object, _onp.ndarray):
        if not object.dtype.isnative:  # big-endian data: native byte order, same values
            object = object.astype(object.dtype.newbyteorder("="))
        a = object if dtype is None else object.astype(_dtype.dtype_name(dtype)
                                                       if not isinstance(dtype, str) else dtype)
    else:
        try:  # MXNet reports NumPy's conversion errors as TypeError
            if dtype is None:
                a = _onp.array(object)
                if a.dtype.kind in "biuf" or a.dtype.kind == "O":
                    a = a.astype(_onp.float32) if a.dtype != _onp.float32 else a
                elif a.dtype.kind in "US":  # strings: NumPy's float conversion error
                    a = a.astype(_onp.float32)
            else:
                a = _onp.array(object, dtype=_onp.dtype(_dtype.dtype_name(dtype)))
        except ValueError as e:
            raise TypeError(str(e)) from None
    if a.dtype == _onp.float64 and dtype is None and not isinstance(object, _onp.ndarray):
        a = a.astype(_onp.float32)
    t = torch.from_numpy(a.copy(order="C"))
    if c.torch_device.type != "cpu":
        t = t.to(c.torch_device)
    return _wrap_tensor(t, c)


def asarray(obj, dtype=None, ctx=None, device=None) -> ndarray:
    """``obj`` itself when it already is an ``mx.np.ndarray`` of ``dtype``, else a new one."""
    if isinstance(obj, ndarray) and (dtype is None or obj.dtype == _onp.dtype(dtype)):
        return obj
    return array(obj, dtype=dtype, ctx=ctx, device=device)


def _shape(shape) -> tuple:
    if isinstance(shape, (int, _onp.integer)):
        return (int(shape),)
    return tuple(int(d) for d in shape)


def _check_order(order, name: str) -> None:
    if order != "C":
        raise MXNetNotSupportedError(f"`{name}` only supports order equal to `C`, while received "
                                  f"{order}")


def _filled(shape, value, dtype, ctx, device) -> ndarray:
    c = _ctx(ctx, device)
    dt = _dtype.to_torch(_default_dtype(dtype))
    shape = _shape(shape)
    if any(d < 0 for d in shape):
        raise MXNetError(f"Operator _npi_full: negative dimension in shape {shape}")
    return _wrap_tensor(torch.full(shape, value, dtype=dt, device=c.torch_device), c)


def zeros(shape, dtype=None, order="C", ctx=None, device=None) -> ndarray:
    """An array of zeros (float32 unless ``dtype`` is given)."""
    _check_order(order, "zeros")
    return _filled(shape, 0, dtype, ctx, device)


def ones(shape, dtype=None, order="C", ctx=None, device=None) -> ndarray:
    """An array of ones (float32 unless ``dtype`` is given)."""
    _check_order(order, "ones")
    return _filled(shape, 1, dtype, ctx, device)


def empty(shape, dtype=None, order="C", ctx=None, device=None) -> ndarray:
    """An uninitialised array (here: zero-filled) of ``shape``."""
    _check_order(order, "empty")
    return _filled(shape, 0, dtype, ctx, device)


def full(shape, fill_value, dtype=None, order="C", ctx=None, device=None,
         out=None) -> ndarray:
    """An array of ``shape`` filled with ``fill_value`` (float32 unless ``dtype`` is given, or
    the dtype of ``fill_value`` when it is an ``mx.np.ndarray``)."""
    _check_order(order, "full")
    if isinstance(fill_value, NDArray):
        dt = dtype if dtype is not None else fill_value.dtype
        res = _filled(shape, 0, dt, ctx, device)
        res._t.copy_(fill_value._t.detach().broadcast_to(res._t.shape))
    else:
        if isinstance(fill_value, bool) and dtype is None:
            dtype = _onp.bool_  # MXNet: a Python bool fill gives a bool array
        res = _filled(shape, fill_value, dtype, ctx, device)
    if out is not None:
        out._assign_tensor(res._t)
        return out
    return res


def _like(a, value, dtype, ctx, device):
    c = _ctx(ctx, device) if (ctx is not None or device is not None) else a.ctx
    dt = _dtype.to_torch(dtype) if dtype is not None else a._t.dtype
    return _wrap_tensor(torch.full(tuple(a.shape), value, dtype=dt, device=c.torch_device), c)


def zeros_like(a, dtype=None, order="C", ctx=None, out=None, device=None) -> ndarray:
    """Zeros of ``a``'s shape and dtype."""
    _check_order(order, "zeros_like")
    return _out(_like(a, 0, dtype, ctx, device), out)


def ones_like(a, dtype=None, order="C", ctx=None, out=None, device=None) -> ndarray:
    """Ones of ``a``'s shape and dtype."""
    _check_order(order, "ones_like")
    return _out(_like(a, 1, dtype, ctx, device), out)


def empty_like(prototype, dtype=None, order="C", subok=False, shape=None, device=None):
    """An uninitialised array (here: zero-filled) like ``prototype``."""
    _check_order(order, "empty_like")
    return _like(prototype, 0, dtype, None, device)


def full_like(a, fill_value, dtype=None, order="C", ctx=None, out=None, device=None):
    """``fill_value`` in ``a``'s shape and dtype."""
    _check_order(order, "full_like")
    return _out(_like(a, fill_value, dtype, ctx, device), out)


def _out(res, out):
    if out is None:
        return res
    out._assign_tensor(res._t)
    return out


def arange(start, stop=None, step=1, dtype=None, ctx=None, device=None) -> ndarray:
    """Evenly spaced values in ``[start, stop)`` (float32 unless ``dtype`` is given).

    Examples
    --------
    >>> from mxnet import np
    >>> np.arange(3)
    array([0., 1., 2.])
    """
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if step == 0:
        raise MXNetError("arange: step must not be 0")
    from .._op._np_create import arange_values

    c = _ctx(ctx, device)
    n = max(int(math.ceil((stop - start) / step)), 0)
    dt = _dtype.to_torch(_default_dtype(dtype))
    # evaluated in the output dtype, as MXNet's kernel (float32: 0.3 * 3 = 0.90000004)
    return _wrap_tensor(arange_values(start, step, n, dt, c.torch_device), c)
