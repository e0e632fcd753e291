"""Miscellaneous tensor operators: khatri_rao, moments, cumsum, all_finite,
multi_all_finite, reset_arrays, fill_element_0index, _histogram, ravel/unravel_index,
_square_sum and the small internal helpers (_grad_add, _copyto, _set_value...).

Example: ``mean, var = mx.nd.moments(x, axes=(0,))``
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np
import torch

from .._dtype import to_torch
from ._params import Param
from ._registry import OpDef, get_op, register
from ._shape import fmt_shape, norm_axis, op_error

__all__: list[str] = []


def _same_shape(a: dict, s: list) -> list:
    known = next((x for x in s if x is not None), None)
    return [known if x is None else x for x in s]


# ---------------------------------------------------------------------------------------
# khatri_rao / moments / cumsum


def _khatri_rao(a: dict, *mats: torch.Tensor) -> torch.Tensor:
    if not mats:
        raise op_error("khatri_rao", "needs at least one input matrix")
    ncol = mats[0].shape[-1]
    for m in mats:
        if m.dim() != 2 or m.shape[1] != ncol:
            raise op_error(
                "khatri_rao",
                "all inputs must be 2-D with the same number of "
                f"columns (got {[fmt_shape(x.shape) for x in mats]})",
            )
    out = mats[0]
    for m in mats[1:]:
        out = (out[:, None, :] * m[None, :, :]).reshape(-1, ncol)
    return out


register(
    OpDef(
        "khatri_rao",
        _khatri_rao,
        variadic="num_args",
        params=[Param("num_args", "int", 1, doc="Number of input matrices.")],
        doc="Column-wise Kronecker product of the input matrices.\n\n"
        "Example: ``mx.nd.khatri_rao(A, B)``",
    )
)


def _axes(op: str, axes, nd: int) -> list[int]:
    if axes is None:
        return list(range(nd))
    return sorted({norm_axis(op, x, nd, "axes") for x in axes})


def _moments(a: dict, data: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    if not a["axes"]:
        raise op_error("moments", "Empty axes is not supported, if you would like to do global "
                                  "moments, please pass all axes to axes argument")
    axes = _axes("moments", a["axes"], data.dim())
    mean = data.mean(dim=axes, keepdim=True)
    var = ((data - mean) ** 2).mean(dim=axes, keepdim=True)
    if not a["keepdims"]:
        mean, var = mean.squeeze(axes) if axes else mean, var.squeeze(axes) if axes else var
    return mean, var


register(
    OpDef(
        "moments",
        _moments,
        outputs=("output0", "output1"),
        params=[
            Param(
                "axes",
                "shape_or_none",
                None,
                doc="Array of ints. Axes along which to compute moments.",
            ),
            Param(
                "keepdims",
                "bool",
                False,
                doc="produce moments with the same dimensionality as the input.",
            ),
        ],
        doc="Mean and (biased) variance of ``data`` along ``axes``.\n\n"
        "Example: ``mean, var = mx.nd.moments(x, axes=(0,))``",
    )
)

_CUMSUM_DT = (None, "float16", "float32", "float64", "int32", "int64", "int8")


def _half_cumsum(x: torch.Tensor, axis: int) -> torch.Tensor:
    """Running sums rounded to the (half precision) dtype at every step, as MXNet's kernel
    (and NumPy) accumulate; torch accumulates in float32."""
    xs = x.movedim(axis, 0)
    acc, outs = None, []
    for i in range(xs.shape[0]):
        acc = xs[i] if acc is None else acc + xs[i]
        outs.append(acc)
    return torch.stack(outs, 0).movedim(0, axis)


def _cumsum_out(a: dict, s: list) -> list:
    """MXNet 1.9.1's shape rule: the input's shape (flattened without ``axis``); the axis
    is checked only when the operator runs."""
    shape = tuple(s[0])
    if a["axis"] is None:
        n = 1
        for d in shape:
            n *= d
        return [(n,)]
    return [shape]


def _cumsum(a: dict, x: torch.Tensor) -> torch.Tensor:
    dt = to_torch(a["dtype"]) if a["dtype"] is not None else x.dtype
    if a["axis"] is None:
        x, axis = x.reshape(-1), 0
    else:
        axis = norm_axis("cumsum", a["axis"], x.dim())
    if dt in (torch.float16, torch.bfloat16) and 0 < x.shape[axis] <= 4096 \
            and x.device.type != "meta":
        return _half_cumsum(x.to(dt), axis)
    return torch.cumsum(x, axis).to(dt)


register(
    OpDef(
        "cumsum",
        _cumsum,
        inputs=("a",),
        params=[
            Param(
                "axis",
                "int_or_none",
                None,
                doc="Axis along which the cumulative sum is computed; None flattens the input.",
            ),
            Param(
                "dtype",
                "enum",
                None,
                choices=_CUMSUM_DT[1:],
                doc="Type of the returned array (default: the input's).",
            ),
        ],
        infer_type=lambda a, t: (t, [a["dtype"] or t[0]]),
        infer_out=_cumsum_out,
        doc="Cumulative sum of the elements along an axis.\n\nExample: ``mx.nd.cumsum(x, axis=1)``",
    )
)


# ---------------------------------------------------------------------------------------
# finiteness checks and array reset


def _all_finite(a: dict, data: torch.Tensor) -> torch.Tensor:
    ok = bool(torch.isfinite(data).all()) if data.device.type != "meta" else True
    val = 1.0 if ok else 0.0
    return torch.full((1,), val, dtype=torch.float32, device=data.device)


register(
    OpDef(
        "all_finite",
        _all_finite,
        params=[Param("init_output", "bool", True, doc="Initialize output to 1.")],
        infer_type=lambda a, t: (t, ["float32"]),
        doc="1.0 (shape (1,)) when every element is finite, else 0.0.\n\n"
        "Example: ``mx.nd.all_finite(grad)``",
    )
)


def _multi_all_finite(a: dict, *arrays: torch.Tensor) -> torch.Tensor:
    ok = all(bool(torch.isfinite(t).all()) for t in arrays if t.device.type != "meta")
    val = 1.0 if ok else 0.0
    dev = arrays[0].device if arrays else None
    return torch.full((1,), val, dtype=torch.float32, device=dev)


register(
    OpDef(
        "multi_all_finite",
        _multi_all_finite,
        variadic="num_arrays",
        params=[
            Param("num_arrays", "int", 1, doc="Number of arrays."),
            Param("init_output", "bool", True, doc="Initialize output to 1."),
        ],
        infer_type=lambda a, t: (t, ["float32"]),
        doc="1.0 (shape (1,)) when every element of every input is finite, else 0.0."
        "\n\nExample: ``mx.nd.multi_all_finite(g1, g2, num_arrays=2)``",
    )
)


def _and_previous(a: dict, old: torch.Tensor, new: torch.Tensor) -> torch.Tensor:
    """With ``init_output=False`` MXNet leaves ``out`` as it was unless a non-finite value
    is found (then 0): the checks of several calls accumulate in one output."""
    if a["init_output"]:
        return new
    return torch.minimum(old.to(new.dtype), torch.ones_like(new) if bool(new.all()) else new)


get_op("all_finite").out_combine = _and_previous
get_op("multi_all_finite").out_combine = _and_previous


def _reset_arrays(a: dict, *arrays: torch.Tensor) -> tuple:
    with torch.no_grad():
        for t in arrays:
            if t.device.type != "meta":
                t.zero_()
    return ()


register(
    OpDef(
        "reset_arrays",
        _reset_arrays,
        variadic="num_arrays",
        outputs=(),
        params=[Param("num_arrays", "int", doc="number of input arrays.")],
        mutates=(),
        doc="Set every input array to zero in place; returns nothing.\n\n"
        "Example: ``mx.nd.reset_arrays(a, b, num_arrays=2)``",
    )
)


# ---------------------------------------------------------------------------------------
# fill_element_0index / _onehot_encode / _histogram / ravel / unravel


def _fill_element_0index(
    a: dict, lhs: torch.Tensor, mhs: torch.Tensor, rhs: torch.Tensor
) -> torch.Tensor:
    if lhs.dim() != 2 or mhs.numel() != lhs.shape[0] or rhs.numel() != lhs.shape[0]:
        raise op_error(
            "fill_element_0index",
            f"lhs must be 2-D and mhs/rhs hold one value per "
            f"row (lhs {fmt_shape(lhs.shape)}, mhs "
            f"{fmt_shape(mhs.shape)}, rhs "
            f"{fmt_shape(rhs.shape)})",
        )
    idx = rhs.detach().reshape(-1, 1).to(torch.int64).clamp(0, lhs.shape[1] - 1)
    return lhs.scatter(1, idx, mhs.reshape(-1, 1).to(lhs.dtype))


register(
    OpDef(
        "fill_element_0index",
        _fill_element_0index,
        inputs=("lhs", "mhs", "rhs"),
        doc="Copy of ``lhs`` with ``lhs[i, rhs[i]] = mhs[i]`` for every row i.\n\n"
        "Example: ``mx.nd.fill_element_0index(x, vals, cols)``",
    )
)


def _onehot_encode(a: dict, lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
    if rhs.dim() != 2 or lhs.numel() != rhs.shape[0]:
        raise op_error(
            "_onehot_encode",
            f"out must be (n, depth) for n indices (indices "
            f"{fmt_shape(lhs.shape)}, out {fmt_shape(rhs.shape)})",
        )
    if lhs.dtype != torch.float32 or rhs.dtype != torch.float32:
        raise op_error("_onehot_encode", "one_hot_encode only support float32 as input/output")
    idx = lhs.detach().reshape(-1, 1).to(torch.int64).clamp(0, rhs.shape[1] - 1)
    # MXNet's kernel logs this line on every call
    sys.stderr.write(
        "[%s] The operator onehot_encode is deprecated; use one_hot instead.\n"
        % time.strftime("%H:%M:%S")
    )
    return torch.zeros_like(rhs).scatter(1, idx, 1)


register(
    OpDef(
        "_onehot_encode",
        _onehot_encode,
        inputs=("lhs", "rhs"),
        doc="One-hot rows shaped like ``rhs`` from the indices in ``lhs`` (deprecated: "
        "use one_hot).\n\nExample: ``mx.nd._internal._onehot_encode(i, out)``",
    )
)


def _histogram(a: dict, data: torch.Tensor, bins: torch.Tensor | None = None):
    x = data.detach().reshape(-1).double()
    if a["bin_cnt"] is not None:
        rng = a["range"]
        if rng is None or len(rng) != 2:
            raise op_error("_histogram", "range must be given as (min, max) with bin_cnt")
        lo, hi = rng
        n = a["bin_cnt"]
        edges = torch.linspace(lo, hi, n + 1, dtype=torch.float64, device=data.device)
    else:
        if bins is None:
            raise op_error("_histogram", "bins array or bin_cnt is required")
        edges = bins.detach().reshape(-1).double()
        n = edges.numel() - 1
    inside = (x >= edges[0]) & (x <= edges[-1])
    pos = torch.bucketize(x[inside], edges, right=True) - 1
    pos = pos.clamp(max=n - 1)
    counts = (
        torch.bincount(pos, minlength=n)[:n]
        if data.device.type != "meta"
        else torch.empty(n, dtype=torch.int64, device=data.device)
    )
    return counts.to(torch.int64), edges.to(data.dtype)


def _histogram_out(a: dict, s: list) -> list:
    if a["bin_cnt"] is not None:
        n = int(a["bin_cnt"])
    elif len(s) > 1 and s[1] is not None:
        n = int(np.prod(s[1])) - 1
    else:
        return [None, None]
    return [(n,), (n + 1,)]


register(
    OpDef(
        "_histogram",
        _histogram,
        inputs=("data", "bins"),
        infer_out=_histogram_out,
        active_inputs=lambda a: ("data",) if a["bin_cnt"] is not None else ("data", "bins"),
        outputs=("output0", "output1"),
        params=[
            Param("bin_cnt", "int_or_none", None, doc="Number of bins for uniform case"),
            Param("range", "float_seq", None, doc="The lower and upper range of the bins."),
        ],
        doc="Counts (int64) of ``data`` in each bin and the bin edges.\n\n"
        "Example: ``mx.nd._internal._histogram(x, bin_cnt=4, range=(0, 1))``",
    )
)


def _strides(shape: tuple) -> list[int]:
    out, acc = [], 1
    for d in reversed(shape):
        out.append(acc)
        acc *= d
    return out[::-1]


def _ravel(a: dict, data: torch.Tensor) -> torch.Tensor:
    shape = a["shape"]
    if data.shape[0] != len(shape):
        raise op_error(
            "_ravel_multi_index",
            f"data first dimension {data.shape[0]} must equal len(shape)={len(shape)}",
        )
    st = torch.tensor(_strides(shape), dtype=torch.float64, device=data.device)
    idx = torch.floor(data.detach().double()).reshape(len(shape), -1)
    out = (idx * st[:, None]).sum(0)
    return out.reshape(data.shape[1:]).to(data.dtype)


def _unravel(a: dict, data: torch.Tensor) -> torch.Tensor:
    shape = a["shape"]
    idx = data.detach().to(torch.int64).reshape(-1)
    rows: list = [None] * len(shape)
    for k in reversed(range(len(shape))):  # MXNet's kernel: C division from the last axis
        d = shape[k]
        if k == 0 and d < 0:  # a leading -1: unbounded
            rows[0] = idx
            break
        q = torch.div(idx, d, rounding_mode="trunc")
        rows[k] = idx - q * d
        idx = q
    return torch.stack(rows, 0).reshape((len(shape),) + tuple(data.shape)).to(data.dtype)


_SHAPE = [
    Param("shape", "shape", None, doc="Shape of the array into which the multi-indices apply.")
]
register(
    OpDef(
        "_ravel_multi_index",
        _ravel,
        params=_SHAPE,
        aliases=("ravel_multi_index",),
        doc="Flat indices from multi-indices (one row per dimension).\n\n"
        "Example: ``mx.nd.ravel_multi_index(idx, shape=(3, 4))``",
    )
)
register(
    OpDef(
        "_unravel_index",
        _unravel,
        params=_SHAPE,
        aliases=("unravel_index",),
        doc="Multi-indices (one row per dimension) from flat indices.\n\n"
        "Example: ``mx.nd.unravel_index(flat, shape=(3, 4))``",
    )
)


# ---------------------------------------------------------------------------------------
# _square_sum and internal helpers


def _square_sum(a: dict, data: torch.Tensor) -> torch.Tensor:
    nd = data.dim()
    axes = _axes("_square_sum", a["axis"], nd)
    if a["exclude"]:
        axes = [i for i in range(nd) if i not in axes]
    if not axes:
        return data * data
    return (data * data).sum(dim=axes, keepdim=a["keepdims"])


register(
    OpDef(
        "_square_sum",
        _square_sum,
        params=[
            Param(
                "axis",
                "shape_or_none",
                None,
                doc="The axis or axes along which to perform the reduction.",
            ),
            Param("keepdims", "bool", False, doc="keep reduced axes as size one"),
            Param("exclude", "bool", False, doc="reduce over all axes except axis"),
        ],
        doc="Sum of squares along ``axis`` (MXNet ships it for row_sparse input; dense "
        "here).\n\nExample: ``mx.nd._internal._square_sum(x, axis=1)``",
    )
)


def _grad_add(a: dict, lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
    return lhs + rhs


register(
    OpDef(
        "_grad_add",
        _grad_add,
        inputs=("lhs", "rhs"),
        infer_shape=_same_shape,
        doc="Elementwise sum used to accumulate gradients.\n\n"
        "Example: ``mx.nd._internal._grad_add(a, b)``",
    )
)


def _like_rhs(a: dict, lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
    if tuple(lhs.shape) != tuple(rhs.shape):
        raise op_error(
            "_identity_with_attr_like_rhs",
            f"Incompatible attr: expected {fmt_shape(lhs.shape)}, got {fmt_shape(rhs.shape)}",
        )
    return lhs.clone()


register(
    OpDef(
        "_identity_with_attr_like_rhs",
        _like_rhs,
        inputs=("lhs", "rhs"),
        infer_shape=_same_shape,
        doc="Returns ``lhs``; ``rhs`` only lends its shape and type.\n\n"
        "Example: ``mx.nd._internal._identity_with_attr_like_rhs(a, b)``",
    )
)


def _copy(a: dict, data: torch.Tensor) -> torch.Tensor:
    return data.clone()


register(
    OpDef(
        "_copyto",
        _copy,
        infer_shape=_same_shape,
        doc="Copy an array (used by NDArray.copyto).\n\nExample: ``mx.nd._internal._copyto(x)``",
    )
)
register(
    OpDef(
        "_CrossDeviceCopy",
        _copy,
        infer_shape=_same_shape,
        doc="Copy an array across devices (inserted by the executor).\n\n"
        "Example: ``mx.nd._internal._CrossDeviceCopy(x)``",
    )
)


def _no_gradient(a: dict) -> torch.Tensor:
    return torch.zeros(())


register(
    OpDef(
        "_NoGradient",
        _no_gradient,
        inputs=(),
        creation=True,
        doc="Placeholder for a gradient that is never computed.\n\n"
        "Example: ``mx.nd._internal._NoGradient()``",
    )
)


def _set_value(a: dict) -> torch.Tensor:
    return torch.tensor(a["src"], dtype=torch.float32)


register(
    OpDef(
        "_set_value",
        _set_value,
        inputs=(),
        creation=True,
        params=[Param("src", "float", doc="Source input")],
        doc="Fill ``out`` with the scalar ``src`` (call with ``out=``).\n\n"
        "Example: ``mx.nd._internal._set_value(src=3.0, out=x)``",
    )
)


def _scalar_like(fn):
    def compute(a: dict, data: torch.Tensor) -> torch.Tensor:
        s = a["scalar"]
        if not data.is_floating_point():
            s = int(s)
        return fn(data, s)

    return compute


_SCALAR = [
    Param("scalar", "float", 1.0, doc="Scalar input value"),
    Param("is_int", "bool", True, doc="Indicate whether scalar input is int type"),
]
register(
    OpDef(
        "_scatter_plus_scalar",
        _scalar_like(lambda x, s: x + s),
        params=_SCALAR,
        infer_shape=_same_shape,
        doc="``data + scalar`` (MXNet keeps the sparsity pattern of sparse input).\n\n"
        "Example: ``mx.nd._internal._scatter_plus_scalar(x, scalar=2)``",
    )
)
register(
    OpDef(
        "_scatter_minus_scalar",
        _scalar_like(lambda x, s: x - s),
        params=_SCALAR,
        infer_shape=_same_shape,
        doc="``data - scalar`` (MXNet keeps the sparsity pattern of sparse input).\n\n"
        "Example: ``mx.nd._internal._scatter_minus_scalar(x, scalar=2)``",
    )
)


def _scatter_div(a: dict, lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
    if tuple(lhs.shape) != tuple(rhs.shape):
        raise op_error(
            "_scatter_elemwise_div",
            f"shapes differ: {fmt_shape(lhs.shape)} vs {fmt_shape(rhs.shape)}",
        )
    return lhs / rhs if lhs.is_floating_point() else torch.div(lhs, rhs, rounding_mode="trunc")


register(
    OpDef(
        "_scatter_elemwise_div",
        _scatter_div,
        inputs=("lhs", "rhs"),
        infer_shape=_same_shape,
        doc="Elementwise ``lhs / rhs`` (MXNet keeps the sparsity pattern of sparse "
        "lhs).\n\nExample: ``mx.nd._internal._scatter_elemwise_div(a, b)``",
    )
)


# ---------------------------------------------------------------------------------------
# _sample_unique_zipfian


def _unique_zipfian(a: dict) -> tuple[torch.Tensor, torch.Tensor]:
    shape = a["shape"]
    rmax = a["range_max"]
    if len(shape) != 2:
        raise op_error(
            "_sample_unique_zipfian", f"shape must be (batch, num_sampled), got {fmt_shape(shape)}"
        )
    batch, n = shape
    if n > rmax:
        raise op_error("_sample_unique_zipfian", f"num_sampled {n} > range_max {rmax}")
    log_range = math.log(rmax + 1)
    samples = torch.empty((batch, n), dtype=torch.int64)
    tries = torch.empty((batch,), dtype=torch.int64)
    for b in range(batch):
        seen: dict[int, None] = {}
        count = 0
        while len(seen) < n:
            u = float(torch.rand((), dtype=torch.float64))
            v = int(round(math.exp(u * log_range))) - 1
            v = min(max(v, 0), rmax - 1)
            count += 1
            seen.setdefault(v, None)
        samples[b] = torch.tensor(list(seen), dtype=torch.int64)
        tries[b] = count
    return samples, tries


register(
    OpDef(
        "_sample_unique_zipfian",
        _unique_zipfian,
        inputs=(),
        creation=True,
        outputs=("output0", "output1"),
        params=[
            Param("range_max", "int", doc="The number of possible classes."),
            Param(
                "shape",
                "shape",
                None,
                doc="2-D shape of the output, where "
                "shape[0] is the batch size, and shape[1] is the number of "
                "candidates to sample for each batch.",
            ),
        ],
        infer_type=lambda a, t: (t, ["int64", "int64"]),
        doc="Unique samples from an approximately log-uniform (Zipfian) distribution "
        "over [0, range_max), with the number of tries per row.\n\n"
        "Example: ``mx.nd._internal._sample_unique_zipfian(range_max=100, "
        "shape=(2, 5))``",
    )
)
