"""Gluon parameters: :class:`Parameter`, :class:`Constant` and :class:`ParameterDict`.

A parameter holds one copy of its value per context (``list_data``) and, unless
``grad_req='null'``, one gradient buffer per context (``list_grad``) registered with
:mod:`mxnet.autograd`. Shapes may contain ``0`` for dimensions that are inferred on the
first forward pass (deferred initialization).

Examples
--------
>>> import mxnet as mx
>>> p = mx.gluon.Parameter('w', shape=(2, 3))
>>> p.initialize(mx.init.One())
>>> p.data().asnumpy().sum()
6.0
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import autograd
from ..base import MXNetError
from ..context import Context, cpu, current_context

__all__ = ["DeferredInitializationError", "Parameter", "Constant", "ParameterDict", "tensor_types"]

_NAMING_URL = (
    "For more info on naming, please see "
    "https://mxnet.io/api/python/docs/tutorials/packages/gluon/blocks/naming.html"
)


class DeferredInitializationError(MXNetError):
    """Raised when a parameter is read before its deferred initialization has happened."""


def _nd():
    from .. import ndarray

    return ndarray


def _tensor_types():
    from ..ndarray import NDArray

    try:
        from ..symbol import Symbol
    except ImportError:  # the symbol package is optional at this layer
        return (NDArray,)
    return (Symbol, NDArray)


class _TensorTypes:
    """Lazily resolved ``(Symbol, NDArray)`` tuple usable with ``isinstance``."""

    def __instancecheck__(self, obj):
        return isinstance(obj, _tensor_types())


tensor_types = _TensorTypes()


def shape_is_known(shape) -> bool:
    """Whether every dimension of ``shape`` is known (no 0 or -1)."""
    if shape is None:
        return False
    return all(int(d) > 0 for d in shape)


def _brief_print_list(lst, limit: int = 7) -> str:
    lst = list(lst)
    if len(lst) > limit:
        return (
            _brief_print_list(lst[: limit // 2], limit)
            + ", ..., "
            + _brief_print_list(lst[-limit // 2 :], limit)
        )
    return ", ".join(f"'{i}'" for i in lst)


def _np_shape_mode() -> bool:
    from ..util import is_np_shape

    return is_np_shape()


def _np_mode() -> bool:
    from ..util import is_np_array

    return is_np_array()


def _as_np(arr):
    from ..numpy.multiarray import wrap

    return wrap(arr)


def _is_np_array_obj(arr) -> bool:
    from ..numpy.multiarray import ndarray as np_ndarray

    return isinstance(arr, np_ndarray)


def _np_type(dtype):
    return np.dtype(dtype).type


class Parameter:
    """A weight of a Block, stored on one or several contexts.

    Parameters
    ----------
    name : str
        Name of the parameter (``dense0_weight``).
    grad_req : {'write', 'add', 'null'}
        How gradients are written.
    shape : int or tuple of int
        Shape; ``0`` marks a dimension inferred at the first forward pass.
    dtype : numpy dtype or str
        Data type.
    lr_mult, wd_mult : float
        Multipliers of the learning rate and of the weight decay.
    init : Initializer or str
        Initializer of this parameter (overrides the block's default).
    allow_deferred_init : bool
        Whether initialization may wait for the shape to be known.
    differentiable : bool
        When False, ``grad_req`` is forced to ``'null'``.

    Examples
    --------
    >>> w = mx.gluon.Parameter('fc_weight', shape=(4, 0), allow_deferred_init=True)
    >>> w
    Parameter fc_weight (shape=(4, 0), dtype=<class 'numpy.float32'>)
    """

    def __init__(
        self,
        name,
        grad_req="write",
        shape=None,
        dtype=np.float32,
        lr_mult=1.0,
        wd_mult=1.0,
        init=None,
        allow_deferred_init=False,
        differentiable=True,
        stype="default",
        grad_stype="default",
    ):
        self._var = None
        self._data = None
        self._grad = None
        self._ctx_list = None
        self._ctx_map = None
        self._trainer = None
        self._deferred_init = ()
        self._differentiable = differentiable
        self._allow_deferred_init = allow_deferred_init
        self._grad_req = None
        if isinstance(shape, int):
            shape = (shape,)
        self._shape = tuple(shape) if shape is not None else None
        self.name = name
        self.dtype = dtype
        self.lr_mult = lr_mult
        self.wd_mult = wd_mult
        self.grad_req = grad_req
        self.init = init
        for st, what in ((stype, "stype"), (grad_stype, "grad_stype")):
            if st not in ("default", "row_sparse", "csr"):
                raise AssertionError(
                    f"{what} for Parameter '{name}' must be one of "
                    f"'default', 'row_sparse', or 'csr', but got '{st}'"
                )
        self._stype = stype
        self._grad_stype = grad_stype

    def __repr__(self):
        return f"Parameter {self.name} (shape={self.shape}, dtype={self.dtype})"

    # -- attributes ---------------------------------------------------------------------
    @property
    def grad_req(self):
        return self._grad_req

    @grad_req.setter
    def grad_req(self, req):
        if req not in ("write", "add", "null"):
            raise AssertionError(
                f"grad_req must be one of 'write', 'add', or 'null', but got '{req}'"
            )
        if not self._differentiable:
            req = "null"
        if self._grad_req == req:
            return
        self._grad_req = req
        if req == "null" and self._grad is not None:
            self._grad = None
            self._data = [d.detach() for d in self._data]
        elif self._data is not None:
            self._init_grad()

    @property
    def dtype(self):
        return self._dtype

    @dtype.setter
    def dtype(self, dtype):
        self._dtype = dtype

    @property
    def shape(self):
        if self._shape is not None and _np_shape_mode():
            # NumPy-shape semantics mark unknown dimensions with -1 (0 is a valid size)
            return tuple(-1 if d == 0 else d for d in self._shape)
        return self._shape

    @shape.setter
    def shape(self, new_shape):
        if new_shape is not None:
            new_shape = tuple(int(d) for d in new_shape)
        if self._shape is None:
            self._shape = new_shape
            return
        if not (
            new_shape is not None
            and len(self._shape) == len(new_shape)
            and all(j in (-1, 0, i) for i, j in zip(new_shape, self._shape))
        ):
            raise AssertionError(
                f"Expected shape {new_shape} is incompatible with given shape {self._shape}."
            )
        self._shape = new_shape

    @property
    def stype(self):
        return self._stype

    # -- access -------------------------------------------------------------------------
    def _check_and_get(self, arr_list, ctx):
        if arr_list is not None:
            if ctx is list:
                return arr_list
            if ctx is None:
                if len(arr_list) == 1:
                    return arr_list[0]
                ctx = current_context()
            idx = self._ctx_map.get(ctx)
            if idx is None and ctx.device_typeid in (3, 5):  # cpu_pinned/cpu_shared: cpu's copy
                idx = self._ctx_map.get(Context("cpu", ctx.device_id))
            if idx is not None:
                return arr_list[idx]
            raise RuntimeError(
                f"Parameter '{self.name}' was not initialized on context "
                f"{ctx}. It was only initialized on {self._ctx_list}."
            )
        if self._deferred_init:
            raise DeferredInitializationError(
                f"Parameter '{self.name}' has not been initialized yet because initialization "
                "was deferred. Actual initialization happens during the first forward pass. "
                "Please pass one batch of data through the network before accessing "
                "Parameters. You can also avoid deferred initialization by specifying "
                "in_units, num_features, etc., for network layers."
            )
        raise RuntimeError(
            f"Parameter '{self.name}' has not been initialized. Note that you should "
            "initialize parameters and create Trainer with Block.collect_params() instead "
            "of Block.params because the later does not include Parameters of nested child "
            "Blocks"
        )

    def data(self, ctx=None):
        """The value on ``ctx`` (the only context when there is one)."""
        if self._stype != "default":
            raise RuntimeError(
                f"Cannot return a copy of Parameter '{self.name}' on ctx {ctx} "
                f"via data() because its storage type is {self._stype}. Please "
                "use row_sparse_data() instead."
            )
        return self._check_and_get(self._data, ctx)

    def list_data(self):
        """Values on every context, in ``list_ctx()`` order."""
        if self._stype != "default":
            raise RuntimeError(
                f"Cannot return copies of Parameter '{self.name}' on all "
                "contexts via list_data() because its storage type is "
                f"{self._stype}. Please use row_sparse_data() instead."
            )
        return self._check_and_get(self._data, list)

    def _public_grad(self, g):
        # gradients are accumulated densely; a sparse grad_stype is a view converted on read
        return g if self._grad_stype == "default" else g.tostype(self._grad_stype)

    def grad(self, ctx=None):
        """The gradient buffer on ``ctx``."""
        if self._data is not None and self._grad is None:
            raise RuntimeError(
                f"Cannot get gradient array for Parameter '{self.name}' because grad_req='null'"
            )
        return self._public_grad(self._check_and_get(self._grad, ctx))

    def list_grad(self):
        if self._data is not None and self._grad is None:
            raise RuntimeError(
                f"Cannot get gradient array for Parameter '{self.name}' because grad_req='null'"
            )
        return [self._public_grad(g) for g in self._check_and_get(self._grad, list)]

    def list_ctx(self):
        """Contexts the parameter lives on."""
        if self._data is None:
            if self._deferred_init:
                return self._deferred_init[1]
            raise RuntimeError(f"Parameter '{self.name}' has not been initialized")
        return self._ctx_list

    def row_sparse_data(self, row_id):
        """The rows ``row_id`` of a row_sparse parameter, on ``row_id``'s context (pulled
        through the Trainer's kvstore)."""
        if self._stype != "row_sparse":
            raise RuntimeError(
                f"Cannot return a copy of Parameter {self.name} via "
                f"row_sparse_data() because its storage type is {self._stype}. "
                "Please use data() instead."
            )
        return self._get_row_sparse(self._data, row_id.context, row_id)

    def list_row_sparse_data(self, row_id):
        """The rows ``row_id`` of a row_sparse parameter on every context."""
        if self._stype != "row_sparse":
            raise RuntimeError(
                f"Cannot return copies of Parameter '{self.name}' on all "
                "contexts via list_row_sparse_data() because its storage type "
                f"is {self._stype}. Please use data() instead."
            )
        return self._get_row_sparse(self._data, list, row_id)

    def _get_row_sparse(self, arr_list, ctx, row_id):
        if not isinstance(row_id, _nd().NDArray):
            raise TypeError(f"row_id must have NDArray type, but {type(row_id)} is given")
        if not self._trainer:
            raise RuntimeError(
                f"Cannot get row_sparse data for Parameter '{self.name}' when "
                "no Trainer is created with it."
            )
        results = self._check_and_get(arr_list, ctx)
        self._trainer._row_sparse_pull(self, results, row_id)
        if self._grad is not None:  # the pulled rows are new leaves for autograd
            outs = results if isinstance(results, list) else [results]
            grads = [self._grad[self._ctx_map[o.context]] for o in outs]
            autograd.mark_variables(outs, grads, self.grad_req)
        return results

    # -- initialization -----------------------------------------------------------------
    def initialize(self, init=None, ctx=None, default_init=None, force_reinit=False):
        """Allocate and initialize the value on ``ctx`` (deferred if the shape is unknown).

        Examples
        --------
        >>> p = mx.gluon.Parameter('b', shape=(3,))
        >>> p.initialize(mx.init.Zero(), ctx=[mx.cpu(0), mx.cpu(1)])
        >>> p.list_ctx()
        [cpu(0), cpu(1)]
        """
        from .. import initializer

        if default_init is None:
            default_init = initializer.Uniform()
        if self._data is not None and not force_reinit:
            warnings.warn(
                f"Parameter '{self.name}' is already initialized, ignoring. Set "
                "force_reinit=True to re-initialize.",
                stacklevel=2,
            )
            return
        self._data = self._grad = None
        if ctx is None:
            ctx = [current_context()]
        if isinstance(ctx, Context):
            ctx = [ctx]
        if init is None:
            init = default_init if self.init is None else self.init
        for dim in self.shape or ():
            if int(dim) < -1:
                raise AssertionError(
                    "shape dimension size cannot be less than 0, while "
                    f"received {dim} (Parameter '{self.name}', shape "
                    f"{self.shape})"
                )
        if not shape_is_known(self.shape):
            if self._allow_deferred_init:
                self._deferred_init = (init, ctx, default_init, None)
                return
            raise ValueError(
                f"Cannot initialize Parameter '{self.name}' because it has "
                f"invalid shape: {self.shape}."
            )
        self._deferred_init = (init, ctx, default_init, None)
        self._finish_deferred_init()

    def _finish_deferred_init(self):
        if not self._deferred_init:
            return
        from .. import initializer

        init, ctx, default_init, data = self._deferred_init
        self._deferred_init = ()
        if not shape_is_known(self.shape):
            raise MXNetError(
                f"Cannot initialize Parameter '{self.name}' because it has "
                f"invalid shape: {self.shape}. Please specify in_units, "
                "in_channels, etc for `Block`s."
            )
        with autograd.pause():
            if data is None:
                data = _nd().zeros(self.shape, ctx=cpu(), dtype=self.dtype)
                if _np_mode():  # initializers fill an mx.np array in NumPy mode
                    data = _as_np(data)
                initializer.create(default_init)(
                    initializer.InitDesc(self.name, {"__init__": init}), data
                )
            self._init_impl(data, ctx)

    def _as_stype(self, data):
        stype = getattr(data, "stype", "default")
        return data if stype == self._stype else data.tostype(self._stype)

    def _init_impl(self, data, ctx_list):
        self._ctx_list = list(ctx_list)
        self._ctx_map = {c: i for i, c in enumerate(self._ctx_list)}
        with autograd.pause():
            data = self._as_stype(data)
            self._data = [data.copyto(c) for c in self._ctx_list]
            if self._stype == "row_sparse":
                from ._sparse_param import track

                self._data = [track(d) for d in self._data]
            elif _np_mode():  # npx.set_np(): values (and gradients) are mx.np arrays
                self._data = [_as_np(d) for d in self._data]
        self._init_grad()

    def _init_grad(self):
        if self.grad_req == "null":
            self._grad = None
            return
        nd = _nd()
        self._grad = [nd.zeros(d.shape, ctx=d.context, dtype=d.dtype) for d in self._data]
        if _np_mode() or _is_np_array_obj(self._data[0]):
            self._grad = [_as_np(g) for g in self._grad]
        if self._stype in ("default", "row_sparse"):
            autograd.mark_variables(self._data, self._grad, self.grad_req)

    def _check_load(self, data, cast_dtype=False, dtype_source="current"):
        """Validate a loaded array against this parameter; returns (shape, dtype, data)."""
        if cast_dtype and dtype_source not in ("current", "saved"):
            raise AssertionError("dtype_source must be either 'current' or 'saved'")
        shape = self.shape
        if shape:
            if len(shape) != len(data.shape) or any(
                s not in (-1, 0, d) for s, d in zip(shape, data.shape)
            ):
                raise AssertionError(
                    f"Failed loading Parameter '{self.name}' from saved params: shape "
                    f"incompatible expected {shape} vs saved {data.shape}"
                )
            shape = tuple(d if s in (-1, 0) else s for s, d in zip(shape, data.shape))
        dtype = self.dtype
        if dtype is not None:
            if cast_dtype and _np_type(dtype) != _np_type(data.dtype):
                if dtype_source == "current":
                    data = data.astype(dtype, copy=False)
                else:
                    dtype = data.dtype
            elif _np_type(dtype) != _np_type(data.dtype):
                raise AssertionError(
                    f"Failed loading Parameter '{self.name}' from saved params: dtype "
                    f"incompatible expected {dtype} vs saved {data.dtype}. "
                    "Set cast_dtype=True to cast the dtype of saved params."
                )
        return shape, dtype, data

    def _load_init(self, data, ctx, cast_dtype=False, dtype_source="current"):
        shape, dtype, data = self._check_load(data, cast_dtype, dtype_source)
        if _np_mode() or (self._data is not None and _is_np_array_obj(self._data[0])):
            data = _as_np(data)  # a loaded file's arrays become mx.np arrays in NumPy mode
        if isinstance(ctx, Context):
            ctx = [ctx]
        if self._data is None:
            if self._deferred_init:
                if ctx is not None and set(ctx) != set(self._deferred_init[1]):
                    raise AssertionError(
                        f"Failed to load Parameter '{self.name}' on {ctx} because it was "
                        f"previous initialized on {self.list_ctx()}."
                    )
                ctx = self._deferred_init[1]
            elif ctx is None:
                ctx = [cpu()]
            self._shape = shape
            self._dtype = dtype
            self._init_impl(data, ctx)
        else:
            if ctx is not None and set(ctx) != set(self.list_ctx()):
                raise AssertionError(
                    f"Failed to load Parameter '{self.name}' on {ctx} because it was "
                    f"previous initialized on {self.list_ctx()}."
                )
            self._shape = shape
            if _np_type(dtype) != _np_type(self._data[0].dtype) or self._stype != "default":
                self._dtype = dtype
                self._init_impl(data, self._ctx_list)
            else:
                self.set_data(self._as_stype(data))
        self._deferred_init = ()

    # -- mutation -----------------------------------------------------------------------
    def set_data(self, data):
        """Set the value on every context (before init: the value used at init)."""
        self.shape = data.shape
        if self._data is None:
            if not self._deferred_init:
                raise AssertionError(f"Parameter '{self.name}' has not been initialized")
            self._deferred_init = self._deferred_init[:3] + (data,)
            return
        trainer = self._trainer
        if (
            trainer is not None
            and getattr(trainer, "_kv_initialized", False)
            and getattr(trainer, "_update_on_kvstore", False)
        ):
            if self not in trainer._params_to_init:
                trainer._reset_kvstore()
        for arr in self._check_and_get(self._data, list):
            _write_current_value(arr, data)

    def zero_grad(self):
        """Set the gradient buffers to 0."""
        if self._grad is None:
            return
        for g in self._grad:
            g[:] = 0

    def reset_ctx(self, ctx):
        """Move the value to other contexts (keeps the value)."""
        if ctx is None:
            ctx = [current_context()]
        if isinstance(ctx, Context):
            ctx = [ctx]
        if self._data:
            data = self._reduce()
            with autograd.pause():
                self._init_impl(data, ctx)
        elif self._deferred_init:
            init, _, default_init, data = self._deferred_init
            self._deferred_init = (init, ctx, default_init, data)
        else:
            raise ValueError(
                f"Cannot reset context for Parameter '{self.name}' because it "
                "has not been initialized."
            )

    def _reduce(self):
        """Average of the values over every context, on the CPU."""
        if self._stype != "default":  # every row, fetched from the trainer's kvstore
            nd = _nd()
            all_row_ids = nd.arange(0, self.shape[0], dtype="int64", ctx=cpu())
            data = nd.zeros(self.shape, stype="row_sparse", ctx=cpu(), dtype=self.dtype)
            if not self._trainer:
                raise RuntimeError(
                    f"Cannot reduce row_sparse Parameter '{self.name}' without "
                    "a Trainer. Please create a Trainer with it first."
                )
            self._trainer._row_sparse_pull(self, data, all_row_ids, full_idx=True)
            return data
        block = self.list_data()
        if len(block) == 1:
            return block[0].copyto(cpu())
        acc = block[0].copyto(cpu())
        for w in block[1:]:
            acc = acc + w.copyto(cpu())
        return acc / len(block)

    def cast(self, dtype):
        """Cast value and gradient to ``dtype``."""
        self.dtype = dtype
        self._var = None
        if self._data is None:
            return
        with autograd.pause():
            self._data = [d.astype(dtype) for d in self._data]
            if self._grad is None:
                return
            self._grad = [g.astype(dtype) for g in self._grad]
            autograd.mark_variables(self._data, self._grad, self.grad_req)

    def _set_trainer(self, trainer):
        if self._stype != "default" and self._trainer and trainer and self._trainer is not trainer:
            raise RuntimeError(
                f"Failed to set the trainer for Parameter '{self.name}' "
                "because it was already set. More than one trainers for a "
                f"{self._stype} Parameter is not supported."
            )
        self._trainer = trainer

    def var(self):
        """A Symbol variable standing for this parameter."""
        if self._var is None:
            from .. import symbol

            self._var = symbol.var(
                self.name,
                shape=self.shape,
                dtype=self.dtype,
                lr_mult=self.lr_mult,
                wd_mult=self.wd_mult,
                init=self.init,
                stype=self._stype,
            )
        if _np_mode():  # a _Symbol in NumPy mode (the same graph node, a new view of it)
            from ..symbol.numpy import _Symbol

            return _Symbol._from_entries(self._var._outputs)
        return self._var


def _write_current_value(arr, data) -> None:
    """``arr[:] = data`` as MXNet does it for ``set_data``: a later backward through a graph
    that read the parameter sees the new value (MXNet reads the array's current memory;
    e.g. spectral normalisation updates its ``u`` under ``autograd.pause()`` between the
    forward and the backward). The write goes around torch's saved-tensor version check."""
    from ..ndarray import NDArray

    t = getattr(arr, "_t", None) if getattr(arr, "stype", "default") == "default" else None
    if t is None or autograd.is_recording():
        arr[:] = data
        return
    import torch

    from .._executor import _fuse

    src = data._t if isinstance(data, NDArray) else torch.as_tensor(np.asarray(data))
    src = src.detach().to(device=t.device, dtype=t.dtype)
    if tuple(src.shape) != tuple(t.shape):
        arr[:] = data  # shape errors and broadcasting as an ordinary assignment
        return
    t.data.copy_(src)
    _fuse.WRITES[0] += 1  # cached fused weights must see the new value


from ._constant import Constant  # noqa: E402  (public path: gluon.parameter)
from ._paramdict import ParameterDict  # noqa: E402  (public path: gluon.parameter)
