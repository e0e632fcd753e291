"""Deferred initialization of an eager HybridBlock, by shape inference on its first call.

The block's ``hybrid_forward`` runs once with ``F`` replaced by :class:`InferNamespace`,
which behaves as ``mx.nd`` except that parameters whose shape is still unknown arrive as
:class:`Pending` placeholders. When an operator receives a placeholder, its registry
``infer_shape`` rule fills the parameter's shape from the known input shapes, the parameter
is initialized, and the operator runs on the real data. The output of that call is the
block's output, so the first forward pass costs no extra work.
"""

from __future__ import annotations

import inspect
import types

from .._op import get_op, has_op
from ..base import _Null

__all__ = ["Pending", "InferNamespace", "deferred_error"]


def deferred_error(msg: str) -> ValueError:
    return ValueError(f"Deferred initialization failed because shape cannot be inferred. {msg}")


class Pending:
    """A parameter whose shape is not known yet, standing in for its data."""

    __slots__ = ("param", "ctx")

    def __init__(self, param, ctx):
        self.param = param
        self.ctx = ctx

    def resolve(self):
        self.param._finish_deferred_init()
        return self.param.data(self.ctx)

    def __getattr__(self, name):
        if name in ("shape", "dtype", "context", "ctx"):
            raise deferred_error(f"Parameter '{self.param.name}' with unknown shape "
                                 f"{self.param.shape} was read (.{name}) before any operator "
                                 "could infer its shape.")
        raise deferred_error(f"Parameter '{self.param.name}' with unknown shape "
                             f"{self.param.shape} cannot be used through attribute '{name}'.")

    def _fail(self, *args, **kwargs):
        raise deferred_error(f"Parameter '{self.param.name}' with unknown shape "
                             f"{self.param.shape} was used in an expression whose operator "
                             "cannot infer parameter shapes.")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _fail
    __truediv__ = __rtruediv__ = __neg__ = __getitem__ = __pow__ = _fail


def _resolve_all(value):
    if isinstance(value, Pending):
        return value.resolve()
    if isinstance(value, (list, tuple)):
        return type(value)(_resolve_all(v) for v in value)
    return value


def _has_pending(values) -> bool:
    for v in values:
        if isinstance(v, Pending):
            return True
        if isinstance(v, (list, tuple)) and _has_pending(v):
            return True
    return False


def _infer_and_init(opname: str, fn, args, kwargs) -> None:
    """Use the op's shape rule to give every Pending argument its shape, then init it."""
    if not has_op(opname):
        raise deferred_error(f"Operator '{opname}' received a parameter of unknown shape and "
                             "cannot infer it.")
    op = get_op(opname)
    if op.variadic:
        raise deferred_error(f"Operator '{opname}' cannot infer the shapes of its inputs.")
    bound = inspect.signature(fn).bind_partial(*args, **kwargs).arguments
    extra = bound.pop("kwargs", {})
    bound.update(extra)
    slots = op.input_slots
    params = {k: v for k, v in bound.items()
              if k not in slots and k not in ("out", "name") and v is not None and v is not _Null}
    attrs = op.parse_attrs(params)
    names = op.input_names(attrs) + op.aux_names(attrs)
    values = [bound.get(n) for n in names]
    shapes = []
    for v in values:
        if v is None or isinstance(v, Pending):
            shapes.append(None)
        else:
            shapes.append(tuple(v.shape))
    known = [None if isinstance(v, Pending) else s for v, s in zip(values, shapes)]
    for v, i in zip(values, range(len(values))):
        if isinstance(v, Pending) and v.param.shape is not None and all(
                d > 0 for d in v.param.shape):
            known[i] = tuple(v.param.shape)
    try:
        in_shapes, _ = op.infer_shape(attrs, known)
    except ValueError:
        raise
    except Exception as e:  # the rule rejected the shapes: report them
        raise deferred_error(f"Operator '{opname}' failed to infer shapes from inputs "
                             f"{dict(zip(names, known))}: {e}") from None
    for n, v, s in zip(names, values, in_shapes):
        if isinstance(v, Pending):
            if s is None or not all(int(d) > 0 for d in s):
                raise deferred_error(f"Operator '{opname}' could not infer the shape of "
                                     f"input '{n}' (Parameter '{v.param.name}', shape "
                                     f"{v.param.shape}).")
            try:
                v.param.shape = s
            except AssertionError as e:
                raise deferred_error(str(e)) from None


class InferNamespace:
    """``mx.nd`` stand-in used for the first eager call of a block with deferred params."""

    def __init__(self, base, prefix: str = ""):
        self._base = base
        self._prefix = prefix  # "_contrib_" inside F.contrib, as the registry names ops

    def __getattr__(self, name):
        attr = getattr(self._base, name)
        if isinstance(attr, types.ModuleType):
            return InferNamespace(attr, f"_{name}_")
        if not callable(attr) or isinstance(attr, type):
            return attr
        opname = getattr(attr, "_opname", None)  # npx front ends name their operator
        if opname is None:
            full = self._prefix + name
            opname = full if self._prefix and has_op(full) else name

        def wrapper(*args, **kwargs):
            if _has_pending(args) or _has_pending(kwargs.values()):
                _infer_and_init(opname, attr, args, kwargs)
                args = _resolve_all(args)
                kwargs = {k: _resolve_all(v) for k, v in kwargs.items()}
            return attr(*args, **kwargs)

        wrapper.__name__ = name
        return wrapper
