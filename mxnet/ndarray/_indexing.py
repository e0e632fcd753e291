"""NDArray ``__getitem__``/``__setitem__`` with MXNet 1.x (legacy, non-NumPy) semantics.

- Basic indexing (ints, slices, ``None``, ``...``) returns a **view sharing memory** when the
  selected region is one contiguous block (``a[1]``, ``a[1:3]``, ``a[1, 2:4]``), and a copy
  otherwise (``a[:, 1:]``, ``a[::2]``, negative steps), exactly like MXNet.
- An int index on a 1-D array gives shape ``(1,)``, not a 0-d array.
- Lists, NumPy arrays and NDArrays are advanced (gather) indices and give copies. NumPy
  boolean arrays are read as 0/1 integer indices (MXNet's legacy behaviour); NDArray boolean
  masks raise ``ValueError`` outside NumPy semantics.
"""

from __future__ import annotations

import numpy as np
import torch

from .._op._state import state
from ..base import MXNetError, numeric_types
from ..context import Context
from ..util import _state as _NP_STATE

__all__ = ["getitem", "setitem", "ASSIGN_IN_GRAPH", "INPLACE_IN_RECORD"]

# MXNet's texts carry the failed C++ check in front (as 1.9.1 prints it)
INPLACE_IN_RECORD = (
    "Check failed: AGInfo: :IsNone(*output): "
    "Inplace operations (+=, -=, x[:]=, etc) are not supported when recording with autograd."
)

ASSIGN_IN_GRAPH = (
    "Check failed: AGInfo: :IsNone(*output): "
    "Assigning to NDArrays that are already in a computational graph will cause undefined "
    "behavior when evaluating gradients. Please call backward first to clear the graph or do "
    "this out side of a record section. Also note that you cannot use inplace operations like "
    "+=, *=, relu(x, out=x), y[idx]=x, etc inside a record section."
)

_INT = (int, np.integer)


def _bad_key(piece):
    return ValueError(f"NDArray does not support slicing with key {piece} of type {type(piece)}.")


def _to_index_tensor(k, nd_cls, device) -> torch.Tensor:
    if isinstance(k, nd_cls):
        t = k._t
        if t.dtype == torch.bool:
            raise ValueError(
                "Cannot perform boolean indexing in legacy mode. Please activate "
                "numpy semantics by calling `npx.set_np()` in the global scope "
                "before calling this function."
            )
        t = t.detach()
        t = t if t.dtype == torch.int64 else t.long()
    else:
        arr = np.asarray(k)
        if arr.dtype == object or not (
            np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_
        ):
            raise _bad_key(k)
        t = torch.from_numpy(np.ascontiguousarray(arr.astype(np.int64)))
    return t.to(device) if t.device != device else t


