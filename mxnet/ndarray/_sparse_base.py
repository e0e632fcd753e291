"""Sparse NDArrays: :class:`CSRNDArray` and :class:`RowSparseNDArray`.

The sparse components (``data``, ``indices`` and, for CSR, ``indptr``) are the source of
truth. ``arr._t`` is a dense tensor built on demand, so every operator without a sparse
implementation runs on dense data and returns a dense NDArray (MXNet's "storage fallback").
The class paths are ``mxnet.ndarray.sparse.CSRNDArray`` / ``RowSparseNDArray`` as in MXNet.
"""

from __future__ import annotations

import numbers
import operator

import numpy as np
import torch

from .. import _dtype
from .._op._state import state
from .._op._stype_rules import SPARSE_SEEN
from ..base import MXNetError, NotSupportedForSparseNDArray
from ..context import Context
from . import _sparse_conv as conv
from .ndarray import NDArray

__all__ = ["BaseSparseNDArray", "CSRNDArray", "RowSparseNDArray", "new_sparse"]


def new_sparse(stype: str, data: torch.Tensor, aux, shape, ctx: Context):
    """Build a sparse array from components (``aux``: ``(indptr, indices)`` or
    ``(indices,)``); no copy, no check."""
    cls = CSRNDArray if stype == "csr" else RowSparseNDArray
    SPARSE_SEEN[0] = True
    obj = object.__new__(cls)
    obj._sdata = data
    obj._saux = tuple(a.to(conv.IDX) for a in aux)
    obj._sshape = tuple(int(d) for d in shape)
    obj._ctx = ctx
    obj._leaf = None
    obj._grad = None
    obj._grad_req = "null"
    obj._marked = False
    obj._fresh = 0
    return obj


