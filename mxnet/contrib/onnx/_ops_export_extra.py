"""MXNet -> ONNX converters for the operators MXNet 1.9.1's exporter added last: creation
ops, logical/modulo comparisons, sorting, gathers, sequence ops, RNN and attention helpers."""

from __future__ import annotations

import numpy as np

from ...base import MXNetError
from ._common import ExportContext
from ._ops_export_more import _compare, broadcast_static
from ._ops_export_tensor import _batch_operands, _reduce

__all__ = ["EXTRA_CONVERTERS"]

_INT64_MAX = 2**63 - 1
_BOOL = 9
_INT64 = 7


def _fold(op_name: str):
    """Converter writing the operator's result as a constant: for creation operators
    (``zeros``, ``arange``...) and those whose output depends only on input shapes."""

    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        import torch

        from ..._dtype import to_torch
        from ..._op._registry import get_op

        args = [
            torch.zeros(tuple(s), dtype=to_torch(ctx.in_dtype(i))) for i, s in enumerate(shapes)
        ]
        with torch.no_grad():
            out = get_op(op_name).compute(attrs, *args)
        if isinstance(out, tuple | list):
            out = out[0]
        arr = out.detach().cpu().numpy()
        c = ctx.const(f"{name}_value", arr, arr.dtype)
        return [ctx.node("Identity", [c], [name], name=name)]

    return conv


def _identity(ctx: ExportContext, name, attrs, ins, shapes, outs):
    return [ctx.node("Identity", ins[:1], [name], name=name)]


def _logical(op_type: str):
    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        bs = [ctx.node("Cast", [x], [f"{name}_b{i}"], to=_BOOL) for i, x in enumerate(ins)]
        r = ctx.node(op_type, bs, [f"{name}_bool"])
        return [ctx.node("Cast", [r], [name], name=name, to=ctx.onnx_type(ctx.out_dtype()))]

    return conv


def _mod(ctx: ExportContext, name, attrs, ins, shapes, outs):
    # MXNet: the result takes the divisor's sign, and a zero divisor gives 0
    a, b = ins
    dt = ctx.in_dtype()
    zero = ctx.const(f"{name}_zero", [0], dt)
    one = ctx.const(f"{name}_one", [1], dt)
    bz = ctx.node("Equal", [b, zero], [f"{name}_b_is_zero"])
    safe = ctx.node("Where", [bz, one, b], [f"{name}_safe_b"])
    if dt.kind == "f":
        r = ctx.node("Mod", [a, safe], [f"{name}_fmod"], fmod=1)
        rneg = ctx.node("Less", [r, zero], [f"{name}_r_neg"])
        bneg = ctx.node("Less", [safe, zero], [f"{name}_b_neg"])
        rnz = ctx.node("Not", [ctx.node("Equal", [r, zero], [f"{name}_r_zero"])], [f"{name}_r_nz"])
        fix = ctx.node(
            "And", [rnz, ctx.node("Xor", [rneg, bneg], [f"{name}_signs"])], [f"{name}_fix"]
        )
        r = ctx.node(
            "Where", [fix, ctx.node("Add", [r, safe], [f"{name}_r_b"]), r], [f"{name}_mod"]
        )
    else:
        r = ctx.node("Mod", [a, safe], [f"{name}_mod"], fmod=0)
    return [ctx.node("Where", [bz, zero, r], [name], name=name)]


def _unary(op_type: str):
    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        return [ctx.node(op_type, ins[:1], [name], name=name)]

    return conv


def log2(ctx: ExportContext, name, attrs, ins, shapes, outs):
    ln = ctx.node("Log", ins[:1], [f"{name}_ln"])
    return [
        ctx.node(
            "Div", [ln, ctx.const(f"{name}_ln2", [np.log(2.0)], ctx.in_dtype())], [name], name=name
        )
    ]


def logical_not(ctx: ExportContext, name, attrs, ins, shapes, outs):
    b = ctx.node("Cast", ins[:1], [f"{name}_bool"], to=_BOOL)
    n = ctx.node("Not", [b], [f"{name}_not"])
    return [ctx.node("Cast", [n], [name], name=name, to=ctx.onnx_type(ctx.out_dtype()))]


def repeat(ctx: ExportContext, name, attrs, ins, shapes, outs):
    r = int(attrs["repeats"])
    axis = attrs.get("axis")
    x = ins[0]
    if axis is None:
        x = ctx.node("Reshape", [x, ctx.const(f"{name}_flat_shape", [-1])], [f"{name}_flat"])
        axis = 0
        nd = 1
    else:
        nd = len(shapes[0])
        axis = int(axis) % nd
    u = ctx.node("Unsqueeze", [x, ctx.const(f"{name}_axes", [axis + 1])], [f"{name}_unsq"])
    reps = [1] * (nd + 1)
    reps[axis + 1] = r
    t = ctx.node("Tile", [u, ctx.const(f"{name}_reps", reps)], [f"{name}_tiled"])
    return [ctx.node("Reshape", [t, ctx.const(f"{name}_shape", list(outs[0]))], [name], name=name)]


