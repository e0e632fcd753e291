"""INT8 quantized operators of several inputs or parameters, as MXNet 1.9.1's CPU build:
``_contrib_quantized_elemwise_add``, ``_concat``, ``_elemwise_mul``, ``_batch_norm`` and
``_embedding`` (the shared helpers and the semantics notes are in ``_quantized``)."""

from __future__ import annotations

import numpy as np
import torch

from .._deferred import DeferredOpError
from ..base import MXNetError
from ._params import Param
from ._quant import _CALIB
from ._quantized import (
    _INT32_RANGE,
    _K_INT8,
    _K_UINT8,
    _RANGE_OUTS,
    _as_u8,
    _check_q,
    _f32,
    _floats_from,
    _holds_u8,
    _maxabs,
    _mul_range,
    _r,
    _range_out,
)
from ._registry import OpDef, get_op, register

__all__: list[str] = []


# ---------------------------------------------------------------------------------------
# quantized_elemwise_add


def _level_range(dtype: torch.dtype) -> np.float32:
    return _K_INT8 if dtype == torch.int8 else _K_UINT8


_SATURATE = {
    torch.int8: (-128, 127),
    torch.uint8: (0, 255),
    torch.int32: (-(2**31), 2**31 - 1),
}


def _saturate(v: np.ndarray, dtype: torch.dtype) -> torch.Tensor:
    """float32 values rounded half to even and saturated to ``dtype`` (oneDNN's rule)."""
    lo, hi = _SATURATE[dtype]
    r = np.clip(np.rint(v.astype(np.float64)), lo, hi)
    return torch.from_numpy(r.astype(str(dtype)[6:]))


def _calib(a: dict):
    lo, hi = a.get("min_calib_range"), a.get("max_calib_range")
    return (lo, hi) if lo is not None and hi is not None else None


def _add_out_dtype(a: dict, ta, tb) -> str:
    if _calib(a) is None:
        return "int32"
    return "uint8" if ta == "uint8" and tb == "uint8" else "int8"


def _qadd(a: dict, xa, xb, lo_a, hi_a, lo_b, hi_b):
    for v in (xa, xb):
        _check_q("_contrib_quantized_elemwise_add", v)
    name = _add_out_dtype(a, str(xa.dtype)[6:], str(xb.dtype)[6:])
    out_t = getattr(torch, name)
    abs_a, abs_b = _maxabs(_r(lo_a), _r(hi_a)), _maxabs(_r(lo_b), _r(hi_b))
    a_i8 = xa.dtype == torch.int8
    range_a = _level_range(xa.dtype)
    scale_a = _f32(range_a / abs_a)
    scale_b = _f32(_level_range(xb.dtype) / abs_b)
    out_range = {"int8": _K_INT8, "uint8": _K_UINT8, "int32": _INT32_RANGE}[name]
    calib = _calib(a)
    if calib is not None:
        out_lo, out_hi = float(_f32(calib[0])), float(_f32(calib[1]))
        out_scale = _f32(out_range / _maxabs(*calib))
    else:
        out_hi = float(_f32(abs_a + abs_b))
        out_lo = -out_hi
    total = _f32(abs_a + abs_b)

    def share(absv, rng):  # this input's scale into the output when no calibration
        return _f32(_f32(absv * out_range) / _f32(total * rng))

    # (a quantized_act output on uint8 data is read as the uint8 memory oneDNN holds)
    va = (_as_u8(xa) if _holds_u8(xa) else xa).detach().cpu().numpy().astype(_f32)
    vb = (_as_u8(xb) if _holds_u8(xb) else xb).detach().cpu().numpy().astype(_f32)
    s = [_f32(1), _f32(1)]
    if xa.dtype != xb.dtype:  # the uint8 input is first reordered into int8 (saturating)
        if a_i8:
            u8 = _f32(out_scale / scale_b) if calib else share(abs_b, _K_UINT8)
            s[0] = _f32(out_scale / scale_a) if calib else share(abs_a, range_a)
            vb = np.clip(np.rint(vb * u8), -128, 127).astype(_f32)
        else:
            u8 = _f32(out_scale / scale_a) if calib else share(abs_a, range_a)
            s[1] = _f32(out_scale / scale_b) if calib else share(abs_b, _K_INT8)
            va = np.clip(np.rint(va * u8), -128, 127).astype(_f32)
    elif calib:
        s = [_f32(out_scale / scale_a), _f32(out_scale / scale_b)]
    else:
        s = [share(abs_a, range_a), share(abs_b, range_a)]
    res = (va * s[0]).astype(_f32) + (vb * s[1]).astype(_f32)
    if out_t == torch.int32:  # float -> int32 conversion: out of range gives INT32_MIN
        r = np.rint(res.astype(np.float64))
        r[(r > 2**31 - 1) | (r < -(2**31))] = -(2**31)
        return (torch.from_numpy(r.astype(np.int32)), *_range_out(out_lo, out_hi))
    return (_saturate(res.astype(_f32), out_t), *_range_out(out_lo, out_hi))


