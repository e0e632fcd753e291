"""The NDArray: an MXNet n-dimensional array over a torch tensor.

The class path ``mxnet.ndarray.ndarray.NDArray`` is part of the file formats (pickles and
``.states`` files name it); keep it.
"""

from __future__ import annotations

import ctypes
import math
import weakref

import numpy as np
import torch

from .. import _deferred, _dtype, _freed, _int_grad
from .._deferred import PENDING as _PENDING
from .._freed import ANY as _FREED_ANY
from .._int_grad import ACTIVE as _INT_ACTIVE
from .._op._arith import NDARRAY_TABLE, ArithMixin
from .._op._registry import get_op
from .._op._state import state
from ..base import MXNetError
from ..context import Context
from . import _invoke
from ._indexing import (
    ASSIGN_IN_GRAPH,
    INPLACE_IN_RECORD,
    basic_slice_is_contiguous,
    getitem,
    setitem,
)
from ._invoke import invoke

__all__ = [
    "NDArray",
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

# storage-type ids as MXNet's C API numbers them (tests and Symbol attrs use these)
_STORAGE_TYPE_UNDEFINED = -1
_STORAGE_TYPE_DEFAULT = 0
_STORAGE_TYPE_ROW_SPARSE = 1
_STORAGE_TYPE_CSR = 2
_STORAGE_TYPE_STR_TO_ID = {"undefined": -1, "default": 0, "row_sparse": 1, "csr": 2}
_STORAGE_TYPE_ID_TO_STR = {v: k for k, v in _STORAGE_TYPE_STR_TO_ID.items()}
_GRAD_REQ_MAP = {"null": 0, "write": 1, "add": 3}

# MXNet hands monitor / op-hook callbacks a C handle that user code turns back into an array
# with ``NDArray(ctypes.cast(arr, NDArrayHandle))``; our arrays stand in for that handle
# (``_as_parameter_``) and are found again here by its integer value.
_HANDLES: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
# MXNet 1.9.1's public-by-use dtype tables (NumPy type class <-> mshadow type code); custom
# operators and third-party code import them from here
_DTYPE_NP_TO_MX = {None: -1}
_DTYPE_NP_TO_MX.update(
    {
        (np.dtype(_dtype.CODE_TO_NAME[c]).type if c != 12 else _dtype.bfloat16): c
        for c in (0, 1, 2, 3, 4, 5, 6, 7, 12)
    }
)
_DTYPE_MX_TO_NP = {v: k for k, v in _DTYPE_NP_TO_MX.items()}
py_slice = slice  # MXNet keeps the builtin under this name (ndarray shadows `slice`)


def _op_call(opname: str, inputs: list, kwargs: dict, out=None):
    op = get_op(opname)
    return invoke(op, op.parse_attrs(kwargs), inputs, out)


def _plain_target_size(dims: tuple, src: tuple) -> int | None:
    """Element count of a reshape target made of sizes, 0 (copy) and one -1 (inferred by
    floor division, as MXNet's NDArray.reshape); None for other special codes."""
    known, infer = 1, False
    for i, d in enumerate(dims):
        if not isinstance(d, int) or d < -1 or (d == -1 and infer):
            return None
        if d == -1:
            infer = True
        elif d == 0:
            if i >= len(src):
                return None
            known *= src[i]
        else:
            known *= d
    if infer:
        total = math.prod(src)
        return known * (total // known) if known else None
    return known


def _shp(dims) -> str:
    """``(2,3)``: a shape as MXNet's messages print it."""
    return "(" + ",".join(str(d) for d in dims) + ")"


def share_grad(src: NDArray, dst: NDArray) -> NDArray:
    """``dst``, another wrapper of ``src``'s storage, sharing its gradient buffer (MXNet's
    ``as_np_ndarray``/``as_nd_ndarray`` wrap one handle, so ``.grad`` is the same)."""
    if src._marked:
        g = src._grad
        if g is not None and getattr(g, "_sdata", None) is None:
            g = type(dst)._wrap(g._t, g._ctx)
        dst._grad = g
        dst._grad_req = src._grad_req
        dst._marked = True
        dst._fresh = src._fresh
    return dst


class NDArray(ArithMixin):
    """An array with a fixed shape and dtype on a :class:`~mxnet.context.Context`.

    Arithmetic broadcasts; basic slices are views sharing memory.

    Examples
    --------
    >>> import mxnet as mx
    >>> a = mx.nd.ones((2, 3))
    >>> (a * 2).asnumpy()
    array([[2., 2., 2.],
           [2., 2., 2.]], dtype=float32)
    >>> b = a[1:2]
    >>> b[:] = 0
    >>> a.sum().asscalar()
    3.0
    """

    # _prov: (op, attrs, inputs, output index) of an array made while autograd records;
    # _exc: the run-time failure it carries (mxnet._deferred), set only when there is one
    __slots__ = (
        "_t",
        "_ctx",
        "_grad",
        "_grad_req",
        "_marked",
        "_fresh",
        "_on_grad",
        "_prov",
        "_exc",
        "__weakref__",
    )
    __array_priority__ = 1000.0
    __array_ufunc__ = None  # NumPy operators defer to NDArray's (MXNet raises TypeError)
    _ARITH = NDARRAY_TABLE
    _CLASSIC = True  # classic mx.nd operators take it (mx.np arrays are refused)

    def _arith_call(self, opname, inputs, attrs, out=None):
        return _op_call(opname, inputs, attrs, out)

    def _inplace(self, kind, other):
        if state.is_recording:
            if self._t.requires_grad:
                raise MXNetError(ASSIGN_IN_GRAPH)
            if isinstance(other, NDArray) and other._t.requires_grad:
                raise MXNetError(INPLACE_IN_RECORD)
        res = self._binary(kind, other)
        if res is NotImplemented:
            return res
        self._assign_tensor(res._t)
        if _PENDING[0]:
            _deferred.carry(res, self)
        return self

    def __iadd__(self, o):
        return self._inplace("add", o)

    def __isub__(self, o):
        return self._inplace("sub", o)

    def __imul__(self, o):
        return self._inplace("mul", o)

    def __itruediv__(self, o):
        return self._inplace("div", o)

    __idiv__ = __itruediv__

    def __imod__(self, o):
        return self._inplace("mod", o)

    def __init__(self, handle=None, writable=True):
        src = _from_handle(handle)
        if src is not None:  # another array (or its ctypes handle): share its memory
            handle = src._t
        elif handle is not None and not isinstance(handle, torch.Tensor):
            raise MXNetError("NDArray(handle): handle must be a torch.Tensor")
        self._t = handle if handle is not None else torch.empty(0)
        dev = self._t.device
        if src is not None:
            self._ctx = src._ctx
        else:
            self._ctx = Context("gpu", dev.index or 0) if dev.type == "cuda" else Context("cpu", 0)
        self._grad = None
        self._grad_req = "null"
        self._marked = False
        self._fresh = 0

    @classmethod
    def _wrap(cls, t: torch.Tensor, ctx: Context) -> NDArray:
        obj = object.__new__(cls)
        obj._t = t
        obj._ctx = ctx
        obj._grad = None
        obj._grad_req = "null"
        obj._marked = False
        obj._fresh = 0
        return obj

    # -- properties -------------------------------------------------------------------
    @property
    def _as_parameter_(self) -> int:
        """The integer ctypes sees for this array (``ctypes.cast(arr, NDArrayHandle)``)."""
        _HANDLES[id(self)] = self
        return id(self)

    @property
    def handle(self) -> torch.Tensor:
        """The underlying torch tensor (shares memory)."""
        return self._t

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._t.shape)

    @property
    def size(self) -> int:
        return self._t.numel()

    @property
    def ndim(self) -> int:
        return self._t.dim()

    @property
    def dtype(self):
        return _dtype.to_numpy_type(self._t.dtype)

    @property
    def context(self) -> Context:
        return self._ctx

    ctx = context

    @property
    def stype(self) -> str:
        return "default"

    @property
    def writable(self) -> bool:
        return True

    @property
    def T(self) -> NDArray:
        """All axes reversed (a copy); ``self`` itself when ``ndim < 2``."""
        if self.ndim < 2:
            return self
        return self.transpose()

    @property
    def grad(self) -> NDArray | None:
        """The gradient buffer attached by :meth:`attach_grad` (``None`` before)."""
        return self._grad

    @property
    def _fresh_grad(self) -> int:
        """1 when ``backward`` wrote this variable's gradient since the flag was cleared."""
        return self._fresh

    @_fresh_grad.setter
    def _fresh_grad(self, value) -> None:
        self._fresh = int(bool(value))

    # -- conversion -------------------------------------------------------------------
    def asnumpy(self) -> np.ndarray:
        """Copy to a NumPy array (a synchronisation point)."""
        if _PENDING[0]:
            _deferred.check(self)
        t = self._t.detach()
        if t.dtype == torch.bfloat16:
            return (
                t.view(torch.int16)
                .cpu()
                .numpy()
                .view(np.uint16)
                .astype(np.uint16)
                .view(_dtype.bfloat16)
            )
        if t.device.type != "cpu":
            return t.cpu().numpy()
        return t.numpy().copy()

    def asscalar(self):
        """The value of a one-element array as a NumPy scalar.

        Examples
        --------
        >>> mx.nd.array([2.5]).asscalar()
        2.5
        """
        if self.size != 1:
            raise ValueError("The current array is not a scalar")
        return self.asnumpy().reshape(())[()]

    def astype(self, dtype, copy: bool = True) -> NDArray:
        """A copy cast to ``dtype`` (``self`` itself when ``copy=False`` and no cast is needed).

        Examples
        --------
        >>> mx.nd.array([1.7]).astype('int32').asnumpy().tolist()
        [1]
        """
        td = _dtype.to_torch(dtype)
        if td == self._t.dtype:
            if not copy:
                return self
            return self.copy()
        if _FREED_ANY[0] and state.is_recording:
            _freed.detach_freed((self,))
        t = self._t
        if state.is_recording and not t.requires_grad and _INT_ACTIVE[0]:
            t = _int_grad.shadow(t) if td.is_floating_point else None
            if t is not None:  # an integer variable's gradient path
                return self._derived(self._t.to(td) + (t - t.detach()).to(td), self._ctx)
            t = self._t
        if state.is_recording and t.requires_grad:
            if td.is_floating_point:
                return self._derived(t.to(td), self._ctx)
            if td != torch.bool:  # MXNet differentiates casts to integers too
                return self._derived(_int_grad.shadowed(t.detach().to(td), t), self._ctx)
        with torch.no_grad():
            return self._derived(t.detach().to(td), self._ctx)

    def copy(self) -> NDArray:
        return self.copyto(self._ctx)

    def copyto(self, other):
        """Copy into ``other`` (an NDArray, filled in place) or onto a Context (new array)."""
        if isinstance(other, NDArray):
            if other is self:
                return self
            if other.shape != self.shape:
                raise MXNetError(
                    f"copyto: shape mismatch: source {self.shape} vs target "
                    f"{other.shape} (operator _copyto)"
                )
            other._assign_tensor(self._t)
            if _PENDING[0]:
                _deferred.carry(self, other)
            return other
        if isinstance(other, Context):
            if _FREED_ANY[0] and state.is_recording:
                _freed.detach_freed((self,))
            t = self._t
            if state.is_recording and t.requires_grad:
                return self._derived(t.to(other.torch_device, copy=True), other)
            return self._derived(t.detach().to(other.torch_device, copy=True), other)
        raise TypeError(f"copyto does not support type {type(other)}")

    def as_in_context(self, context: Context) -> NDArray:
        if context == self._ctx:
            return self
        return self.copyto(context)

    as_in_ctx = as_in_context

    def as_nd_ndarray(self) -> NDArray:
        return self

    def as_np_ndarray(self):
        """The same storage as an ``mx.np.ndarray`` (MXNet's NumPy interface)."""
        from ..numpy import ndarray as np_ndarray

        return share_grad(self, np_ndarray._wrap(self._t, self._ctx))

    def tostype(self, stype: str) -> NDArray:
        """A copy stored as ``stype``: 'default', 'csr' (2-D) or 'row_sparse'."""
        if stype == "default":
            return self.copy()
        if stype == "csr" and len(self.shape) != 2:  # MXNet checks this in Python: ValueError
            raise ValueError(
                "To convert to a CSR, the NDArray should be 2 Dimensional. "
                f"Current shape is {self.shape}"
            )
        from ._sparse_ops import to_sparse

        res = _deferred.carried(self, to_sparse(self._t.detach(), stype, self._ctx))
        if state.is_recording and self._t.requires_grad:  # cast_storage is differentiable
            res._leaf = self._t.clone()
        return res

    def slice_assign(self, rhs, begin, end, step) -> NDArray:
        """Assign ``rhs`` to ``self[begin:end:step]`` per axis, in place; return ``self``.

        Examples
        --------
        >>> a = mx.nd.zeros((2, 3))
        >>> a.slice_assign(mx.nd.ones((1, 2)), (0, 1), (1, 3), (None, None)).asnumpy()[0]
        array([0., 1., 1.], dtype=float32)
        """
        self[_slice_key(begin, end, step)] = rhs
        return self

    def slice_assign_scalar(self, value, begin, end, step) -> NDArray:
        """Assign the scalar ``value`` to ``self[begin:end:step]`` in place; return ``self``."""
        self[_slice_key(begin, end, step)] = float(value)
        return self

    def wait_to_read(self) -> None:
        if _PENDING[0]:
            _deferred.check(self)
        if self._t.device.type == "cuda":
            torch.cuda.synchronize(self._t.device)

    wait_to_write = wait_to_read

    def detach(self) -> NDArray:
        return self._derived(self._t.detach(), self._ctx)

    def _derived(self, t: torch.Tensor, ctx: Context) -> NDArray:
        """Wrap ``t`` (a view or copy of this array) carrying any run-time failure of ours."""
        o = NDArray._wrap(t, ctx)
        if _PENDING[0]:
            _deferred.carry(self, o)
        return o

    def _assign_tensor(self, t: torch.Tensor) -> None:
        """Write ``t`` into this array's memory (out= semantics)."""
        dst = self._t
        if tuple(t.shape) != tuple(dst.shape):
            try:
                t = t.broadcast_to(dst.shape)
            except RuntimeError:
                raise MXNetError(
                    f"cannot write an array of shape {tuple(t.shape)} into an "
                    f"NDArray of shape {tuple(dst.shape)}"
                ) from None
        if state.is_recording:
            if dst.requires_grad:
                raise MXNetError(ASSIGN_IN_GRAPH)
            if t.requires_grad:
                dst.copy_(t)
                return
        with torch.no_grad():
            dst.copy_(t)

    # -- autograd ---------------------------------------------------------------------
    def attach_grad(self, grad_req: str = "write", stype=None) -> None:
        """Allocate a gradient buffer; ``backward`` writes (``write``) or adds (``add``)."""
        from .. import autograd

        grad = _zeros_like_t(self)
        if self._ctx.device_typeid in (3, 5):  # MXNet: a cpu_pinned/cpu_shared array's
            grad._ctx = Context("cpu", 0)  # gradient lives on cpu(0)
        if stype is not None and stype != "default":
            from ._sparse_ops import zeros

            grad = zeros(stype, self.shape, ctx=grad._ctx, dtype=self.dtype)
        autograd.mark_variables([self], [grad], grad_reqs=grad_req)

    def backward(self, out_grad=None, retain_graph: bool = False, train_mode: bool = True):
        from .. import autograd

        autograd.backward(
            [self],
            [out_grad] if out_grad is not None else None,
            retain_graph=retain_graph,
            train_mode=train_mode,
        )

    # -- printing ---------------------------------------------------------------------
    def __repr__(self) -> str:
        """MXNet's form: the NumPy text, then ``<NDArray 2x3 @cpu(0)>``."""
        shape_info = "x".join(str(x) for x in self.shape)
        return f"\n{self.asnumpy()}\n<{type(self).__name__} {shape_info} @{self._ctx}>"

    __str__ = __repr__

    # -- python protocol --------------------------------------------------------------
    def __len__(self) -> int:
        if self.ndim == 0:
            raise IndexError("tuple index out of range")
        return self._t.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __bool__(self) -> bool:
        n = self.size
        if n == 0:
            return False
        if n == 1:
            return bool(self.asscalar())
        raise ValueError("The truth value of an NDArray with multiple elements is ambiguous.")

    __nonzero__ = __bool__

    # no __float__/__int__/__index__: MXNet 1.9.1's NDArray has none (float(a) and
    # lst[a] raise TypeError; a.asscalar() is the way), unlike mx.np.ndarray

    __hash__ = object.__hash__

    def __getitem__(self, key):
        if _FREED_ANY[0] and state.is_recording:
            _freed.detach_freed((self,))
        if _PENDING[0] or _INT_ACTIVE[0]:
            return self._getitem_slow(key)
        return getitem(self, key)

    def _getitem_slow(self, key):
        res = _deferred.carried(self, getitem(self, key))
        if _INT_ACTIVE[0] and state.is_recording:  # an integer variable's gradient path
            _int_grad.link_with(self, res, lambda a: getitem(a, key))
        return res

    def __setitem__(self, key, value):
        if (
            state.is_recording
            and isinstance(value, NDArray)
            and value._t.requires_grad
            and not self._t.is_floating_point()
            and not (key is Ellipsis or (isinstance(key, py_slice) and key == py_slice(None)))
        ):
            raise MXNetError(INPLACE_IN_RECORD)  # the cast to an integer target loses it
        setitem(self, key, value)
        if _PENDING[0]:
            _deferred.carry(value, self)

    _basic_indexing_slice_is_contiguous = staticmethod(basic_slice_is_contiguous)

    def __reduce__(self):
        from ._serial import dumps_one

        if _PENDING[0]:
            _deferred.check(self)

        return (NDArray, (None,), {"handle": bytearray(dumps_one(self))})

    def __setstate__(self, st):
        from ._serial import loads_one

        handle = st.get("handle") if isinstance(st, dict) else None
        other = (
            loads_one(handle)
            if handle is not None
            else NDArray._wrap(torch.empty(0), Context("cpu", 0))
        )
        self._t = other._t
        self._ctx = other._ctx
        self._grad = None
        self._grad_req = "null"
        self._marked = False
        self._fresh = 0

    def __getstate__(self):
        return self.__reduce__()[2]

    def __array__(self, dtype=None, copy=None):
        a = self.asnumpy()
        return a.astype(dtype) if dtype is not None else a

    # -- reshape ------------------------------------------------------------------------
    def reshape(self, *shape, **kwargs) -> NDArray:
        """Reshape with MXNet's special codes (0, -1, -2, -3, -4) and ``reverse``.

        Examples
        --------
        >>> mx.nd.ones((2, 3, 4)).reshape((0, -1)).shape
        (2, 12)
        """
        if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
            shape = shape[0]
        elif not shape:
            shape = kwargs.pop("shape", None)
            if shape is None:
                raise TypeError("reshape() missing required argument 'shape'")
        try:
            res = _op_call("Reshape", [self], {"shape": tuple(shape), **kwargs})
            if self._ctx.device_typeid in (3, 5):
                res._ctx = self._ctx  # a view in MXNet: cpu_pinned/cpu_shared is kept
            return res
        except MXNetError as err:
            # MXNet: a larger target, or any mismatch while recording, is an MXNetError of
            # NDArray.Reshape; other size mismatches a ValueError
            dims = tuple(shape)
            if "size" not in str(err):
                raise
            want = None if kwargs.get("reverse") else _plain_target_size(dims, self.shape)
            if want is not None and want > self.size:
                raise MXNetError(
                    f"NDArray.Reshape: Check failed: shape_.Size() >= shape.Size() "
                    f"({self.size} vs. {want}) : target shape size is larger "
                    f"than the current shape (reshape of {_shp(self.shape)} to "
                    f"{_shp(dims)})"
                ) from None
            if want is not None and state.is_recording:
                raise MXNetError(
                    f"NDArray.Reshape: Check failed: shape_.Size() == shape.Size() "
                    f"({self.size} vs. {want}) : target shape must have the same "
                    f"size as current shape when recording with autograd. (reshape "
                    f"of {_shp(self.shape)} to {_shp(dims)})"
                ) from None
            if (
                want is None
                and all(isinstance(d, int) and d > 0 for d in dims)
                and math.prod(dims) > self.size
            ):
                raise
            raise ValueError(
                f"Cannot reshape array of size {self.size} into shape {dims}"
            ) from None

    def _at(self, idx: int) -> NDArray:
        """The sub-array at position ``idx`` of the first axis (a view; a 1-D array gives a
        one-element view, as MXNet)."""
        n = self.shape[0] if self.ndim else 0
        if not -n <= idx < n:
            raise IndexError(f"index {idx} is out of bounds for axis 0 with size {n}")
        idx %= n
        t = self._t[idx : idx + 1] if self.ndim == 1 else self._t[idx]
        return self._derived(t, self._ctx)

    def _slice(self, start: int, stop: int) -> NDArray:
        """The rows ``start:stop`` of the first axis (a view)."""
        return self._derived(self._t[start:stop], self._ctx)

    def _sync_copyfrom(self, source_array) -> None:
        """Copy a same-shaped array-like into this array."""
        src = np.asarray(source_array, dtype=self.dtype)
        if src.shape != self.shape:
            raise ValueError(f"Shape inconsistent: expected {self.shape} vs got {src.shape}")
        self._assign_tensor(torch.from_numpy(np.ascontiguousarray(src)).to(self._t.device))

    def _view_as(self, shape) -> NDArray:
        return self._derived(self._t.reshape(tuple(shape)), self._ctx)

    def flatten(self, inplace: bool = False) -> NDArray:
        """Collapse all but the first axis; ``inplace=True`` returns a view."""
        if not inplace:
            return _op_call("Flatten", [self], {})
        return self._view_as((self.shape[0], -1) if self.ndim else (1, 1))

    def expand_dims(self, axis: int, inplace: bool = False) -> NDArray:
        """Insert a size-1 axis at ``axis``; ``inplace=True`` returns a view."""
        if not inplace:
            return _op_call("expand_dims", [self], {"axis": axis})
        ndim = self.ndim
        if not -ndim - 1 <= axis <= ndim:
            raise MXNetError(f"axis {axis} is out of range for an array of {ndim} dims")
        shape = list(self.shape)
        shape.insert(axis % (ndim + 1), 1)
        return self._view_as(shape)

    def squeeze(self, axis=None, inplace: bool = False) -> NDArray:
        """Drop size-1 axes; ``inplace=True`` returns a view."""
        if not inplace:
            return _op_call("squeeze", [self], {"axis": axis})
        ndim = self.ndim
        axes = range(ndim) if axis is None else [axis] if isinstance(axis, int) else axis
        drop = {int(a) % ndim for a in axes if self.shape[int(a) % ndim] == 1}
        if axis is not None and len(drop) != len(list(axes)):
            raise MXNetError("cannot select an axis to squeeze out which has size not 1")
        shape = [d for i, d in enumerate(self.shape) if i not in drop]
        return self._view_as(shape or [1])

    def broadcast_to(self, shape) -> NDArray:
        """Broadcast to ``shape`` with NumPy's rule: missing leading axes count as size 1.

        Unlike the ``broadcast_to`` operator, the method pads the array's shape on the
        left (``(3,)`` -> ``(2, 3)``) and raises ``ValueError`` when the shapes do not
        broadcast, as MXNet 1.9.1's ``NDArray.broadcast_to``.
        """
        target = tuple(int(d) for d in shape)
        cur = self.shape
        if len(target) < len(cur):
            raise ValueError(_broadcast_msg(cur, shape))
        padded = (1,) * (len(target) - len(cur)) + cur
        if any(c != t and c != 1 for c, t in zip(padded, target)):
            raise ValueError(_broadcast_msg(cur, shape))
        src = self.reshape(padded) if padded != cur else self
        return _op_call("broadcast_to", [src], {"shape": target})

    def broadcast_like(self, other) -> NDArray:
        """Broadcast to ``other.shape`` as :meth:`broadcast_to` does (NumPy's rule).

        MXNet 1.9.1's method, unlike the ``broadcast_like`` operator (``mx.nd.broadcast_like``,
        ``Symbol.broadcast_like``), accepts fewer axes than ``other`` has.
        """
        return self.broadcast_to(other.shape)

    # -- dlpack -------------------------------------------------------------------------
    def to_dlpack_for_read(self):
        if _PENDING[0]:
            _deferred.check(self)
        return torch.utils.dlpack.to_dlpack(self._t.detach())

    to_dlpack_for_write = to_dlpack_for_read


def _slice_key(begin, end, step) -> tuple:
    step = step if step is not None else [None] * len(begin)
    if not len(begin) == len(end) == len(step):
        raise ValueError("begin, end and step must have the same length")
    return tuple(slice(b, e, s) for b, e, s in zip(begin, end, step))


def _broadcast_msg(cur, shape) -> str:
    return (
        "operands could not be broadcast together with remapped shapes"
        f"[original->remapped]: {cur} and requested shape {shape}"
    )


def _zeros_like_t(a: NDArray) -> NDArray:
    return NDArray._wrap(torch.zeros_like(a._t.detach()), a._ctx)


_invoke._set_ndarray_class(NDArray)


# The module-level functions (array, zeros, ...) live in _create; MXNet's path is this module.
from ._create import (  # noqa: E402
    arange,
    array,
    concatenate,
    empty,
    from_dlpack,
    from_numpy,
    full,
    moveaxis,
    onehot_encode,
    ones,
    waitall,
    zeros,
)


def _from_handle(handle) -> NDArray | None:
    """The array behind ``handle`` (an NDArray, or the ctypes value of one), else None."""
    if isinstance(handle, NDArray):
        return handle
    if isinstance(handle, ctypes.c_void_p):
        handle = handle.value
    elif not isinstance(handle, int) or isinstance(handle, bool):
        return None
    arr = _HANDLES.get(handle)
    if arr is None:
        raise MXNetError(f"NDArray(handle): {handle!r} is not the handle of a live NDArray")
    return arr


# MXNet 1.9.1's ``mxnet.ndarray.ndarray`` module also holds the element-wise/creation
# front-ends (code writes ``from mxnet.ndarray.ndarray import add, maximum, imdecode``);
# they live in ``_frontends`` here and resolve lazily to avoid an import cycle.
_REEXPORTS = frozenset(
    {
        "add",
        "subtract",
        "multiply",
        "divide",
        "true_divide",
        "modulo",
        "power",
        "maximum",
        "minimum",
        "equal",
        "not_equal",
        "greater",
        "greater_equal",
        "lesser",
        "lesser_equal",
        "logical_and",
        "logical_or",
        "logical_xor",
        "linspace",
        "eye",
        "histogram",
        "split_v2",
        "imdecode",
        "to_dlpack_for_read",
        "to_dlpack_for_write",
    }
)


def __getattr__(attr):
    if attr in _REEXPORTS:
        from .. import ndarray as _pkg

        return getattr(_pkg, attr)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
