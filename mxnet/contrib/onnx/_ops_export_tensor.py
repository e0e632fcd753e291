"""MXNet -> ONNX converters for tensor and element-wise operators."""

from __future__ import annotations

import numpy as np

from ...base import MXNetError
from ._common import ExportContext

__all__ = ["TENSOR_CONVERTERS"]

_INT64_MAX = 2**63 - 1


def _simple(op_type: str):
    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        return [ctx.node(op_type, ins, [name], name=name)]

    conv.__name__ = f"to_{op_type}"
    return conv


def _scalar_value(v, dtype) -> float | int:
    """A scalar attribute as MXNet's kernels use it: cast to the data's element type."""
    v = float(v)
    return int(v) if np.dtype(dtype).kind in "iub" else v


def _scalar(op_type: str, reflected: bool = False):
    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        c = ctx.const(
            f"{name}_scalar", [_scalar_value(attrs["scalar"], ctx.in_dtype())], ctx.in_dtype()
        )
        args = [c, ins[0]] if reflected else [ins[0], c]
        return [ctx.node(op_type, args, [name], name=name)]

    conv.__name__ = f"scalar_{op_type}"
    return conv


def identity(ctx: ExportContext, name, attrs, ins, shapes, outs):
    return [ctx.node("Identity", ins[:1], [name], name=name)]


def square(ctx: ExportContext, name, attrs, ins, shapes, outs):
    return [ctx.node("Mul", [ins[0], ins[0]], [name], name=name)]


def flatten(ctx: ExportContext, name, attrs, ins, shapes, outs):
    return [ctx.node("Flatten", ins, [name], name=name, axis=1)]


def reshape(ctx: ExportContext, name, attrs, ins, shapes, outs):
    spec = tuple(attrs.get("shape") or ())
    simple = spec and not attrs.get("reverse") and all(s >= -1 for s in spec)
    target = list(spec) if simple else list(outs[0])
    shp = ctx.const(f"{name}_shape", target)
    return [ctx.node("Reshape", [ins[0], shp], [name], name=name)]


def concat(ctx: ExportContext, name, attrs, ins, shapes, outs):
    return [ctx.node("Concat", ins, [name], name=name, axis=int(attrs.get("dim", 1)))]


def add_n(ctx: ExportContext, name, attrs, ins, shapes, outs):
    return [ctx.node("Sum", ins, [name], name=name)]


def _softmax_common(op: str):
    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        if attrs.get("use_length") and len(ins) > 1:
            return _softmax_length(ctx, op, name, attrs, ins, shapes)
        x = ins[0]
        t = attrs.get("temperature")
        if t is not None and float(t) != 1.0:
            x = ctx.node(
                "Div",
                [x, ctx.const(f"{name}_temperature", [float(t)], ctx.in_dtype())],
                [f"{name}_scaled"],
            )
        return [ctx.node(op, [x], [name], name=name, axis=int(attrs.get("axis", -1)))]

    return conv


def _softmax_length(ctx: ExportContext, op: str, name, attrs, ins, shapes):
    """softmax over the first ``length`` entries along ``axis``; the rest are 0 (MXNet)."""
    x, length = ins[0], ins[1]
    nd = len(shapes[0])
    axis = int(attrs.get("axis", -1)) % nd
    dt = ctx.in_dtype()
    n = shapes[0][axis]
    steps = np.arange(n).reshape([n if i == axis else 1 for i in range(nd)])
    st = ctx.const(f"{name}_steps", steps, np.int64)
    ln = ctx.node("Cast", [length], [f"{name}_length_i64"], to=7)
    ln = ctx.node("Unsqueeze", [ln, ctx.const(f"{name}_length_axes", [axis])], [f"{name}_length"])
    mask = ctx.node("Less", [st, ln], [f"{name}_mask"])
    t = attrs.get("temperature")
    if t is not None and float(t) != 1.0:
        x = ctx.node(
            "Div", [x, ctx.const(f"{name}_temperature", [float(t)], dt)], [f"{name}_scaled"]
        )
    low = ctx.const(f"{name}_lowest", [np.finfo(dt).min if dt.kind == "f" else -1e30], dt)
    xm = ctx.node("Where", [mask, x, low], [f"{name}_masked"])
    sm = ctx.node(op, [xm], [f"{name}_raw"], axis=axis)
    zero = ctx.const(f"{name}_zero", [0], dt)
    return [ctx.node("Where", [mask, sm, zero], [name], name=name)]


def softmax_output(ctx: ExportContext, name, attrs, ins, shapes, outs):
    nd = len(shapes[0])
    if attrs.get("multi_output"):
        return [ctx.node("Softmax", ins[:1], [name], name=name, axis=1)]
    if attrs.get("preserve_shape") or nd <= 2:
        return [ctx.node("Softmax", ins[:1], [name], name=name, axis=-1)]
    flat = ctx.node("Flatten", ins[:1], [f"{name}_flattened"], axis=1)
    sm = ctx.node("Softmax", [flat], [f"{name}_softmax"], axis=-1)
    shp = ctx.const(f"{name}_shape", list(shapes[0]))
    return [ctx.node("Reshape", [sm, shp], [name], name=name)]


