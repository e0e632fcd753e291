"""Module-level array functions of ``mxnet.ndarray.ndarray``: creation, waitall, helpers.

They are re-exported by :mod:`mxnet.ndarray.ndarray` (MXNet's public path for them).
"""

from __future__ import annotations

import warnings

import numpy as np
import torch

from .. import _deferred, _dtype
from .._op._registry import get_op
from ..base import numeric_types
from ..context import Context, current_context
from ._invoke import invoke
from .ndarray import NDArray

__all__ = [
    "array",
    "empty",
    "zeros",
    "ones",
    "full",
    "arange",
    "waitall",
    "from_numpy",
    "from_dlpack",
    "concatenate",
    "moveaxis",
    "onehot_encode",
]


def _op_call(opname: str, inputs: list, kwargs: dict, out=None):
    op = get_op(opname)
    return invoke(op, op.parse_attrs(kwargs), inputs, out)


def _resolve_ctx(ctx) -> Context:
    if ctx is None:
        return current_context()
    if isinstance(ctx, str):
        from .._op._params import Param

        return Param("ctx", "ctx").parse(ctx)
    return ctx


def array(source_array, ctx=None, dtype=None) -> NDArray:
    """Create an NDArray from any array-like (lists and NumPy arrays default to float32).

    Examples
    --------
    >>> mx.nd.array([1, 2, 3]).dtype
    <class 'numpy.float32'>
    """
    if (isinstance(source_array, NDArray) and source_array.stype != "default") or (
        type(source_array).__module__.startswith("scipy.sparse")
        and getattr(source_array, "format", "") == "csr"
    ):
        from . import sparse  # MXNet: a sparse source gives a sparse array of the same kind

        return sparse.array(source_array, ctx=ctx, dtype=dtype)
    ctx = _resolve_ctx(ctx)
    if isinstance(source_array, NDArray):
        dt = _dtype.to_torch(dtype) if dtype is not None else source_array._t.dtype
        t = source_array._t.detach().to(device=ctx.torch_device, dtype=dt, copy=True)
        res = source_array._derived(t, ctx)  # a copy carries any pending run-time failure
        if type(res).__module__ == "mxnet.numpy":
            res.__class__ = NDArray  # mx.nd.array of an mx.np array is a classic NDArray
        return res
    dt = _dtype.to_torch(dtype) if dtype is not None else torch.float32
    if isinstance(source_array, torch.Tensor):
        t = source_array.detach().to(device=ctx.torch_device, dtype=dt, copy=True)
        return NDArray._wrap(t, ctx)
    if isinstance(source_array, np.ndarray) and source_array.dtype == _dtype.bfloat16:
        raw = torch.from_numpy(source_array.view(np.int16).copy())
        return NDArray._wrap(raw.view(torch.bfloat16).to(ctx.torch_device), ctx)
    try:
        np_dt = np.dtype(_dtype.dtype_name(dt)) if dt != torch.bfloat16 else np.float32
        try:
            arr = np.array(source_array, dtype=np_dt)
        except OverflowError:  # NumPy 2 refuses out-of-range Python ints; NumPy 1.x wrapped
            arr = np.array(source_array).astype(np_dt)
    except (TypeError, ValueError):
        raise TypeError("source_array must be array like object") from None
    t = torch.from_numpy(arr)
    if dt == torch.bfloat16:
        t = t.to(torch.bfloat16)
    if ctx.torch_device.type != "cpu":
        t = t.to(ctx.torch_device)
    return NDArray._wrap(t, ctx)


def from_numpy(ndarray: np.ndarray, zero_copy: bool = True, array_cls=None) -> NDArray:
    """An NDArray over a NumPy array's memory (``zero_copy=True``) or over a copy.

    Zero-copy needs a C-contiguous array, which must stay alive while the NDArray is used.

    Examples
    --------
    >>> n = np.zeros(2, dtype=np.float32)
    >>> a = mx.nd.from_numpy(n)
    >>> a[:] = 5
    >>> n.tolist()
    [5.0, 5.0]
    """
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy expects a numpy.ndarray, got {type(ndarray).__name__}")
    if zero_copy:
        if not ndarray.flags["C_CONTIGUOUS"]:
            raise ValueError("Only c-contiguous arrays are supported for zero-copy")
    else:
        ndarray = np.array(ndarray, order="C", copy=True)
    cls = array_cls if array_cls is not None else NDArray
    with warnings.catch_warnings():  # torch warns on read-only arrays; MXNet shares them
        warnings.simplefilter("ignore", UserWarning)
        res = cls._wrap(torch.from_numpy(ndarray), Context("cpu", 0))
    if zero_copy:
        ndarray.flags["WRITEABLE"] = False  # as MXNet: the NDArray now owns the memory
    return res


def _dlpack_capsule_is_fresh(capsule) -> bool:
    import ctypes

    is_valid = ctypes.pythonapi.PyCapsule_IsValid
    is_valid.restype = ctypes.c_int
    is_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return bool(is_valid(capsule, b"dltensor"))


def from_dlpack(dlpack) -> NDArray:
    """An NDArray sharing the memory of a DLPack capsule (consumed: usable once).

    Examples
    --------
    >>> x = mx.nd.ones((2, 3))
    >>> mx.nd.from_dlpack(x.to_dlpack_for_read()).shape
    (2, 3)
    """
    if type(dlpack).__name__ == "PyCapsule" and not _dlpack_capsule_is_fresh(dlpack):
        raise AssertionError("Invalid DLPack Tensor. DLTensor capsules can be consumed only once.")
    t = torch.utils.dlpack.from_dlpack(dlpack)
    ctx = Context("gpu", t.device.index) if t.device.type == "cuda" else Context("cpu", 0)
    return NDArray._wrap(t, ctx)