def _normalize(key, t: torch.Tensor, nd_cls):
    """Expand ``key`` into entries; return ``(entries, advanced)``.

    Entries are ints (bounds-checked, made non-negative), slices, ``None`` and index tensors,
    with the Ellipsis expanded into full slices.
    """
    items = key if isinstance(key, tuple) else (key,)
    conv = []
    advanced = False
    for k in items:
        if isinstance(k, bool) or isinstance(k, np.bool_):
            raise _bad_key(k)
        if isinstance(k, _INT) or k is None or k is Ellipsis:
            conv.append(int(k) if isinstance(k, _INT) else k)
        elif isinstance(k, slice):
            if k.step == 0:
                raise ValueError("slice step cannot be zero")
            conv.append(k)
        elif isinstance(k, (nd_cls, np.ndarray, list, tuple, range, torch.Tensor)):
            # a tuple inside the key is an index list, as in MXNet (``x[[1, 2], (2, 3)]``)
            if isinstance(k, torch.Tensor):
                k = k.cpu().numpy()
            conv.append(_to_index_tensor(k, nd_cls, t.device))
            advanced = True
        else:
            raise _bad_key(k)
    if advanced:  # index lists must broadcast together (checked before their bounds)
        shapes = [tuple(k.shape) for k in conv if isinstance(k, torch.Tensor)]
        for other in shapes[1:]:
            try:
                torch.broadcast_shapes(shapes[0], other)
            except RuntimeError:
                raise ValueError(
                    f"shape1={shapes[0]} is not broadcastable to shape2={other}"
                ) from None
    n_ell = sum(1 for k in conv if k is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(1 for k in conv if k is not None and k is not Ellipsis)
    ndim = t.dim()
    if used > ndim:
        raise IndexError(f"too many indices ({used}) for array with {ndim} dimensions")
    if n_ell:
        i = conv.index(Ellipsis)
        conv[i : i + 1] = [slice(None)] * (ndim - used)
    dim = 0
    for i, k in enumerate(conv):
        if k is None:
            continue
        if isinstance(k, int):
            n = t.shape[dim]
            if not -n <= k < n:
                raise IndexError(f"index {k} is out of bounds for axis {dim} with size {n}")
            conv[i] = k + n if k < 0 else k
        elif isinstance(k, torch.Tensor) and k.numel():
            n = t.shape[dim]
            lo, hi = int(k.min()), int(k.max())
            if hi >= n or lo < -n:
                bad = hi if hi >= n else lo
                raise IndexError(f"index {bad} is out of bounds for axis {dim} with size {n}")
        dim += 1
    if advanced:
        # NumPy (and MXNet) count integers among the advanced indices when deciding where
        # the indexed dimensions go (``x[0, :, [1, 2]]`` has shape (2, n)); torch applies
        # integers first, so they become one-element index tensors here
        conv = [torch.tensor([k], device=t.device) if isinstance(k, int) else k for k in conv]
    return conv, advanced


def _positive(s: slice, n: int) -> tuple[slice, bool]:
    """A positive-step slice selecting the same elements (reversed when the flag is set)."""
    if s.step is None or s.step > 0:
        return s, False
    idx = range(*s.indices(n))
    if len(idx) <= 1:  # zero or one element: no reversal, so a view when contiguous
        return (slice(idx[0], idx[0] + 1) if idx else slice(0, 0)), False
    return slice(idx[-1], idx[0] + 1, -s.step), True


def _plan(conv, t: torch.Tensor):
    """Positive-step key, plus the output dims (basic) / input dims to flip."""
    key, out_flips, in_flips = [], [], []
    dim = out = 0
    for k in conv:
        if k is None:
            key.append(None)
            out += 1
            continue
        if isinstance(k, slice):
            k, flip = _positive(k, t.shape[dim])
            if flip:
                out_flips.append(out)
                in_flips.append(dim)
            out += 1
        elif isinstance(k, torch.Tensor):
            out += 1
        key.append(k)
        dim += 1
    return tuple(key), out_flips, in_flips


def _fast_key(key, t: torch.Tensor) -> bool:
    """Whether ``key`` is a plain in-range int or a unit-step slice (the common cases)."""
    kt = type(key)
    if kt is int:
        n = t.shape[0] if t.dim() else 0
        return -n <= key < n
    return kt is slice and (key.step is None or key.step == 1) and t.dim() > 0


def getitem(arr, key):
    cls = type(arr)
    t = arr._t
    if t.requires_grad and not state.is_recording:
        t = t.detach()  # outside record(): no graph (the view still shares memory)
    if _fast_key(key, t):
        res = t[key]
        if res.dim() == 0:
            if not _NP_STATE.shape:  # MXNet: a 0-d result is (1,) unless np_shape is on
                res = res.reshape(1)
        elif not res.is_contiguous():
            res = res.contiguous()
        return cls._wrap(res, arr._ctx)
    conv, advanced = _normalize(key, t, cls)
    tkey, out_flips, in_flips = _plan(conv, t)
    if advanced:
        src = t
        if in_flips:
            src = src.flip(in_flips)
            tkey = tuple(
                _flip_slice(k, src.shape[d]) if d in in_flips else k for d, k in _with_dims(tkey)
            )
        res = src[tkey]
        mx_shape = _new_axes_shape(conv, res.shape)
        if mx_shape is not None:
            res = res.reshape(mx_shape)
    else:
        res = t[tkey]
        if out_flips:
            res = res.flip(out_flips)
        elif not res.is_contiguous():
            res = res.contiguous()
    if res.dim() == 0 and not _NP_STATE.shape:
        res = res.reshape(1)
    ctx = arr._ctx
    if (
        ctx.device_typeid in (3, 5)
        and res.untyped_storage().data_ptr() != t.untyped_storage().data_ptr()
    ):
        ctx = _CPU0  # MXNet: an indexing copy is an op's output, on cpu(0); views keep the context
    return cls._wrap(res, ctx)


def _new_axes_shape(conv, np_shape) -> tuple | None:
    """MXNet 1.9.1's result shape when ``None`` entries follow adjacent advanced indices.

    NumPy keeps each new axis where it stands in the key; MXNet places it at its key
    position minus the number of advanced indices before it (``x[[1, 2], None]`` has shape
    ``(1, 2, ...)``). Only size-1 axes move, so a reshape gives MXNet's layout. ``None``
    when both agree (no new axis after the first advanced index, or indices not adjacent).
    """
    adv = [i for i, k in enumerate(conv) if isinstance(k, torch.Tensor)]
    if not adv or adv != list(range(adv[0], adv[-1] + 1)):
        return None
    news = [i for i, k in enumerate(conv) if k is None]
    if not any(i > adv[0] for i in news):
        return None
    bdim = len(torch.broadcast_shapes(*[tuple(conv[i].shape) for i in adv]))
    base, pos = list(np_shape), 0
    drop = []
    for i, k in enumerate(conv):  # NumPy's position of each new axis in the result
        if k is None:
            drop.append(pos)
            pos += 1
        elif isinstance(k, slice):
            pos += 1
        elif i == adv[0]:
            pos += bdim
    for p in reversed(drop):
        del base[p]
    for i in news:
        base.insert(i - sum(1 for a in adv if a < i), 1)
    return tuple(base)


def _with_dims(tkey):
    dim = 0
    for k in tkey:
        yield (dim if k is not None else -1), k
        if k is not None:
            dim += 1


def _flip_slice(s: slice, n: int) -> slice:
    """``s`` (positive step, selecting in reverse) re-expressed on the flipped axis."""
    start, stop, step = s.indices(n)
    idx = range(start, stop, step)
    if not idx:
        return slice(0, 0)
    return slice(n - 1 - idx[-1], n - idx[0], step)


def _value(arr, value):
    cls = type(arr)
    t = arr._t
    if isinstance(value, cls):
        v = value._t
        if v.device != t.device:
            v = v.to(t.device)
        return v if v.dtype == t.dtype else v.to(t.dtype)
    if isinstance(value, numeric_types):
        return value
    if isinstance(value, (np.ndarray, np.generic, list, tuple)):
        a = np.asarray(value)
        if a.dtype == object:
            raise TypeError(f"NDArray does not support assignment with {value!r}")
        return torch.as_tensor(a, device=t.device).to(t.dtype)
    if isinstance(value, torch.Tensor):
        return value.to(device=t.device, dtype=t.dtype)
    raise TypeError(f"NDArray does not support assignment with value of type {type(value)}")


def _check_broadcast(vshape, tshape) -> None:
    ok = len(vshape) <= len(tshape) and all(a in (b, 1) for a, b in zip(vshape[::-1], tshape[::-1]))
    if not ok:
        raise ValueError(
            "operands could not be broadcast together with remapped "
            f"shapes[original->remapped]: {tuple(vshape)} and requested shape "
            f"{tuple(tshape)}"
        )


_CPU0 = Context("cpu", 0)

# count of writes made around torch's version counter (setitem outside recording,
# Parameter.set_data): caches keyed on tensor versions include it
UNTRACKED_WRITES = [0]


def setitem(arr, key, value):
    cls = type(arr)
    t = arr._t
    v = _value(arr, value)
    if t.dim() == 0 and (key is Ellipsis or (isinstance(key, slice) and key == slice(None))):
        key = Ellipsis  # x[:] = v on a 0-d array writes its one element
    if key is Ellipsis and t.dim() == 0:
        UNTRACKED_WRITES[0] += 1
        with torch.no_grad():
            td = t.data  # see the note at the end of this function
            if isinstance(v, torch.Tensor):
                td.copy_(v.reshape(()) if v.numel() == 1 else v)
            else:
                td.fill_(v)
        return
    if _fast_key(key, t):
        tkey, out_flips, in_flips, advanced = (key,), (), (), False
    else:
        conv, advanced = _normalize(key, t, cls)
        tkey, out_flips, in_flips = _plan(conv, t)
    if state.is_recording and t.requires_grad:
        raise MXNetError(ASSIGN_IN_GRAPH)
    tracking = state.is_recording and isinstance(v, torch.Tensor) and v.requires_grad
    if tracking and not (key is Ellipsis or (isinstance(key, slice) and key == slice(None))):
        raise MXNetError(INPLACE_IN_RECORD)  # MXNet records only whole-array assignment
    if advanced:
        if in_flips:  # index the flipped array, as getitem does; written back below
            tkey = tuple(
                _flip_slice(k, t.shape[d]) if d in in_flips else k for d, k in _with_dims(tkey)
            )
        target_shape = t[tkey].shape if isinstance(v, torch.Tensor) else None
        mx_shape = _new_axes_shape(conv, target_shape) if target_shape is not None else None
        if mx_shape is not None:  # the value lines up with MXNet's layout of x[key]
            extra = v.dim() - len(mx_shape)
            if extra > 0 and all(d == 1 for d in v.shape[:extra]):
                v = v.reshape(v.shape[extra:])
            _check_broadcast(tuple(v.shape), mx_shape)
            v = v.broadcast_to(mx_shape).reshape(target_shape)
    else:
        target_shape = t[tkey].shape
    if isinstance(v, torch.Tensor):
        extra = v.dim() - len(target_shape)
        if extra > 0 and all(d == 1 for d in v.shape[:extra]):
            v = v.reshape(v.shape[extra:])  # leading size-1 axes of the value are dropped
        _check_broadcast(tuple(v.shape), tuple(target_shape))
        if out_flips and not advanced:  # advanced keys index the flipped array instead
            v = v.broadcast_to(target_shape).flip(out_flips)
    if tracking:  # the target joins the graph (MXNet records the assignment)
        if tkey:
            t[tkey] = v
        else:
            t.copy_(v)
        return
    # MXNet semantics of a write outside recording: the array's memory changes and a later
    # backward through a graph that read the array sees the new value (MXNet reads memory,
    # torch would refuse: its version check). So the write goes through ``.data``; caches
    # keyed on torch versions also watch UNTRACKED_WRITES.
    UNTRACKED_WRITES[0] += 1
    td = t.data
    with torch.no_grad():
        if advanced:
            if in_flips:  # torch's flip copies: assign into the copy, then write it back
                flipped = td.flip(in_flips)
                flipped[tkey] = v
                td.copy_(flipped.flip(in_flips))
            else:
                td[tkey] = v
            return
        view = td[tkey] if tkey else td
        if isinstance(v, torch.Tensor):
            view.copy_(v)
        else:
            view.fill_(v)


def basic_slice_is_contiguous(key, shape) -> bool:
    """Whether ``x[key]`` of a C-contiguous array of ``shape`` is C-contiguous too.

    ``key`` is a tuple of ints and slices (MXNet's basic indexing).
    """
    if not isinstance(key, tuple):
        key = (key,)
    strides = [1] * len(shape)
    for ax in range(len(shape) - 2, -1, -1):
        strides[ax] = strides[ax + 1] * shape[ax + 1]
    dims = []
    for ax, n in enumerate(shape):
        k = key[ax] if ax < len(key) else slice(None)
        if isinstance(k, slice):
            start, stop, step = k.indices(n)
            dims.append((len(range(start, stop, step)), strides[ax] * step))
        elif not isinstance(k, _INT):
            raise TypeError(f"basic indexing takes ints and slices, got {type(k).__name__}")
    if any(n == 0 for n, _ in dims):
        return True
    expected = 1
    for n, st in reversed(dims):
        if n != 1:
            if st != expected:
                return False
            expected *= n
    return True
