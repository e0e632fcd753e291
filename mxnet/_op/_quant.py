"""``_contrib_quantize_v2`` and ``_contrib_requantize`` (int8 / uint8 quantization).

``r = max(|min|, |max|)`` is the calibration range when given, else the data's; int8
outputs report the range ``(-r, r)``. As MXNet 1.9.1's CPU build:

- ``quantize_v2`` (oneDNN kernel): int8 ``q = clip(rint(x * 127.5 / r), -128, 127)``;
  uint8 ``q = clip(rint(x * 255.5 / r), 0, 255)``;
- ``requantize`` (oneDNN reorder): ``q = clip(rint(x * (r_in / 2**31) * (L / r)))`` with
  ``L`` = 127 (int8, clipped to -128..127) or 255 (uint8).

Arithmetic is float32, as MXNet's kernels.
"""

from __future__ import annotations

import numpy as np
import torch

from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register

__all__: list[str] = []

_f32 = np.float32
_INT32_MAX = float(np.iinfo(np.int32).max)


def _out_type(a: dict) -> str:
    kind = a["out_type"]
    if kind == "auto":
        lo = a["min_calib_range"]
        return (
            "uint8" if lo is not None and a["max_calib_range"] is not None and lo >= 0 else "int8"
        )
    return kind


def _calib(a: dict):
    lo, hi = a["min_calib_range"], a["max_calib_range"]
    return (lo, hi) if lo is not None and hi is not None else None


def _quantize_v2(a: dict, data: torch.Tensor):
    kind = _out_type(a)
    x = data.detach().cpu().numpy()
    if x.dtype in (np.int8, np.uint8):  # already quantized: passed through
        rng = _calib(a) or (float(np.iinfo(x.dtype).min), float(np.iinfo(x.dtype).max))
        return (
            data.clone(),
            torch.tensor([rng[0]], dtype=torch.float32),
            torch.tensor([rng[1]], dtype=torch.float32),
        )
    if x.dtype != np.float32:
        raise MXNetError(f"quantize_v2: the input must be float32, int8 or uint8, got {x.dtype}")
    rng = _calib(a)
    if rng is None:
        rng = (float(x.min()), float(x.max())) if x.size else (0.0, 0.0)
    lo, hi = _f32(rng[0]), _f32(rng[1])
    real = max(abs(float(lo)), abs(float(hi)))
    if real == 0:
        q = np.zeros(x.shape, dtype=kind)
    elif kind == "int8":  # MXNet 1.9.1's CPU (oneDNN) kernel: scale 127.5/r, clamped
        q = np.clip(np.rint(x * _f32(127.5 / real)), -128, 127).astype(np.int8)
    else:
        q = np.clip(np.rint(x * _f32(255.5 / real)), 0, 255).astype(np.uint8)
    if kind == "int8":
        lo, hi = -real, real
    return (
        torch.from_numpy(q),
        torch.tensor([lo], dtype=torch.float32),
        torch.tensor([hi], dtype=torch.float32),
    )


def _requantize(a: dict, data: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor):
    """MXNet 1.9.1's CPU (oneDNN reorder) kernel: ``q = saturate(rint(x * scale))`` in
    float32, ``scale = (r_in / 2**31) * (levels / r_out)`` with 127 (int8) or 255 (uint8)
    levels; ``r_out`` is the calibration range or the data's own (its int32 max-abs scaled)."""
    if data.dtype != torch.int32:
        raise MXNetError(f"requantize: the input must be int32, got {data.dtype}")
    kind = _out_type(a)
    q = data.detach().cpu().numpy()
    first_scale = _f32(
        _f32(max(abs(_f32(lo.reshape(-1)[0])), abs(_f32(hi.reshape(-1)[0])))) / _f32(_INT32_MAX)
    )
    rng = _calib(a)
    if rng is not None:
        real = max(abs(_f32(rng[0])), abs(_f32(rng[1])))
    else:
        data_range = int(max(abs(_f32(q.min())), abs(_f32(q.max())))) if q.size else 0
        in_range = max(abs(_f32(lo.reshape(-1)[0])), abs(_f32(hi.reshape(-1)[0])))
        real = _f32(_f32(_f32(data_range) * in_range) / _f32(_INT32_MAX))
    levels = _f32(255) if kind == "uint8" else _f32(127)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = _f32(first_scale * _f32(levels / real))
        v = np.rint((q.astype(_f32) * scale).astype(_f32))
    lo_q, hi_q = (0, 255) if kind == "uint8" else (-128, 127)
    out = np.clip(np.nan_to_num(v, nan=0.0), lo_q, hi_q).astype(kind)
    lo_out = _f32(0) if kind == "uint8" else -real
    return (
        torch.from_numpy(out),
        torch.tensor([lo_out], dtype=torch.float32),
        torch.tensor([real], dtype=torch.float32),
    )


def _q_type(out_kind):
    def infer(a, t):
        return t, [out_kind(a), "float32", "float32"]

    return infer


_CALIB = [
    Param(
        "min_calib_range",
        "float_or_none",
        None,
        doc="The minimum scalar value in the form of float32 obtained through calibration.",
    ),
    Param(
        "max_calib_range",
        "float_or_none",
        None,
        doc="The maximum scalar value in the form of float32 obtained through calibration.",
    ),
]
_OUT = Param(
    "out_type",
    "enum",
    "int8",
    choices=("auto", "int8", "uint8"),
    doc="Output data type; `auto` chooses from min_calib_range.",
)
_OUTS = ("output0", "output1", "output2")

register(
    OpDef(
        "_contrib_quantize_v2",
        _quantize_v2,
        params=[_OUT, *_CALIB],
        inputs=("data",),
        outputs=_OUTS,
        infer_out=lambda a, s: [s[0], (1,), (1,)],
        infer_type=_q_type(_out_type),
        doc="Quantize float32 data to int8/uint8 with the data's (or the calibration) range; "
        "returns (quantized, min_range, max_range).\n\n"
        "Example: ``q, lo, hi = mx.nd.contrib.quantize_v2(x, out_type='int8')``",
    )
)

register(
    OpDef(
        "_contrib_requantize",
        _requantize,
        params=[_OUT, *_CALIB],
        inputs=("data", "min_range", "max_range"),
        outputs=_OUTS,
        infer_out=lambda a, s: [s[0], (1,), (1,)],
        infer_shape=lambda a, s: [s[0], s[1] or (1,), s[2] or (1,)],
        infer_type=lambda a, t: (
            ["int32", "float32", "float32"],
            [_out_type(a), "float32", "float32"],
        ),
        doc="Requantize int32 data (range min_range..max_range) to int8/uint8 using the "
        "calibration range or the data's own range.\n\n"
        "Example: ``q8, lo, hi = mx.nd.contrib.requantize(q32, lo32, hi32)``",
    )
)
