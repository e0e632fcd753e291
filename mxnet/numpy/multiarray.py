"""``mx.np.ndarray``: MXNet's NumPy-compatible array, a subclass of NDArray.

It shares NDArray's storage, contexts, autograd and engine semantics, and follows NumPy for
the rest: operators broadcast with NumPy type promotion (``_npi_*`` registry operators),
comparisons give ``bool`` arrays, integer indexing gives 0-d arrays, ``repr`` prints
``array([...])``. The class path ``mxnet.numpy.ndarray`` is MXNet's.
"""

from __future__ import annotations

import threading
import warnings

import numpy as _onp
import torch

from .. import _deferred, _dtype, _freed, _int_grad
from .._deferred import PENDING as _PENDING
from .._int_grad import ACTIVE as _INT_ACTIVE
from .._op._np_arith import NP_TABLE, NpOperatorsMixin
from .._op._registry import get_op
from ..base import MXNetError, MXNetNotSupportedError, numeric_types
from ..context import Context
from ..ndarray._indexing import ASSIGN_IN_GRAPH, INPLACE_IN_RECORD
from ..ndarray._invoke import invoke
from ..ndarray.ndarray import NDArray, share_grad
from ._interop import array_function, array_ufunc
from ._np_indexing import np_getitem, np_setitem

__all__ = ["ndarray", "np_call", "wrap", "attach_methods", "array", "asarray", "zeros", "ones",
           "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like", "arange"]


_SYMBOL_CLS: list = []


def _is_symbol(x) -> bool:
    if not _SYMBOL_CLS:
        from ..symbol import Symbol

        _SYMBOL_CLS.append(Symbol)
    return isinstance(x, _SYMBOL_CLS[0])


def _as_np(o):
    if isinstance(o, NDArray) and o.__class__ is not ndarray and o.__class__ is NDArray:
        o.__class__ = ndarray
    return o


def wrap(result):
    """Make the NDArray(s) an operator returned ``mx.np.ndarray`` (same storage)."""
    if isinstance(result, (list, tuple)):
        return type(result)(_as_np(o) for o in result)
    return _as_np(result)


class _SymbolicCalls(threading.local):
    """Set while an ``mx.sym.np`` front end without array inputs runs (random samplers with
    scalar parameters): its operators then build symbols instead of computing."""

    on = False


SYMBOLIC = _SymbolicCalls()


def np_call(opname: str, inputs: list, attrs: dict | None = None, out=None):
    """Run registry operator ``opname``: on arrays it returns ``mx.np.ndarray`` outputs; when
    an input is a Symbol (a hybridized block) it builds ``mx.sym.np`` symbols instead."""
    attrs = attrs or {}
    if SYMBOLIC.on or any(_is_symbol(x) for x in inputs):
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


_LEGACY = {"add": "broadcast_add", "sub": "broadcast_sub", "mul": "broadcast_mul",
           "div": "broadcast_div", "mod": "broadcast_mod", "pow": "broadcast_power",
           "eq": "broadcast_equal", "ne": "broadcast_not_equal", "gt": "broadcast_greater",
           "ge": "broadcast_greater_equal", "lt": "broadcast_lesser",
           "le": "broadcast_lesser_equal"}


def _scalar_attrs(other) -> dict:
    return {"scalar": other, "is_int": isinstance(other, (int, _onp.integer))
            and not isinstance(other, bool)}


