"""The ``Custom`` operator: runs a user's ``CustomOp`` registered with ``mx.operator.register``.

Inputs, outputs and auxiliary states come from the registered ``CustomOpProp`` (they depend
on ``op_type`` and the other keyword arguments, which are passed to the prop as strings).
Forward and backward call the user's NDArray code inside a ``torch.autograd.Function``.
"""

from __future__ import annotations

import contextlib
from typing import Any

import torch

from .. import _deferred
from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register

# op_type -> CustomOpProp subclass (filled by mxnet.operator.register)
PROPS: dict[str, type] = {}


class _AnyParams(dict):
    """Parameter map accepting every non-hidden key as a string parameter."""

    def __contains__(self, key) -> bool:
        return isinstance(key, str) and not (key.startswith("__") and key.endswith("__"))

    def get(self, key, default=None):
        if key in self:
            return dict.get(self, key) or Param(key, "str", "")
        return default


def _get_prop(attrs: dict):
    return attrs["_prop"]


class CustomOpDef(OpDef):
    """``Custom``: an OpDef whose names and shapes come from a user's CustomOpProp."""

    dynamic_inputs = True

    def __init__(self):
        super().__init__(
            "Custom",
            _compute,
            params=[Param("op_type", "str")],
            inputs=(),
            variadic="num_args",
            doc="Apply a custom operator implemented in Python (see ``mx.operator.register``).",
        )
        self.param_map = _AnyParams({"op_type": self.params[0]})

    def parse_attrs(self, kwargs: dict) -> dict:
        try:
            key = tuple(sorted((k, str(v)) for k, v in kwargs.items() if k != "num_args"))
            hit = self._cache.get(key)
            if hit is not None:
                return hit
        except TypeError:
            key = None
        strs = {
            k: (v if isinstance(v, str) else str(v))
            for k, v in kwargs.items()
            if k != "num_args" and not (k.startswith("__") and k.endswith("__"))
        }
        op_type = strs.pop("op_type", None)
        if op_type is None:
            raise MXNetError(
                "Required parameter op_type of string is not presented, in operator Custom"
            )
        cls = PROPS.get(op_type)
        if cls is None:
            raise MXNetError(
                f"Cannot find custom operator {op_type}; register it with mx.operator.register"
            )
        try:
            prop = cls(**strs)
        except TypeError as e:
            raise MXNetError(
                f"Custom operator {op_type}: cannot create its CustomOpProp "
                f"with arguments {strs}: {e}"
            ) from None
        attrs = {
            "op_type": op_type,
            "_kwargs": strs,
            "_prop": prop,
            "_ops": {},
        }  # cache of created CustomOp per (shapes, dtypes, device)
        if key is not None:
            self._cache[key] = attrs
        return attrs

    def format_attrs(self, kwargs: dict) -> dict[str, str]:
        self.parse_attrs(kwargs)
        return {
            k: (v if isinstance(v, str) else str(v)) for k, v in kwargs.items() if k != "num_args"
        }

    def input_names(self, attrs: dict, num_inputs: int | None = None) -> list[str]:
        return list(_get_prop(attrs).list_arguments())

    def aux_names(self, attrs: dict) -> list[str]:
        return list(_get_prop(attrs).list_auxiliary_states())

    def output_names(self, attrs: dict) -> list[str]:
        return list(_get_prop(attrs).list_outputs())

    def num_visible_outputs(self, attrs: dict) -> int:
        return len(self.output_names(attrs))

    def infer_shape(self, attrs: dict, in_shapes: list) -> tuple[list, list]:
        prop = _get_prop(attrs)
        nargs = len(prop.list_arguments())
        args = in_shapes[:nargs]
        nout = len(prop.list_outputs())
        if args and args[0] is None:
            return in_shapes, [None] * nout
        try:
            res = prop.infer_shape([list(s) if s is not None else [] for s in args])
        except (IndexError, TypeError, ValueError) as e:
            if all(s is not None and len(s) and 0 not in s for s in args):
                # every input shape is known: the user's rule rejected them (MXNet 1.9.1
                # fails the inference with this error)
                raise MXNetError(
                    f"Error in {attrs.get('op_type')}.infer_shape: {type(e).__name__}: {e}"
                ) from e
            return in_shapes, [None] * nout
        ins, outs = res[0], res[1]
        aux = res[2] if len(res) > 2 else []

        def known(s):
            s = tuple(int(d) for d in s)
            return s if s and 0 not in s else None

        return [known(s) for s in ins] + [known(s) for s in aux], [known(s) for s in outs]


def _infer_type(attrs: dict, in_types: list):
    import numpy as np

    from .._dtype import dtype_name

    prop = _get_prop(attrs)
    nargs = len(prop.list_arguments())
    first = next((t for t in in_types if t is not None), "float32")
    args = [np.dtype(t if t is not None else first).type for t in in_types[:nargs]]
    res = prop.infer_type(args)
    ins, outs = res[0], res[1]
    aux = res[2] if len(res) > 2 else []
    return (
        [dtype_name(t) for t in ins] + [dtype_name(t) for t in aux],
        [dtype_name(t) for t in outs],
    )


