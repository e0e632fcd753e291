"""NumPy-interface (``mx.np``) reductions: ``_np_sum``, ``_np_prod``, ``_np_max``/``_np_min``
(``amax``/``amin``), ``_npi_mean``, ``_npi_std``/``_npi_var``, ``_npi_argmax``/``_npi_argmin``,
``_np_all``/``_np_any``, ``_np_cumsum`` and ``_npi_average``.

MXNet 1.9.1's dtype rules, checked against it: ``sum``/``prod``/``cumsum`` keep the input
dtype (bool gives int64) and integer sums wrap around; ``mean`` of integers or bools is
float32; ``std``/``var``/``average`` of integers stay integers (computed with truncating
integer division); ``max``/``min`` keep the dtype; ``argmax``/``argmin`` give int64;
``all``/``any`` give bool. A full reduction gives a 0-d array.
"""

from __future__ import annotations

import torch

from .._dtype import dtype_name, to_torch
from ..base import MXNetError
from ._misc import _half_cumsum
from ._params import Param
from ._registry import OpDef, register

__all__ = ["reduce_axes"]

_DTYPES = ("bool", "float16", "float32", "float64", "int32", "int64", "int8")


def _fmt(shape) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def reduce_axes(op: str, axis, shape) -> tuple[int, ...]:
    """The sorted non-negative reduction axes (all axes for ``None``); MXNet's errors for
    out-of-range and duplicate axes."""
    nd = len(shape)
    if axis is None:
        return tuple(range(nd))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if nd == 0 and all(a in (0, -1) for a in axes):
        return ()  # a 0-d array reduces over axis 0 to itself
    out = []
    for a in axes:
        if a >= nd or a < -nd:
            raise MXNetError(f"Error in operator {op}: Reduction axis {a} Exceeds input "
                             f"dimensions {_fmt(shape)}")
        out.append(a % nd if nd else a)
    out.sort()
    for i in range(1, len(out)):
        if out[i - 1] == out[i]:
            raise MXNetError(f"Error in operator {op}: Reduction axes have duplicates "
                             f"{_fmt(out)}")
    return tuple(out)


def _keep(t: torch.Tensor, axes, keepdims: bool, ndim: int) -> torch.Tensor:
    """Reshape a full-keepdims result to MXNet's output (drop the axes unless keepdims)."""
    if keepdims:
        return t
    return t.reshape([d for i, d in enumerate(t.shape) if i not in axes]) if ndim else t


def _no_initial(op: str, attrs) -> None:
    if attrs.get("initial") is not None:
        raise MXNetError(f"Error in operator {op}: initial is not supported yet")


_AXIS = Param("axis", "shape_or_none", None, doc="Axis or axes along which to reduce")
_KEEP = Param("keepdims", "bool", False, doc="Keep the reduced axes with size one")
_INITIAL = Param("initial", "float_or_none", None, doc="Starting value (not supported)")


def _dtype_param(choices=_DTYPES):
    return Param("dtype", "enum", None, choices=choices, doc="The output data type")


def _doc(text: str, example: str) -> str:
    return f"{text}\n\nExample: ``{example}``"


# ---------------------------------------------------------------------------------------
# sum / prod


def _acc_dtype(x: torch.Tensor, dtype) -> torch.dtype:
    if dtype is not None:
        return to_torch(dtype)
    return torch.int64 if x.dtype == torch.bool else x.dtype