class BaseSparseNDArray(NDArray):
    """Common base of the sparse arrays (not instantiated directly)."""

    # _leaf: the dense tensor autograd tracks while the array is a marked variable
    __slots__ = ("_sdata", "_saux", "_sshape", "_leaf")
    _STYPE = ""

    def __init__(self, handle=None, writable=True):
        if handle is not None:
            raise MXNetError(f"{type(self).__name__}(handle): build sparse arrays with "
                             "mx.nd.sparse.csr_matrix / row_sparse_array")
        SPARSE_SEEN[0] = True
        self._sdata = torch.zeros(0)
        self._saux = (torch.zeros(1, dtype=conv.IDX), torch.zeros(0, dtype=conv.IDX)) \
            if self._STYPE == "csr" else (torch.zeros(0, dtype=conv.IDX),)
        self._sshape = (0, 0) if self._STYPE == "csr" else (0,)
        self._ctx = Context("cpu", 0)
        self._leaf = None
        self._grad = None
        self._grad_req = "null"
        self._marked = False
        self._fresh = 0

    # -- the dense view used by every fallback operator ---------------------------------
    @property
    def _t(self) -> torch.Tensor:
        leaf = getattr(self, "_leaf", None)
        return leaf if leaf is not None else self._dense()

    @_t.setter
    def _t(self, t: torch.Tensor) -> None:
        if t.requires_grad and t.is_leaf:  # autograd.mark_variables makes this a variable
            self._leaf = None
            self._set_from_dense(t.detach())
            self._leaf = t
            return
        self._set_from_dense(t)

    def _set_from_dense(self, t: torch.Tensor) -> None:
        if self._STYPE == "csr":
            data, indptr, indices = conv.dense_to_csr(t)
            self._saux = (indptr, indices)
        else:
            data, indices = conv.dense_to_rsp(t)
            self._saux = (indices,)
        self._sdata = data
        self._sshape = tuple(t.shape)
        leaf = getattr(self, "_leaf", None)
        if leaf is not None and leaf is not t:  # keep the tracked variable's values current
            if tuple(leaf.shape) == tuple(t.shape):
                with torch.no_grad():
                    leaf.copy_(t)
            else:
                self._leaf = None

    def _assign_tensor(self, t: torch.Tensor) -> None:
        if tuple(t.shape) != self._sshape:
            try:
                t = t.broadcast_to(self._sshape)
            except RuntimeError:
                raise MXNetError(f"cannot write an array of shape {tuple(t.shape)} into a "
                                 f"{type(self).__name__} of shape {self._sshape}") from None
        self._set_from_dense(t.detach().to(self._sdata.dtype))

    # -- properties -------------------------------------------------------------------
    @property
    def stype(self) -> str:
        return self._STYPE

    @property
    def shape(self) -> tuple[int, ...]:
        return self._sshape

    @property
    def size(self) -> int:
        return int(np.prod(self._sshape, dtype=np.int64))

    @property
    def ndim(self) -> int:
        return len(self._sshape)

    @property
    def dtype(self):
        return _dtype.to_numpy_type(self._sdata.dtype)

    @property
    def data(self) -> NDArray:
        """The stored values (a dense NDArray sharing memory)."""
        return NDArray._wrap(self._sdata, self._ctx)

    @property
    def indices(self) -> NDArray:
        """Column indices (csr) or row indices (row_sparse), int64."""
        return NDArray._wrap(self._saux[-1], self._ctx)

    def _data(self) -> NDArray:
        return self.data

    def _aux_data(self, i: int) -> NDArray:
        return NDArray._wrap(self._saux[i], self._ctx)

    def __len__(self) -> int:
        return self._sshape[0]

    # -- conversion -------------------------------------------------------------------
    def _parts(self) -> tuple:
        return (self._sdata,) + self._saux

    def _rebuild(self, fn, ctx=None):
        """A new array of this stype with ``fn`` applied to data, aux kept (cloned)."""
        return new_sparse(self._STYPE, fn(self._sdata), [a.clone() for a in self._saux],
                          self._sshape, ctx or self._ctx)

    def astype(self, dtype, copy: bool = True):
        """A copy with values cast to ``dtype``; the storage type is kept.

        Examples
        --------
        >>> mx.nd.sparse.zeros('csr', (2, 2)).astype('float64').dtype
        <class 'numpy.float64'>
        """
        td = _dtype.to_torch(dtype)
        if td == self._sdata.dtype and not copy:
            return self
        return self._rebuild(lambda d: d.detach().to(td, copy=True))

    def copyto(self, other):
        """Copy into ``other`` (an NDArray, filled in place) or onto a Context."""
        if isinstance(other, Context):
            dev = other.torch_device
            return new_sparse(self._STYPE, self._sdata.detach().to(dev, copy=True),
                              [a.to(dev, copy=True) for a in self._saux], self._sshape, other)
        if isinstance(other, NDArray):
            if other is self:
                return self
            if other.shape != self.shape:
                raise MXNetError(f"copyto: shape mismatch: source {self.shape} vs target "
                                 f"{other.shape} (operator _copyto)")
            if isinstance(other, BaseSparseNDArray) and other.stype == self.stype:
                dev = other._ctx.torch_device
                other._sdata = self._sdata.detach().to(dev, other._sdata.dtype, copy=True)
                other._saux = tuple(a.to(dev, copy=True) for a in self._saux)
                return other
            if isinstance(other, BaseSparseNDArray):  # MXNet: no csr <-> row_sparse copy
                raise TypeError(f"copyto does not support destination NDArray stype {other.stype}")
            other._assign_tensor(self._dense())
            return other
        raise TypeError(f"copyto does not support type {type(other)}")

    def copy(self):
        return self.copyto(self._ctx)

    def as_in_context(self, context: Context):
        if context == self._ctx:
            return self
        return self.copyto(context)

    as_in_ctx = as_in_context

    def tostype(self, stype: str):
        """``'default'`` gives a dense NDArray; the same stype gives a copy."""
        if stype == "default":
            if self._leaf is not None and state.is_recording:  # keep the autograd history
                return NDArray._wrap(self._leaf.clone(), self._ctx)
            return NDArray._wrap(self._dense(), self._ctx)
        if stype == self._STYPE:
            return self.copy()
        if stype not in ("csr", "row_sparse"):
            raise MXNetError(f"tostype: unknown storage type '{stype}'")
        raise ValueError(f"cast_storage from {self._STYPE} to {stype} is not supported")

    def asscipy(self):
        """The array as a ``scipy.sparse`` matrix (needs SciPy)."""
        import scipy.sparse as sps

        if self._STYPE != "csr":
            raise MXNetError("asscipy: only CSRNDArray can be converted to SciPy")
        return sps.csr_matrix((self._sdata.cpu().numpy(), self._saux[1].cpu().numpy(),
                               self._saux[0].cpu().numpy()), shape=self._sshape)

    def __repr__(self) -> str:
        """MXNet's form: ``\\n<CSRNDArray 2x3 @cpu(0)>`` (the values are not printed)."""
        shape_info = "x".join(str(x) for x in self._sshape)
        return f"\n<{type(self).__name__} {shape_info} @{self._ctx}>"

    __str__ = __repr__

    def __reduce__(self):
        from ._serial import dumps_one

        return (type(self), (None,), {"handle": bytearray(dumps_one(self))})

    def __setstate__(self, st):
        from ._serial import loads_one

        other = loads_one(st["handle"])
        if not isinstance(other, type(self)):
            raise MXNetError(f"cannot unpickle a {type(other).__name__} as "
                             f"{type(self).__name__}")
        self._sdata, self._saux, self._sshape = other._sdata, other._saux, other._sshape
        self._ctx = other._ctx

    def __setitem__(self, key, value):
        """Only ``arr[:] = other`` (an NDArray or array-like, not a scalar) is supported."""
        name = type(self).__name__
        if isinstance(key, slice) and key != slice(None):  # MXNet's exception types
            raise ValueError(f"Assignment with slice for {name} is not implemented yet.")
        if not isinstance(key, slice):
            err = TypeError if self._STYPE == "row_sparse" else MXNetError
            raise err(f"{name} only supports [:] for assignment")
        if isinstance(value, NDArray):
            value.copyto(self)
        elif isinstance(value, numbers.Number) and self._STYPE == "row_sparse":
            self._set_from_dense(torch.full(self._sshape, value, dtype=self._sdata.dtype,
                                            device=self._sdata.device))
        elif isinstance(value, numbers.Number):
            raise ValueError(f"Assigning numeric types to {name} is not implemented yet.")
        else:
            self._assign_tensor(torch.as_tensor(np.asarray(value), dtype=self._sdata.dtype))

    def attach_grad(self, grad_req: str = "write", stype=None) -> None:
        """Make this array a variable; the gradient has ``stype`` (default: this stype).

        Operators see its dense values, so gradients flow as for a dense array and are
        stored in the gradient's storage type.
        """
        from .. import autograd
        from ._sparse_ops import zeros

        st = stype or self._STYPE
        grad = NDArray._wrap(torch.zeros(self._sshape, dtype=self._sdata.dtype,
                                         device=self._ctx.torch_device), self._ctx) \
            if st == "default" else zeros(st, self._sshape, ctx=self._ctx, dtype=self.dtype)
        autograd.mark_variables([self], [grad], grad_reqs=grad_req)

    # dense-only functions (MXNet raises NotSupportedForSparseNDArray for these)
    def reshape(self, *shape, **kwargs):
        """Not available for sparse arrays: raises ``NotSupportedForSparseNDArray``."""
        raise NotSupportedForSparseNDArray(self.reshape, None, shape)

    def _at(self, idx):
        raise NotSupportedForSparseNDArray(self._at, "[idx]", idx)

    def _slice(self, start, stop):
        raise NotSupportedForSparseNDArray(self._slice, None, start, stop)

    def detach(self):
        """This array without autograd history (same storage type, shared components)."""
        return new_sparse(self._STYPE, self._sdata, self._saux, self._sshape, self._ctx)

    def _same_sparse(self, other) -> bool:
        """``other`` has this stype and shape and autograd does not record (sparse kernel)."""
        return isinstance(other, BaseSparseNDArray) and other.stype == self.stype and \
            other.shape == self.shape and not self._tracked(other)

    @property
    def _num_aux(self) -> int:
        return len(self._saux)

    def _tracked(self, other=None) -> bool:
        """Whether autograd records this operation (sparsity-keeping kernels do not)."""
        if not state.is_recording:
            return False
        return any(getattr(a, "_leaf", None) is not None or
                   (isinstance(a, NDArray) and not isinstance(a, BaseSparseNDArray)
                    and a._t.requires_grad) for a in (self, other))

    # -- arithmetic that keeps sparsity ---------------------------------------------
    def __add__(self, other):
        from ._sparse_ops import elemwise_add

        if self._same_sparse(other):
            return elemwise_add(self, other)
        if isinstance(other, BaseSparseNDArray) and other.stype == self.stype and \
                other.shape == self.shape:  # recorded: the generated operator keeps the stype
            from ._namespace import function_for

            return function_for("elemwise_add")(self, other)
        return super().__add__(other)

    def __sub__(self, other):
        from ._sparse_ops import elemwise_sub

        if self._same_sparse(other):
            return elemwise_sub(self, other)
        if isinstance(other, BaseSparseNDArray) and other.stype == self.stype and \
                other.shape == self.shape:  # recorded: the generated operator keeps the stype
            from ._namespace import function_for

            return function_for("elemwise_sub")(self, other)
        return super().__sub__(other)

    def __mul__(self, other):
        if self._tracked(other):
            if isinstance(other, NDArray) and other.shape == self.shape:
                from ._namespace import function_for  # elemwise_mul keeps the sparse stype

                return function_for("elemwise_mul")(self, other)
            return super().__mul__(other)
        if isinstance(other, numbers.Number) and not isinstance(other, bool):
            return self._rebuild(lambda d: d.detach() * other)
        if self._same_sparse(other):
            from ._sparse_ops import elemwise_mul

            return elemwise_mul(self, other)
        if isinstance(other, NDArray) and other.shape == self.shape:
            # MXNet: same-shape products are elemwise_mul, which keeps the sparse stype
            from ._namespace import function_for

            return function_for("elemwise_mul")(self, other)
        return super().__mul__(other)

    def __rmul__(self, other):
        if self._tracked(other):
            return super().__rmul__(other)
        if isinstance(other, numbers.Number) and not isinstance(other, bool):
            return self._rebuild(lambda d: other * d.detach())
        return super().__rmul__(other)

    def __truediv__(self, other):
        if self._tracked(other):
            return super().__truediv__(other)
        if isinstance(other, numbers.Number) and not isinstance(other, bool):
            return self._rebuild(lambda d: d.detach() / other)
        return super().__truediv__(other)

    __div__ = __truediv__

    def __neg__(self):
        if self._tracked():
            return super().__neg__()
        return self._rebuild(lambda d: -d.detach())

    def __iadd__(self, o):
        res = self + o
        self._take(res)
        return self

    def __isub__(self, o):
        res = self - o
        self._take(res)
        return self

    def __imul__(self, o):
        self._take(self * o)
        return self

    def __itruediv__(self, o):
        self._take(self / o)
        return self

    def _take(self, res) -> None:
        if isinstance(res, BaseSparseNDArray) and res.stype == self.stype:
            self._sdata, self._saux = res._sdata.to(self._sdata.dtype), res._saux
        else:
            self._assign_tensor(res._t)


