"""``mx.np.ndarray``: MXNet's NumPy-compatible array, a subclass of NDArray.

It shares NDArray's storage, contexts, autograd and engine semantics, and follows NumPy for
the rest: operators broadcast with NumPy type promotion (``_npi_*`` registry operators),
comparisons give ``bool`` arrays, integer indexing gives 0-d arrays, ``repr`` prints
``array([...])``. The class path ``mxnet.numpy.ndarray`` is MXNet's.
"""

from __future__ import annotations

import numpy as _onp
import torch

from .. import _deferred, _dtype
from .._deferred import PENDING as _PENDING
from .._op._np_arith import NP_TABLE
from .._op._registry import get_op
from ..base import MXNetError, numeric_types
from ..context import Context, current_context
from ..ndarray._invoke import invoke
from ..ndarray.ndarray import NDArray

__all__ = ["ndarray", "np_call", "wrap", "attach_methods", "array", "asarray", "zeros", "ones", "empty", "full",
           "zeros_like", "ones_like", "empty_like", "full_like", "arange"]


def _is_symbol(x) -> bool:
    from ..symbol import Symbol

    return isinstance(x, Symbol)


def _as_np(o):
    if isinstance(o, NDArray) and o.__class__ is not ndarray and o.__class__ is NDArray:
        o.__class__ = ndarray
    return o


def wrap(result):
    """Make the NDArray(s) an operator returned ``mx.np.ndarray`` (same storage)."""
    if isinstance(result, (list, tuple)):
        return type(result)(_as_np(o) for o in result)
    return _as_np(result)


def np_call(opname: str, inputs: list, attrs: dict | None = None, out=None):
    """Run registry operator ``opname``: on arrays it returns ``mx.np.ndarray`` outputs; when
    an input is a Symbol (a hybridized block) it builds ``mx.sym.np`` symbols instead."""
    attrs = attrs or {}
    for x in inputs:
        if _is_symbol(x):
            from ..symbol.numpy import np_symbol_call

            return np_symbol_call(opname, inputs, attrs)
    op = get_op(opname)
    for x in inputs:
        if not isinstance(x, NDArray):
            raise TypeError(f"Operator {opname}: expected mxnet.numpy.ndarray inputs, got "
                            f"{type(x).__name__}")
    if out is not None and not isinstance(out, NDArray):
        raise TypeError(f"Operator {opname}: out must be an mxnet.numpy.ndarray, got "
                        f"{type(out).__name__}")
    return wrap(invoke(op, op.parse_attrs(attrs), list(inputs), out))


def _scalar_attrs(other) -> dict:
    return {"scalar": other, "is_int": isinstance(other, (int, _onp.integer))
            and not isinstance(other, bool)}