def _sum_like(op: str, kind: str):
    def compute(attrs, x):
        _no_initial(op, attrs)
        axes = reduce_axes(op, attrs["axis"], x.shape)
        dt = _acc_dtype(x, attrs["dtype"])
        if not axes:
            return x.to(dt).clone()
        # half precision accumulates in float32, as MXNet does
        acc = torch.float32 if dt in (torch.float16, torch.bfloat16) or (
            x.dtype in (torch.float16, torch.bfloat16) and dt.is_floating_point) else dt
        y = x if x.dtype is acc else x.to(acc)
        if kind == "sum" and acc == torch.float32:
            # MXNet's compensated (Kahan) sum: a float64 accumulation rounded to float32
            # reproduces it (as mx.nd.sum does)
            r = torch.sum(y, dim=axes, keepdim=True, dtype=torch.float64)
        elif kind == "sum":
            r = torch.sum(y, dim=axes, keepdim=True, dtype=acc)
        elif y.requires_grad:
            r = _Prod.apply(y, axes)
        else:
            r = y
            for a in axes:
                r = torch.prod(r, dim=a, keepdim=True, dtype=acc)
            if any(x.shape[a] == 0 for a in axes):
                r = torch.zeros_like(r)  # MXNet 1.9.1's product of nothing is 0
        if r.dtype is not dt:
            r = r.to(dt)
        return _keep(r, axes, attrs["keepdims"], x.dim())

    return compute


def _int_grad_out(compute):
    """Integer outputs still carry MXNet's gradient: they get a float64 shadow (the same
    reduction in float64 of the input or of its shadow, see ``mxnet._int_grad``)."""
    from .. import _int_grad

    def wrapped(attrs, x):
        r = compute(attrs, x)
        if r.is_floating_point() or r.dtype == torch.bool or r.device.type == "meta":
            return r
        if x.requires_grad:
            src = x
        elif _int_grad.ACTIVE[0]:
            src = _int_grad.shadow(x)
        else:
            src = None
        if src is None:
            return r
        rf = compute({**attrs, "dtype": "float64"}, src.to(torch.float64))
        r._mx_shadow = _int_grad.tie(r, rf)
        _int_grad.ACTIVE[0] = 1
        return r

    return wrapped


def _sum_type(attrs, ins):
    t = ins[0]
    if attrs.get("dtype") is not None:
        return ins, [attrs["dtype"]]
    return ins, [None if t is None else ("int64" if t == "bool" else t)]


register(OpDef("_np_sum", _int_grad_out(_sum_like("_np_sum", "sum")), inputs=("a",),
               params=[_AXIS, _dtype_param(), _KEEP, _INITIAL], infer_type=_sum_type,
               doc=_doc("Sum of the elements over the given axes (``mx.np.sum``).",
                        "mx.np.sum(mx.np.ones((2, 3)), axis=0)")))
register(OpDef("_np_prod", _int_grad_out(_sum_like("_np_prod", "prod")), inputs=("a",),
               params=[_AXIS, _dtype_param(), _KEEP, _INITIAL], infer_type=_sum_type,
               aliases=("_np_product",),
               doc=_doc("Product of the elements over the given axes (``mx.np.prod``).",
                        "mx.np.prod(mx.np.array([1., 2., 3.]))")))


# ---------------------------------------------------------------------------------------
# max / min


class _Prod(torch.autograd.Function):
    """Product over ``axes`` (kept) with MXNet's gradient ``out / x`` (NaN at zeros)."""

    @staticmethod
    def forward(ctx, x, axes):
        r = x
        for a in axes:
            r = torch.prod(r, dim=a, keepdim=True)
        ctx.save_for_backward(x, r)
        return r

    @staticmethod
    def backward(ctx, g):
        x, r = ctx.saved_tensors
        return g * r / x, None


class _Extreme(torch.autograd.Function):
    """max/min whose gradient goes in full to every element equal to the extreme (MXNet)."""

    @staticmethod
    def forward(ctx, x, fn, axes):
        r = fn(x, dim=axes, keepdim=True)
        ctx.save_for_backward(x, r)
        return r

    @staticmethod
    def backward(ctx, g):
        x, r = ctx.saved_tensors
        return g * (x == r).to(g.dtype), None, None


class _ZeroGrad(torch.autograd.Function):
    """The identity on the forward value, a zero gradient (MXNet's std/var backward)."""

    @staticmethod
    def forward(ctx, x, r):
        ctx.shape = x.shape
        return r.clone()

    @staticmethod
    def backward(ctx, g):
        return g.new_zeros(ctx.shape), None


