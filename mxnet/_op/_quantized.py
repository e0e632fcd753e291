"""INT8 quantized operators (``_contrib_quantized_*``) of MXNet 1.9.1's CPU (oneDNN) build.

Each takes int8/uint8 tensors plus one ``(min, max)`` pair of float32 ``(1,)`` tensors per
quantized input (the float range the integers stand for) and returns ``(out, min_out,
max_out)``. The integer arithmetic is exact (int8 products accumulate in int32, computed
here in float64, which holds every such sum exactly); the rescaling steps use float32 as
MXNet's kernels do. ``r = max(|min|, |max|)`` is an input's range throughout.

Behaviours of MXNet 1.9.1's oneDNN kernels kept on purpose:

- ``quantized_conv`` takes uint8 data only and adds its int8 ``bias`` to the int32
  accumulator unscaled; its output range is ``r_data/127 * r_weight/127 * 2**31``; for the
  shapes oneDNN runs on its non-VNNI kernel, adjacent input-channel products saturate at
  int16 (see ``_saturating_kernel``);
- ``quantized_fully_connected`` rescales the int8 bias to the accumulator's scale
  (truncated to int32); the output range is ``r_data/127 * r_weight/127 * 2**31`` for int8
  data, ``r_data/127 * r_weight/255 * 2**31`` for uint8 data;
- ``quantized_act`` (relu only) returns int8: int8 data gets ``max(x, 0)``, uint8 data is
  passed through reinterpreted as int8, still uint8 memory for the next oneDNN operator;
- ``quantized_pooling`` (max / avg) keeps the data's type and range; averages round half
  to even;
- ``quantized_elemwise_add`` returns int32 (range ``±(r_lhs + r_rhs)``) without a
  calibration range, int8/uint8 (uint8 when both inputs are) with one;
- ``quantized_concat`` rescales every input to the widest range; int8 out if any input is;
- ``quantized_elemwise_mul``: int32 products; with a calibration range the scaled product
  truncated and wrapped to int8; float32 with ``enable_float_output``;
- ``quantized_batch_norm`` folds gamma/beta/mean/var into a per-channel scale and shift onto
  the (required) calibrated int8 range;
- ``quantized_embedding`` looks up int8 rows; the weight's range passes through.

The last five live in ``_quantized_multi``.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from .._deferred import DeferredOpError
from ..base import MXNetError
from ._registry import OpDef, get_op, register
from ._shape import op_error

__all__: list[str] = []

_f32 = np.float32
_INT32_RANGE = _f32(2147483647)  # 2**31 as float32, as MXNet's kInt32Range
_K_INT8 = _f32(127.5)
_K_UINT8 = _f32(255.5)
_Q_DTYPES = (torch.int8, torch.uint8)


def _r(t: torch.Tensor) -> float:
    return float(t.detach().reshape(-1)[0].cpu())


def _maxabs(lo, hi) -> np.float32:
    return max(abs(_f32(lo)), abs(_f32(hi)))


def _range_out(lo: float, hi: float) -> tuple[torch.Tensor, torch.Tensor]:
    return (torch.tensor([lo], dtype=torch.float32), torch.tensor([hi], dtype=torch.float32))


def _mul_range(r_a: np.float32, levels_a: float, r_b: np.float32, levels_b: float):
    """Range of an int32 product accumulator (MXNet's QuantizationRangeForMultiplication)."""
    hi = _f32(_f32(r_a / _f32(levels_a)) * _f32(r_b / _f32(levels_b))) * _INT32_RANGE
    return _range_out(float(-hi), float(hi))


def _as_i32(x: torch.Tensor) -> torch.Tensor:
    """Exact integer values held in float64 to int32, saturated as oneDNN does."""
    return x.round().clamp(-(2**31), 2**31 - 1).to(torch.int32)


def _check_q(op: str, x: torch.Tensor, what: str = "data") -> None:
    if x.dtype not in _Q_DTYPES and x.device.type != "meta":
        raise op_error(op, f"{what} must be int8 or uint8, got {str(x.dtype)[6:]}")


def _fill_ranges(start: int):
    """``infer_shape``: every input from ``start`` on is a ``(1,)`` range."""

    def rule(a, s):
        return [x if i < start or x is not None else (1,) for i, x in enumerate(s)]

    return rule


def _floats_from(start: int, ins: list, first=None) -> list:
    out = list(ins)
    if first is not None and out[0] is None:
        out[0] = first
    for i in range(start, len(out)):
        out[i] = "float32"
    return out


_RANGE_OUTS = ("output", "min_output", "max_output")


# ---------------------------------------------------------------------------------------
# quantized_conv


def _qconv(a: dict, *t: torch.Tensor):
    nb = a["no_bias"]
    n = 2 if nb else 3
    x, w = t[0], t[1]
    _qconv_check(a, x.dim())
    if _saturating_kernel(x, w):
        out = _conv_int16_pairs(a, x, w)
    else:
        out = get_op("Convolution").compute(a, x.to(torch.float64), w.to(torch.float64))
    if not nb:  # the int8 bias enters the accumulator as is (MXNet 1.9.1's oneDNN kernel)
        shape = [1] * out.dim()
        shape[-1 if a["layout"] is not None and a["layout"][-1] == "C" else 1] = -1
        out = out + t[2].to(torch.float64).reshape(shape)
    lo_d, hi_d, lo_w, hi_w = (_r(v) for v in t[n : n + 4])
    res = (_as_i32(out), *_mul_range(_maxabs(lo_d, hi_d), 127, _maxabs(lo_w, hi_w), 127))
    if x.dtype != torch.uint8 and x.device.type != "meta":  # reported on read, as MXNet
        raise DeferredOpError(
            "_contrib_quantized_conv: oneDNN's quantized convolution (MXNet 1.9.1's CPU "
            "kernel) only supports uint8 as input type (quantize the data with "
            "out_type='uint8' or 'auto' and a non-negative calibration range)",
            res,
        )
    return res


def _saturating_kernel(x: torch.Tensor, w: torch.Tensor) -> bool:
    """Whether MXNet 1.9.1's oneDNN picks its non-VNNI int8 kernel for this 2-D convolution
    (probed on the oracle: input channels a multiple of 4 and filters a multiple of 4 but
    not of 16; with fewer than 16 input channels also an odd number (> 1) of 16-filter
    blocks, except 1x1 kernels with a multiple of 3 blocks); that kernel adds each pair of
    adjacent input channels' u8*s8 products in int16, saturating."""
    if x.dim() != 4 or x.device.type == "meta" or x.dtype != torch.uint8:
        return False
    c, f = x.shape[1], w.shape[0]
    if c % 4 or f % 4:
        return False
    if f % 16:
        return True
    blocks = f // 16
    if c >= 16 or blocks == 1 or blocks % 2 == 0:
        return False
    return not (w.shape[2] == w.shape[3] == 1 and blocks % 3 == 0)


def _conv_int16_pairs(a: dict, x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """The convolution with each adjacent input-channel pair's products summed and clamped
    to int16 before the int32 accumulation (``vpmaddubsw``), in float64 (exact)."""
    k, s, d, p = tuple(a["kernel"]), a["stride"] or (1, 1), a["dilate"] or (1, 1), a["pad"]
    n, c, h, wd = x.shape
    f = w.shape[0]
    cols = torch.nn.functional.unfold(x.to(torch.float64), k, tuple(d), tuple(p or (0, 0)),
                                      tuple(s))  # fmt: skip
    taps = k[0] * k[1]
    cols = cols.reshape(n, c // 2, 2, taps, -1)  # (N, pairs, 2, taps, L)
    wt = w.to(torch.float64).reshape(f, c // 2, 2, taps)
    out = torch.zeros((n, f, cols.shape[-1]), dtype=torch.float64)
    for t in range(taps):
        for i in range(n):
            xe, xo = cols[i, :, 0, t], cols[i, :, 1, t]  # (pairs, L)
            pair = wt[:, :, 0, t, None] * xe[None] + wt[:, :, 1, t, None] * xo[None]
            out[i] += pair.clamp_(-32768, 32767).sum(1)
    oh = (h + 2 * (p[0] if p else 0) - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (wd + 2 * (p[1] if p else 0) - d[1] * (k[1] - 1) - 1) // s[1] + 1
    return out.reshape(n, f, oh, ow)


def _qconv_check(a: dict, nd: int) -> None:
    """MXNet 1.9.1's shape-inference checks (raised at bind time, or on the call)."""
    if a["num_group"] != 1:
        raise MXNetError(
            f"_contrib_quantized_conv: quantized_conv only supports num_group=1 for now "
            f"(num_group={a['num_group']})"
        )
    if a["layout"] not in (None, "NCHW", "NCDHW") or nd not in (4, 5):
        raise MXNetError(
            "_contrib_quantized_conv: mkldnn quantized_conv now supports NCHW or NCDHW for "
            f"now (layout={a['layout']}, data of {nd} dims)"
        )


def _qconv_shape(a, s):
    n = 2 if a["no_bias"] else 3
    _qconv_check(a, len(s[0]) if s[0] is not None else len(a["kernel"]) + 2)
    head = get_op("Convolution").infer_shape_fn(a, list(s[:n]))
    return list(head) + [x if x is not None else (1,) for x in s[n:]]


def _qconv_out(a, s):
    n = 2 if a["no_bias"] else 3
    return [*get_op("Convolution").infer_out_fn(a, s[:n]), (1,), (1,)]


def _qconv_type(a, t):
    n = 2 if a["no_bias"] else 3
    ins = _floats_from(n, t)
    for i in range(1, n):
        ins[i] = "int8"
    return ins, ["int32", "float32", "float32"]


def _with_ranges(names: list[str]) -> list[str]:
    return names + [f"{k}_{n}" for n in names for k in ("min", "max")]


_CONV_ALL = _with_ranges(["data", "weight", "bias"])
_CONV_NB = _with_ranges(["data", "weight"])

register(
    OpDef(
        "_contrib_quantized_conv",
        _qconv,
        params=get_op("Convolution").params,
        inputs=_CONV_ALL,
        active_inputs=lambda a: _CONV_NB if a["no_bias"] else _CONV_ALL,
        outputs=_RANGE_OUTS,
        infer_shape=_qconv_shape,
        infer_out=_qconv_out,
        infer_type=_qconv_type,
        doc="Convolution of uint8 data with int8 weight (and int8 bias), accumulated in "
        "int32; returns (out, min_out, max_out). Inference only.\n\n"
        "Example: ``out, lo, hi = mx.nd.contrib.quantized_conv(q, w, b, q_lo, q_hi, w_lo, "
        "w_hi, b_lo, b_hi, kernel=(3, 3), num_filter=8)``",
    )
)


# ---------------------------------------------------------------------------------------
# quantized_fully_connected


def _qfc(a: dict, *t: torch.Tensor):
    nb = a["no_bias"]
    n = 2 if nb else 3
    x, w = t[0], t[1]
    _check_q("_contrib_quantized_fully_connected", x)
    lo_d, hi_d, lo_w, hi_w = (_r(v) for v in t[n : n + 4])
    out = get_op("FullyConnected").compute(a, x.to(torch.float64), w.to(torch.float64))
    is_i8 = x.dtype == torch.int8
    if not nb:
        data_scale = _f32((_K_INT8 if is_i8 else _K_UINT8) / _maxabs(lo_d, hi_d))
        weight_scale = _f32(_K_INT8 / _maxabs(lo_w, hi_w))
        rescale = _f32(_f32(data_scale * weight_scale) * _maxabs(_r(t[n + 4]), _r(t[n + 5])))
        rescale = _f32(rescale / _K_INT8)
        b = t[2].detach().cpu().numpy().astype(_f32) * rescale
        b32 = np.trunc(b).astype(np.int64)
        out = out + torch.from_numpy(b32).to(torch.float64)
    if is_i8:
        rng = _mul_range(_maxabs(lo_d, hi_d), 127, _maxabs(lo_w, hi_w), 127)
    else:
        rng = _mul_range(_maxabs(lo_d, hi_d), 127, _maxabs(lo_w, hi_w), 255)
    return (_as_i32(out), *rng)


def _qfc_shape(a, s):
    n = 2 if a["no_bias"] else 3
    head = get_op("FullyConnected").infer_shape_fn(a, list(s[:n]))
    return list(head) + [x if x is not None else (1,) for x in s[n:]]


def _qfc_out(a, s):
    return [*get_op("FullyConnected").infer_out_fn(a, s[:1]), (1,), (1,)]


def _qfc_type(a, t):
    if t[0] is not None and t[0] not in ("int8", "uint8"):
        raise MXNetError(
            f"_contrib_quantized_fully_connected: data must be int8 or uint8, got {t[0]}"
        )
    n = 2 if a["no_bias"] else 3
    ins = _floats_from(n, t)
    for i in range(1, n):
        ins[i] = "int8"
    return ins, ["int32", "float32", "float32"]


register(
    OpDef(
        "_contrib_quantized_fully_connected",
        _qfc,
        params=get_op("FullyConnected").params,
        inputs=_CONV_ALL,
        active_inputs=lambda a: _CONV_NB if a["no_bias"] else _CONV_ALL,
        outputs=_RANGE_OUTS,
        infer_shape=_qfc_shape,
        infer_out=_qfc_out,
        infer_type=_qfc_type,
        doc="FullyConnected of int8/uint8 data with int8 weight and bias, accumulated in "
        "int32; returns (out, min_out, max_out). Inference only.\n\n"
        "Example: ``out, lo, hi = mx.nd.contrib.quantized_fully_connected(q, w, b, q_lo, "
        "q_hi, w_lo, w_hi, b_lo, b_hi, num_hidden=10)``",
    )
)


# ---------------------------------------------------------------------------------------
# single-input operators: pooling, act, flatten

_ONE = ("data", "min_data", "max_data")


def _passthrough_type(a, t):
    return _floats_from(1, t), [t[0], "float32", "float32"]


def _qpool(a: dict, x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor):
    if a["pool_type"] not in ("max", "avg"):
        raise MXNetError(
            f"_contrib_quantized_pooling: only pool_type=max/avg are supported, got "
            f"pool_type={a['pool_type']}"
        )
    _check_q("_contrib_quantized_pooling", x)
    _qpool_check(a, x.dim())
    if _holds_u8(x):
        raise DeferredOpError(
            "_contrib_quantized_pooling: could not create a primitive descriptor iterator "
            "(MXNet 1.9.1's oneDNN pooling of a quantized_act output on uint8 data)",
            (torch.zeros(get_op("Pooling").infer_out_fn(a, [tuple(x.shape)])[0],
                         dtype=x.dtype), lo.detach().clone(), hi.detach().clone()),
        )  # fmt: skip
    if a["pool_type"] == "avg" and a["count_include_pad"] is not False:
        # oneDNN divides every window by the kernel size, padding and the overhang of the
        # 'full' convention included (MXNet's float Pooling leaves the overhang out)
        summed = get_op("Pooling").compute({**a, "pool_type": "sum"}, x.to(torch.float64))
        k = x.shape[2:] if a["global_pool"] else tuple(a["kernel"])
        out = torch.round(summed / math.prod(k))
    else:
        out = get_op("Pooling").compute(a, x.to(torch.float64))
        if a["pool_type"] == "avg":
            out = torch.round(out)
    return out.to(x.dtype), lo.detach().clone(), hi.detach().clone()


def _qpool_check(a: dict, nd: int) -> None:
    """MXNet 1.9.1's oneDNN shape checks (at bind time, or on the call)."""
    if nd not in (4, 5):
        raise MXNetError(
            "_contrib_quantized_pooling: MKL-DNN QuantizedPoolingOp only supports 4D/5D "
            f"layout yet, input should be 4D in(batch, channel, y, x) or 5D, got {nd}-D"
        )
    if a["layout"] not in (None, "NCHW", "NCDHW"):
        raise MXNetError(
            "_contrib_quantized_pooling: MKL-DNN QuantizedPoolingOp only supports "
            f"NCHW/NCDHW layout for now, got {a['layout']}"
        )


def _qpool_shape(a, s):
    if s[0] is not None:
        _qpool_check(a, len(s[0]))
    return [x if i < 1 or x is not None else (1,) for i, x in enumerate(s)]


register(
    OpDef(
        "_contrib_quantized_pooling",
        _qpool,
        params=get_op("Pooling").params,
        inputs=_ONE,
        outputs=_RANGE_OUTS,
        infer_shape=_qpool_shape,
        infer_out=lambda a, s: [*get_op("Pooling").infer_out_fn(a, s[:1]), (1,), (1,)],
        infer_type=_passthrough_type,
        doc="Max or average pooling of int8/uint8 data; the range passes through.\n\n"
        "Example: ``out, lo, hi = mx.nd.contrib.quantized_pooling(q, q_lo, q_hi, "
        "kernel=(2, 2), stride=(2, 2), pool_type='max')``",
    )
)


def _qact(a: dict, x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor):
    if a["act_type"] != "relu":
        raise MXNetError(
            f"_contrib_quantized_act: only act_type=relu is supported, got {a['act_type']}"
        )
    _check_q("_contrib_quantized_act", x)
    if x.dtype == torch.uint8 or _holds_u8(x):
        # MXNet 1.9.1: the uint8 bytes come back unchanged, typed int8 (oneDNN keeps them
        # as uint8 memory, which the next quantized operators read as such)
        out = x.contiguous().view(torch.int8).clone()
        out._mx_onednn_u8 = True
    else:
        out = x.clamp_min(0)
    return out, lo.detach().clone(), hi.detach().clone()


def _holds_u8(x: torch.Tensor) -> bool:
    """An int8 tensor that MXNet 1.9.1's oneDNN holds as uint8 memory (a quantized_act of
    uint8 data)."""
    return bool(getattr(x, "_mx_onednn_u8", False))


def _as_u8(x: torch.Tensor) -> torch.Tensor:
    return x.contiguous().view(torch.uint8)


register(
    OpDef(
        "_contrib_quantized_act",
        _qact,
        params=get_op("Activation").params,
        inputs=_ONE,
        outputs=_RANGE_OUTS,
        infer_shape=_fill_ranges(1),
        infer_out=lambda a, s: [tuple(s[0]), (1,), (1,)],
        infer_type=lambda a, t: (_floats_from(1, t), ["int8", "float32", "float32"]),
        doc="ReLU of int8 data (int8 output); the range passes through.\n\n"
        "Example: ``out, lo, hi = mx.nd.contrib.quantized_act(q, q_lo, q_hi, "
        "act_type='relu')``",
    )
)


def _qflatten(a: dict, x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor):
    if _holds_u8(x):  # oneDNN reorders the uint8 memory into the int8 output: saturates
        x = _as_u8(x).clamp(max=127).to(torch.int8)
    return x.reshape(x.shape[0], -1).clone(), lo.detach().clone(), hi.detach().clone()


register(
    OpDef(
        "_contrib_quantized_flatten",
        _qflatten,
        inputs=_ONE,
        outputs=_RANGE_OUTS,
        infer_shape=_fill_ranges(1),
        infer_out=lambda a, s: [(s[0][0], math.prod(s[0][1:])), (1,), (1,)],
        infer_type=_passthrough_type,
        doc="Flatten int8/uint8 data to 2-D; the range passes through.\n\n"
        "Example: ``out, lo, hi = mx.nd.contrib.quantized_flatten(q, q_lo, q_hi)``",
    )
)
