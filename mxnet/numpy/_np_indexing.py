"""``mx.np.ndarray`` indexing with NumPy semantics, on torch tensors.

- Integers drop axes (``a[0, 1]`` is 0-d); ``None`` adds one; ``...`` fills the rest.
- Basic indexing (ints, slices, ``None``, ``...``) returns a view sharing memory when the
  selection is contiguous, a copy otherwise (negative steps, strided slices), as MXNet does.
- Lists, tuples nested in the key, ranges, NumPy arrays and ``mx.np`` arrays are advanced
  indices (integer or boolean), combined by NumPy's rules; they give copies.
- Assignment broadcasts the value (leading size-1 axes of the value are dropped).
"""

from __future__ import annotations

import numpy as _onp
import torch

from .._op._state import state
from ..base import MXNetError, numeric_types
from ..ndarray._indexing import ASSIGN_IN_GRAPH, INPLACE_IN_RECORD
from ..ndarray.ndarray import NDArray

__all__ = ["np_getitem", "np_setitem"]

_INT = (int, _onp.integer)


def _bad(piece):
    return IndexError(
        f"only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
        f"and integer or boolean arrays are valid indices (got "
        f"{type(piece).__name__} {piece!r})"
    )


def _slice_int(v):
    if v is None or isinstance(v, int):
        return v
    if isinstance(v, _onp.integer):
        return int(v)
    if isinstance(v, NDArray) and v.size == 1 and not v._t.is_floating_point():
        return int(v._t.item())
    raise TypeError("slice indices must be integers or None")


def _array_index(k, device) -> torch.Tensor:
    if isinstance(k, NDArray):
        t = k._t.detach()
    else:
        a = _onp.asarray(k)
        if a.dtype == object:
            raise _bad(k)
        if a.size == 0 and a.dtype.kind == "f":  # [] indexes nothing
            a = a.astype(_onp.int64)
        if a.dtype.kind not in "biuf":
            raise _bad(k)
        t = torch.from_numpy(_onp.ascontiguousarray(a))
    if t.dtype != torch.bool:  # float index arrays (mx.np's default dtype) are truncated
        t = t.to(torch.int64)
    return t.to(device) if t.device != device else t