_CALIB_PARAMS = _CALIB  # min/max_calib_range, as quantize_v2/requantize


def _qadd_type(a, t):
    ins = _floats_from(2, t)
    return ins, [_add_out_dtype(a, t[0], t[1]), "float32", "float32"]


register(
    OpDef(
        "_contrib_quantized_elemwise_add",
        _qadd,
        params=_CALIB_PARAMS,
        inputs=("lhs", "rhs", "lhs_min", "lhs_max", "rhs_min", "rhs_max"),
        outputs=_RANGE_OUTS,
        infer_shape=lambda a, s: [
            s[0] or s[1],
            s[1] or s[0],
            *[x if x is not None else (1,) for x in s[2:]],
        ],
        infer_out=lambda a, s: [tuple(s[0]), (1,), (1,)],
        infer_type=_qadd_type,
        doc="Sum of two int8/uint8 arrays: int32 output, or int8/uint8 with a calibration "
        "range; returns (out, min_out, max_out).\n\n"
        "Example: ``out, lo, hi = mx.nd.contrib.quantized_elemwise_add(qa, qb, a_lo, a_hi, "
        "b_lo, b_hi)``",
    )
)


# ---------------------------------------------------------------------------------------
# quantized_concat


class _QuantizedConcat(OpDef):
    """``num_args`` data inputs, then one (min, max) pair per input."""

    def input_names(self, attrs: dict, num_inputs: int | None = None) -> list[str]:
        n = attrs.get("num_args") or 0
        return _with_ranges_arg([f"arg{i}" for i in range(n)])


def _with_ranges_arg(names: list[str]) -> list[str]:
    return names + [f"{n}_{k}" for n in names for k in ("min", "max")]


def _qconcat(a: dict, *t: torch.Tensor):
    n = a["num_args"]
    xs, rng = t[:n], t[n:]
    if len(rng) != 2 * n:
        raise MXNetError(
            f"_contrib_quantized_concat: expected {3 * n} inputs (num_args={n} arrays and "
            f"their min/max), got {len(t)}"
        )
    for x in xs:
        _check_q("_contrib_quantized_concat", x)
    los = [_f32(_r(v)) for v in rng[0::2]]
    his = [_f32(_r(v)) for v in rng[1::2]]
    out_lo, out_hi = min(los), max(his)
    out_t = torch.int8 if any(x.dtype == torch.int8 for x in xs) else torch.uint8
    out_scale = _f32(_level_range(out_t) / _maxabs(out_lo, out_hi))
    parts = []
    for x, lo, hi in zip(xs, los, his):
        if x.dtype == out_t and _maxabs(lo, hi) == _maxabs(out_lo, out_hi):
            parts.append(x)
            continue
        scale = _f32(out_scale / _f32(_level_range(x.dtype) / _maxabs(lo, hi)))
        v = x.detach().cpu().numpy().astype(_f32) * scale
        parts.append(_saturate(v.astype(_f32), out_t))
    out = get_op("Concat").compute({"num_args": n, "dim": a["dim"]}, *parts)
    return (out, *_range_out(float(out_lo), float(out_hi)))


def _qconcat_shape(a, s):
    n = a["num_args"]
    return list(s[:n]) + [x if x is not None else (1,) for x in s[n:]]


def _qconcat_type(a, t):
    n = a["num_args"]
    data = t[:n]
    out = "int8" if "int8" in data else "uint8"
    return _floats_from(n, t), [out, "float32", "float32"]