def _regression(op_type: str):
    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        return [ctx.node(op_type, ins[:1], [name], name=name)]

    return conv


def softmax_activation(ctx: ExportContext, name, attrs, ins, shapes, outs):
    axis = 1 if attrs.get("mode") == "channel" else -1
    return [ctx.node("Softmax", ins, [name], name=name, axis=axis)]


def transpose(ctx: ExportContext, name, attrs, ins, shapes, outs):
    axes = list(attrs.get("axes") or ())
    perm = [int(a) for a in axes] if axes else list(range(len(shapes[0])))[::-1]
    return [ctx.node("Transpose", ins, [name], name=name, perm=perm)]


def clip(ctx: ExportContext, name, attrs, ins, shapes, outs):
    dt = ctx.in_dtype()
    lo = ctx.const(f"{name}_min", _scalar_value(attrs["a_min"], dt), dt)
    hi = ctx.const(f"{name}_max", _scalar_value(attrs["a_max"], dt), dt)
    return [ctx.node("Clip", [ins[0], lo, hi], [name], name=name)]


def slice_axis(ctx: ExportContext, name, attrs, ins, shapes, outs):
    end = attrs.get("end")
    st = ctx.const(f"{name}_starts", [int(attrs["begin"])])
    en = ctx.const(f"{name}_ends", [_INT64_MAX if end is None else int(end)])
    ax = ctx.const(f"{name}_axes", [int(attrs["axis"])])
    return [ctx.node("Slice", [ins[0], st, en, ax], [name], name=name)]


def slice_op(ctx: ExportContext, name, attrs, ins, shapes, outs):
    begin, end = list(attrs["begin"]), list(attrs["end"])
    step = list(attrs.get("step") or ()) or [None] * len(begin)
    n = len(begin)
    b = [0 if v is None else int(v) for v in begin]
    stp = [1 if v is None else int(v) for v in step]
    e = [(_INT64_MAX if s > 0 else -_INT64_MAX) if v is None else int(v) for v, s in zip(end, stp)]
    args = [
        ins[0],
        ctx.const(f"{name}_starts", b),
        ctx.const(f"{name}_ends", e),
        ctx.const(f"{name}_axes", list(range(n))),
        ctx.const(f"{name}_steps", stp),
    ]
    return [ctx.node("Slice", args, [name], name=name)]


def expand_dims(ctx: ExportContext, name, attrs, ins, shapes, outs):
    ax = ctx.const(f"{name}_axes", [int(attrs["axis"])])
    return [ctx.node("Unsqueeze", [ins[0], ax], [name], name=name)]


def squeeze(ctx: ExportContext, name, attrs, ins, shapes, outs):
    axis = attrs.get("axis")
    if axis is None or axis == ():
        return [ctx.node("Squeeze", ins, [name], name=name)]
    axes = [int(a) for a in (axis if isinstance(axis, tuple | list) else (axis,))]
    return [ctx.node("Squeeze", [ins[0], ctx.const(f"{name}_axes", axes)], [name], name=name)]


def _reduce(op_type: str, axes_as_input: bool):
    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        nd = len(shapes[0])
        axis = attrs.get("axis")
        if axis is None or axis == ():
            axes = None
        else:
            axes = [int(a) % nd for a in (axis if isinstance(axis, tuple | list) else (axis,))]
        if attrs.get("exclude"):
            axes = [a for a in range(nd) if a not in (axes or [])]
        keep = int(bool(attrs.get("keepdims", False)))
        # MXNet gives shape (1,) where every axis is reduced away; ONNX gives a scalar
        to_1d = not keep and (axes is None or len(set(axes)) == nd)
        out = f"{name}_scalar" if to_1d else name
        oname = "" if to_1d else name
        if axes is None:
            ctx.node(op_type, ins, [out], name=oname, keepdims=keep)
        elif axes_as_input:
            a = ctx.const(f"{name}_axes", axes)
            ctx.node(op_type, [ins[0], a], [out], name=oname, keepdims=keep)
        else:
            ctx.node(op_type, ins, [out], name=oname, axes=axes, keepdims=keep)
        if to_1d:
            shp = ctx.const(f"{name}_shape", [1])
            ctx.node("Reshape", [out, shp], [name], name=name)
        return [name]

    conv.__name__ = f"reduce_{op_type}"
    return conv


def pad(ctx: ExportContext, name, attrs, ins, shapes, outs):
    mode = attrs.get("mode", "constant")
    onnx_mode = {"constant": "constant", "edge": "edge", "reflect": "reflect"}.get(mode)
    if onnx_mode is None:
        raise MXNetError(f"ONNX export: Pad '{name}': mode={mode} is not supported")
    pw = [int(p) for p in attrs["pad_width"]]
    pads = pw[0::2] + pw[1::2]
    args = [ins[0], ctx.const(f"{name}_pads", pads)]
    if onnx_mode == "constant":
        args.append(
            ctx.const(f"{name}_value", float(attrs.get("constant_value", 0.0)), ctx.in_dtype())
        )
    return [ctx.node("Pad", args, [name], name=name, mode=onnx_mode)]


