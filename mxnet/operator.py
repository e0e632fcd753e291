"""Custom operators written in Python: ``CustomOp``, ``CustomOpProp`` and ``register``.

Examples
--------
>>> import mxnet as mx
>>> class Sqr(mx.operator.CustomOp):
...     def forward(self, is_train, req, in_data, out_data, aux):
...         self.assign(out_data[0], req[0], in_data[0] * in_data[0])
...     def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
...         self.assign(in_grad[0], req[0], 2 * in_data[0] * out_grad[0])
>>> @mx.operator.register("doc_sqr")
... class SqrProp(mx.operator.CustomOpProp):
...     def create_operator(self, ctx, shapes, dtypes):
...         return Sqr()
>>> mx.nd.Custom(mx.nd.array([1., 2.]), op_type="doc_sqr").asnumpy()
array([1., 4.], dtype=float32)
"""

from __future__ import annotations

import collections

from ._legacy_pyop import NDArrayOp, NumpyOp, PythonOp  # noqa: F401
from ._op._custom import PROPS
from ._op._registry import get_op
from .base import MXNetError

__all__ = [
    "CustomOp",
    "CustomOpProp",
    "register",
    "get_all_registered_operators",
    "get_operator_arguments",
    "OperatorArguments",
    "PythonOp",
    "NumpyOp",
    "NDArrayOp",
]

OperatorArguments = collections.namedtuple("OperatorArguments", ["narg", "names", "types"])


class CustomOp:
    """Base class of a custom operator's computation (override forward and backward)."""

    def __init__(self):
        pass

    def forward(self, is_train, req, in_data, out_data, aux):
        """Compute ``out_data`` from ``in_data`` (lists of NDArrays); use :meth:`assign`."""
        raise MXNetError("CustomOp.forward must be overridden")

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Compute ``in_grad`` from ``out_grad``; use :meth:`assign`."""
        raise MXNetError("CustomOp.backward must be overridden")

    def assign(self, dst, req, src):
        """Write ``src`` into ``dst`` following ``req`` (null, write, inplace or add)."""
        if req == "null":
            return
        if req in ("write", "inplace"):
            dst[:] = src
        elif req == "add":
            dst[:] += src
        else:
            raise MXNetError(f"CustomOp.assign: unknown req {req!r}")


class CustomOpProp:
    """Describes a custom operator: its inputs, outputs, shapes, dtypes and operator.

    Parameters
    ----------
    need_top_grad : bool
        Whether backward needs the gradient of the outputs (False for loss layers).
    """

    def __init__(self, need_top_grad: bool = True):
        self.need_top_grad_ = need_top_grad

    def infer_shape(self, in_shape):
        """``(input shapes, output shapes, aux shapes)``; default: all like input 0."""
        return in_shape, (in_shape[0],) * len(self.list_outputs()), ()

    def infer_type(self, in_type):
        """``(input dtypes, output dtypes, aux dtypes)``; default: all like input 0."""
        return (
            in_type,
            [in_type[0]] * len(self.list_outputs()),
            [in_type[0]] * len(self.list_auxiliary_states()),
        )

    def infer_storage_type(self, in_stype):
        """``(input, output, aux storage types)``; the default accepts dense inputs only,
        as MXNet's (sparse inputs need an ``infer_storage_type`` of the operator's own)."""
        for i, stype in enumerate(in_stype):
            assert stype == "default", (
                "Default infer_storage_type implementation doesnt allow non default stypes: "
                f"found non default stype '{stype}' for in_stype[{i}]. Please implement "
                "infer_storage_type and infer_storage_type_backward interface in your custom "
                "operator if you have non-default input/output stypes"
            )
        return (
            in_stype,
            ["default"] * len(self.list_outputs()),
            ["default"] * len(self.list_auxiliary_states()),
        )

    def list_outputs(self):
        return ["output"]

    def list_arguments(self):
        return ["data"]

    def list_auxiliary_states(self):
        return []

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        deps = []
        if self.need_top_grad_:
            deps.extend(out_grad)
        deps.extend(in_data)
        deps.extend(out_data)
        return deps

    def create_operator(self, ctx, in_shapes, in_dtypes):
        """Return the :class:`CustomOp` that computes this operator."""
        return CustomOp()


def register(reg_name: str):
    """Class decorator registering a :class:`CustomOpProp` subclass as ``op_type=reg_name``."""

    def do_register(prop_cls):
        if not isinstance(prop_cls, type) or not issubclass(prop_cls, CustomOpProp):
            raise TypeError("mx.operator.register expects a subclass of CustomOpProp")
        PROPS[reg_name] = prop_cls
        get_op("Custom")._cache.clear()
        return prop_cls

    return do_register


def get_all_registered_operators() -> list[str]:
    """Names of every registered operator (the registry's names and aliases)."""
    from ._op._registry import all_names

    return all_names()


def get_operator_arguments(op_name: str) -> OperatorArguments:
    """``OperatorArguments(narg, names, types)`` of an operator: its array inputs (type
    ``NDArray-or-Symbol``) followed by its parameters.

    Examples
    --------
    >>> get_operator_arguments('Activation').names
    ['data', 'act_type']
    """
    op = get_op(op_name)
    if op.variadic:
        inputs, in_types = ["data"], ["NDArray-or-Symbol[]"]
    else:
        inputs = list(op._inputs) + ([] if callable(op._aux) else list(op._aux))
        in_types = ["NDArray-or-Symbol"] * len(inputs)
    names = inputs + [p.name for p in op.params]
    return OperatorArguments(len(names), names, in_types + [_arg_type(p) for p in op.params])


def _arg_type(p) -> str:
    """MXNet's argument type string: ``"int, required"``, ``"{'a', 'b'},optional,
    default='a'"``, ``"boolean, optional, default=0"``..."""
    from ._op._params import format_attr

    if p.kind == "enum":
        opts = sorted(repr(c) for c in p.choices if c is not None)
        if None in p.choices or (not p.required and p.default is None):
            opts = ["None"] + opts
        head = "{" + ", ".join(opts) + "}"
        return f"{head}, required" if p.required else f"{head},optional, default='{p.default}'"
    if p.required:
        return f"{p.type_doc()}, required"
    default = int(p.default) if isinstance(p.default, bool) else format_attr(p.default)
    return f"{p.type_doc()}, optional, default={default}"
