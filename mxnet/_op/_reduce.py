"""Reductions (``sum``, ``mean``, ``max``, ``norm``, ``argmax``...) and sorting (``topk``...).

MXNet 1.x conventions kept here: a reduction over every axis returns shape ``(1,)`` (not a
0-d array), integer arrays keep their dtype (``mean`` truncates), and index outputs
(``argmax``, ``argsort``, ``topk``) are floating-point by default.
"""

from __future__ import annotations

import math

import torch

from .._dtype import to_torch
from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register
from ._sort_ties import tie_aware_indices

_AXIS = Param(
    "axis", "shape_or_none", None, doc="The axis or axes along which to perform the reduction."
)
_KEEPDIMS = Param(
    "keepdims", "bool", False, doc="If true, the reduced axes are left in the result with size 1."
)
_EXCLUDE = Param(
    "exclude",
    "bool",
    False,
    doc="Whether to perform reduction on axis that are NOT in axis instead.",
)


def _norm_axis(name: str, axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        if name in ("argmax", "argmin"):  # MXNet 1.9.1's text, then the operator
            raise MXNetError(axis_exceeds_message(axis, ndim, name))
        raise MXNetError(
            f"Operator {name}: axis {axis} is out of range for an input with {ndim} dimensions"
        )
    return axis % ndim


def axis_exceeds_message(axis: int, ndim: int, op: str) -> str:
    """MXNet's CheckAxis failure (argmax/argmin, softmax family)."""
    return (
        f"Check failed: axis < ndim && axis >= -ndim: axis {axis} exceeds the input "
        f"dimension of {ndim} (operator {op})"
    )


_AXES_CACHE: dict = {}


def _reduce_axes(name: str, attrs: dict, ndim: int) -> tuple[int, ...]:
    """The axes to reduce, normalised and sorted (cached per axis/exclude/ndim)."""
    axis = attrs["axis"]
    key = (axis, attrs.get("exclude", False), ndim)
    hit = _AXES_CACHE.get(key)
    if hit is not None:
        return hit
    if axis is None or len(axis) == 0:
        axes = tuple(range(ndim))
    else:
        axes = tuple(sorted({_norm_axis(name, a, ndim) for a in axis}))
        if key[1]:
            axes = tuple(i for i in range(ndim) if i not in axes)
    if len(_AXES_CACHE) > 1024:
        _AXES_CACHE.clear()
    _AXES_CACHE[key] = axes
    return axes


def _finish(out: torch.Tensor, x: torch.Tensor, axes, keepdims: bool) -> torch.Tensor:
    """Apply MXNet's shape rules to a keepdim=True result."""
    if keepdims:
        return out
    shape = [d for i, d in enumerate(x.shape) if i not in axes]
    return out.reshape(shape or (1,))


def _reducer(name: str, kernel):
    """Build ``compute`` for a reduction; ``kernel(x, axes, keepdim)`` reduces ``axes``.

    A reduction over every axis without keepdims gives shape ``(1,)`` (MXNet 1.x).
    """

    def compute(attrs, x):
        ndim = x.dim()
        axes = _reduce_axes(name, attrs, ndim)
        if not axes:
            return x.clone()
        keep = attrs["keepdims"]
        out = kernel(x, axes, keep)
        if out.dtype != x.dtype:
            out = out.to(x.dtype)
        if not keep and len(axes) == ndim:
            return out.reshape(1)
        return out

    return compute


_WIDE = (torch.float32, torch.float16, torch.bfloat16)


def _sum(x, axes, keep):
    """MXNet sums with a compensated (Kahan) reducer: the float32 result is the exactly
    rounded sum in practice, which a float64 accumulation reproduces."""
    if x.dtype in _WIDE:
        return torch.sum(x, dim=axes, keepdim=keep, dtype=torch.float64)
    return torch.sum(x, dim=axes, keepdim=keep)


def _mean(x, axes, keep):
    if x.dtype in _WIDE:  # MXNet: the compensated sum, rounded, then divided in x's type
        n = math.prod(x.shape[a] for a in axes)
        return _sum(x, axes, keep).to(x.dtype) / n
    if x.is_floating_point():
        return torch.mean(x, dim=axes, keepdim=keep)
    return torch.mean(x.double(), dim=axes, keepdim=keep)


class _ProdGrad(torch.autograd.Function):
    """Product over ``axes`` whose gradient is MXNet's ``out / x`` (NaN at zero inputs)."""

    @staticmethod
    def forward(ctx, x, axes):  # type: ignore[override]
        out = x
        for a in reversed(axes):
            out = torch.prod(out, dim=a, keepdim=True)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        x, out = ctx.saved_tensors
        return g * out / x, None


def _prod(x, axes, keep):
    if x.requires_grad and x.is_floating_point():
        out = _ProdGrad.apply(x, tuple(axes))
        if keep:
            return out
        return out.reshape([d for i, d in enumerate(x.shape) if i not in axes])
    for a in reversed(axes):
        x = torch.prod(x, dim=a, keepdim=keep)
    return x


def _nanprod(x, axes, keep):
    if x.is_floating_point():
        x = torch.where(torch.isnan(x), torch.ones_like(x), x)
    return _prod(x, axes, keep)


def _nansum(x, axes, keep):
    if x.is_floating_point():
        return torch.nansum(x, dim=axes, keepdim=keep)
    return torch.sum(x, dim=axes, keepdim=keep)


class _ExtremeGrad(torch.autograd.Function):
    """The gradient of a max/min: undivided to every element equal to the result. A custom
    backward, so that infinite elements (``log(0)`` in a log-sum-exp) give no NaN."""

    @staticmethod
    def forward(ctx, x, out):
        ctx.save_for_backward(x == out)
        return out.clone()

    @staticmethod
    def backward(ctx, g):
        (mask,) = ctx.saved_tensors
        return g * mask.to(g.dtype), None


def _extreme(fn):
    """max/min whose gradient goes, undivided, to every element equal to the result."""

    def k(x, axes, keep):
        if not x.requires_grad:
            return fn(x, dim=axes, keepdim=keep)
        out = _ExtremeGrad.apply(x, fn(x.detach(), dim=axes, keepdim=True))
        if keep:
            return out
        return out.reshape([d for i, d in enumerate(x.shape) if i not in axes])

    return k


_REDUCTIONS = {
    # name: (kernel, aliases, doc)
    "sum": (_sum, ("sum_axis",), "Sum of array elements over given axes."),
    "mean": (_mean, (), "Mean of array elements over given axes."),
    "prod": (_prod, (), "Product of array elements over given axes."),
    "nansum": (_nansum, (), "Sum over given axes, treating NaN as zero."),
    "nanprod": (_nanprod, (), "Product over given axes, treating NaN as one."),
    "max": (_extreme(torch.amax), ("max_axis",), "Maximum of array elements over given axes."),
    "min": (_extreme(torch.amin), ("min_axis",), "Minimum of array elements over given axes."),
}


def _reduce_out(name: str):
    """The output shape of a reduction, without tracing (see ``_shape_rules``)."""

    def rule(attrs: dict, shapes: list) -> list:
        s = tuple(shapes[0])
        axes = _reduce_axes(name, attrs, len(s))
        if not axes:
            return [s]
        if attrs["keepdims"]:
            return [tuple(1 if i in axes else d for i, d in enumerate(s))]
        return [tuple(d for i, d in enumerate(s) if i not in axes) or (1,)]

    return rule


for _name, (_kernel, _aliases, _doc) in _REDUCTIONS.items():
    register(
        OpDef(
            _name,
            _reducer(_name, _kernel),
            aliases=_aliases,
            params=[_AXIS, _KEEPDIMS, _EXCLUDE],
            fluent=True,
            doc=_doc,
            infer_out=_reduce_out(_name),
        )
    )


# ---------------------------------------------------------------------------------------
# norm


def _norm(attrs, x):
    order = attrs["ord"]
    if order not in (1, 2):
        raise MXNetError(f"Operator norm: norm only supports ord=1 and ord=2, got ord={order}")
    axes = _reduce_axes("norm", attrs, x.dim())
    xf = x if x.is_floating_point() else x.double()
    if order == 1:
        out = torch.sum(torch.abs(xf), dim=axes, keepdim=True)
    else:
        out = torch.linalg.vector_norm(xf, 2, dim=axes, keepdim=True)
    out = _finish(out, x, axes, attrs["keepdims"])
    dt = attrs["out_dtype"]
    target = to_torch(dt) if dt is not None else x.dtype
    return out if out.dtype == target else out.to(target)


register(
    OpDef(
        "norm",
        _norm,
        fluent=True,
        infer_out=_reduce_out("norm"),
        infer_type=lambda a, ins: (ins, [a["out_dtype"] or ins[0]]),
        params=[
            Param("ord", "int", 2, doc="Order of the norm (1 or 2)."),
            Param(
                "axis",
                "shape_or_none",
                None,
                doc="The axis or axes along which to compute the norm.",
            ),
            Param("out_dtype", "dtype", None, doc="The data type of the output."),
            _KEEPDIMS,
        ],
        doc="Compute the L1 or L2 norm of the array over the given axes.",
    )
)


# ---------------------------------------------------------------------------------------
# argmax / argmin


def _arg(name: str, fn):
    def compute(attrs, x):
        axis = attrs["axis"]
        if axis is None:
            out = fn(x.reshape(-1), 0)
            shape = (1,) * x.dim() if attrs["keepdims"] else (1,)
            return out.reshape(shape).to(x.dtype)
        ax = _norm_axis(name, axis, x.dim())
        out = fn(x, ax, keepdim=attrs["keepdims"]).to(x.dtype)
        return out.reshape(1) if out.dim() == 0 else out  # MXNet 1.x: no 0-d result

    return compute


_ARG_PARAMS = [
    Param("axis", "int_or_none", None, doc="The axis along which to perform the reduction."),
    _KEEPDIMS,
]

register(
    OpDef(
        "argmax",
        _arg("argmax", torch.argmax),
        params=_ARG_PARAMS,
        fluent=True,
        doc="Indices of the maximum values along an axis (same dtype as the input).",
    )
)
register(
    OpDef(
        "argmin",
        _arg("argmin", torch.argmin),
        params=_ARG_PARAMS,
        fluent=True,
        doc="Indices of the minimum values along an axis (same dtype as the input).",
    )
)
register(
    OpDef(
        "argmax_channel",
        lambda a, x: torch.argmax(x, 1).to(x.dtype),
        fluent=True,
        doc="Indices of the maximum values along axis 1.",
    )
)


# ---------------------------------------------------------------------------------------
# sorting


def _sort_axis(name: str, x: torch.Tensor, axis):
    if axis is None:
        return x.reshape(-1), 0
    return x, _norm_axis(name, axis, x.dim())


def _sorted(data: torch.Tensor, ax: int, k: int, ascend: bool):
    """The first ``k`` sorted values and positions along ``ax``; equal values in MXNet
    1.9.1's CPU order (its ``std::sort``/``std::partial_sort`` are not stable)."""
    if data.device.type == "cpu" and not torch.compiler.is_compiling():
        idx = tie_aware_indices(data, ax, k, ascend)
        return torch.gather(data, ax, idx), idx
    vals, idx = torch.sort(data, dim=ax, descending=not ascend, stable=True)
    return vals.narrow(ax, 0, k), idx.narrow(ax, 0, k)


def _topk(attrs, x):
    data, ax = _sort_axis("topk", x, attrs["axis"])
    n = data.shape[ax]
    k = attrs["k"]
    if k < 1:
        k = n
    if k > n:
        raise MXNetError(
            f"Operator topk: k={k} is larger than the size {n} of axis {ax} "
            f"(input shape {tuple(x.shape)})"
        )
    vals, idx = _sorted(data, ax, k, attrs["is_ascend"])
    rt = attrs["ret_typ"]
    if rt == "mask":
        mask = torch.zeros_like(data).scatter(ax, idx, 1)
        return mask.reshape(x.shape)
    idx = idx.to(to_torch(attrs["dtype"]))
    if rt == "indices":
        return idx
    return vals, idx


def _topk_type(a, ins):
    t, rt = ins[0], a["ret_typ"]
    if rt == "indices":
        return ins, [a["dtype"]]
    if rt == "mask":
        return ins, [t]
    return ins, [t, a["dtype"]]


def _topk_outputs(a):
    return ("output",) if a["ret_typ"] in ("indices", "mask") else ("output0", "output1")


register(
    OpDef(
        "topk",
        _topk,
        fluent=True,
        outputs=_topk_outputs,
        infer_type=_topk_type,
        num_visible=lambda a: 2 if a["ret_typ"] == "both" else 1,
        params=[
            Param(
                "axis",
                "int_or_none",
                -1,
                doc="Axis along which to choose the top k; None flattens.",
            ),
            Param("k", "int", 1, doc="Number of top elements; k < 1 sorts all."),
            Param(
                "ret_typ",
                "enum",
                "indices",
                choices=("both", "indices", "mask", "value"),
                doc="The return type.",
            ),
            Param(
                "is_ascend",
                "bool",
                False,
                doc="Whether to choose the k lowest instead of the k highest.",
            ),
            Param("dtype", "dtype", "float32", doc="Data type of the indices output."),
        ],
        doc="Return the top k elements (or their indices) along an axis.",
    )
)


def _sort(attrs, x):
    data, ax = _sort_axis("sort", x, attrs["axis"])
    vals, idx = _sorted(data, ax, data.shape[ax], attrs["is_ascend"])
    return vals, idx.to(x.dtype)


register(
    OpDef(
        "sort",
        _sort,
        fluent=True,
        outputs=("output0", "output1"),
        num_visible=lambda a: 1,
        params=[
            Param("axis", "int_or_none", -1, doc="Axis along which to sort; None flattens."),
            Param("is_ascend", "bool", True, doc="Whether to sort ascending."),
        ],
        doc="Sort the array along an axis.",
    )
)


def _argsort(attrs, x):
    data, ax = _sort_axis("argsort", x, attrs["axis"])
    idx = _sorted(data, ax, data.shape[ax], attrs["is_ascend"])[1]
    return idx.to(to_torch(attrs["dtype"]))


register(
    OpDef(
        "argsort",
        _argsort,
        fluent=True,
        infer_type=lambda a, ins: (ins, [a["dtype"]]),
        params=[
            Param("axis", "int_or_none", -1, doc="Axis along which to sort; None flattens."),
            Param("is_ascend", "bool", True, doc="Whether to sort ascending."),
            Param("dtype", "dtype", "float32", doc="Data type of the output indices."),
        ],
        doc="Indices that would sort the array along an axis.",
    )
)
