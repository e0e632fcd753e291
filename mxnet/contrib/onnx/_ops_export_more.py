"""MXNet -> ONNX converters for the less common operators: splits, comparisons, LayerNorm,
GELU, arg-reductions, tiling and broadcasting."""

from __future__ import annotations

import numpy as np

from ...base import MXNetError
from ._common import ExportContext

__all__ = ["MORE_CONVERTERS"]

_FLOAT = 1  # onnx TensorProto.FLOAT


def split(ctx: ExportContext, name, attrs, ins, shapes, outs):
    n = int(attrs["num_outputs"])
    axis = int(attrs.get("axis", 1))
    names = [f"{name}{i}" for i in range(n)]
    if not attrs.get("squeeze_axis"):
        ctx.node("Split", ins, names, name=name, axis=axis)
        return names
    raw = [f"{name}{i}_unsqueezed" for i in range(n)]
    ctx.node("Split", ins, raw, name=name, axis=axis)
    ax = ctx.const(f"{name}_axes", [axis])
    for r, o in zip(raw, names):
        ctx.node("Squeeze", [r, ax], [o])
    return names


def _arg(op_type: str):
    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        axis = attrs.get("axis")
        keep = int(bool(attrs.get("keepdims", False)))
        x = ins[0]
        if axis is None:
            x = ctx.node("Reshape", [x, ctx.const(f"{name}_flat_shape", [-1])], [f"{name}_flat"])
            axis = 0
        raw = ctx.node(op_type, [x], [f"{name}_{op_type.lower()}"], axis=int(axis), keepdims=keep)
        return [ctx.node("Cast", [raw], [name], name=name, to=ctx.onnx_type(ctx.out_dtype()))]

    return conv


def _compare(op_type: str, scalar: bool = False, negate: bool = False):
    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        if scalar:
            dt = ctx.in_dtype()
            v = float(attrs["scalar"])
            b = ctx.const(f"{name}_scalar", [int(v) if dt.kind in "iub" else v], dt)
            args = [ins[0], b]
        else:
            args = list(ins[:2])
        r = ctx.node(op_type, args, [f"{name}_bool"])
        if negate:
            r = ctx.node("Not", [r], [f"{name}_not"])
        return [ctx.node("Cast", [r], [name], name=name, to=ctx.onnx_type(ctx.out_dtype()))]

    return conv


def layer_norm(ctx: ExportContext, name, attrs, ins, shapes, outs):
    if attrs.get("output_mean_var"):
        raise MXNetError(
            f"ONNX export: LayerNorm '{name}' with output_mean_var=True is not supported"
        )
    x, gamma, beta = ins
    nd = len(shapes[0])
    axis = int(attrs.get("axis", -1)) % nd
    eps = float(attrs.get("eps", 1e-5))
    mean = ctx.node("ReduceMean", [x], [f"{name}_mean"], axes=[axis], keepdims=1)
    cen = ctx.node("Sub", [x, mean], [f"{name}_centered"])
    sq = ctx.node("Mul", [cen, cen], [f"{name}_sq"])
    var = ctx.node("ReduceMean", [sq], [f"{name}_var"], axes=[axis], keepdims=1)
    veps = ctx.node(
        "Add", [var, ctx.const(f"{name}_eps", [eps], ctx.in_dtype())], [f"{name}_var_eps"]
    )
    std = ctx.node("Sqrt", [veps], [f"{name}_std"])
    norm = ctx.node("Div", [cen, std], [f"{name}_norm"])
    pshape = [1] * nd
    pshape[axis] = -1
    shp = ctx.const(f"{name}_param_shape", pshape)
    g = ctx.node("Reshape", [gamma, shp], [f"{name}_gamma_reshaped"])
    b = ctx.node("Reshape", [beta, shp], [f"{name}_beta_reshaped"])
    scaled = ctx.node("Mul", [norm, g], [f"{name}_scaled"])
    return [ctx.node("Add", [scaled, b], [name], name=name)]


def gelu(ctx: ExportContext, name, attrs, ins, shapes, outs):
    x = ins[0]
    t = ctx.node(
        "Div", [x, ctx.const(f"{name}_sqrt2", [np.sqrt(2.0)], ctx.in_dtype())], [f"{name}_scaled"]
    )
    e = ctx.node("Erf", [t], [f"{name}_erf"])
    e1 = ctx.node("Add", [e, ctx.const(f"{name}_one", [1.0], ctx.in_dtype())], [f"{name}_erf1"])
    h = ctx.node("Mul", [x, e1], [f"{name}_prod"])
    return [
        ctx.node("Mul", [h, ctx.const(f"{name}_half", [0.5], ctx.in_dtype())], [name], name=name)
    ]


