"""NDArray ``__getitem__``/``__setitem__``: basic slices are views, the rest gathers."""

from __future__ import annotations

import numpy as np
import torch

from .._op._state import state
from ..base import MXNetError, numeric_types


def _is_basic(key) -> bool:
    items = key if isinstance(key, tuple) else (key,)
    for k in items:
        if not (isinstance(k, (int, np.integer, slice)) or k is None or k is Ellipsis):
            return False
        if isinstance(k, bool):
            return False
    return True


def _convert_key(key, nd_cls):
    """Turn NDArray/list/NumPy index pieces into torch index tensors."""
    items = key if isinstance(key, tuple) else (key,)
    out = []
    for k in items:
        if isinstance(k, nd_cls):
            t = k._t
            out.append(t if t.dtype == torch.bool else t.long())
        elif isinstance(k, np.ndarray):
            out.append(torch.from_numpy(k.astype(np.int64) if k.dtype != np.bool_ else k))
        elif isinstance(k, (list, range)):
            out.append(torch.as_tensor(np.asarray(k, dtype=np.int64)))
        elif isinstance(k, np.integer):
            out.append(int(k))
        else:
            out.append(k)
    return tuple(out) if isinstance(key, tuple) else out[0]


def _check_bounds(t: torch.Tensor, key) -> None:
    items = key if isinstance(key, tuple) else (key,)
    dim = 0
    for k in items:
        if k is None:
            continue
        if k is Ellipsis:
            dim = t.dim() - sum(1 for x in items[items.index(k) + 1:] if x is not None)
            continue
        if isinstance(k, (int, np.integer)) and not isinstance(k, bool):
            if dim >= t.dim():
                raise IndexError(f"too many indices for array of shape {tuple(t.shape)}")
            n = t.shape[dim]
            if not -n <= k < n:
                raise IndexError(f"index {k} is out of bounds for axis {dim} with size {n}")
        dim += 1
    if dim > t.dim():
        raise IndexError(f"too many indices for array of shape {tuple(t.shape)}")


def getitem(arr, key):
    cls = type(arr)
    t = arr._t
    if _is_basic(key):
        _check_bounds(t, key)
        res = t[key]
        if res.dim() == 0:
            res = res.reshape(1)
        return cls._wrap(res, arr._ctx)
    tkey = _convert_key(key, cls)
    if tkey is not key and not isinstance(tkey, tuple) and isinstance(tkey, torch.Tensor):
        tkey = tkey.to(t.device)
    try:
        res = t[tkey]
    except IndexError as e:
        raise IndexError(f"NDArray indexing with key {key!r} on shape {arr.shape}: {e}") from None
    if res.dim() == 0:
        res = res.reshape(1)
    return cls._wrap(res, arr._ctx)


def _value_tensor(arr, value) -> torch.Tensor | float:
    cls = type(arr)
    if isinstance(value, cls):
        return value._t.to(device=arr._t.device, dtype=arr._t.dtype)
    if isinstance(value, numeric_types):
        return value
    if isinstance(value, (np.ndarray, list, tuple)):
        return torch.as_tensor(np.asarray(value), dtype=arr._t.dtype, device=arr._t.device)
    if isinstance(value, torch.Tensor):
        return value.to(device=arr._t.device, dtype=arr._t.dtype)
    raise TypeError(f"NDArray does not support assignment with value of type {type(value)}")


def setitem(arr, key, value):
    cls = type(arr)
    t = arr._t
    v = _value_tensor(arr, value)
    full = isinstance(key, slice) and key == slice(None)
    if not _is_basic(key):
        key = _convert_key(key, cls)
    else:
        _check_bounds(t, key)
    tracking = state.is_recording and (
        t.requires_grad or (isinstance(v, torch.Tensor) and v.requires_grad))
    if tracking and not t.is_leaf:
        t[key] = v
        return
    with torch.no_grad():
        if full:
            if isinstance(v, torch.Tensor):
                if v.dim() > t.dim() or any(
                        a not in (b, 1) for a, b in zip(v.shape[::-1], t.shape[::-1])):
                    raise MXNetError(f"cannot assign array of shape {tuple(v.shape)} to "
                                     f"NDArray of shape {tuple(t.shape)}")
                t.copy_(v)
            else:
                t.fill_(v)
            return
        try:
            t[key] = v
        except RuntimeError as e:
            raise MXNetError(f"NDArray assignment to key {key!r} of shape {arr.shape}: {e}") \
                from None
