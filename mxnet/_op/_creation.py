"""Creation operators: ``_zeros``, ``_ones``, ``_full``, ``_arange``, ``_eye``, ``*_like``."""

from __future__ import annotations

import math

import torch

from .._dtype import to_torch
from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register

_CTX = Param("ctx", "ctx", None, doc="Context of output, in format [cpu|gpu|cpu_pinned](n).")
_DTYPE = Param("dtype", "dtype", "float32", doc="Target data type.")


def _device(attrs) -> torch.device:
    ctx = attrs.get("ctx")
    if ctx is None:
        from ..context import current_context

        ctx = current_context()
    return ctx.torch_device


def _check_shape(name, shape):
    for d in shape:
        if d is None or d < 0:
            raise MXNetError(f"Operator {name}: invalid shape {shape}")
    return shape


def _filled(name: str, value_of):
    def compute(attrs):
        shape = _check_shape(name, attrs["shape"])
        return torch.full(shape, value_of(attrs), dtype=to_torch(attrs["dtype"]),
                          device=_device(attrs))

    return compute


for _name, _val, _extra in (("_zeros", lambda a: 0, ()), ("_ones", lambda a: 1, ()),
                            ("_full", lambda a: a["value"],
                             (Param("value", "float", doc="Value with which to fill."),))):
    register(OpDef(_name, _filled(_name, _val), inputs=(), creation=True,
                   params=[Param("shape", "shape", (), doc="The shape of the output"),
                           _CTX, _DTYPE, *_extra],
                   infer_out=lambda a, s: [a["shape"]],
                   doc=f"Return a new array of given shape filled with {_name[1:]} values."))

register(OpDef("_zeros_without_dtype", _filled("_zeros_without_dtype", lambda a: 0), inputs=(),
               creation=True, params=[Param("shape", "shape", ()), _CTX,
                                      Param("dtype", "dtype", "float32")],
               infer_out=lambda a, s: [a["shape"]]))


def _arange_len(a) -> int:
    start, stop, step = a["start"], a["stop"], a["step"]
    if stop is None:
        start, stop = 0.0, start
    if step == 0:
        raise MXNetError("Operator _arange: Range does not support step=0, received 0")
    if not a["infer_range"] and (start >= stop if step > 0 else start <= stop):
        # MXNet 1.9.1 refuses empty ranges (mx.nd.arange(0), arange(3, 1))
        raise MXNetError(
            f"Operator _arange: Invalid range (start, stop, step) = ({start:g},{stop:g},{step:g})"
        )
    n = int(math.ceil((stop - start) / step))
    return max(n, 0) * a["repeat"]


def _arange(a):
    start, stop, step = a["start"], a["stop"], a["step"]
    if stop is None:
        start, stop = 0.0, start
    n = _arange_len(a) // a["repeat"]
    dt = to_torch(a["dtype"])
    if dt.is_floating_point:
        t = start + step * torch.arange(n, dtype=torch.float64, device=_device(a))
    else:
        # integer dtypes: MXNet truncates start and step to the dtype before stepping
        t = int(start) + int(step) * torch.arange(n, dtype=torch.int64, device=_device(a))
    t = t.to(dt)
    if a["repeat"] > 1:
        t = t.repeat_interleave(a["repeat"])
    return t


register(OpDef(
    "_arange", _arange, inputs=(), creation=True,
    params=[Param("start", "float", doc="Start of interval."),
            Param("stop", "float_or_none", None, doc="End of interval."),
            Param("step", "float", 1.0, doc="Spacing between values."),
            Param("repeat", "int", 1, doc="Times to repeat each element."),
            Param("infer_range", "bool", False), _CTX, _DTYPE],
    infer_out=lambda a, s: [(_arange_len(a),)],
    doc="Return evenly spaced values within a given interval."))


def _eye(a):
    n, m, k = a["N"], a["M"] or a["N"], a["k"]
    t = torch.zeros((n, m), dtype=to_torch(a["dtype"]), device=_device(a))
    t.diagonal(k).fill_(1)
    return t


register(OpDef("_eye", _eye, inputs=(), creation=True,
               params=[Param("N", "int"), Param("M", "int", 0), Param("k", "int", 0), _CTX,
                       _DTYPE],
               infer_out=lambda a, s: [(a["N"], a["M"] or a["N"])],
               doc="Return a 2-D array with ones on the diagonal and zeros elsewhere."))


def _linspace(a):
    n = a["num"]
    start, stop = a["start"], a["stop"]
    dt = to_torch(a["dtype"])
    if a["endpoint"]:
        t = torch.linspace(start, stop, n, dtype=torch.float64, device=_device(a))
    else:
        t = start + (stop - start) / n * torch.arange(n, dtype=torch.float64, device=_device(a))
    return t.to(dt)


register(OpDef("_linspace", _linspace, inputs=(), creation=True,
               params=[Param("start", "float"), Param("stop", "float_or_none", None),
                       Param("step", "float", 1.0), Param("repeat", "int", 1),
                       Param("infer_range", "bool", False), Param("num", "int", 50),
                       Param("endpoint", "bool", True), _CTX, _DTYPE],
               infer_out=lambda a, s: [(a["num"],)],
               doc="Return evenly spaced numbers over a specified interval."))

register(OpDef("zeros_like", lambda a, x: torch.zeros_like(x), fluent=True,
               doc="Return an array of zeros with the same shape and type as the input."))
register(OpDef("ones_like", lambda a, x: torch.ones_like(x), fluent=True,
               doc="Return an array of ones with the same shape and type as the input."))