def _entries(key, t: torch.Tensor) -> list:
    """The key as a list of int / slice / None / index tensor, Ellipsis expanded."""
    if isinstance(key, tuple):
        items = list(key)
    else:
        items = [key]
    conv = []
    for k in items:
        if isinstance(k, (bool, _onp.bool_)):
            conv.append(torch.tensor(bool(k), device=t.device))
        elif isinstance(k, _INT):
            conv.append(int(k))
        elif k is None or k is Ellipsis:
            conv.append(k)
        elif isinstance(k, torch.Tensor):
            conv.append(k)
        elif isinstance(k, slice):
            s = slice(_slice_int(k.start), _slice_int(k.stop), _slice_int(k.step))
            if s.step == 0:
                raise ValueError("slice step cannot be zero")
            conv.append(s)
        elif isinstance(k, (NDArray, _onp.ndarray, list, tuple, range)):
            if isinstance(k, NDArray) and k.ndim == 0 and k._t.dtype != torch.bool:
                conv.append(int(k._t.item()))  # MXNet: any 0-d array is an integer (truncated)
            else:
                conv.append(_array_index(k, t.device))
        elif isinstance(k, float):
            raise ValueError(f"NDArray does not support slicing with key {k} of type {type(k)}.")
        else:
            raise ValueError(f"NDArray does not support slicing with key {k} of type {type(k)}.")
    n_ell = sum(1 for k in conv if k is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(
        k.dim() if isinstance(k, torch.Tensor) and k.dtype == torch.bool else 1
        for k in conv
        if k is not None and k is not Ellipsis
    )
    if used > t.dim():
        raise IndexError(f"too many indices ({used}) for array with {t.dim()} dimensions")
    if n_ell:
        i = conv.index(Ellipsis)
        conv[i : i + 1] = [slice(None)] * (t.dim() - used)
    dim = 0
    for k in conv:  # bounds and mask shapes, with NumPy's messages
        if k is None:
            continue
        if isinstance(k, int):
            n = t.shape[dim]
            if not -n <= k < n:
                raise IndexError(f"index {k} is out of bounds for axis {dim} with size {n}")
        elif isinstance(k, torch.Tensor) and k.dtype == torch.bool:
            want = tuple(t.shape[dim : dim + k.dim()])
            if k.dim() and tuple(k.shape) != want:
                raise IndexError(
                    f"boolean index did not match indexed array along dimension "
                    f"{dim}; dimension is {want[0] if want else 0} but "
                    f"corresponding boolean dimension is {k.shape[0]}"
                )
            dim += k.dim()
            continue
        elif isinstance(k, torch.Tensor) and k.numel():
            n = t.shape[dim]
            lo, hi = int(k.min()), int(k.max())
            if hi >= n or lo < -n:
                raise IndexError(
                    f"index {hi if hi >= n else lo} is out of bounds for axis {dim} with size {n}"
                )
        dim += 1
    return conv


def _flip_negative(conv: list, t: torch.Tensor):
    """Rewrite negative-step slices as positive ones on a flipped source."""
    flips, out = [], []
    dim = 0
    for k in conv:
        if k is None:
            out.append(k)
            continue
        if isinstance(k, slice) and k.step is not None and k.step < 0:
            n = t.shape[dim]
            idx = range(*k.indices(n))
            flips.append(dim)
            out.append(slice(n - 1 - idx[0], n - idx[-1], -k.step) if idx else slice(0, 0))
        else:
            out.append(k)
        dim += k.dim() if isinstance(k, torch.Tensor) and k.dtype == torch.bool else 1
    return (t.flip(flips) if flips else t), tuple(out), bool(flips)


def _select(t: torch.Tensor, key):
    conv = _entries(key, t)
    src, tkey, flipped = _flip_negative(conv, t)
    advanced = any(isinstance(k, torch.Tensor) for k in tkey)
    res = src[tkey] if tkey else src[()]
    return res, (advanced or flipped)


def np_getitem(arr, key):
    """``arr[key]`` with NumPy semantics; returns an array of ``arr``'s class."""
    t = arr._t
    if t.requires_grad and not state.is_recording:
        t = t.detach()
    kt = type(key)
    if t.dim() and (
        (kt is int and -t.shape[0] <= key < t.shape[0])
        or (
            kt is slice
            and key.step in (None, 1)
            and type(key.start) in (int, type(None))
            and type(key.stop) in (int, type(None))
        )
    ):
        return arr._derived(t[key], arr._ctx)  # the common cases: a contiguous view
    if t.dim() == 0 and not (isinstance(key, tuple) and key == ()):
        if key is Ellipsis or key is None:
            raise IndexError("scalar tensor can only accept `()` as index")
    res, copied = _select(t, key)
    if not copied and not res.is_contiguous():
        res = res.contiguous()
    return arr._derived(res, arr._ctx)


def _value_tensor(arr, value) -> torch.Tensor | bool | int | float:
    t = arr._t
    if isinstance(value, NDArray):
        if type(value) is NDArray:
            raise TypeError("Cannot assign mx.nd.NDArray to mxnet.numpy.ndarray")
        v = value._t
        if v.device != t.device:
            v = v.to(t.device)
        return v if v.dtype == t.dtype or v.requires_grad else v.to(t.dtype)
    if isinstance(value, numeric_types) and not isinstance(value, _onp.ndarray):
        return value
    a = _onp.asarray(value)
    if a.dtype == object:
        raise TypeError(f"mxnet.numpy.ndarray does not support assignment with {value!r}")
    return torch.from_numpy(_onp.ascontiguousarray(a)).to(device=t.device, dtype=t.dtype)


def _is_whole(key) -> bool:
    return key is Ellipsis or (isinstance(key, slice) and key == slice(None))


def np_setitem(arr, key, value) -> None:
    """``arr[key] = value`` with NumPy semantics (in place)."""
    t = arr._t
    if t.dim() == 0 and (key is Ellipsis or key is None):
        raise IndexError("scalar tensor can only accept `()` as index")
    v = _value_tensor(arr, value)
    tracking = state.is_recording and isinstance(v, torch.Tensor) and v.requires_grad
    if state.is_recording and t.requires_grad:
        raise MXNetError(ASSIGN_IN_GRAPH)
    if tracking and not (_is_whole(key) and t.is_floating_point()):
        raise MXNetError(INPLACE_IN_RECORD)
    conv = _entries(key, t)
    flips = any(isinstance(k, slice) and k.step is not None and k.step < 0 for k in conv)
    shape = _select(t.detach(), tuple(conv))[0].shape
    if isinstance(v, torch.Tensor):
        if not tracking and v.dtype != t.dtype:
            v = v.detach().to(t.dtype)
        while v.dim() > len(shape) and v.shape[0] == 1:
            v = v[0]
        v = _broadcast(v, shape, t)
    if tracking:
        t.copy_(v)
        return
    with torch.no_grad():
        if not flips:
            t[tuple(conv)] = v
            return
        if not t.is_contiguous():
            raise MXNetError(
                "mxnet.numpy.ndarray: assignment with negative slice steps into "
                "a non-contiguous view is not supported"
            )
        ids = torch.arange(t.numel(), device=t.device).reshape(t.shape)
        sel = _select(ids, tuple(conv))[0].reshape(-1)
        t.view(-1)[sel] = _broadcast(v, shape, t).reshape(-1)


def _broadcast(v, shape, t: torch.Tensor) -> torch.Tensor:
    if not isinstance(v, torch.Tensor):
        return torch.full(tuple(shape), v, dtype=t.dtype, device=t.device)
    try:
        return v.broadcast_to(tuple(shape))
    except RuntimeError:
        raise ValueError(
            f"could not broadcast input array from shape {tuple(v.shape)} into shape {tuple(shape)}"
        ) from None