class ndarray(NDArray):  # noqa: N801  (MXNet's class name)
    """An array with NumPy semantics on an MXNet context.

    Examples
    --------
    >>> from mxnet import np
    >>> a = np.array([[1, 2], [3, 4]])
    >>> a * 2
    array([[2., 4.],
           [6., 8.]])
    >>> (a > 2).dtype
    dtype('bool')
    """

    __slots__ = ()
    _ARITH = NP_TABLE

    def _arith_call(self, opname, inputs, attrs, out=None):
        return np_call(opname, inputs, attrs, out)

    def _binary(self, kind: str, other, reflected: bool = False, out=None):
        table = self._ARITH[kind]
        if isinstance(other, NDArray):
            ins = [other, self] if reflected else [self, other]
            return np_call(table[0], ins, {}, out)
        if isinstance(other, bool):
            other = int(other)
        if isinstance(other, (numeric_types, _onp.generic)) and not isinstance(
                other, _onp.ndarray):
            return np_call(table[2] if reflected else table[1], [self],
                           _scalar_attrs(other), out)
        raise TypeError(f"type {type(other)} not supported")

    @classmethod
    def _wrap(cls, t: torch.Tensor, ctx: Context) -> ndarray:
        obj = NDArray._wrap.__func__(cls, t, ctx)
        return obj

    def _derived(self, t: torch.Tensor, ctx: Context) -> ndarray:
        return _as_np(NDArray._derived(self, t, ctx))

    # -- NumPy-style attributes -----------------------------------------------------------
    @property
    def dtype(self):
        return _onp.dtype(_dtype.to_numpy_type(self._t.dtype))

    @property
    def device(self) -> Context:
        return self._ctx

    @property
    def T(self) -> ndarray:
        return self.transpose()

    def __neg__(self):
        return np_call("_npi_negative", [self])

    def __abs__(self):
        return np_call("_npi_absolute", [self])

    def __repr__(self) -> str:
        a = self.asnumpy()
        text = _onp.array2string(a, separator=", ", prefix="array(", threshold=a.size + 1)
        if a.dtype in (_onp.float32, _onp.bool_) or a.dtype.kind == "V":
            body = f"array({text})"
        else:
            body = f"array({text}, dtype={a.dtype})"
        if self._ctx.device_type != "cpu":
            body = body[:-1] + f", ctx={self._ctx})"
        return body

    def __str__(self) -> str:
        return str(self.asnumpy())

    def __getitem__(self, key):
        """NumPy indexing: integers drop axes (``a[0, 1]`` is 0-d), slices are views,
        integer and boolean arrays select copies."""
        if _PENDING[0]:
            _deferred.check(self)
        t = self._t[_torch_key(key, self._t.device)]
        return self._derived(t, self._ctx)

    def __setitem__(self, key, value):
        from .._op._state import state

        k = _torch_key(key, self._t.device)
        if isinstance(value, NDArray):
            v = value._t
        elif isinstance(value, (numeric_types, _onp.generic)):
            v = value
        else:
            v = torch.as_tensor(_onp.asarray(value), device=self._t.device)
        if state.is_recording and (self._t.requires_grad or (
                isinstance(v, torch.Tensor) and v.requires_grad)):
            raise MXNetError("Assigning to an array that is part of a recorded computation "
                             "graph is not supported")
        with torch.no_grad():
            self._t[k] = v.to(self._t.dtype) if isinstance(v, torch.Tensor) else v

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __bool__(self) -> bool:
        n = self.size
        if n == 1:
            return bool(self.item())
        if n == 0:
            raise ValueError("The truth value of an empty array is ambiguous.")
        raise ValueError("The truth value of an ndarray with more than one element is "
                         "ambiguous.")

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __array__(self, dtype=None, copy=None):
        a = self.asnumpy()
        return a.astype(dtype) if dtype is not None else a

    def __reduce__(self):
        from ..ndarray._serial import dumps_one

        return (ndarray, (None,), {"handle": bytearray(dumps_one(self))})

    # -- conversion -------------------------------------------------------------------------
    def item(self, *args):
        """The element as a Python scalar (``a.item()`` needs exactly one element)."""
        a = self.asnumpy()
        return a.item(*args)

    def tolist(self):
        return self.asnumpy().tolist()

    def as_nd_ndarray(self) -> NDArray:
        """The same storage as a classic ``mx.nd.NDArray``."""
        return NDArray._wrap(self._t, self._ctx)

    def as_np_ndarray(self) -> ndarray:
        return self

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True) -> ndarray:
        """A copy cast to ``dtype`` (``self`` when ``copy=False`` and nothing changes)."""
        if dtype is None:
            dtype = _onp.float32
        return _as_np(NDArray.astype(self, dtype, copy=copy))

    def copy(self, order="C") -> ndarray:
        return _as_np(NDArray.copy(self))

    def as_in_ctx(self, ctx) -> ndarray:
        return _as_np(NDArray.as_in_context(self, ctx))

    as_in_context = as_in_ctx

    def to_device(self, device) -> ndarray:
        return self.as_in_ctx(device)

    def copyto(self, other):
        return _as_np(NDArray.copyto(self, other))

    def detach(self) -> ndarray:
        return _as_np(NDArray.detach(self))

    # -- shape ------------------------------------------------------------------------------
    def reshape(self, *args, **kwargs) -> ndarray:
        """Reshape with NumPy's rules (one ``-1`` allowed); ``order`` must be 'C'."""
        order = kwargs.pop("order", "C")
        if order != "C":
            raise NotImplementedError("reshape: only order='C' is supported")
        if kwargs:
            raise TypeError(f"reshape() got unexpected keyword arguments {sorted(kwargs)}")
        shape = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        shape = tuple(int(d) for d in shape)
        if sum(1 for d in shape if d == -1) > 1:
            raise ValueError("can only specify one unknown dimension")
        try:
            t = self._t.reshape(shape)
        except RuntimeError:
            raise ValueError(f"cannot reshape array of size {self.size} into shape "
                             f"{shape}") from None
        return self._derived(t, self._ctx)

    def transpose(self, *axes) -> ndarray:
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (list, tuple))):
            axes = axes[0]
        if not axes:
            axes = tuple(range(self.ndim))[::-1]
        return self._derived(self._t.permute(*[int(a) for a in axes]), self._ctx)

    def flatten(self, order="C") -> ndarray:
        """A 1-D copy (NumPy semantics, unlike ``NDArray.flatten``)."""
        return self._derived(self._t.reshape(-1).clone(), self._ctx)

    def ravel(self, order="C") -> ndarray:
        return self._derived(self._t.reshape(-1), self._ctx)

    def squeeze(self, axis=None) -> ndarray:
        t = self._t
        if axis is None:
            return self._derived(t.squeeze(), self._ctx)
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        for a in axes:
            if t.shape[a] != 1:
                raise MXNetError(f"squeeze: cannot select an axis to squeeze out which has "
                                 f"size not equal to one (axis {a}, shape {tuple(t.shape)})")
        return self._derived(t.squeeze(tuple(a % t.dim() for a in axes)), self._ctx)

    def swapaxes(self, axis1, axis2) -> ndarray:
        return self._derived(self._t.transpose(axis1, axis2), self._ctx)

    # -- autograd -----------------------------------------------------------------------------
    @property
    def grad(self):
        g = self._grad
        return _as_np(g) if g is not None else None