def reverse(ctx: ExportContext, name, attrs, ins, shapes, outs):
    axis = attrs.get("axis")
    axes = [int(a) for a in (axis if isinstance(axis, tuple | list) else (axis,))]
    n = len(axes)
    args = [
        ins[0],
        ctx.const(f"{name}_starts", [-1] * n),
        ctx.const(f"{name}_ends", [-_INT64_MAX] * n),
        ctx.const(f"{name}_axes", axes),
        ctx.const(f"{name}_steps", [-1] * n),
    ]
    return [ctx.node("Slice", args, [name], name=name)]


def _topk_common(ctx, name, x, shape, axis, k, largest):
    axis = int(axis) % len(shape)
    if k < 1:
        k = shape[axis]
    kk = ctx.const(f"{name}_k", [k])
    vals, idx = f"{name}_values", f"{name}_indices"
    ctx.node("TopK", [x, kk], [vals, idx], axis=axis, largest=int(largest), sorted=1)
    return vals, idx


def topk(ctx: ExportContext, name, attrs, ins, shapes, outs):
    ret = attrs.get("ret_typ", "indices")
    if ret == "mask":
        raise MXNetError(f"ONNX export: topk '{name}': ret_typ='mask' is not supported")
    axis = attrs.get("axis", -1)
    x, shp = ins[0], list(shapes[0])
    if axis is None:
        x = ctx.node("Reshape", [x, ctx.const(f"{name}_flat_shape", [-1])], [f"{name}_flat"])
        shp, axis = [int(np.prod(shp))], 0
    vals, idx = _topk_common(
        ctx, name, x, shp, axis, int(attrs.get("k", 1)), not attrs.get("is_ascend", False)
    )
    idt = ctx.onnx_type(ctx.out_dtype(1 if ret == "both" else 0))
    if ret == "value":
        return [ctx.node("Identity", [vals], [name], name=name)]
    if ret == "indices":
        return [ctx.node("Cast", [idx], [name], name=name, to=idt)]
    o0 = ctx.node("Identity", [vals], [f"{name}0"])
    return [o0, ctx.node("Cast", [idx], [f"{name}1"], name=name, to=idt)]


def argsort(ctx: ExportContext, name, attrs, ins, shapes, outs):
    axis = attrs.get("axis", -1)
    x, shp = ins[0], list(shapes[0])
    if axis is None:
        x = ctx.node("Reshape", [x, ctx.const(f"{name}_flat_shape", [-1])], [f"{name}_flat"])
        shp, axis = [int(np.prod(shp))], 0
    _, idx = _topk_common(ctx, name, x, shp, axis, 0, not attrs.get("is_ascend", True))
    return [ctx.node("Cast", [idx], [name], name=name, to=ctx.onnx_type(ctx.out_dtype()))]


def one_hot(ctx: ExportContext, name, attrs, ins, shapes, outs):
    depth = int(attrs["depth"])
    dt = ctx.out_dtype()
    idx = ctx.node("Cast", ins[:1], [f"{name}_indices"], to=_INT64)
    vals = ctx.const(
        f"{name}_values",
        [float(attrs.get("off_value", 0.0)), float(attrs.get("on_value", 1.0))],
        dt,
    )
    return [
        ctx.node(
            "OneHot", [idx, ctx.const(f"{name}_depth", depth), vals], [name], name=name, axis=-1
        )
    ]


def gather_nd(ctx: ExportContext, name, attrs, ins, shapes, outs):
    nd = len(shapes[1])
    idx = ctx.node("Cast", [ins[1]], [f"{name}_indices"], to=_INT64)
    perm = list(range(1, nd)) + [0]
    idx = ctx.node("Transpose", [idx], [f"{name}_indices_t"], perm=perm)
    return [ctx.node("GatherND", [ins[0], idx], [name], name=name)]


def slice_like(ctx: ExportContext, name, attrs, ins, shapes, outs):
    nd = len(shapes[0])
    axes = attrs.get("axes") or ()
    axes = [int(a) % nd for a in axes] if axes else list(range(min(nd, len(shapes[1]))))
    ends = [int(outs[0][a]) for a in axes]
    args = [
        ins[0],
        ctx.const(f"{name}_starts", [0] * len(axes)),
        ctx.const(f"{name}_ends", ends),
        ctx.const(f"{name}_axes", axes),
    ]
    return [ctx.node("Slice", args, [name], name=name)]


