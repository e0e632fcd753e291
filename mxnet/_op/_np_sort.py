"""NumPy-interface (``mx.np``) sorting, searching and statistics operators: ``_npi_sort``,
``_npi_argsort``, ``_npi_unique``, ``_npi_bincount``, ``_npi_histogram``, ``_npi_percentile``.

Behaviour checked against MXNet 1.9.1: ``axis=None`` sorts the flattened array, argsort
gives int64 indices by default (the front end asks for it), ``unique`` returns sorted values
plus int64 index/inverse/count arrays, ``bincount`` keeps the integer dtype of its input (or
takes the weights' dtype), ``histogram`` counts are int64 with the right edge of the last bin
inclusive, ``percentile`` of integers is float32.
"""

from __future__ import annotations

import numpy as _onp
import torch

from .._dtype import to_torch
from ..base import MXNetError
from ._params import Param
from ._registry import _REGISTRY as _REG
from ._registry import OpDef, register
from ._sort_ties import tie_aware_indices

__all__: list[str] = []


def _zero_grad(res: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    """``res`` without a gradient path of its own but still attached to ``src`` (MXNet gives
    these operators a zero gradient rather than failing the backward pass)."""
    res = res.detach()
    if src.requires_grad and res.is_floating_point():
        res = res + (src.reshape(-1)[:1] * 0).sum().to(res.dtype)
    return res


def _axis(name: str, axis, ndim: int) -> int:
    if not -ndim <= axis < max(ndim, 1):
        raise MXNetError(f"Operator {name}: axis {axis} is out of bounds for an array of "
                         f"dimension {ndim}")
    return axis % max(ndim, 1)


def _sorted(name: str, attrs, x: torch.Tensor, want_index: bool):
    axis = attrs["axis"]
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    if x.dim() == 0:
        x = x.reshape(1)
    axis = _axis(name, axis, x.dim())
    if x.device.type == "cpu" and not torch.compiler.is_compiling():
        # MXNet 1.9.1 runs these through its (unstable) CPU TopK sort: equal values in
        # its order, not NumPy's
        idx = tie_aware_indices(x, axis, x.shape[axis], attrs["is_ascend"])
        return idx if want_index else torch.gather(x, axis, idx)
    vals, idx = torch.sort(x, dim=axis, descending=not attrs["is_ascend"], stable=True)
    return idx if want_index else vals


def _sort(attrs, x):
    return _sorted("_npi_sort", attrs, x, False)


def _argsort(attrs, x):
    idx = _sorted("_npi_argsort", attrs, x, True)
    return idx.to(to_torch(attrs["dtype"]))


_AXIS_M1 = Param("axis", "int_or_none", -1, doc="Axis along which to sort; None: the "
                                                "flattened array.")
_ASCEND = Param("is_ascend", "bool", True, doc="Ascending order when true.")

register(OpDef("_npi_sort", _sort, params=[_AXIS_M1, _ASCEND],
               doc="Sorted copy of an array (``mx.np.sort``).\n\n"
                   "Example: ``mx.np.sort(mx.np.array([3., 1., 2.]))``"))
register(OpDef("_npi_argsort", _argsort,
               params=[_AXIS_M1, _ASCEND,
                       Param("dtype", "enum", "float32",
                             choices=("float16", "float32", "float64", "int32", "int64",
                                      "uint8"), doc="DType of the output indices.")],
               infer_type=lambda attrs, ins: (ins, [attrs["dtype"]]),
               doc="Indices that sort an array (``mx.np.argsort``).\n\n"
                   "Example: ``mx.np.argsort(mx.np.array([3., 1., 2.]))``"))

# ---------------------------------------------------------------------------------------
# unique


def _unique_outputs(attrs):
    names = ["output"]
    for flag in ("return_index", "return_inverse", "return_counts"):
        if attrs.get(flag):
            names.append(flag[len("return_"):])
    return names


def _unique(attrs, x):
    if x.device.type == "meta":
        raise MXNetError("Operator _npi_unique: the output shape depends on the data "
                         "(unknown before it runs)")
    a = x.detach().cpu().numpy()
    axis = attrs["axis"]
    if axis is not None:
        if a.ndim == 0:
            raise MXNetError("Operator _npi_unique: axis must be None for a 0-d array")
        axis = _axis("_npi_unique", axis, a.ndim)
    res = _onp.unique(a, return_index=attrs["return_index"],
                      return_inverse=attrs["return_inverse"],
                      return_counts=attrs["return_counts"], axis=axis)
    res = res if isinstance(res, tuple) else (res,)
    outs = [torch.from_numpy(_onp.ascontiguousarray(res[0])).to(x.device)]
    for r in res[1:]:
        outs.append(torch.from_numpy(_onp.asarray(r, dtype=_onp.int64).reshape(-1))
                    .to(x.device))
    outs[0] = _zero_grad(outs[0], x)
    return tuple(outs) if len(outs) > 1 else outs[0]


register(OpDef("_npi_unique", _unique,
               params=[Param("return_index", "bool", False,
                             doc="Also return the indices of the first occurrences."),
                       Param("return_inverse", "bool", False,
                             doc="Also return the indices that rebuild the input."),
                       Param("return_counts", "bool", False,
                             doc="Also return the number of occurrences."),
                       Param("axis", "int_or_none", None,
                             doc="Axis to operate on; None: the flattened array.")],
               outputs=_unique_outputs,
               infer_type=lambda attrs, ins: (ins, ins[:1] + ["int64"] * (
                   len(_unique_outputs(attrs)) - 1)),
               doc="Sorted unique elements of an array (``mx.np.unique``).\n\n"
                   "Example: ``mx.np.unique(mx.np.array([3., 1., 3.]))``"))
_REG["_npi_unique"].dynamic_shape = True  # output shape set by the input values

# ---------------------------------------------------------------------------------------
# bincount


def _bincount(attrs, x, weights=None):
    if x.is_floating_point() or x.dtype == torch.bool:
        raise MXNetError(f"Operator _npi_bincount: input data must be an integer array, got "
                         f"{str(x.dtype)[6:]}")
    if x.dim() != 1:
        raise MXNetError(f"Operator _npi_bincount: input data must be 1-D, got shape "
                         f"{tuple(x.shape)}")
    minlength = attrs["minlength"]
    if minlength < 0:
        raise MXNetError("Operator _npi_bincount: minlength must be non-negative")
    if x.numel() and x.device.type != "meta" and bool((x < 0).any()):
        raise MXNetError("Operator _npi_bincount: input data must be non-negative")
    if weights is None:
        return torch.bincount(x.long(), minlength=minlength).to(x.dtype)
    if weights.shape != x.shape:
        raise MXNetError(f"Operator _npi_bincount: weights shape {tuple(weights.shape)} must "
                         f"match data shape {tuple(x.shape)}")
    n = max(int(x.max()) + 1 if x.numel() else 0, minlength)
    out = torch.zeros(n, dtype=weights.dtype, device=x.device)
    return out.index_add(0, x.long(), weights)


register(OpDef("_npi_bincount", _bincount, inputs=("data", "weights"),
               active_inputs=lambda attrs: ["data", "weights"] if attrs["has_weights"]
               else ["data"],
               params=[Param("minlength", "int", 0, doc="Minimum number of bins."),
                       Param("has_weights", "bool", False, doc="Whether weights are given.")],
               infer_type=lambda attrs, ins: (ins, [ins[1] if attrs["has_weights"] else ins[0]]),
               doc="Number of occurrences of each non-negative integer "
                   "(``mx.np.bincount``).\n\n"
                   "Example: ``mx.np.bincount(mx.np.array([0, 1, 1], dtype='int32'))``"))

# ---------------------------------------------------------------------------------------
# histogram


def _histogram(attrs, x, bins=None):
    flat = x.reshape(-1)
    if attrs["bin_cnt"] is not None:
        n = attrs["bin_cnt"]
        rng = attrs["range"]
        if rng is None or len(rng) != 2:
            raise MXNetError("Operator _npi_histogram: range must be a (min, max) pair when "
                             "bin_cnt is given")
        lo, hi = float(rng[0]), float(rng[1])
        if lo > hi:
            raise MXNetError("Operator _npi_histogram: max must be larger than min in range")
        edges = torch.linspace(lo, hi, n + 1, dtype=torch.float64, device=x.device)
        if flat.device.type == "meta":
            return torch.empty(n, dtype=torch.int64, device="meta"), edges.to(x.dtype)
        v = flat.to(torch.float64)
        keep = (v >= lo) & (v <= hi)
        v = v[keep]
        width = hi - lo
        idx = ((v - lo) * n / width).floor().long() if width > 0 else torch.zeros_like(v).long()
        idx = idx.clamp(0, n - 1)
        counts = torch.bincount(idx, minlength=n)[:n]
        return counts.to(torch.int64), edges.to(x.dtype)
    if bins is None:
        raise MXNetError("Operator _npi_histogram: bins must be given when bin_cnt is None")
    if bins.dim() != 1 or bins.numel() < 2:
        raise MXNetError("Operator _npi_histogram: bins must be a 1-D array of at least two "
                         "edges")
    n = bins.numel() - 1
    if flat.device.type == "meta":
        return torch.empty(n, dtype=torch.int64, device="meta"), bins.clone()
    b = bins.to(torch.float64)
    v = flat.to(torch.float64)
    v = v[(v >= b[0]) & (v <= b[-1])]
    idx = torch.searchsorted(b, v, right=True) - 1
    idx = idx.clamp(0, n - 1)
    counts = torch.bincount(idx, minlength=n)[:n]
    return counts.to(torch.int64), bins.clone()


register(OpDef("_npi_histogram", _histogram, inputs=("data", "bins"),
               active_inputs=lambda attrs: ["data"] if attrs["bin_cnt"] is not None
               else ["data", "bins"],
               params=[Param("bin_cnt", "int_or_none", None, doc="Number of equal-width bins "
                                                                 "(with range)."),
                       Param("range", "float_seq", None, doc="(min, max) of the bins.")],
               outputs=("hist", "bin_edges"),
               infer_type=lambda attrs, ins: (ins, ["int64", ins[0] if attrs["bin_cnt"]
                                                    is not None else ins[1]]),
               doc="Histogram of an array: counts per bin and the bin edges "
                   "(``mx.np.histogram``).\n\n"
                   "Example: ``mx.np.histogram(a, bins=4, range=(0, 8))``"))

# ---------------------------------------------------------------------------------------
# percentile


def _quantile_last(x: torch.Tensor, q: torch.Tensor, mode: str) -> torch.Tensor:
    """Quantiles ``q`` (in [0, 1]) over the last axis of ``x``: shape ``(q.size, *x[..., 0])``.
    'nearest' rounds a position halfway between two points up, as MXNet does."""
    v = torch.sort(x, dim=-1).values
    n = v.shape[-1]
    pos = q * (n - 1)
    lo = pos.floor().long().clamp(0, n - 1)
    hi = pos.ceil().long().clamp(0, n - 1)
    vlo = v[..., lo].movedim(-1, 0)
    vhi = v[..., hi].movedim(-1, 0)
    shape = (-1,) + (1,) * (x.dim() - 1)
    if mode == "lower":
        return vlo
    if mode == "higher":
        return vhi
    if mode == "midpoint":
        return (vlo + vhi) / 2
    if mode == "nearest":
        near = (pos + 0.5).floor().long().clamp(0, n - 1)
        return v[..., near].movedim(-1, 0)
    frac = (pos - lo.to(pos.dtype)).reshape(shape)
    return vlo + (vhi - vlo) * frac


def _percentile(attrs, a, q=None):
    axis = attrs["axis"]
    keepdims = attrs["keepdims"]
    out_dt = a.dtype if a.is_floating_point() else torch.float32
    x = a.to(torch.float64)
    nd = x.dim()
    if axis is None:
        axes = tuple(range(nd))
    else:
        axes = tuple(_axis("_npi_percentile", ax, nd) for ax in axis)
        if len(set(axes)) != len(axes):
            raise MXNetError("Operator _npi_percentile: repeated axis")
    rest = [d for d in range(nd) if d not in axes]
    kept_shape = [x.shape[d] for d in rest]
    x = x.permute(*rest, *axes).reshape(*kept_shape, -1)
    if q is None:
        qv = torch.tensor(float(attrs["q_scalar"]), dtype=torch.float64, device=a.device)
    else:
        qv = q.to(torch.float64)
    if a.device.type != "meta" and qv.device.type != "meta" and qv.numel() and bool(
            ((qv < 0) | (qv > 100)).any()):
        raise MXNetError("Operator _npi_percentile: q must be in the range [0, 100]")
    if x.shape[-1] == 0:
        raise MXNetError("Operator _npi_percentile: cannot compute on an empty array")
    res = _quantile_last(x, qv.reshape(-1) / 100.0, attrs["interpolation"])
    # res: (q.size, *kept_shape)
    res = res.reshape(tuple(qv.shape) + tuple(kept_shape))
    if keepdims:
        full = [1 if d in axes else a.shape[d] for d in range(nd)]
        res = res.reshape(tuple(qv.shape) + tuple(full))
    return _zero_grad(res.to(out_dt), a)


register(OpDef("_npi_percentile", _percentile, inputs=("a", "q"),
               active_inputs=lambda attrs: ["a"] if attrs["q_scalar"] is not None
               else ["a", "q"],
               params=[Param("axis", "shape_or_none", None, doc="Axes to compute along."),
                       Param("interpolation", "enum", "linear",
                             choices=("higher", "linear", "lower", "midpoint", "nearest"),
                             doc="How to pick a value between two data points."),
                       Param("keepdims", "bool", False, doc="Keep reduced axes as size 1."),
                       Param("q_scalar", "float_or_none", None,
                             doc="The percentile when q is a scalar.")],
               infer_type=lambda attrs, ins: (ins, [None if ins[0] is None else (
                   ins[0] if ins[0].startswith("float") else "float32")]),
               doc="q-th percentile of the data along the axes (``mx.np.percentile``).\n\n"
                   "Example: ``mx.np.percentile(mx.np.array([1., 2., 3.]), 50)``"))