def attach_methods(methods: dict) -> None:
    """Install NumPy-semantics methods (``sum``, ``mean``...) on :class:`ndarray`; each is
    a function whose first argument is the array."""
    for name, fn in methods.items():
        setattr(ndarray, name, fn)


def _torch_key(key, device):
    """An index for torch: arrays become tensors (bool masks stay bool)."""
    if isinstance(key, tuple):
        return tuple(_torch_key(k, device) for k in key)
    if isinstance(key, NDArray):
        t = key._t.detach()
        return t if t.dtype == torch.bool else t.to(torch.int64)
    if isinstance(key, _onp.ndarray):
        return torch.from_numpy(key if key.dtype == _onp.bool_ else key.astype(_onp.int64))
    if isinstance(key, list):
        return torch.as_tensor(key, dtype=torch.bool if key and all(
            isinstance(k, bool) for k in key) else torch.int64)
    if isinstance(key, _onp.integer):
        return int(key)
    return key


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
    if isinstance(object, NDArray):
        dt = _dtype.to_torch(dtype) if dtype is not None else object._t.dtype
        t = object._t.detach().to(device=c.torch_device, dtype=dt, copy=True)
        return _wrap_tensor(t, c)
    if isinstance(object, _onp.ndarray):
        a = object if dtype is None else object.astype(_dtype.dtype_name(dtype)
                                                       if not isinstance(dtype, str) else dtype)
    else:
        if dtype is None:
            a = _onp.array(object)
            if a.dtype.kind in "biuf" or a.dtype.kind == "O":
                a = a.astype(_onp.float32) if a.dtype != _onp.float32 else a
        else:
            a = _onp.array(object, dtype=_onp.dtype(_dtype.dtype_name(dtype)))
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


def _filled(shape, value, dtype, ctx, device) -> ndarray:
    c = _ctx(ctx, device)
    dt = _dtype.to_torch(_default_dtype(dtype))
    return _wrap_tensor(torch.full(_shape(shape), value, dtype=dt, device=c.torch_device), c)


def zeros(shape, dtype=None, order="C", ctx=None, device=None) -> ndarray:
    """An array of zeros (float32 unless ``dtype`` is given)."""
    return _filled(shape, 0, dtype, ctx, device)


def ones(shape, dtype=None, order="C", ctx=None, device=None) -> ndarray:
    """An array of ones (float32 unless ``dtype`` is given)."""
    return _filled(shape, 1, dtype, ctx, device)


def empty(shape, dtype=None, order="C", ctx=None, device=None) -> ndarray:
    """An uninitialised array (here: zero-filled) of ``shape``."""
    return _filled(shape, 0, dtype, ctx, device)


def full(shape, fill_value, dtype=None, order="C", ctx=None, device=None,
         out=None) -> ndarray:
    """An array of ``shape`` filled with ``fill_value`` (float32 unless ``dtype`` is given, or
    the dtype of ``fill_value`` when it is an ``mx.np.ndarray``)."""
    if isinstance(fill_value, NDArray):
        dt = dtype if dtype is not None else fill_value.dtype
        res = _filled(shape, 0, dt, ctx, device)
        res._t.copy_(fill_value._t.detach().broadcast_to(res._t.shape))
    else:
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
    return _out(_like(a, 0, dtype, ctx, device), out)


def ones_like(a, dtype=None, order="C", ctx=None, out=None, device=None) -> ndarray:
    """Ones of ``a``'s shape and dtype."""
    return _out(_like(a, 1, dtype, ctx, device), out)


def empty_like(prototype, dtype=None, order="C", subok=False, shape=None, device=None):
    """An uninitialised array (here: zero-filled) like ``prototype``."""
    return _like(prototype, 0, dtype, None, device)


def full_like(a, fill_value, dtype=None, order="C", ctx=None, out=None, device=None):
    """``fill_value`` in ``a``'s shape and dtype."""
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
    if step == 0:
        raise MXNetError("arange: step must not be 0")
    c = _ctx(ctx, device)
    vals = _onp.arange(start, stop, step, dtype=_onp.float64)
    dt = _dtype.to_torch(_default_dtype(dtype))
    t = torch.from_numpy(vals).to(dt)
    return _wrap_tensor(t.to(c.torch_device) if c.torch_device.type != "cpu" else t, c)


ndarray.__module__ = "mxnet.numpy"