def _creation(opname: str, shape, ctx, dtype, **kwargs) -> NDArray:
    ctx = _resolve_ctx(ctx)
    if isinstance(shape, int):
        shape = (shape,)
    out = kwargs.pop("out", None)
    kwargs.pop("name", None)  # MXNet's generated creators take (and ignore) ``name``
    attrs = {"shape": tuple(shape), "ctx": ctx, **kwargs}
    if dtype is not None:
        attrs["dtype"] = dtype
    return _op_call(opname, [], attrs, out)


def empty(shape, ctx=None, dtype=None, stype=None) -> NDArray:
    """An uninitialised array (here: zero-filled memory is not guaranteed)."""
    if stype is not None and stype != "default":
        from ._sparse_ops import empty as _sparse_empty

        return _sparse_empty(stype, shape, ctx, dtype)
    ctx = _resolve_ctx(ctx)
    if isinstance(shape, int):
        shape = (shape,)
    t = torch.empty(tuple(shape), dtype=_dtype.to_torch(dtype), device=ctx.torch_device)
    return NDArray._wrap(t, ctx)


def zeros(shape, ctx=None, dtype=None, stype=None, **kwargs) -> NDArray:
    """An array of zeros. >>> mx.nd.zeros((2, 3)).shape == (2, 3)"""
    if stype is not None and stype != "default":
        from ._sparse_ops import zeros as _sparse_zeros

        return _sparse_zeros(stype, shape, ctx=ctx, dtype=dtype, **kwargs)
    _check_known("_zeros", shape)
    return _creation("_zeros", shape, ctx, dtype, **kwargs)


def _check_known(opname: str, shape) -> None:
    """Outside NumPy-shape semantics MXNet reads () and 0-sized dims as unknown."""
    from ..util import is_np_shape

    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    if (not dims or 0 in dims) and not is_np_shape():
        from ..base import MXNetError

        raise MXNetError(
            f"Error in operator {opname}: shape {dims} has unknown (zero) "
            "dimensions; use mx.np_shape(True) for zero-size or scalar arrays"
        )


def ones(shape, ctx=None, dtype=None, **kwargs) -> NDArray:
    """An array of ones. >>> mx.nd.ones((2,)).asnumpy().tolist() == [1.0, 1.0]"""
    _check_known("_ones", shape)
    return _creation("_ones", shape, ctx, dtype, **kwargs)


def full(shape, val, ctx=None, dtype=np.float32, out=None) -> NDArray:
    """An array filled with ``val``."""
    res = _creation("_full", shape, ctx, dtype, value=float(val))
    if out is not None:
        out[:] = res
        return out
    return res


def arange(start, stop=None, step=1.0, repeat=1, infer_range=None, ctx=None, dtype=np.float32):
    """Evenly spaced values in ``[start, stop)`` (each repeated ``repeat`` times)."""
    ctx = _resolve_ctx(ctx)
    return _op_call(
        "_arange",
        [],
        {"start": start, "stop": stop, "step": step, "repeat": repeat, "ctx": ctx, "dtype": dtype},
    )


def waitall() -> None:
    """Wait for all pending work (CUDA streams) to finish.

    Raises the first pending run-time operator failure, if any, and forgets the others
    (MXNet's engine semantics; see :mod:`mxnet._deferred`).
    """
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        torch.cuda.synchronize()
    if _deferred.PENDING[0]:
        _deferred.raise_pending()


def concatenate(arrays, axis: int = 0, always_copy: bool = True) -> NDArray:
    """Join arrays along ``axis``."""
    return _op_call("Concat", list(arrays), {"dim": axis, "num_args": len(arrays)})


def moveaxis(tensor: NDArray, source, destination) -> NDArray:
    """Move axes of an array to new positions (NumPy's ``moveaxis``).

    Examples
    --------
    >>> mx.nd.moveaxis(mx.nd.zeros((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    ndim = tensor.ndim
    src = _axis_tuple(source, ndim, "source")
    dst = _axis_tuple(destination, ndim, "destination")
    if len(src) != len(dst):
        raise ValueError(
            "`source` and `destination` arguments must have the same number of elements"
        )
    order = [n for n in range(ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    t = tensor._t.permute(*order) if order else tensor._t
    return NDArray._wrap(t.contiguous(), tensor._ctx)


def _axis_tuple(axes, ndim: int, argname: str) -> tuple:
    items = [axes] if isinstance(axes, numeric_types) else list(axes)
    out = []
    for ax in items:
        ax = int(ax)
        if not -ndim <= ax < ndim:
            raise ValueError(f"axis {ax} is out of bounds for array of dimension {ndim}")
        out.append(ax % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in `{argname}` argument")
    return tuple(out)


def onehot_encode(indices: NDArray, out: NDArray) -> NDArray:
    """One-hot encode ``indices`` into ``out`` (whose last dim gives the depth)."""
    out[:] = _op_call("_onehot_encode", [indices, out], {})
    return out


def _is_scalar(x) -> bool:
    return isinstance(x, numeric_types) and not isinstance(x, NDArray)
