"""``mx.nd.contrib`` operators: boolean_mask, index_copy, index_array, arange_like,
div_sqrt_dim, quadratic, allclose, the straight-through estimators, gradientmultiplier,
the interleaved attention matmuls, fft/ifft and SparseEmbedding (dense behaviour).

Example: ``mx.nd.contrib.boolean_mask(x, mx.nd.array([0, 1]))`` keeps the rows of ``x``
whose mask entry is non-zero.
"""

from __future__ import annotations

import math

import torch

from ._nn import _embedding, _embedding_shape, _embedding_type
from ._params import Param
from ._registry import _REGISTRY as _REG
from ._registry import OpDef, register
from ._shape import fmt_shape, norm_axis, op_error

__all__: list[str] = []


def _same_shape(a: dict, s: list) -> list:
    return s


# ---------------------------------------------------------------------------------------
# boolean_mask / index_copy / index_array


def _boolean_mask(a: dict, data: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    axis = a["axis"]
    if axis != 0:
        raise op_error("_contrib_boolean_mask", f"Check failed: axis == 0 ({axis} vs. 0) : "
                                                "Not supported yet")
    if index.dim() != 1 or index.shape[0] != data.shape[0]:
        raise op_error("_contrib_boolean_mask",
                       f"index must be 1-D with length data.shape[0] (data "
                       f"{fmt_shape(data.shape)}, index {fmt_shape(index.shape)})")
    keep = torch.nonzero(index.detach() != 0).reshape(-1)
    return torch.index_select(data, 0, keep)


register(OpDef("_contrib_boolean_mask", _boolean_mask, inputs=("data", "index"),
               params=[Param("axis", "int", 0, doc="An integer that represents the axis in "
                             "NDArray to mask from.")],
               doc="Keep the slices of ``data`` along axis 0 whose ``index`` entry is "
                   "non-zero.\n\nExample: ``mx.nd.contrib.boolean_mask(x, mask)``"))
# the output shape depends on the mask's values: unknown to shape inference until run
_REG["_contrib_boolean_mask"].dynamic_shape = True


def _index_copy(a: dict, old: torch.Tensor, index: torch.Tensor,
                new: torch.Tensor) -> torch.Tensor:
    if new.dim() != old.dim() or tuple(new.shape[1:]) != tuple(old.shape[1:]) \
            or index.dim() != 1 or index.shape[0] != new.shape[0]:
        raise op_error("_contrib_index_copy",
                       f"shapes do not match: old_tensor {fmt_shape(old.shape)}, index_vector "
                       f"{fmt_shape(index.shape)}, new_tensor {fmt_shape(new.shape)}")
    idx = index.detach().to(torch.int64)
    return old.index_copy(0, idx, new.to(old.dtype))


register(OpDef("_contrib_index_copy", _index_copy,
               inputs=("old_tensor", "index_vector", "new_tensor"),
               doc="Copy the rows of ``new_tensor`` into a copy of ``old_tensor`` at the rows "
                   "given by ``index_vector``.\n\n"
                   "Example: ``mx.nd.contrib.index_copy(old, mx.nd.array([2, 0]), new)``"))


def _index_array(a: dict, data: torch.Tensor) -> torch.Tensor:
    nd = data.dim()
    axes = a["axes"]
    axes = list(range(nd)) if axes is None else [norm_axis("_contrib_index_array", x, nd, "axes")
                                                  for x in axes]
    grids = torch.meshgrid(*[torch.arange(n, device=data.device) for n in data.shape],
                           indexing="ij") if nd else []
    if not axes:
        return torch.zeros(tuple(data.shape) + (0,), dtype=torch.int64, device=data.device)
    return torch.stack([grids[x] for x in axes], dim=-1).to(torch.int64)


register(OpDef("_contrib_index_array", _index_array,
               params=[Param("axes", "shape_or_none", None, doc="The axes to include in the "
                             "index array. Supports negative values.")],
               infer_type=lambda a, t: (t, ["int64"]),
               doc="An int64 array of the multi-dimensional index of every element of "
                   "``data`` (shape ``data.shape + (len(axes),)``).\n\n"
                   "Example: ``mx.nd.contrib.index_array(x, axes=(1,))``"))


# ---------------------------------------------------------------------------------------
# arange_like / div_sqrt_dim / quadratic / allclose


def _arange_like(a: dict, data: torch.Tensor) -> torch.Tensor:
    axis = a["axis"]
    if axis is None:
        shape = tuple(data.shape)
    else:
        shape = (data.shape[norm_axis("_contrib_arange_like", axis, data.dim())],)
    n = math.prod(shape)
    i = torch.arange(n, dtype=torch.float64, device=data.device)
    vals = a["start"] + torch.floor(i / a["repeat"]) * a["step"]
    return vals.reshape(shape).to(data.dtype)


def _arange_like_out(a: dict, s: list) -> list:
    d = tuple(s[0])
    if a["axis"] is None:
        return [d]
    return [(d[norm_axis("_contrib_arange_like", a["axis"], len(d))],)]


def _first_type(a: dict, t: list):
    return t, [t[0]]


# shape and dtype rules instead of meta tracing (torch's meta kernels import its compiler
# stack: seconds at the first bind of a transformer)
register(OpDef("_contrib_arange_like", _arange_like, infer_out=_arange_like_out,
               infer_type=_first_type,
               params=[Param("start", "float", 0.0, doc="Start of interval."),
                       Param("step", "float", 1.0, doc="Spacing between values."),
                       Param("repeat", "int", 1, doc="The repeating time of all elements."),
                       Param("ctx", "str", "", doc="Context of output."),
                       Param("axis", "int_or_none", None, doc="Arange elements according to "
                             "the size of a certain axis of input array.")],
               doc="Evenly spaced values shaped like ``data`` (or like one of its axes).\n\n"
                   "Example: ``mx.nd.contrib.arange_like(x, axis=1)``"))


def _div_sqrt_dim(a: dict, data: torch.Tensor) -> torch.Tensor:
    return data / math.sqrt(data.shape[-1])


register(OpDef("_contrib_div_sqrt_dim", _div_sqrt_dim, infer_shape=_same_shape,
               infer_out=lambda a, s: [tuple(s[0])], infer_type=_first_type,
               doc="Divide ``data`` by the square root of its last dimension.\n\n"
                   "Example: ``mx.nd.contrib.div_sqrt_dim(x)``"))


def _quadratic(a: dict, data: torch.Tensor) -> torch.Tensor:
    return a["a"] * data * data + a["b"] * data + a["c"]


register(OpDef("_contrib_quadratic", _quadratic, infer_shape=_same_shape,
               params=[Param("a", "float", 0.0, doc="Coefficient of the quadratic term."),
                       Param("b", "float", 0.0, doc="Coefficient of the linear term."),
                       Param("c", "float", 0.0, doc="Constant term.")],
               doc="Elementwise ``a * x**2 + b * x + c``.\n\n"
                   "Example: ``mx.nd.contrib.quadratic(x, a=1, b=2, c=3)``"))


def _allclose(a: dict, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    x64, y64 = x.detach().double(), y.detach().double()
    close = torch.isclose(x64, y64, rtol=a["rtol"], atol=a["atol"], equal_nan=a["equal_nan"])
    return close.all().to(torch.uint8).reshape(())


register(OpDef("_contrib_allclose", _allclose, inputs=("a", "b"),
               params=[Param("rtol", "float", 1e-5, doc="Relative tolerance."),
                       Param("atol", "float", 1e-8, doc="Absolute tolerance."),
                       Param("equal_nan", "bool", True, doc="Whether to compare NaN's as "
                             "equal.")],
               infer_type=lambda a, t: (t, ["uint8"]),
               doc="1 (uint8 scalar) when ``|a - b| <= atol + rtol * |b|`` everywhere, else "
                   "0.\n\nExample: ``mx.nd.contrib.allclose(x, y)``"))


# ---------------------------------------------------------------------------------------
# straight-through estimators and gradient scaling


def _ste(fn):
    def compute(a: dict, data: torch.Tensor) -> torch.Tensor:
        return data + (fn(data.detach()) - data.detach())

    return compute


def _round_away(x: torch.Tensor) -> torch.Tensor:
    return torch.sign(x) * torch.floor(torch.abs(x) + 0.5)


register(OpDef("_contrib_round_ste", _ste(_round_away), infer_shape=_same_shape,
               doc="Round to the nearest integer (halves away from zero) with an identity "
                   "(straight-through) gradient.\n\nExample: ``mx.nd.contrib.round_ste(x)``"))
register(OpDef("_contrib_sign_ste", _ste(torch.sign), infer_shape=_same_shape,
               doc="Elementwise sign with an identity (straight-through) gradient.\n\n"
                   "Example: ``mx.nd.contrib.sign_ste(x)``"))


class _ScaleGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):  # type: ignore[override]
        ctx.scale = scale
        return x.clone()

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        return g * ctx.scale, None


def _gradientmultiplier(a: dict, data: torch.Tensor) -> torch.Tensor:
    if data.device.type == "meta" or not data.requires_grad:
        return data.clone()
    return _ScaleGrad.apply(data, a["scalar"])


register(OpDef("_contrib_gradientmultiplier", _gradientmultiplier, infer_shape=_same_shape,
               params=[Param("scalar", "float", 1.0, doc="lambda multiplier"),
                       Param("is_int", "bool", True, doc="Indicate whether scalar input is int "
                             "type")],
               doc="Identity in the forward pass; multiplies the gradient by ``scalar`` in "
                   "the backward pass.\n\n"
                   "Example: ``mx.nd.contrib.gradientmultiplier(x, scalar=-1.0)``"))


# ---------------------------------------------------------------------------------------
# interleaved multi-head attention matmuls (sequence, batch, features) layout


def _heads(op: str, t: torch.Tensor, heads: int, parts: int) -> torch.Tensor:
    """(seq, batch, heads * parts * d) -> (batch * heads, parts, seq, d)."""
    if t.dim() != 3 or t.shape[2] % (heads * parts):
        raise op_error(op, f"input of shape {fmt_shape(t.shape)} must be 3-D with its last "
                           f"dimension divisible by heads * {parts} (heads={heads})")
    s, b, f = t.shape
    d = f // (heads * parts)
    return t.reshape(s, b, heads, parts, d).permute(1, 2, 3, 0, 4).reshape(b * heads, parts,
                                                                             s, d)


def _merge(t: torch.Tensor, batch: int, heads: int) -> torch.Tensor:
    """(batch * heads, seq, d) -> (seq, batch, heads * d)."""
    bh, s, d = t.shape
    return t.reshape(batch, heads, s, d).permute(2, 0, 1, 3).reshape(s, batch, heads * d)


def _selfatt_qk(a: dict, qkv: torch.Tensor) -> torch.Tensor:
    x = _heads("_contrib_interleaved_matmul_selfatt_qk", qkv, a["heads"], 3)
    q, k = x[:, 0], x[:, 1]
    return torch.bmm(q / math.sqrt(q.shape[-1]), k.transpose(1, 2))


def _selfatt_valatt(a: dict, qkv: torch.Tensor, att: torch.Tensor) -> torch.Tensor:
    x = _heads("_contrib_interleaved_matmul_selfatt_valatt", qkv, a["heads"], 3)
    return _merge(torch.bmm(att, x[:, 2]), qkv.shape[1], a["heads"])


def _encdec_qk(a: dict, q: torch.Tensor, kv: torch.Tensor) -> torch.Tensor:
    qh = _heads("_contrib_interleaved_matmul_encdec_qk", q, a["heads"], 1)[:, 0]
    k = _heads("_contrib_interleaved_matmul_encdec_qk", kv, a["heads"], 2)[:, 0]
    return torch.bmm(qh / math.sqrt(qh.shape[-1]), k.transpose(1, 2))


def _encdec_valatt(a: dict, kv: torch.Tensor, att: torch.Tensor) -> torch.Tensor:
    v = _heads("_contrib_interleaved_matmul_encdec_valatt", kv, a["heads"], 2)[:, 1]
    return _merge(torch.bmm(att, v), kv.shape[1], a["heads"])


def _check_heads(op: str, shape, heads: int, parts: int) -> None:
    if len(shape) != 3 or shape[2] % (heads * parts):
        raise op_error(op, f"input of shape {fmt_shape(shape)} must be 3-D with its last "
                           f"dimension divisible by heads * {parts} (heads={heads})")


def _selfatt_qk_out(a: dict, s: list) -> list:
    seq, b, _ = s[0]
    _check_heads("_contrib_interleaved_matmul_selfatt_qk", s[0], a["heads"], 3)
    return [(b * a["heads"], seq, seq)]


def _selfatt_valatt_out(a: dict, s: list) -> list:
    seq, b, f = s[0]
    _check_heads("_contrib_interleaved_matmul_selfatt_valatt", s[0], a["heads"], 3)
    return [(seq, b, f // 3)]


def _encdec_qk_out(a: dict, s: list) -> list:
    (qs, b, _), (ks, _, _) = s
    _check_heads("_contrib_interleaved_matmul_encdec_qk", s[0], a["heads"], 1)
    _check_heads("_contrib_interleaved_matmul_encdec_qk", s[1], a["heads"], 2)
    return [(b * a["heads"], qs, ks)]


def _encdec_valatt_out(a: dict, s: list) -> list:
    (_, b, f), att = s
    _check_heads("_contrib_interleaved_matmul_encdec_valatt", s[0], a["heads"], 2)
    return [(att[1], b, f // 2)]


_HEADS = [Param("heads", "int", doc="Set number of heads")]
for _n, _f, _ins, _out, _doc in [
    ("selfatt_qk", _selfatt_qk, ("queries_keys_values",), _selfatt_qk_out,
     "Scaled q @ k^T per head from an interleaved (seq, batch, heads*3*d) projection."),
    ("selfatt_valatt", _selfatt_valatt, ("queries_keys_values", "attention"),
     _selfatt_valatt_out,
     "attention @ v per head from an interleaved (seq, batch, heads*3*d) projection."),
    ("encdec_qk", _encdec_qk, ("queries", "keys_values"), _encdec_qk_out,
     "Scaled q @ k^T per head with keys/values interleaved as (seq, batch, heads*2*d)."),
    ("encdec_valatt", _encdec_valatt, ("keys_values", "attention"), _encdec_valatt_out,
     "attention @ v per head with keys/values interleaved as (seq, batch, heads*2*d)."),
]:
    register(OpDef(f"_contrib_interleaved_matmul_{_n}", _f, inputs=_ins, params=_HEADS,
                   infer_out=_out, infer_type=_first_type,
                   doc=_doc + f"\n\nExample: ``mx.nd.contrib.interleaved_matmul_{_n}(..., "
                              "heads=8)``"))


# ---------------------------------------------------------------------------------------
# fft / ifft (MXNet ships them for GPU only; computed with torch.fft here)


def _fft(a: dict, data: torch.Tensor) -> torch.Tensor:
    x = data.reshape(-1, data.shape[-1]) if data.dim() != 2 else data
    c = torch.fft.fft(x.to(torch.float64 if data.dtype == torch.float64 else torch.float32))
    out = torch.stack([c.real, c.imag], dim=-1).reshape(x.shape[0], 2 * x.shape[1])
    return out.reshape(tuple(data.shape[:-1]) + (2 * data.shape[-1],)).to(data.dtype)


def _ifft(a: dict, data: torch.Tensor) -> torch.Tensor:
    if data.shape[-1] % 2:
        raise op_error("_contrib_ifft", f"the last dimension of data {fmt_shape(data.shape)} "
                                        "must hold interleaved (real, imag) pairs")
    n = data.shape[-1] // 2
    pairs = data.reshape(-1, n, 2)
    c = torch.complex(pairs[..., 0].float() if data.dtype != torch.float64 else pairs[..., 0],
                      pairs[..., 1].float() if data.dtype != torch.float64 else pairs[..., 1])
    out = torch.fft.ifft(c).real * n  # unnormalized inverse, as cuFFT
    return out.reshape(tuple(data.shape[:-1]) + (n,)).to(data.dtype)


_CS = [Param("compute_size", "int", 128, doc="Maximum size of sub-batch to be forwarded at "
             "one time")]
register(OpDef("_contrib_fft", _fft, params=_CS,
               doc="Row-wise FFT of real input; the output interleaves real and imaginary "
                   "parts (last dimension doubles).\n\nExample: ``mx.nd.contrib.fft(x)``"))
register(OpDef("_contrib_ifft", _ifft, params=_CS,
               doc="Unnormalized row-wise inverse FFT of interleaved complex input; returns "
                   "the real part.\n\nExample: ``mx.nd.contrib.ifft(y)``"))


# ---------------------------------------------------------------------------------------
# SparseEmbedding (dense storage here: same numbers as Embedding)


register(OpDef(
    "_contrib_SparseEmbedding", _embedding, inputs=("data", "weight"),
    params=[Param("input_dim", "int", doc="Vocabulary size of the input indices."),
            Param("output_dim", "int", doc="Dimension of the embedding vectors."),
            Param("dtype", "enum", "float32",
                  choices=["float16", "float32", "float64", "int32", "uint8"],
                  doc="Data type of weight."),
            Param("deterministic", "bool", False,
                  doc="Force the backward gradient calculation to be executed based on a "
                      "deterministic order (results here are always deterministic).")],
    infer_shape=_embedding_shape, infer_type=_embedding_type,
    doc="Embedding lookup whose weight gradient MXNet stores as row_sparse; the values are "
        "those of ``Embedding``.\n\n"
        "Example: ``mx.nd.contrib.SparseEmbedding(idx, w, input_dim=10, output_dim=4)``"))


# ---------------------------------------------------------------------------------------
# hawkesll: log-likelihood of marked Hawkes processes with exponential kernels


def _hawkesll(a: dict, lda, alpha, beta, state, lags, marks, valid_length, max_time):
    op = "_contrib_hawkesll"
    if lda.dim() != 2 or lags.dim() != 2 or tuple(marks.shape) != tuple(lags.shape) \
            or tuple(state.shape) != tuple(lda.shape) or alpha.shape != (lda.shape[1],) \
            or beta.shape != (lda.shape[1],) or lags.shape[0] != lda.shape[0]:
        raise op_error(op, f"bad shapes: lda {fmt_shape(lda.shape)} (N, K), alpha "
                           f"{fmt_shape(alpha.shape)} (K,), beta {fmt_shape(beta.shape)} (K,), "
                           f"state {fmt_shape(state.shape)} (N, K), lags "
                           f"{fmt_shape(lags.shape)} (N, T), marks {fmt_shape(marks.shape)}")
    n, k = lda.shape
    s = state.detach().clone()  # MXNet gives the input state no gradient
    last = torch.zeros_like(s)
    t = torch.zeros(n, dtype=lda.dtype, device=lda.device)
    ll = torch.zeros(n, dtype=lda.dtype, device=lda.device)
    vl = valid_length.detach()
    lg = lags.detach().to(lda.dtype)
    mk = marks.detach().to(torch.int64)
    for j in range(lags.shape[1]):
        act = j < vl
        if lda.device.type != "meta" and not bool(act.any()):
            break
        ci = mk[:, j:j + 1]
        t = torch.where(act, t + lg[:, j], t)
        sc = s.gather(1, ci)[:, 0]
        d = t - last.gather(1, ci)[:, 0]
        al, be = alpha[ci[:, 0]], beta[ci[:, 0]]
        ed = torch.exp(-be * d)
        mu = lda.gather(1, ci)[:, 0]
        rate = mu + al * be * sc * ed
        comp = mu * d + al * sc * (1 - ed)
        ll = ll + torch.where(act, torch.log(rate) - comp, torch.zeros_like(comp))
        s = s.scatter(1, ci, torch.where(act, 1 + sc * ed, sc)[:, None])
        last = last.scatter(1, ci, torch.where(act, t, last.gather(1, ci)[:, 0])[:, None])
    d = max_time.detach().to(lda.dtype)[:, None] - last
    ed = torch.exp(-beta[None, :] * d)
    ll = ll - (lda * d + alpha[None, :] * s * (1 - ed)).sum(1)
    return ll, ed * s


register(OpDef("_contrib_hawkesll", _hawkesll,
               inputs=("lda", "alpha", "beta", "state", "lags", "marks", "valid_length",
                       "max_time"), outputs=("output", "out_state"),
               doc="Log-likelihood of marked self-exciting (Hawkes) processes with exponential "
                   "kernels, and the updated kernel states.\n\n"
                   "Example: ``ll, st = mx.nd.contrib.hawkesll(mu, alpha, beta, state, lags, "
                   "marks, valid_length, max_time)``"))


# ---------------------------------------------------------------------------------------
# quantize / dequantize (MXNet's CPU build: the range is max(|min_range|, |max_range|))


def _real_range(lo: torch.Tensor, hi: torch.Tensor) -> torch.Tensor:
    return torch.maximum(lo.detach().abs(), hi.detach().abs()).reshape(())


def _quantize(a: dict, data: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor):
    r = _real_range(lo, hi).float()
    x = data.detach().float()
    if a["out_type"] == "int8":
        q = x * (127.0 / r)
        q = (torch.sign(q) * torch.floor(q.abs() + 0.5)).clamp(-128, 127).to(torch.int8)
        return q, (-r).reshape(1), r.reshape(1)
    q = torch.floor(x * (255.0 / r) + 0.5).clamp(0, 255).to(torch.uint8)
    return q, lo.detach().float().reshape(1), hi.detach().float().reshape(1)


def _dequantize(a: dict, data: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor):
    if data.dtype not in (torch.int8, torch.uint8) and data.device.type != "meta":
        raise op_error("_contrib_dequantize", f"the input data type must be uint8 or int8, "
                                              f"got {data.dtype}")
    levels = 127.5 if data.dtype == torch.int8 else 255.5
    if getattr(data, "_mx_onednn_u8", False):  # a quantized_act of uint8 data: MXNet
        data = data.contiguous().view(torch.uint8)  # 1.9.1 reads its uint8 memory
    return data.float() * (_real_range(lo, hi).float() / levels)


_RANGE_INPUTS = ("data", "min_range", "max_range")

register(OpDef(
    "_contrib_quantize", _quantize, inputs=_RANGE_INPUTS,
    outputs=("output0", "output1", "output2"),
    infer_type=lambda a, t: (t, [a["out_type"], "float32", "float32"]),
    params=[Param("out_type", "enum", "uint8", choices=["int8", "uint8"],
                  doc="Output data type.")],
    doc="Quantize float data to int8/uint8 with the range [min_range, max_range]; returns the "
        "quantized data and its range.\n\n"
        "Example: ``q, lo, hi = mx.nd.contrib.quantize(x, lo, hi, out_type='int8')``"))

register(OpDef(
    "_contrib_dequantize", _dequantize, inputs=_RANGE_INPUTS,
    infer_type=lambda a, t: (t, [a["out_type"]]),
    params=[Param("out_type", "enum", "float32", choices=["float32"],
                  doc="Output data type.")],
    doc="Turn int8/uint8 data quantized over [min_range, max_range] back to float32.\n\n"
        "Example: ``x = mx.nd.contrib.dequantize(q, lo, hi)``"))