def reshape_static(ctx: ExportContext, name, attrs, ins, shapes, outs):
    shp = ctx.const(f"{name}_shape", list(outs[0]))
    return [ctx.node("Reshape", [ins[0], shp], [name], name=name)]


def shape_array(ctx: ExportContext, name, attrs, ins, shapes, outs):
    return [ctx.node("Shape", ins[:1], [name], name=name)]


def size_array(ctx: ExportContext, name, attrs, ins, shapes, outs):
    s = ctx.node("Size", ins[:1], [f"{name}_size"])
    return [ctx.node("Reshape", [s, ctx.const(f"{name}_shape", [1])], [name], name=name)]


def depth_to_space(ctx: ExportContext, name, attrs, ins, shapes, outs):
    b = int(attrs["block_size"])
    return [ctx.node("DepthToSpace", ins[:1], [name], name=name, blocksize=b, mode="DCR")]


def space_to_depth(ctx: ExportContext, name, attrs, ins, shapes, outs):
    b = int(attrs["block_size"])
    return [ctx.node("SpaceToDepth", ins[:1], [name], name=name, blocksize=b)]


def norm(ctx: ExportContext, name, attrs, ins, shapes, outs):
    ord_ = int(attrs.get("ord", 2))
    if ord_ not in (1, 2):
        raise MXNetError(f"ONNX export: norm '{name}': ord={ord_} is not supported")
    return _reduce("ReduceL2" if ord_ == 2 else "ReduceL1", False)(
        ctx, name, attrs, ins, shapes, outs
    )


def split_v2(ctx: ExportContext, name, attrs, ins, shapes, outs):
    nd = len(shapes[0])
    axis = int(attrs.get("axis", 0)) % nd
    sizes = [int(o[axis]) for o in outs] if not attrs.get("squeeze_axis") else [1] * len(outs)
    names = [f"{name}{i}" for i in range(len(outs))]
    raw = names if not attrs.get("squeeze_axis") else [f"{n}_unsqueezed" for n in names]
    ctx.node("Split", [ins[0], ctx.const(f"{name}_split", sizes)], raw, name=name, axis=axis)
    if attrs.get("squeeze_axis"):
        ax = ctx.const(f"{name}_axes", [axis])
        for r, o in zip(raw, names):
            ctx.node("Squeeze", [r, ax], [o])
    return names


def l2_normalization(ctx: ExportContext, name, attrs, ins, shapes, outs):
    mode = attrs.get("mode", "instance")
    nd = len(shapes[0])
    axes = {"instance": list(range(1, nd)), "channel": [1], "spatial": list(range(2, nd))}[mode]
    x = ins[0]
    sq = ctx.node("Mul", [x, x], [f"{name}_sq"])
    s = ctx.node("ReduceSum", [sq, ctx.const(f"{name}_axes", axes)], [f"{name}_sum"], keepdims=1)
    eps = ctx.const(f"{name}_eps", [float(attrs.get("eps", 1e-10))], ctx.in_dtype())
    n = ctx.node("Sqrt", [ctx.node("Add", [s, eps], [f"{name}_sum_eps"])], [f"{name}_norm"])
    return [ctx.node("Div", [x, n], [name], name=name)]


def div_sqrt_dim(ctx: ExportContext, name, attrs, ins, shapes, outs):
    c = ctx.const(f"{name}_sqrt_dim", [np.sqrt(shapes[0][-1])], ctx.in_dtype())
    return [ctx.node("Div", [ins[0], c], [name], name=name)]


def bilinear_resize(ctx: ExportContext, name, attrs, ins, shapes, outs):
    if attrs.get("mode", "size") not in (
        "size",
        "odd_scale",
        "like",
        "to_even_down",
        "to_even_up",
        "to_odd_down",
        "to_odd_up",
    ):
        raise MXNetError(f"ONNX export: BilinearResize2D '{name}': mode is not supported")
    sizes = ctx.const(f"{name}_sizes", list(outs[0]))
    return [
        ctx.node(
            "Resize",
            [ins[0], "", "", sizes],
            [name],
            name=name,
            mode="linear",
            coordinate_transformation_mode=(
                "align_corners" if attrs.get("align_corners", True) else "half_pixel"
            ),
        )
    ]


def adaptive_avg_pool(ctx: ExportContext, name, attrs, ins, shapes, outs):
    if tuple(outs[0][2:]) != (1, 1):
        raise MXNetError(
            f"ONNX export: AdaptiveAvgPooling2D '{name}': only output_size=1 is supported"
        )
    return [ctx.node("GlobalAveragePool", ins[:1], [name], name=name)]