class CSRNDArray(BaseSparseNDArray):
    """A 2-D array in compressed sparse row format (``data``, ``indices``, ``indptr``).

    Examples
    --------
    >>> a = mx.nd.sparse.csr_matrix(([1., 2.], [0, 2], [0, 1, 2]), shape=(2, 3))
    >>> a
    <BLANKLINE>
    <CSRNDArray 2x3 @cpu(0)>
    >>> a.asnumpy().tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]
    """

    __slots__ = ()
    _STYPE = "csr"

    def _dense(self) -> torch.Tensor:
        return conv.csr_to_dense(self._sdata, self._saux[0], self._saux[1], self._sshape)

    @property
    def indptr(self) -> NDArray:
        """Row pointers into ``data`` / ``indices`` (int64, length rows + 1)."""
        return NDArray._wrap(self._saux[0], self._ctx)

    def check_format(self, full_check: bool = True) -> None:
        """Raise MXNetError unless the components form a valid CSR array."""
        conv.check_csr(self._sdata, self._saux[0], self._saux[1], self._sshape, full_check)

    def __getitem__(self, key):
        """Row ``i`` or a contiguous row slice, as a CSRNDArray."""
        n = self._sshape[0]
        if isinstance(key, numbers.Integral) and not isinstance(key, bool):
            k = int(key)
            if not -n <= k < n:
                raise IndexError(f"index {k} is out of bounds for axis 0 with size {n}")
            k %= n
            key = slice(k, k + 1)
        if not isinstance(key, slice):
            raise ValueError("CSRNDArray only supports continuous slicing on axis 0")
        if key.step not in (None, 1):
            raise ValueError("CSRNDArray only supports continuous slicing on axis 0")
        start, stop, _ = key.indices(n)
        stop = max(start, stop)
        indptr, indices = self._saux
        lo, hi = int(indptr[start]), int(indptr[stop])
        return new_sparse("csr", self._sdata[lo:hi], [indptr[start:stop + 1] - lo,
                                                      indices[lo:hi]],
                          (stop - start, self._sshape[1]), self._ctx)