def _extreme(op: str, fn):
    def compute(attrs, x):
        _no_initial(op, attrs)
        axes = reduce_axes(op, attrs["axis"], x.shape)
        if not axes:
            return x.clone()
        if any(x.shape[a] == 0 for a in axes):
            raise MXNetError(f"Error in operator {op}: zero-size array to reduction operation "
                             f"{'maximum' if fn is torch.amax else 'minimum'} which has no "
                             "identity")
        y = x.to(torch.uint8) if x.dtype == torch.bool else x
        r = _Extreme.apply(y, fn, axes) if y.requires_grad else fn(y, dim=axes, keepdim=True)
        if x.dtype == torch.bool:
            r = r.to(torch.bool)
        return _keep(r, axes, attrs["keepdims"], x.dim())

    return compute


def _same_type(attrs, ins):
    return ins, [ins[0]]


for _n, _fn, _al in (("max", torch.amax, "_np_amax"), ("min", torch.amin, "_np_amin")):
    register(OpDef(f"_np_{_n}", _extreme(f"_np_{_n}", _fn), inputs=("a",),
                   params=[_AXIS, _KEEP, _INITIAL], aliases=(_al,), infer_type=_same_type,
                   doc=_doc(f"The {_n}imum over the given axes (``mx.np.{_n}``).",
                            f"mx.np.{_n}(mx.np.array([[1., 5.], [3., 2.]]), axis=1)")))


# ---------------------------------------------------------------------------------------
# mean / std / var


def _float_out(x: torch.Tensor, dtype) -> torch.dtype:
    if dtype is not None:
        return to_torch(dtype)
    return x.dtype if x.is_floating_point() else torch.float32


def _count(x: torch.Tensor, axes) -> int:
    n = 1
    for a in axes:
        n *= x.shape[a]
    return n


def _mean(attrs, x):
    _no_initial("_npi_mean", attrs)
    axes = reduce_axes("_npi_mean", attrs["axis"], x.shape)
    dt = _float_out(x, attrs["dtype"])
    if not axes:
        return x.to(dt).clone()
    n = _count(x, axes)
    if not dt.is_floating_point and x.is_floating_point():  # averaged in float, then cast
        r = torch.mean(x.to(torch.float64), dim=axes, keepdim=True).to(dt)
        return _keep(r, axes, attrs["keepdims"], x.dim())
    if dt.is_floating_point:  # accumulate in at least float32 and the input's precision
        acc = torch.promote_types(torch.promote_types(dt, torch.float32),
                                  x.dtype if x.is_floating_point() else torch.float32)
        y = x.to(acc)
    else:
        y = x.to(dt)
    if not dt.is_floating_point:
        r = torch.div(torch.sum(y, dim=axes, keepdim=True, dtype=dt), max(n, 1),
                      rounding_mode="trunc")
    elif n == 0:
        r = torch.sum(y, dim=axes, keepdim=True)
    elif acc == torch.float32:  # MXNet: the compensated sum, rounded, then divided by n
        r = torch.sum(y, dim=axes, keepdim=True, dtype=torch.float64).to(acc) / n
    else:
        r = torch.mean(y, dim=axes, keepdim=True)
    return _keep(r.to(dt), axes, attrs["keepdims"], x.dim())


def _mean_type(attrs, ins):
    t = ins[0]
    if attrs.get("dtype") is not None:
        return ins, [attrs["dtype"]]
    if t is None:
        return ins, [None]
    return ins, [t if t.startswith(("float", "bfloat")) else "float32"]


register(OpDef("_npi_mean", _int_grad_out(_mean), inputs=("a",),
               params=[_AXIS, _dtype_param(), _KEEP, _INITIAL], infer_type=_mean_type,
               doc=_doc("Arithmetic mean over the given axes; integers give float32 "
                        "(``mx.np.mean``).", "mx.np.mean(mx.np.array([1, 2]), axis=0)")))