def _att_part(ctx, name, x, shape, heads, part, tag):
    seq, batch, d = shape
    hd = d // heads // 3
    r = ctx.node(
        "Reshape",
        [x, ctx.const(f"{name}_{tag}_shape5", [seq, batch, heads, 3, hd])],
        [f"{name}_{tag}_r5"],
    )
    s = ctx.node(
        "Slice",
        [
            r,
            ctx.const(f"{name}_{tag}_st", [part]),
            ctx.const(f"{name}_{tag}_en", [part + 1]),
            ctx.const(f"{name}_{tag}_ax", [3]),
        ],
        [f"{name}_{tag}_sl"],
    )
    t = ctx.node("Transpose", [s], [f"{name}_{tag}_t"], perm=[1, 2, 0, 3, 4])
    out = ctx.node(
        "Reshape",
        [t, ctx.const(f"{name}_{tag}_shape3", [batch * heads, seq, hd])],
        [f"{name}_{tag}"],
    )
    return out, hd


def matmul_selfatt_qk(ctx: ExportContext, name, attrs, ins, shapes, outs):
    heads = int(attrs["heads"])
    q, hd = _att_part(ctx, name, ins[0], shapes[0], heads, 0, "q")
    k, _ = _att_part(ctx, name, ins[0], shapes[0], heads, 1, "k")
    q = ctx.node(
        "Div", [q, ctx.const(f"{name}_scale", [np.sqrt(hd)], ctx.in_dtype())], [f"{name}_q_scaled"]
    )
    kt = ctx.node("Transpose", [k], [f"{name}_kT"], perm=[0, 2, 1])
    return [ctx.node("MatMul", [q, kt], [name], name=name)]


def matmul_selfatt_valatt(ctx: ExportContext, name, attrs, ins, shapes, outs):
    heads = int(attrs["heads"])
    seq, batch, _ = shapes[0]
    v, hd = _att_part(ctx, name, ins[0], shapes[0], heads, 2, "v")
    o = ctx.node("MatMul", [ins[1], v], [f"{name}_att_v"])
    o = ctx.node(
        "Reshape", [o, ctx.const(f"{name}_shape4", [batch, heads, seq, hd])], [f"{name}_r4"]
    )
    o = ctx.node("Transpose", [o], [f"{name}_t"], perm=[2, 0, 1, 3])
    return [
        ctx.node(
            "Reshape", [o, ctx.const(f"{name}_shape", [seq, batch, heads * hd])], [name], name=name
        )
    ]


def linalg_gemm2(ctx: ExportContext, name, attrs, ins, shapes, outs):
    a, b = _batch_operands(ctx, name, attrs, ins, shapes)
    alpha = float(attrs.get("alpha", 1.0))
    if alpha == 1.0:
        return [ctx.node("MatMul", [a, b], [name], name=name)]
    m = ctx.node("MatMul", [a, b], [f"{name}_mm"])
    return [
        ctx.node("Mul", [m, ctx.const(f"{name}_alpha", [alpha], ctx.in_dtype())], [name], name=name)
    ]


def sequence_mask(ctx: ExportContext, name, attrs, ins, shapes, outs):
    if not attrs.get("use_sequence_length") or len(ins) < 2:
        return [ctx.node("Identity", ins[:1], [name], name=name)]
    axis = int(attrs.get("axis", 0))
    shp = list(shapes[0])
    t_len, batch = (shp[0], shp[1]) if axis == 0 else (shp[1], shp[0])
    dt = ctx.in_dtype()
    steps = np.arange(t_len, dtype=dt).reshape((t_len, 1) if axis == 0 else (1, t_len))
    r = ctx.const(f"{name}_steps", steps, dt)
    lens = ctx.node("Cast", [ins[1]], [f"{name}_lens"], to=ctx.onnx_type(dt))
    lens = ctx.node(
        "Reshape",
        [lens, ctx.const(f"{name}_lens_shape", [1, batch] if axis == 0 else [batch, 1])],
        [f"{name}_lens_r"],
    )
    m = ctx.node("Less", [r, lens], [f"{name}_mask2d"])
    m = ctx.node(
        "Reshape",
        [m, ctx.const(f"{name}_mask_shape", shp[:2] + [1] * (len(shp) - 2))],
        [f"{name}_mask"],
    )
    v = ctx.const(f"{name}_value", [float(attrs.get("value", 0.0))], dt)
    return [ctx.node("Where", [m, ins[0], v], [name], name=name)]