register(
    _QuantizedConcat(
        "_contrib_quantized_concat",
        _qconcat,
        params=[
            Param("num_args", "int", doc="Number of inputs to be concated."),
            Param("dim", "int", 1, doc="the dimension to be concated."),
        ],
        inputs=(),
        variadic="num_args",
        outputs=_RANGE_OUTS,
        infer_shape=_qconcat_shape,
        infer_out=lambda a, s: [
            *get_op("Concat").infer_out_fn(a, s[: a["num_args"]]),
            (1,),
            (1,),
        ],
        infer_type=_qconcat_type,
        doc="Concatenate int8/uint8 arrays, rescaling each to the widest (min, max) range; "
        "int8 output if any input is int8, else uint8.\n\n"
        "Example: ``out, lo, hi = mx.nd.contrib.quantized_concat(qa, qb, a_lo, a_hi, b_lo, "
        "b_hi, num_args=2, dim=1)``",
    )
)


# ---------------------------------------------------------------------------------------
# quantized_embedding, quantized_elemwise_mul, quantized_batch_norm


def _qembedding(a: dict, data, weight, lo_w, hi_w):
    _check_q("_contrib_quantized_embedding", weight, "weight")
    out = get_op("Embedding").compute(a, data, weight)
    return out, lo_w.detach().clone(), hi_w.detach().clone()


register(
    OpDef(
        "_contrib_quantized_embedding",
        _qembedding,
        params=get_op("Embedding").params,
        inputs=("data", "weight", "min_weight", "max_weight"),
        outputs=_RANGE_OUTS,
        infer_shape=lambda a, s: [
            s[0],
            s[1] if s[1] is not None else (a["input_dim"], a["output_dim"]),
            *[x if x is not None else (1,) for x in s[2:]],
        ],
        infer_out=lambda a, s: [(*s[0], a["output_dim"]), (1,), (1,)],
        infer_type=lambda a, t: (
            [t[0] or "float32", "int8", "float32", "float32"],
            ["int8", "float32", "float32"],
        ),
        doc="Look up rows of an int8 embedding table; the weight's range passes through.\n\n"
        "Example: ``out, lo, hi = mx.nd.contrib.quantized_embedding(idx, w, w_lo, w_hi, "
        "input_dim=10, output_dim=4)``",
    )
)


def _qmul(a: dict, xa, xb, lo_a, hi_a, lo_b, hi_b):
    """MXNet 1.9.1's CPU kernel: int8 products, scaled in float32; the int8 output (with a
    calibration range) is the product truncated toward zero, wrapped to 8 bits."""
    va, vb = (
        (v.contiguous().view(torch.int8) if v.dtype == torch.uint8 else v).detach().cpu().numpy()
        for v in (xa, xb)
    )
    prod = (va.astype(np.int32) * vb.astype(np.int32)).astype(_f32)
    scale_a = _f32(_K_INT8 / _maxabs(_r(lo_a), _r(hi_a)))
    scale_b = _f32(_K_INT8 / _maxabs(_r(lo_b), _r(hi_b)))
    if a["enable_float_output"]:
        scale = _f32(1.0 / np.float64(scale_a) / np.float64(scale_b))
        return torch.from_numpy((prod * scale).astype(_f32))
    calib = _calib(a)
    if calib is None:
        out = torch.from_numpy(prod.astype(np.int64).astype(np.int32))
        return (
            out,
            *_mul_range(_maxabs(_r(lo_a), _r(hi_a)), 127, _maxabs(_r(lo_b), _r(hi_b)), 127),
        )
    out_scale = _f32(np.float64(_K_INT8) / np.float64(_maxabs(*calib)))
    scale = _f32(_f32(out_scale / scale_a) / scale_b)
    v = np.trunc((prod * scale).astype(_f32)).astype(np.int64)
    wrapped = ((v + 128) % 256 - 128).astype(np.int8)
    return (torch.from_numpy(wrapped), *_range_out(float(_f32(calib[0])), float(_f32(calib[1]))))


def _qmul_type(a, t):
    if a["enable_float_output"]:
        out = "float32"
    else:
        out = "int32" if _calib(a) is None else "int8"
    ins = list(t)
    ins[1] = ins[1] or "int8"
    return _floats_from(2, ins), [out] if out == "float32" else [out, "float32", "float32"]