def cast(ctx: ExportContext, name, attrs, ins, shapes, outs):
    onnx = ctx.onnx
    to = onnx.helper.np_dtype_to_tensor_dtype(np.dtype(attrs["dtype"]))
    return [ctx.node("Cast", ins, [name], name=name, to=int(to))]


def dot(ctx: ExportContext, name, attrs, ins, shapes, outs):
    a, b = ins
    if attrs.get("transpose_a"):
        a = ctx.node("Transpose", [a], [f"{name}_a_t"], perm=list(range(len(shapes[0])))[::-1])
    if attrs.get("transpose_b"):
        b = ctx.node("Transpose", [b], [f"{name}_b_t"], perm=list(range(len(shapes[1])))[::-1])
    return [ctx.node("MatMul", [a, b], [name], name=name)]


def _batch_operands(ctx: ExportContext, name, attrs, ins, shapes):
    """The two operands of a batched product, each with its last two axes swapped when
    ``transpose_a`` / ``transpose_b`` asks for it (batch_dot, linalg_gemm2)."""
    a, b = ins

    def swap(n):
        p = list(range(n))
        p[-1], p[-2] = p[-2], p[-1]
        return p

    if attrs.get("transpose_a"):
        a = ctx.node("Transpose", [a], [f"{name}_a_t"], perm=swap(len(shapes[0])))
    if attrs.get("transpose_b"):
        b = ctx.node("Transpose", [b], [f"{name}_b_t"], perm=swap(len(shapes[1])))
    return a, b


def batch_dot(ctx: ExportContext, name, attrs, ins, shapes, outs):
    a, b = _batch_operands(ctx, name, attrs, ins, shapes)
    return [ctx.node("MatMul", [a, b], [name], name=name)]


def hard_sigmoid(ctx: ExportContext, name, attrs, ins, shapes, outs):
    return [
        ctx.node(
            "HardSigmoid",
            ins,
            [name],
            name=name,
            alpha=float(attrs.get("alpha", 0.2)),
            beta=float(attrs.get("beta", 0.5)),
        )
    ]


TENSOR_CONVERTERS = {
    "Flatten": flatten,
    "Reshape": reshape,
    "Concat": concat,
    "add_n": add_n,
    "Dropout": identity,
    "_copy": identity,
    "BlockGrad": identity,
    "softmax": _softmax_common("Softmax"),
    "log_softmax": _softmax_common("LogSoftmax"),
    "SoftmaxOutput": softmax_output,
    "SoftmaxActivation": softmax_activation,
    "LinearRegressionOutput": _regression("Identity"),
    "MAERegressionOutput": _regression("Identity"),
    "LogisticRegressionOutput": _regression("Sigmoid"),
    "transpose": transpose,
    "clip": clip,
    "slice_axis": slice_axis,
    "slice": slice_op,
    "expand_dims": expand_dims,
    "squeeze": squeeze,
    "sum": _reduce("ReduceSum", True),
    "mean": _reduce("ReduceMean", False),
    "max": _reduce("ReduceMax", False),
    "min": _reduce("ReduceMin", False),
    "prod": _reduce("ReduceProd", False),
    "Pad": pad,
    "Cast": cast,
    "dot": dot,
    "batch_dot": batch_dot,
    "square": square,
    "hard_sigmoid": hard_sigmoid,
    "_plus_scalar": _scalar("Add"),
    "_minus_scalar": _scalar("Sub"),
    "_rminus_scalar": _scalar("Sub", True),
    "_mul_scalar": _scalar("Mul"),
    "_div_scalar": _scalar("Div"),
    "_rdiv_scalar": _scalar("Div", True),
    "_power_scalar": _scalar("Pow"),
    "_rpower_scalar": _scalar("Pow", True),
    "_maximum_scalar": _scalar("Max"),
    "_minimum_scalar": _scalar("Min"),
}
for _mx, _ox in [
    ("elemwise_add", "Add"),
    ("broadcast_add", "Add"),
    ("elemwise_sub", "Sub"),
    ("broadcast_sub", "Sub"),
    ("elemwise_mul", "Mul"),
    ("broadcast_mul", "Mul"),
    ("elemwise_div", "Div"),
    ("broadcast_div", "Div"),
    ("_maximum", "Max"),
    ("broadcast_maximum", "Max"),
    ("_minimum", "Min"),
    ("broadcast_minimum", "Min"),
    ("broadcast_power", "Pow"),
    ("_power", "Pow"),
    ("exp", "Exp"),
    ("log", "Log"),
    ("sqrt", "Sqrt"),
    ("abs", "Abs"),
    ("negative", "Neg"),
    ("relu", "Relu"),
    ("sigmoid", "Sigmoid"),
    ("tanh", "Tanh"),
    ("erf", "Erf"),
    ("reciprocal", "Reciprocal"),
    ("floor", "Floor"),
    ("ceil", "Ceil"),
    ("softsign", "Softsign"),
    ("sin", "Sin"),
    ("round", "Round"),
    ("sign", "Sign"),
    ("cos", "Cos"),
]:
    TENSOR_CONVERTERS[_mx] = _simple(_ox)