def sequence_reverse(ctx: ExportContext, name, attrs, ins, shapes, outs):
    if int(attrs.get("axis", 0)) != 0:
        raise MXNetError(f"ONNX export: SequenceReverse '{name}': only axis=0 is supported")
    if not attrs.get("use_sequence_length") or len(ins) < 2:
        return reverse(ctx, name, {"axis": 0}, ins, shapes, outs)
    lens = ctx.node("Cast", [ins[1]], [f"{name}_lens"], to=_INT64)
    return [
        ctx.node("ReverseSequence", [ins[0], lens], [name], name=name, batch_axis=1, time_axis=0)
    ]


def box_decode(ctx: ExportContext, name, attrs, ins, shapes, outs):
    dt = ctx.in_dtype()

    def c(tag, v):
        return ctx.const(f"{name}_{tag}", [v], dt)

    d = [f"{name}_d{i}" for i in range(4)]
    a = [f"{name}_a{i}" for i in range(4)]
    ones = ctx.const(f"{name}_split", [1, 1, 1, 1])
    ctx.node("Split", [ins[0], ones], d, axis=-1)
    ctx.node("Split", [ins[1], ones], a, axis=-1)
    if attrs.get("format", "center") == "corner":
        aw = ctx.node("Sub", [a[2], a[0]], [f"{name}_aw"])
        ah = ctx.node("Sub", [a[3], a[1]], [f"{name}_ah"])
        half = c("half", 0.5)
        ax = ctx.node("Add", [a[0], ctx.node("Mul", [aw, half], [f"{name}_aw2"])], [f"{name}_ax"])
        ay = ctx.node("Add", [a[1], ctx.node("Mul", [ah, half], [f"{name}_ah2"])], [f"{name}_ay"])
    else:
        ax, ay, aw, ah = a
    stds = [float(attrs.get(f"std{i}", 1.0)) for i in range(4)]
    ox = ctx.node(
        "Mul", [ctx.node("Mul", [d[0], c("s0", stds[0])], [f"{name}_dx"]), aw], [f"{name}_oxw"]
    )
    ox = ctx.node("Add", [ox, ax], [f"{name}_ox"])
    oy = ctx.node(
        "Mul", [ctx.node("Mul", [d[1], c("s1", stds[1])], [f"{name}_dy"]), ah], [f"{name}_oyh"]
    )
    oy = ctx.node("Add", [oy, ay], [f"{name}_oy"])
    dw = ctx.node("Mul", [d[2], c("s2", stds[2])], [f"{name}_dw"])
    dh = ctx.node("Mul", [d[3], c("s3", stds[3])], [f"{name}_dh"])
    clip = float(attrs.get("clip", -1.0))
    if clip > 0:
        dw = ctx.node("Min", [dw, c("clip", clip)], [f"{name}_dw_c"])
        dh = ctx.node("Min", [dh, c("cliph", clip)], [f"{name}_dh_c"])
    two = c("two", 2.0)
    ow = ctx.node(
        "Div",
        [ctx.node("Mul", [ctx.node("Exp", [dw], [f"{name}_ew"]), aw], [f"{name}_eww"]), two],
        [f"{name}_ow"],
    )
    oh = ctx.node(
        "Div",
        [ctx.node("Mul", [ctx.node("Exp", [dh], [f"{name}_eh"]), ah], [f"{name}_ehh"]), two],
        [f"{name}_oh"],
    )
    parts = [
        ctx.node("Sub", [ox, ow], [f"{name}_x1"]),
        ctx.node("Sub", [oy, oh], [f"{name}_y1"]),
        ctx.node("Add", [ox, ow], [f"{name}_x2"]),
        ctx.node("Add", [oy, oh], [f"{name}_y2"]),
    ]
    return [ctx.node("Concat", parts, [name], name=name, axis=-1)]