register(
    OpDef(
        "_contrib_quantized_elemwise_mul",
        _qmul,
        params=[
            *_CALIB_PARAMS,
            Param(
                "enable_float_output",
                "bool",
                False,
                doc="Whether to enable float32 output.",
            ),
        ],
        inputs=("lhs", "rhs", "lhs_min", "lhs_max", "rhs_min", "rhs_max"),
        outputs=lambda a: ["output"] if a["enable_float_output"] else list(_RANGE_OUTS),
        infer_shape=lambda a, s: [
            s[0] or s[1],
            s[1] or s[0],
            *[x if x is not None else (1,) for x in s[2:]],
        ],
        infer_out=lambda a, s: (
            [tuple(s[0])] if a["enable_float_output"] else [tuple(s[0]), (1,), (1,)]
        ),
        infer_type=_qmul_type,
        doc="Element-wise product of int8 arrays (int32 output, int8 with a calibration "
        "range, float32 with enable_float_output).",
    )
)


def _qbatchnorm(a: dict, x, gamma, beta, mean, var, lo, hi):
    """oneDNN's int8 BatchNorm (inference statistics): gamma/beta/mean/var fold into a
    per-channel scale and shift onto the calibrated int8 output range."""
    _check_q("_contrib_quantized_batch_norm", x)
    v = x.detach().cpu().numpy()
    if x.dtype == torch.uint8:  # reordered to int8 first
        v = np.clip(np.rint(v.astype(_f32) * _f32(_K_INT8 / _K_UINT8)), -128, 127)
    v = v.astype(_f32)
    max_abs_data = _maxabs(_r(lo), _r(hi))
    calib = _calib(a)
    if calib is None:
        lo_o = hi_o = _f32(0)
    else:
        lo_o, hi_o = _f32(calib[0]), _f32(calib[1])
    max_abs_out = _maxabs(lo_o, hi_o) if calib is not None else _f32(1)  # (placeholder)
    ax = a["axis"] % v.ndim
    g, b = (t.detach().cpu().numpy().astype(_f32) for t in (gamma, beta))
    m, s2 = (t.detach().cpu().numpy().astype(_f32) for t in (mean, var))
    invstd = (1.0 / np.sqrt(s2.astype(np.float64) + a["eps"])).astype(_f32)
    scale = (((g * invstd).astype(_f32) * max_abs_data).astype(_f32) / max_abs_out).astype(_f32)
    shift = ((b - ((m * g).astype(_f32) * invstd).astype(_f32)).astype(_f32) * _K_INT8).astype(_f32)
    shift = (shift / max_abs_out).astype(_f32)
    inv1 = _f32(_f32(1) / np.sqrt(_f32(1) + _f32(a["eps"]), dtype=_f32))
    shape = [1] * v.ndim
    shape[ax] = -1
    y = ((v * inv1).astype(_f32) * scale.reshape(shape)).astype(_f32) + shift.reshape(shape)
    res = (
        _saturate(y.astype(_f32), torch.int8),
        *_range_out(float(lo_o), float(hi_o)),
    )
    if calib is None:
        raise DeferredOpError(
            "_contrib_quantized_batch_norm: min_calib_range or max_calib_range is not "
            "available. Quantized BN currently don't support calib_mode=None",
            res,
        )
    return res


def _qbn_params():
    bn = list(get_op("BatchNorm").params)
    have = {p.name for p in bn}
    return bn + [p for p in _CALIB_PARAMS if p.name not in have]


register(
    OpDef(
        "_contrib_quantized_batch_norm",
        _qbatchnorm,
        params=_qbn_params(),
        inputs=("data", "gamma", "beta", "moving_mean", "moving_var", "min_data", "max_data"),
        mutates=(3, 4),
        outputs=_RANGE_OUTS,
        infer_shape=lambda a, s: _qbn_shape(a, s),
        infer_out=lambda a, s: [tuple(s[0]), (1,), (1,)],
        infer_type=lambda a, t: (
            [t[0], "float32", "float32", "float32", "float32", "float32", "float32"],
            ["int8", "float32", "float32"],
        ),
        doc="BatchNorm of int8 data with float32 parameters; int8 output with the "
        "calibrated range.",
    )
)


def _qbn_shape(a, s):
    c = None
    if s[0] is not None:
        ax = a["axis"] % len(s[0])
        c = (s[0][ax],)
    out = list(s)
    for i in (1, 2, 3, 4):
        if out[i] is None and c is not None:
            out[i] = c
    for i in (5, 6):
        if out[i] is None:
            out[i] = (1,)
    return out