def _ctx_of(t: torch.Tensor):
    from ..context import Context

    if t.device.type == "cuda":
        return Context("gpu", t.device.index or 0)
    return Context("cpu", 0)


def _operator(attrs: dict, in_shapes, in_dtypes, ctx):
    key = (tuple(in_shapes), tuple(in_dtypes), str(ctx))
    ops = attrs["_ops"]
    op = ops.get(key)
    if op is None:
        op = _get_prop(attrs).create_operator(
            ctx, [list(s) for s in in_shapes], [d for d in in_dtypes]
        )
        ops[key] = op
    return op


@contextlib.contextmanager
def _user_errors(stage: str):
    """Re-raise an error of the user's CustomOp code as MXNetError (as MXNet does)."""
    try:
        yield
    except MXNetError:
        raise
    except Exception as e:  # noqa: BLE001 - any Python error of user code
        raise MXNetError(f"Error in CustomOp.{stage}: {type(e).__name__}: {e}") from e


class _CustomFunction(torch.autograd.Function):
    ignores_head = True  # a CustomOp.backward may ignore out_grad (_apply.block_grad)

    @staticmethod
    def forward(ctx_, attrs: dict, nargs: int, *tensors):
        from .._dtype import to_numpy_type
        from ..ndarray.ndarray import NDArray
        from ._state import state

        prop = _get_prop(attrs)
        args, aux = tensors[:nargs], tensors[nargs:]
        mctx = _ctx_of(tensors[0]) if tensors else _ctx_of(torch.empty(0))
        in_shapes = [tuple(t.shape) for t in args]
        res = prop.infer_shape([list(s) for s in in_shapes])
        out_shapes = [tuple(s) for s in res[1]]
        tres = prop.infer_type([to_numpy_type(t.dtype) for t in args])
        from .._dtype import to_torch

        out_dtypes = [to_torch(t) for t in tres[1]]
        op = _operator(attrs, in_shapes, [to_numpy_type(t.dtype) for t in args], mctx)
        wrap = NDArray._wrap
        in_nd = [wrap(t.detach(), mctx) for t in args]
        aux_nd = [wrap(t, mctx) for t in aux]
        dev = args[0].device if args else torch.device("cpu")
        out_nd = [
            wrap(torch.zeros(s, dtype=d, device=dev), mctx) for s, d in zip(out_shapes, out_dtypes)
        ]
        before = _deferred.boxes() if _deferred.PENDING[0] else []
        from ..autograd import pause

        # MXNet runs CustomOp.forward with recording off and the training flag set to
        # is_train (passed as the C int 0/1), so in-place NDArray ops there are allowed.
        is_train = int(bool(state.is_train))
        with (
            torch.no_grad(),
            pause(train_mode=bool(is_train)),
            _user_errors("forward"),
            _custom_op_span(attrs.get("op_type")),
        ):
            op.forward(
                is_train=is_train,
                req=["write"] * len(out_nd),
                in_data=in_nd,
                out_data=out_nd,
                aux=aux_nd,
            )
        outs = tuple(o._t for o in out_nd)
        failed = _deferred.take_new(before)
        if failed is not None:  # an operator inside forward failed at run time: MXNet
            # reports it when the Custom operator's outputs are read
            raise _deferred.DeferredOpError(failed[1], outputs=outs, kind=failed[0])
        ctx_.attrs = attrs
        ctx_.op = op
        ctx_.mctx = mctx
        ctx_.nargs = nargs
        ctx_.naux = len(aux)
        ctx_.save_for_backward(*args, *aux, *outs)
        return outs

    @staticmethod
    def backward(ctx_, *grads):
        from ..ndarray.ndarray import NDArray

        saved = ctx_.saved_tensors
        nargs, naux = ctx_.nargs, ctx_.naux
        args = saved[:nargs]
        aux = saved[nargs : nargs + naux]
        outs = saved[nargs + naux :]
        mctx = ctx_.mctx
        wrap = NDArray._wrap
        in_grad = [wrap(torch.zeros_like(t), mctx) for t in args]
        out_grad = [
            wrap(g if g is not None else torch.zeros_like(o), mctx) for g, o in zip(grads, outs)
        ]
        from ..autograd import pause

        with (
            torch.no_grad(),
            pause(train_mode=True),
            _user_errors("backward"),
            _custom_op_span("_backward_" + str(ctx_.attrs.get("op_type"))),
        ):
            ctx_.op.backward(
                req=["write"] * nargs,
                out_grad=out_grad,
                in_data=[wrap(t, mctx) for t in args],
                out_data=[wrap(t, mctx) for t in outs],
                in_grad=in_grad,
                aux=[wrap(t, mctx) for t in aux],
            )
        return (None, None, *[g._t for g in in_grad], *[None] * naux)


def _custom_op_span(name):
    from .. import profiler

    return profiler._custom_op_span(name)


def _compute(attrs: dict, *tensors: torch.Tensor) -> Any:
    nargs = len(_get_prop(attrs).list_arguments())
    if tensors and tensors[0].device.type == "meta":
        raise MXNetError("Custom operator: output shapes come from the prop's infer_shape")
    return _CustomFunction.apply(attrs, nargs, *tensors)


CUSTOM = register(CustomOpDef())
CUSTOM.infer_type_fn = _infer_type