def box_nms(ctx: ExportContext, name, attrs, ins, shapes, outs):
    """NonMaxSuppression, then MXNet's layout: kept rows by descending score, then -1 rows."""
    if attrs.get("in_format", "corner") != attrs.get("out_format", "corner"):
        raise MXNetError(f"ONNX export: box_nms '{name}': in_format != out_format is not supported")
    if int(attrs.get("background_id", -1)) != -1 or (
        int(attrs.get("id_index", -1)) >= 0 and not attrs.get("force_suppress", False)
    ):
        raise MXNetError(
            f"ONNX export: box_nms '{name}': per-class suppression (id_index with "
            "force_suppress=False) and background_id are not supported"
        )
    shp = list(shapes[0])
    n, w = shp[-2], shp[-1]
    b = int(np.prod(shp[:-2])) if len(shp) > 2 else 1
    topk = int(attrs.get("topk", -1))
    if topk == 0:  # MXNet returns the data unchanged
        return [ctx.node("Identity", ins[:1], [name], name=name), f"{name}_unused"]
    dt = ctx.in_dtype()
    cs, si = int(attrs.get("coord_start", 2)), int(attrs.get("score_index", 1))
    vt, ot = float(attrs.get("valid_thresh", 0.0)), float(attrs.get("overlap_thresh", 0.5))
    i64 = lambda tag, v: ctx.const(f"{name}_{tag}", v)  # noqa: E731
    x = ctx.node("Reshape", [ins[0], i64("shape3", [b, n, w])], [f"{name}_data3"])
    boxes = ctx.node(
        "Slice", [x, i64("cs", [cs]), i64("cs4", [cs + 4]), i64("ax2", [2])], [f"{name}_boxes"]
    )
    sc = ctx.node(
        "Slice", [x, i64("si", [si]), i64("si1", [si + 1]), i64("ax2b", [2])], [f"{name}_sc"]
    )
    sc = ctx.node("Reshape", [sc, i64("shape2", [b, n])], [f"{name}_scores2"])
    if dt != np.float32:
        sc = ctx.node("Cast", [sc], [f"{name}_scores_f32"], to=1)
        boxes = ctx.node("Cast", [boxes], [f"{name}_boxes_f32"], to=1)
    if 0 < topk < n:  # MXNet keeps only the topk best valid boxes as candidates
        low = ctx.const(f"{name}_low", [np.finfo(np.float32).min], np.float32)
        valid = ctx.node(
            "Greater", [sc, ctx.const(f"{name}_vt0", [vt], np.float32)], [f"{name}_valid"]
        )
        sv = ctx.node("Where", [valid, sc, low], [f"{name}_sv"])
        tv, ti = f"{name}_topv", f"{name}_topi"
        ctx.node("TopK", [sv, i64("k", [topk])], [tv, ti], axis=1, largest=1, sorted=1)
        kth = ctx.node(
            "Slice",
            [tv, i64("k1", [topk - 1]), i64("k2", [topk]), i64("ax1", [1])],
            [f"{name}_kth"],
        )
        cand = ctx.node(
            "And", [valid, ctx.node("GreaterOrEqual", [sv, kth], [f"{name}_ge"])], [f"{name}_cand"]
        )
        sc = ctx.node("Where", [cand, sc, low], [f"{name}_sc_top"])
    sc3 = ctx.node("Reshape", [sc, i64("shape_b1n", [b, 1, n])], [f"{name}_scores"])
    nms = ctx.node(
        "NonMaxSuppression",
        [
            boxes,
            sc3,
            i64("maxout", [n]),
            ctx.const(f"{name}_ot", [ot], np.float32),
            ctx.const(f"{name}_vt", [vt], np.float32),
        ],
        [f"{name}_nms"],
        center_point_box=int(attrs.get("in_format", "corner") == "center"),
    )
    sel = ctx.node("Gather", [nms, i64("bi", [0, 2])], [f"{name}_sel"], axis=1)
    rows = ctx.node("GatherND", [x, sel], [f"{name}_rows"])
    rows = ctx.node(
        "Pad", [rows, i64("pad", [0, 0, 1, 0]), ctx.const(f"{name}_m1", -1, dt)], [f"{name}_rows_p"]
    )
    m = ctx.node(
        "Slice",
        [ctx.node("Shape", [nms], [f"{name}_nms_shape"]), i64("z", [0]), i64("o", [1])],
        [f"{name}_m"],
    )
    base = ctx.node("Expand", [m, i64("bn", [b, n])], [f"{name}_base"])
    ms = ctx.node("Squeeze", [m, i64("sq0", [0])], [f"{name}_m_s"])
    rng = ctx.node(
        "Range", [ctx.const(f"{name}_r0", 0), ms, ctx.const(f"{name}_r1", 1)], [f"{name}_rng"]
    )
    pos = ctx.node("ScatterND", [base, sel, rng], [f"{name}_pos"])
    order, _unused = f"{name}_order", f"{name}_order_idx"
    ctx.node("TopK", [pos, i64("kn", [n])], [order, _unused], axis=1, largest=0, sorted=1)
    g = ctx.node("Gather", [rows, order], [f"{name}_gathered"], axis=0)
    out = ctx.node("Reshape", [g, i64("shape_out", shp)], [name], name=name)
    return [out, f"{name}_unused"]


def rnn_param_concat(ctx: ExportContext, name, attrs, ins, shapes, outs):
    """Gluon's fused-RNN parameter vector: every weight and bias flattened, end to end."""
    flat = ctx.const(f"{name}_flat_shape", [-1])
    parts = [ctx.node("Reshape", [x, flat], [f"{name}_part{i}"]) for i, x in enumerate(ins)]
    return [ctx.node("Concat", parts, [name], name=name, axis=0)]