class ndarray(NpOperatorsMixin, NDArray):  # noqa: N801  (MXNet's class name)
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
    _CLASSIC = False  # refused by classic mx.nd operators

    def _arith_call(self, opname, inputs, attrs, out=None):
        return np_call(opname, inputs, attrs, out)

    def _binary(self, kind: str, other, reflected: bool = False, out=None):
        table = self._ARITH[kind]
        if isinstance(other, NDArray):
            if not isinstance(other, ndarray):
                if reflected:
                    raise TypeError(f"Operator `{_LEGACY[kind]}` is a legacy operator which "
                                    "can only accept legacy ndarrays, while received an MXNet "
                                    "numpy ndarray. Please call `as_nd_ndarray()` upon the "
                                    "numpy ndarray to convert it to a legacy ndarray, and "
                                    "then feed the converted array to this operator.")
                raise TypeError(f"type {type(other)} not supported")
            ins = [other, self] if reflected else [self, other]
            return np_call(table[0], ins, {}, out)
        if isinstance(other, bool):
            other = int(other)
        if isinstance(other, (numeric_types, _onp.generic)) and not isinstance(
                other, _onp.ndarray):
            return np_call(table[2] if reflected else table[1], [self],
                           _scalar_attrs(other), out)
        raise TypeError(f"type {type(other)} not supported")

    def _inplace(self, kind: str, other):
        """``self <op>= other``: the result must keep this array's dtype and shape."""
        from .._op._state import state

        if state.is_recording:
            if self._t.requires_grad:
                raise MXNetError(ASSIGN_IN_GRAPH)
            if isinstance(other, NDArray) and other._t.requires_grad:
                raise MXNetError(INPLACE_IN_RECORD)
        res = self._binary(kind, other)
        if res._t.dtype != self._t.dtype:
            raise MXNetError(f"Type inconsistent, Provided = {self.dtype}, inferred type = "
                             f"{res.dtype}")
        if tuple(res.shape) != tuple(self.shape):
            raise MXNetError(f"Shape inconsistent, Provided = {list(self.shape)}, inferred "
                             f"shape={list(res.shape)}")
        self._assign_tensor(res._t)
        if _PENDING[0]:
            _deferred.carry(res, self)
        return self

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

    __hash__ = NDArray.__hash__

    def __neg__(self):
        return np_call("_npi_negative", [self])

    def __abs__(self):
        return np_call("_npi_absolute", [self])

    def __repr__(self) -> str:
        a = self.asnumpy()
        text = _onp.array2string(a, separator=", ", prefix="array(")
        if a.size == 0 and a.shape != (0,):
            text += f", shape={a.shape}"
        if a.dtype in (_onp.float32, _onp.bool_) or a.dtype.kind == "V":
            body = f"array({text})"
        else:
            body = f"array({text}, dtype={a.dtype})"
        if self._ctx.device_type != "cpu":
            body = body[:-1] + f", ctx={self._ctx})"
        return body

    def __str__(self) -> str:
        text = str(self.asnumpy())
        if self._ctx.device_type != "cpu" and self.ndim:  # MXNet names other devices
            text += f" @{self._ctx}"
        return text

    def __getitem__(self, key):
        """NumPy indexing: integers drop axes (``a[0, 1]`` is 0-d), contiguous basic slices
        are views, integer and boolean arrays select copies."""
        if _PENDING[0]:
            _deferred.check(self)
        if _freed.ANY[0]:
            from .._op._state import state

            if state.is_recording:
                _freed.detach_freed((self,))
        res = np_getitem(self, key)
        if _INT_ACTIVE[0]:
            from .._op._state import state

            if state.is_recording:  # an integer variable's gradient path
                _int_grad.link_with(self, res, lambda a: np_getitem(a, key))
        return res

    def __setitem__(self, key, value):
        np_setitem(self, key, value)
        if _PENDING[0]:
            _deferred.carry(value, self)

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self._t.shape[0]

    def __iter__(self):
        if self.ndim == 0:  # MXNet yields nothing for a 0-d array
            return
        for i in range(self._t.shape[0]):
            yield self[i]

    def __bool__(self) -> bool:
        n = self.size
        if n == 1:
            return bool(self.item())
        if n == 0:  # MXNet 1.9.1 (as NumPy then): False with a DeprecationWarning
            warnings.warn("The truth value of an empty array is ambiguous. Returning False, "
                          "but in future this will result in an error.", DeprecationWarning,
                          stacklevel=2)
            return False
        raise ValueError("The truth value of an ndarray with multiple elements is ambiguous.")

    def __float__(self):
        if self.size != 1:
            raise TypeError("only size-1 arrays can be converted to Python scalars")
        return float(self.item())

    def __int__(self):
        if self.size != 1:
            raise TypeError("only size-1 arrays can be converted to Python scalars")
        return int(self.item())

    def __index__(self) -> int:
        if self.size == 1 and not self._t.is_floating_point():
            return int(self._t.item())
        raise TypeError("only integer scalar arrays can be converted to a scalar index")

    def __format__(self, spec: str) -> str:
        if self.ndim == 0:
            return format(self.item(), spec)
        if not spec:
            return str(self)
        raise TypeError("Cannot format mxnet.numpy.ndarray with format_spec")

    __array_priority__ = 1000.0

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return array_ufunc(self, ufunc, method, *inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return array_function(self, func, types, args, kwargs)

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
        """The same storage (and gradient buffer) as a classic ``mx.nd.NDArray``."""
        res = share_grad(self, NDArray._wrap(self._t, self._ctx))
        for slot in ("_prov", "_exc"):  # autograd provenance, a carried run-time failure
            v = getattr(self, slot, None)
            if v is not None:
                setattr(res, slot, v)
        return res

    def as_np_ndarray(self) -> ndarray:
        return self

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True) -> ndarray:
        """A copy cast to ``dtype`` (``self`` when ``copy=False`` and nothing changes)."""
        if dtype is None:
            dtype = _onp.float32
        return _as_np(NDArray.astype(self, dtype, copy=copy))

    def copy(self, order="C") -> ndarray:
        """A new array with the same values (only ``order='C'`` is supported)."""
        if order != "C":
            raise MXNetNotSupportedError(f"ndarray.copy only supports order='C', while received "
                                      f"{order}")
        return _as_np(NDArray.copy(self))

    def as_in_ctx(self, ctx) -> ndarray:
        return _as_np(NDArray.as_in_context(self, ctx))

    as_in_context = as_in_ctx

    def to_device(self, device) -> ndarray:
        return self.as_in_ctx(device)

    def copyto(self, other):
        """Copy into ``other`` (an ``mx.np`` array) or onto a Context (a new array)."""
        if isinstance(other, NDArray) and not isinstance(other, ndarray):
            raise TypeError(f"copyto does not support type {type(other)}")
        return _as_np(NDArray.copyto(self, other))

    def detach(self) -> ndarray:
        return _as_np(NDArray.detach(self))

    # -- shape ------------------------------------------------------------------------------
    def reshape(self, *args, **kwargs) -> ndarray:
        """Reshape with NumPy's rules (one ``-1`` allowed); ``order`` must be 'C'."""
        order = kwargs.pop("order", "C")
        if order != "C":
            raise MXNetNotSupportedError(f"only supports C-order, while received {order}")
        if kwargs:
            raise TypeError(f"reshape() got unexpected keyword arguments {sorted(kwargs)}")
        if not args:
            raise TypeError("reshape() takes exactly 1 argument (0 given)")
        shape = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        shape = tuple(int(d) for d in shape)
        if sum(1 for d in shape if d == -1) > 1 or any(d < -1 for d in shape):
            raise MXNetError(f"reshape: invalid target shape {shape}: only one -1 is allowed "
                             "and no other negative dimension (use npx.reshape for MXNet's "
                             "special codes)")
        t = self._reshaped(shape)
        if t.data_ptr() == self._t.data_ptr() and t.numel():
            t = t.clone()  # MXNet's np reshape writes a new array (reshape_view shares)
        return self._derived(t, self._ctx)

    def _reshaped(self, shape):
        try:
            return self._t.reshape(shape)
        except RuntimeError:
            raise MXNetError(f"reshape: cannot reshape array of size {self.size} into shape "
                             f"{shape}") from None

    def reshape_view(self, *shape, **kwargs) -> ndarray:
        """A reshaped view sharing this array's memory (the array must be contiguous)."""
        shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (list, tuple)) else shape
        t = self._t
        if not t.is_contiguous():
            raise MXNetError("reshape_view: the array is not contiguous")
        return self._derived(t.view(self._reshaped(tuple(int(d) for d in shape)).shape),
                             self._ctx)

    def transpose(self, *axes) -> ndarray:
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (list, tuple))):
            axes = axes[0]
        if not axes:
            axes = tuple(range(self.ndim))[::-1]
        axes = tuple(int(a) for a in axes)
        if len(axes) != self.ndim or any(not -self.ndim <= a < self.ndim for a in axes):
            raise MXNetError(f"transpose: axes {axes} do not match an array of shape "
                             f"{self.shape}")
        if len({a % self.ndim for a in axes}) != len(axes):
            raise ValueError(f"repeated axis in transpose {axes}")
        # a new array, as MXNet's np transpose (writing to it leaves this one unchanged)
        t = self._t.permute(axes).clone(memory_format=torch.contiguous_format)
        return self._derived(t, self._ctx)

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


# the creation functions need the class above (multiarray is always imported first)
from ._fill import (  # noqa: E402
    arange,
    array,
    asarray,
    empty,
    empty_like,
    full,
    full_like,
    ones,
    ones_like,
    zeros,
    zeros_like,
)

ndarray.__module__ = "mxnet.numpy"