def _moment(op: str, root: bool):
    def compute(attrs, x):
        if x.dtype == torch.bool:
            raise MXNetError(f"Error in operator {op}: Unknown type enum 7 (bool input)")
        axes = reduce_axes(op, attrs["axis"], x.shape)
        dt = to_torch(attrs["dtype"]) if attrs["dtype"] is not None else x.dtype
        n = _count(x, axes) if axes else 1
        ddof = attrs["ddof"]
        if not axes:  # each element is its own sample: 0, or 0/0 with ddof=1
            z = torch.zeros_like(x, dtype=dt)
            return z / (1 - ddof) if dt.is_floating_point and ddof else z
        if x.is_floating_point():
            y = x.detach().to(dt)
            mean = torch.mean(y, dim=axes, keepdim=True)
            sq = (y - mean) ** 2
        else:  # MXNet: truncated mean, deviations squared in the input's integer dtype
            mean = torch.div(torch.sum(x, dim=axes, keepdim=True, dtype=x.dtype), max(n, 1),
                             rounding_mode="trunc").to(x.dtype)
            sq = ((x - mean) * (x - mean)).to(x.dtype).to(dt)
        if dt.is_floating_point:
            r = torch.sum(sq, dim=axes, keepdim=True) / (n - ddof)
            r = torch.sqrt(r) if root else r
        else:
            r = torch.div(torch.sum(sq, dim=axes, keepdim=True, dtype=dt), max(n - ddof, 1),
                          rounding_mode="trunc")
            if root:
                r = torch.sqrt(r.to(torch.float64)).to(dt)
        r = _keep(r, axes, attrs["keepdims"], x.dim())
        return _ZeroGrad.apply(x, r) if x.requires_grad else r

    return compute


def _moment_type(attrs, ins):
    if attrs.get("dtype") is not None:
        return ins, [attrs["dtype"]]
    return ins, [ins[0]]


_MOMENT_DTYPES = ("float16", "float32", "float64", "int32", "int64", "int8")
for _n, _root in (("std", True), ("var", False)):
    register(OpDef(f"_npi_{_n}", _moment(f"_npi_{_n}", _root), inputs=("a",),
                   params=[_AXIS, _dtype_param(_MOMENT_DTYPES),
                           Param("ddof", "int", 0, doc="Delta degrees of freedom"), _KEEP],
                   infer_type=_moment_type,
                   doc=_doc(f"{'Standard deviation' if _root else 'Variance'} over the given "
                            f"axes (``mx.np.{_n}``).", f"mx.np.{_n}(mx.np.array([1., 2.]))")))


# ---------------------------------------------------------------------------------------
# argmax / argmin


def _arg(op: str, fn):
    def compute(attrs, x):
        if x.dtype == torch.bool:
            raise MXNetError(f"Error in operator {op}: Unknown type enum 7 (bool input)")
        axis = attrs["axis"]
        if x.numel() == 0 and (axis is None or x.shape[axis] == 0):
            raise MXNetError(f"Error in operator {op}: attempt to search an empty sequence")
        if x.numel() == 0:
            (a,) = reduce_axes(op, axis, x.shape)
            shape = list(x.shape)
            if attrs["keepdims"]:
                shape[a] = 1
            else:
                del shape[a]
            return torch.zeros(shape, dtype=torch.int64, device=x.device)
        if axis is None:
            r = fn(x.reshape(-1))
            return r.reshape((1,) * x.dim()) if attrs["keepdims"] else r
        ax = reduce_axes(op, axis, x.shape)
        if not ax:
            return torch.zeros((), dtype=torch.int64, device=x.device)
        return fn(x, dim=ax[0], keepdim=attrs["keepdims"])

    return compute


for _n, _fn in (("argmax", torch.argmax), ("argmin", torch.argmin)):
    register(OpDef(f"_npi_{_n}", _arg(f"_npi_{_n}", _fn),
                   params=[Param("axis", "int_or_none", None, doc="Axis (None: flattened)"),
                           _KEEP],
                   infer_type=lambda attrs, ins: (ins, ["int64"]),
                   doc=_doc(f"Index of the {_n[3:]}imum (int64; ``mx.np.{_n}``).",
                            f"mx.np.{_n}(mx.np.array([1., 3., 2.]))")))


# ---------------------------------------------------------------------------------------
# all / any


