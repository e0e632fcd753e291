"""Softmax family: ``softmax``, ``log_softmax``, ``softmin``, ``SoftmaxActivation`` and
``softmax_cross_entropy``.

(``SoftmaxOutput`` with its loss-layer gradient lives with the loss-output operators.)
"""

from __future__ import annotations

import torch

from .._dtype import to_torch
from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register


def _check_float(name: str, x: torch.Tensor) -> None:
    if not x.is_floating_point():
        raise MXNetError(
            f"Operator {name}: this operation only supports floating point types, "
            f"not {str(x.dtype).replace('torch.', '')}"
        )


def _prepare(name: str, attrs: dict, x: torch.Tensor):
    _check_float(name, x)
    dt = attrs["dtype"]
    if dt is not None:
        t = to_torch(dt)
        if not t.is_floating_point:
            raise MXNetError(
                f"Operator {name}: dtype must be None, float16, float32 or float64, got {dt}"
            )
        x = x.to(t)
    t = attrs["temperature"]
    if t is not None and t != 1.0:
        x = x / t
    axis = attrs["axis"]
    if not -x.dim() <= axis < x.dim():
        from ._reduce import axis_exceeds_message

        raise MXNetError(axis_exceeds_message(axis, x.dim(), name))
    return x, axis % x.dim()


def _length_mask(x: torch.Tensor, axis: int, length: torch.Tensor) -> torch.Tensor:
    """Boolean mask, True where the position along ``axis`` is below ``length``."""
    if length.is_floating_point():
        raise MXNetError(
            "Operator softmax: length must have an integer type, not "
            f"{str(length.dtype).replace('torch.', '')}"
        )
    expect = tuple(d for i, d in enumerate(x.shape) if i != axis)
    if tuple(length.shape) != expect:
        raise MXNetError(
            f"Operator softmax: length shape {tuple(length.shape)} must be the "
            f"data shape {tuple(x.shape)} without axis {axis}, i.e. {expect}"
        )
    pos = torch.arange(x.shape[axis], device=x.device)
    pos = pos.reshape((-1,) + (1,) * (x.dim() - axis - 1))
    return pos < length.unsqueeze(axis)


def _softmax(attrs, x, length=None):
    x, axis = _prepare("softmax", attrs, x)
    if length is None:
        if attrs["use_length"]:
            raise MXNetError(
                "Operator softmax expects 2 inputs (data, length) when use_length=True, but got 1"
            )
        return torch.softmax(x, axis)
    if not attrs["use_length"]:
        raise MXNetError(
            "Operator softmax expects 1 inputs, but got 2 instead (pass "
            "use_length=True to use the length input)"
        )
    mask = _length_mask(x, axis, length)
    x = x.masked_fill(~mask, float("-inf"))
    out = torch.softmax(x, axis)
    return out.masked_fill(~mask, 0.0)


def _log_softmax(attrs, x):
    x, axis = _prepare("log_softmax", attrs, x)
    return torch.log_softmax(x, axis)


def _softmin(attrs, x):
    x, axis = _prepare("softmin", attrs, x)
    return torch.softmax(-x, axis)


def _softmax_type(a, ins):
    return ins, [a["dtype"] or ins[0]]


def _common_params():
    return [
        Param("axis", "int", -1, doc="The axis along which to compute softmax."),
        Param("temperature", "float_or_none", None, doc="Temperature parameter."),
        Param(
            "dtype",
            "dtype",
            None,
            doc="Output data type: None (the input's), float16, float32 or float64.",
        ),
        Param(
            "use_length",
            "bool_or_none",
            False,
            doc="Whether to use the length input as a mask over the data input.",
        ),
    ]


register(
    OpDef(
        "softmax",
        _softmax,
        inputs=("data", "length"),
        fluent=True,
        active_inputs=lambda a: ("data", "length") if a["use_length"] else ("data",),
        params=_common_params(),
        infer_type=_softmax_type,
        infer_out=lambda a, s: [s[0]],
        doc="Softmax along an axis: exp(x / T) normalised to sum to one.",
    )
)
register(
    OpDef(
        "log_softmax",
        _log_softmax,
        fluent=True,
        params=_common_params(),
        infer_type=_softmax_type,
        infer_out=lambda a, s: [s[0]],
        doc="Log of the softmax along an axis.",
    )
)
register(
    OpDef(
        "softmin",
        _softmin,
        fluent=True,
        params=_common_params(),
        infer_type=_softmax_type,
        infer_out=lambda a, s: [s[0]],
        doc="Softmin along an axis: softmax of -x / T.",
    )
)


def _softmax_activation(attrs, x):
    _check_float("SoftmaxActivation", x)
    if attrs["mode"] == "channel":
        if x.dim() < 3:
            raise MXNetError(
                "Operator SoftmaxActivation: input needs at least 3 dimensions "
                f"when mode=channel, got shape {tuple(x.shape)}"
            )
        return torch.softmax(x, 1)
    return torch.softmax(x, -1)


register(
    OpDef(
        "SoftmaxActivation",
        _softmax_activation,
        params=[
            Param(
                "mode",
                "enum",
                "instance",
                choices=("channel", "instance"),
                doc="instance: softmax over the last axis of each instance; "
                "channel: softmax over axis 1.",
            )
        ],
        doc="Softmax activation (deprecated in MXNet in favour of softmax).",
    )
)


def _softmax_ce(attrs, data, label):
    _check_float("softmax_cross_entropy", data)
    if data.dim() != 2 or label.dim() != 1 or label.shape[0] != data.shape[0]:
        raise MXNetError(
            f"Operator softmax_cross_entropy: data must be (batch, classes) and "
            f"label (batch,), got {tuple(data.shape)} and {tuple(label.shape)}"
        )
    logp = torch.log_softmax(data, 1)
    idx = label.detach().to(torch.int64).unsqueeze(1)
    return -logp.gather(1, idx).sum().reshape(1)


register(
    OpDef(
        "softmax_cross_entropy",
        _softmax_ce,
        inputs=("data", "label"),
        doc="Sum over the batch of the cross entropy of softmax(data) and label.",
    )
)