class RowSparseNDArray(BaseSparseNDArray):
    """An array storing only some rows (``data`` rows at row ``indices``).

    Examples
    --------
    >>> r = mx.nd.sparse.row_sparse_array(([[1., 2.]], [1]), shape=(3, 2))
    >>> r.asnumpy().tolist()
    [[0.0, 0.0], [1.0, 2.0], [0.0, 0.0]]
    """

    __slots__ = ()
    _STYPE = "row_sparse"

    def _dense(self) -> torch.Tensor:
        return conv.rsp_to_dense(self._sdata, self._saux[0], self._sshape)

    def check_format(self, full_check: bool = True) -> None:
        """Raise MXNetError unless the components form a valid row_sparse array."""
        conv.check_rsp(self._sdata, self._saux[0], self._sshape, full_check)

    def __getitem__(self, key):
        if isinstance(key, slice) and key == slice(None):
            return self
        if isinstance(key, numbers.Integral):
            raise MXNetError("__getitem__ with int key is not implemented for "
                             "RowSparseNDArray yet")
        raise MXNetError("RowSparseNDArray only supports [:] for __getitem__")

    def retain(self, indices):
        """Keep only the rows listed in ``indices``."""
        from ._sparse_ops import retain

        return retain(self, indices)


for _cls in (BaseSparseNDArray, CSRNDArray, RowSparseNDArray):
    _cls.__module__ = "mxnet.ndarray.sparse"


def _scalar_compare(name: str, fn):
    """A comparison that stays sparse when comparing 0 with the scalar gives 0 (as MXNet)."""

    def method(self, other):
        res = getattr(NDArray, name)(self, other)
        if isinstance(other, numbers.Number) and not isinstance(other, bool) and \
                not fn(0.0, other) and isinstance(res, NDArray) and not self._tracked():
            return res.tostype(self._STYPE)
        return res

    method.__name__ = name
    return method


for _name, _fn in (("__eq__", operator.eq), ("__ne__", operator.ne), ("__gt__", operator.gt),
                   ("__ge__", operator.ge), ("__lt__", operator.lt), ("__le__", operator.le)):
    setattr(BaseSparseNDArray, _name, _scalar_compare(_name, _fn))