def crop(ctx: ExportContext, name, attrs, ins, shapes, outs):
    big_h, big_w = shapes[0][2], shapes[0][3]
    h, w = outs[0][2], outs[0][3]
    if attrs.get("center_crop"):
        oy, ox = (big_h - h) // 2, (big_w - w) // 2
    else:
        oy, ox = (int(v) for v in (attrs.get("offset") or (0, 0)))
    args = [
        ins[0],
        ctx.const(f"{name}_starts", [oy, ox]),
        ctx.const(f"{name}_ends", [oy + h, ox + w]),
        ctx.const(f"{name}_axes", [2, 3]),
    ]
    return [ctx.node("Slice", args, [name], name=name)]


def roi_pooling(ctx: ExportContext, name, attrs, ins, shapes, outs):
    ph, pw = (int(v) for v in attrs["pooled_size"])
    return [
        ctx.node(
            "MaxRoiPool",
            ins[:2],
            [name],
            name=name,
            pooled_shape=[ph, pw],
            spatial_scale=float(attrs.get("spatial_scale", 1.0)),
        )
    ]


def _random(op_type: str):
    """RandomUniform/RandomNormal: the same distribution, drawn by the runtime."""

    def conv(ctx: ExportContext, name, attrs, ins, shapes, outs):
        dt = ctx.onnx_type(ctx.out_dtype())
        if op_type.startswith("RandomUniform"):
            kw = dict(low=float(attrs.get("low", 0.0)), high=float(attrs.get("high", 1.0)))
        else:
            kw = dict(mean=float(attrs.get("loc", 0.0)), scale=float(attrs.get("scale", 1.0)))
        if op_type.endswith("Like"):
            return [ctx.node(op_type, ins[:1], [name], name=name, dtype=dt, **kw)]
        return [ctx.node(op_type, [], [name], name=name, dtype=dt, shape=list(outs[0]), **kw)]

    return conv


_GATE_ORDER = {
    "lstm": (4, [0, 3, 1, 2]),
    "gru": (3, [1, 0, 2]),
    "rnn_tanh": (1, [0]),
    "rnn_relu": (1, [0]),
}


def rnn(ctx: ExportContext, name, attrs, ins, shapes, outs):
    mode = attrs["mode"]
    if (
        attrs.get("bidirectional")
        or attrs.get("projection_size")
        or attrs.get("lstm_state_clip_min") is not None
    ):
        raise MXNetError(
            f"ONNX export: RNN '{name}': bidirectional, projection and state clipping are not supported"
        )
    ngates, order = _GATE_ORDER[mode]
    nl = int(attrs.get("num_layers", 1))
    hsz = int(attrs["state_size"])
    seq, batch, isz = shapes[0]
    data, params = ins[0], ins[1]
    h0 = ins[2]
    c0 = ins[3] if mode == "lstm" else None
    gh = ngates * hsz
    # MXNet's flat vector: every layer's i2h then h2h weights, then every layer's biases
    woff, sizes = 0, []
    for layer in range(nl):
        inp = isz if layer == 0 else hsz
        sizes.append((woff, inp))
        woff += gh * inp + gh * hsz
    boff = woff
    x = data
    hs, cs = [], []

    def piece(tag, start, n, shape):
        s = ctx.node(
            "Slice",
            [
                params,
                ctx.const(f"{name}_{tag}_s", [start]),
                ctx.const(f"{name}_{tag}_e", [start + n]),
            ],
            [f"{name}_{tag}_flat"],
        )
        r = ctx.node(
            "Reshape", [s, ctx.const(f"{name}_{tag}_shape", [ngates, *shape])], [f"{name}_{tag}_g"]
        )
        g = ctx.node(
            "Gather", [r, ctx.const(f"{name}_{tag}_order", order)], [f"{name}_{tag}_ord"], axis=0
        )
        return ctx.node(
            "Reshape",
            [g, ctx.const(f"{name}_{tag}_shape2", [1, gh, *shape[1:]])],
            [f"{name}_{tag}"],
        )

    for layer in range(nl):
        off, inp = sizes[layer]
        w = piece(f"l{layer}_W", off, gh * inp, [hsz, inp])
        r = piece(f"l{layer}_R", off + gh * inp, gh * hsz, [hsz, hsz])
        bi = piece(f"l{layer}_Bi", boff + layer * 2 * gh, gh, [hsz])
        bh = piece(f"l{layer}_Bh", boff + layer * 2 * gh + gh, gh, [hsz])
        b = ctx.node("Concat", [bi, bh], [f"{name}_l{layer}_B"], axis=1)
        st = ctx.const(f"{name}_l{layer}_st", [layer])
        en = ctx.const(f"{name}_l{layer}_en", [layer + 1])
        h = ctx.node("Slice", [h0, st, en], [f"{name}_l{layer}_h0"])
        args = [x, w, r, b, "", h]
        kw = {"hidden_size": hsz}
        if mode == "lstm":
            args.append(ctx.node("Slice", [c0, st, en], [f"{name}_l{layer}_c0"]))
            op = "LSTM"
        elif mode == "gru":
            op = "GRU"
            kw["linear_before_reset"] = 1
        else:
            op = "RNN"
            kw["activations"] = ["Tanh" if mode == "rnn_tanh" else "Relu"]
        y, yh = f"{name}_l{layer}_Y", f"{name}_l{layer}_Yh"
        onames = [y, yh] + ([f"{name}_l{layer}_Yc"] if mode == "lstm" else [])
        ctx.node(op, args, onames, **kw)
        x = ctx.node(
            "Squeeze", [y, ctx.const(f"{name}_l{layer}_sq", [1])], [f"{name}_l{layer}_out"]
        )
        hs.append(yh)
        if mode == "lstm":
            cs.append(onames[2])
    res = [ctx.node("Identity", [x], [name], name=name)]
    if attrs.get("state_outputs"):
        res.append(ctx.node("Concat", hs, [f"{name}_hy"], axis=0))
        if mode == "lstm":
            res.append(ctx.node("Concat", cs, [f"{name}_cy"], axis=0))
    return res