def tile(ctx: ExportContext, name, attrs, ins, shapes, outs):
    reps = [int(r) for r in attrs["reps"]]
    nd = len(shapes[0])
    x = ins[0]
    if len(reps) > nd:  # MXNet prepends axes to the data
        shp = ctx.const(f"{name}_expanded_shape", [1] * (len(reps) - nd) + list(shapes[0]))
        x = ctx.node("Reshape", [x, shp], [f"{name}_expanded"])
    reps = [1] * (max(nd, len(reps)) - len(reps)) + reps
    return [ctx.node("Tile", [x, ctx.const(f"{name}_reps", reps)], [name], name=name)]


def broadcast_static(ctx: ExportContext, name, attrs, ins, shapes, outs):
    shp = ctx.const(f"{name}_shape", list(outs[0]))
    return [ctx.node("Expand", [ins[0], shp], [name], name=name)]


def where(ctx: ExportContext, name, attrs, ins, shapes, outs):
    if list(shapes[0]) != list(shapes[1]):
        raise MXNetError(f"ONNX export: where '{name}' with a 1-D condition is not supported")
    cond = ctx.node("Cast", [ins[0]], [f"{name}_cond"], to=9)
    return [ctx.node("Where", [cond, ins[1], ins[2]], [name], name=name)]


def _fill_like(value: float):
    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        shp = ctx.node("Shape", ins[:1], [f"{name}_shape"])
        val = ctx.onnx.numpy_helper.from_array(np.array([value], ctx.out_dtype()), "value")
        return [ctx.node("ConstantOfShape", [shp], [name], name=name, value=val)]

    return conv


def stack(ctx: ExportContext, name, attrs, ins, shapes, outs):
    axis = int(attrs.get("axis", 0)) % (len(shapes[0]) + 1)
    ax = ctx.const(f"{name}_axes", [axis])
    parts = [ctx.node("Unsqueeze", [x, ax], [f"{name}_in{i}"]) for i, x in enumerate(ins)]
    return [ctx.node("Concat", parts, [name], name=name, axis=axis)]


def take(ctx: ExportContext, name, attrs, ins, shapes, outs):
    idx = ctx.node("Cast", [ins[1]], [f"{name}_indices_int64"], to=7)
    n = shapes[0][int(attrs.get("axis", 0))]
    if attrs.get("mode", "clip") == "wrap":  # as Python's %: the result is in [0, n)
        idx = ctx.node("Mod", [idx, ctx.const(f"{name}_n", n)], [f"{name}_indices_wrapped"])
    else:
        lo, hi = ctx.const(f"{name}_lo", 0), ctx.const(f"{name}_hi", n - 1)
        idx = ctx.node("Clip", [idx, lo, hi], [f"{name}_indices_clipped"])
    return [ctx.node("Gather", [ins[0], idx], [name], name=name, axis=int(attrs.get("axis", 0)))]


def swapaxis(ctx: ExportContext, name, attrs, ins, shapes, outs):
    perm = list(range(len(shapes[0])))
    a, b = int(attrs.get("dim1", 0)), int(attrs.get("dim2", 0))
    perm[a], perm[b] = perm[b], perm[a]
    return [ctx.node("Transpose", ins, [name], name=name, perm=perm)]


def rsqrt(ctx: ExportContext, name, attrs, ins, shapes, outs):
    s = ctx.node("Sqrt", ins, [f"{name}_sqrt"])
    return [ctx.node("Reciprocal", [s], [name], name=name)]


MORE_CONVERTERS = {
    "SliceChannel": split,
    "argmax": _arg("ArgMax"),
    "argmin": _arg("ArgMin"),
    "LayerNorm": layer_norm,
    "tile": tile,
    "broadcast_to": broadcast_static,
    "broadcast_like": broadcast_static,
    "where": where,
    "zeros_like": _fill_like(0.0),
    "ones_like": _fill_like(1.0),
    "stack": stack,
    "take": take,
    "SwapAxis": swapaxis,
    "rsqrt": rsqrt,
    "_greater_scalar": _compare("Greater", True),
    "_lesser_scalar": _compare("Less", True),
    "_equal_scalar": _compare("Equal", True),
    "_not_equal_scalar": _compare("Equal", True, True),
    "_greater_equal_scalar": _compare("GreaterOrEqual", True),
    "_lesser_equal_scalar": _compare("LessOrEqual", True),
    "broadcast_greater": _compare("Greater"),
    "broadcast_lesser": _compare("Less"),
    "broadcast_equal": _compare("Equal"),
    "_greater": _compare("Greater"),
    "_lesser": _compare("Less"),
    "_equal": _compare("Equal"),
}