def _logical(op: str, fn):
    def compute(attrs, x):
        axes = reduce_axes(op, attrs["axis"], x.shape)
        b = x != 0
        if not axes:
            return b
        r = b
        for a in sorted(axes, reverse=True):
            r = fn(r, dim=a, keepdim=True)
        return _keep(r, axes, attrs["keepdims"], x.dim())

    return compute


for _n, _fn, _al in (("all", torch.all, ()), ("any", torch.any, ("_np_sometrue",))):
    register(OpDef(f"_np_{_n}", _logical(f"_np_{_n}", _fn), params=[_AXIS, _KEEP],
                   aliases=_al, infer_type=lambda attrs, ins: (ins, ["bool"]),
                   doc=_doc(f"Whether {_n} elements are true over the given axes (bool).",
                            f"mx.np.{_n}(mx.np.array([1., 0.]))")))


# ---------------------------------------------------------------------------------------
# cumsum / average


def _cumsum(attrs, x):
    dt = _acc_dtype(x, attrs["dtype"])
    axis = attrs["axis"]
    y = x.to(dt)
    if axis is None:
        y, a = y.reshape(-1), 0
    else:
        (a,) = reduce_axes("_np_cumsum", axis, x.shape)
    if dt in (torch.float16, torch.bfloat16) and 0 < y.shape[a] <= 4096 \
            and y.device.type != "meta":
        return _half_cumsum(y, a)  # rounded at every step, as MXNet and NumPy
    return torch.cumsum(y, a, dtype=dt)


register(OpDef("_np_cumsum", _cumsum, inputs=("a",),
               params=[Param("axis", "int_or_none", None, doc="Axis (None: flattened)"),
                       _dtype_param(_MOMENT_DTYPES)],
               infer_type=_sum_type,
               doc=_doc("Cumulative sum along an axis (``mx.np.cumsum``).",
                        "mx.np.cumsum(mx.np.array([1., 2., 3.]))")))


def _average(attrs, a, w=None):
    op = "_npi_average"
    axes = reduce_axes(op, attrs["axis"], a.shape)
    dt = a.dtype
    if dt == torch.bool:
        raise MXNetError(f"Error in operator {op}: Unknown type enum 7 (bool input)")
    if attrs["weighted"]:
        if w.dtype != dt:
            raise MXNetError(f"Error in operator {op}: Type inconsistent, Provided = "
                             f"{dtype_name(w.dtype)}, inferred type = {dtype_name(dt)}")
        if w.shape != a.shape:
            if attrs["axis"] is None or len(axes) != 1 or w.dim() != 1 or \
                    w.shape[0] != a.shape[axes[0]]:
                raise MXNetError(f"Error in operator {op}: weights of shape {_fmt(w.shape)} "
                                 f"do not match a of shape {_fmt(a.shape)} along the axis")
            den = torch.sum(w, dtype=dt)
            shape = [1] * a.dim()
            shape[axes[0]] = w.shape[0]
            w = w.reshape(shape)
            num = torch.sum(a * w, dim=axes, dtype=dt)
        else:
            num = torch.sum(a * w, dim=axes, dtype=dt) if axes else a * w
            den = torch.sum(w, dim=axes, dtype=dt) if axes else w.clone()
    else:
        num = torch.sum(a, dim=axes, dtype=dt) if axes else a.clone()
        den = torch.tensor(_count(a, axes), dtype=dt, device=a.device)
    if not dt.is_floating_point:
        return torch.div(num, den, rounding_mode="trunc").to(dt), den
    return num / den, den


register(OpDef("_npi_average", _average, inputs=("a", "weights"),
               active_inputs=lambda attrs: ("a", "weights") if attrs["weighted"] else ("a",),
               outputs=("output", "sum_of_weights"),
               num_visible=lambda attrs: 2 if attrs["returned"] else 1,
               params=[_AXIS, Param("returned", "bool", False,
                                    doc="Also return the sum of the weights"),
                       Param("weighted", "bool", True, doc="Whether weights are given")],
               infer_type=lambda attrs, ins: (ins, [ins[0], ins[0]]),
               doc=_doc("Weighted average over the given axes (``mx.np.average``).",
                        "mx.np.average(a, axis=0, weights=w)")))