EXTRA_CONVERTERS = {
    "_zeros": _fold("_zeros"),
    "_ones": _fold("_ones"),
    "_full": _fold("_full"),
    "_arange": _fold("_arange"),
    "_contrib_arange_like": _fold("_contrib_arange_like"),
    "identity": _identity,
    "MakeLoss": _identity,
    "broadcast_not_equal": _compare("Equal", negate=True),
    "_not_equal": _compare("Equal", negate=True),
    "broadcast_greater_equal": _compare("GreaterOrEqual"),
    "_greater_equal": _compare("GreaterOrEqual"),
    "broadcast_lesser_equal": _compare("LessOrEqual"),
    "_lesser_equal": _compare("LessOrEqual"),
    "broadcast_logical_and": _logical("And"),
    "broadcast_logical_or": _logical("Or"),
    "broadcast_logical_xor": _logical("Xor"),
    "_logical_and": _logical("And"),
    "_logical_or": _logical("Or"),
    "_logical_xor": _logical("Xor"),
    "logical_not": logical_not,
    "broadcast_mod": _mod,
    "_mod": _mod,
    "log2": log2,
    "tan": _unary("Tan"),
    "arcsin": _unary("Asin"),
    "arccos": _unary("Acos"),
    "arctan": _unary("Atan"),
    "sinh": _unary("Sinh"),
    "cosh": _unary("Cosh"),
    "arcsinh": _unary("Asinh"),
    "arccosh": _unary("Acosh"),
    "arctanh": _unary("Atanh"),
    "repeat": repeat,
    "reverse": reverse,
    "topk": topk,
    "argsort": argsort,
    "one_hot": one_hot,
    "gather_nd": gather_nd,
    "slice_like": slice_like,
    "reshape_like": reshape_static,
    "shape_array": shape_array,
    "size_array": size_array,
    "depth_to_space": depth_to_space,
    "space_to_depth": space_to_depth,
    "broadcast_axis": broadcast_static,
    "sum_axis": _reduce("ReduceSum", True),
    "norm": norm,
    "_split_v2": split_v2,
    "L2Normalization": l2_normalization,
    "_contrib_div_sqrt_dim": div_sqrt_dim,
    "_contrib_BilinearResize2D": bilinear_resize,
    "_contrib_AdaptiveAvgPooling2D": adaptive_avg_pool,
    "_contrib_interleaved_matmul_selfatt_qk": matmul_selfatt_qk,
    "_contrib_interleaved_matmul_selfatt_valatt": matmul_selfatt_valatt,
    "_linalg_gemm2": linalg_gemm2,
    "SequenceMask": sequence_mask,
    "SequenceReverse": sequence_reverse,
    "RNN": rnn,
    "_rnn_param_concat": rnn_param_concat,
    "Crop": crop,
    "ROIPooling": roi_pooling,
    "_random_uniform": _random("RandomUniform"),
    "_random_normal": _random("RandomNormal"),
    "_random_uniform_like": _random("RandomUniformLike"),
    "_random_normal_like": _random("RandomNormalLike"),
    "_contrib_box_decode": box_decode,
    "_contrib_box_nms": box_nms,
}
