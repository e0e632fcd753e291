"""ONNX -> MXNet converters: each returns the MXNet symbol(s) for one ONNX node."""

from __future__ import annotations

import numpy as np

from ...base import MXNetError

__all__ = ["IMPORTERS"]


def _scalar_const(v) -> float:
    """A scalar operand given as a 0-d or one-element tensor (NumPy 2 refuses float() of
    1-d arrays)."""
    return float(np.asarray(v).reshape(-1)[0])


def _pads(attrs: dict, nsp: int, name: str) -> tuple:
    pads = list(attrs.get("pads", [0] * (2 * nsp)))
    if pads[:nsp] != pads[nsp:]:
        raise MXNetError(f"ONNX import: node '{name}' has asymmetric pads {pads}")
    if attrs.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        raise MXNetError(f"ONNX import: node '{name}': auto_pad is not supported")
    return tuple(pads[:nsp])


def _conv_kw(attrs, nsp, name):
    k = tuple(attrs["kernel_shape"])
    return dict(
        kernel=k,
        stride=tuple(attrs.get("strides", [1] * nsp)),
        dilate=tuple(attrs.get("dilations", [1] * nsp)),
        pad=_pads(attrs, nsp, name),
        num_group=int(attrs.get("group", 1)),
    )


def conv(ctx, name, attrs, ins, shapes):
    w = ctx.const(ins[1], name)
    kw = _conv_kw(attrs, w.ndim - 2, name)
    args = [ctx.var(i) for i in ins]
    return ctx.sym.Convolution(*args, num_filter=w.shape[0], no_bias=len(ins) < 3, name=name, **kw)


def conv_transpose(ctx, name, attrs, ins, shapes):
    w = ctx.const(ins[1], name)
    nsp = w.ndim - 2
    kw = _conv_kw(attrs, nsp, name)
    if "output_shape" in attrs:
        raise MXNetError(f"ONNX import: ConvTranspose '{name}' with output_shape is not supported")
    kw["adj"] = tuple(attrs.get("output_padding", [0] * nsp))
    args = [ctx.var(i) for i in ins]
    return ctx.sym.Deconvolution(
        *args, num_filter=w.shape[1] * kw["num_group"], no_bias=len(ins) < 3, name=name, **kw
    )


def batchnorm(ctx, name, attrs, ins, shapes):
    for a in ins[3:5]:
        ctx.aux_names.add(a)
    args = [ctx.var(i) for i in ins]
    return ctx.sym.BatchNorm(
        *args,
        eps=float(attrs.get("epsilon", 1e-5)),
        momentum=float(attrs.get("momentum", 0.9)),
        fix_gamma=False,
        use_global_stats=False,
        name=name,
    )


def gemm(ctx, name, attrs, ins, shapes):
    if (
        int(attrs.get("transA", 0))
        or float(attrs.get("alpha", 1.0)) != 1.0
        or float(attrs.get("beta", 1.0)) != 1.0
    ):
        raise MXNetError(f"ONNX import: Gemm '{name}' with transA/alpha/beta is not supported")
    w_name = ins[1]
    if not int(attrs.get("transB", 0)):
        w = ctx.const(w_name, name)
        w_name = ctx.add_param(f"{name}_weight_t", np.ascontiguousarray(w.T))
    w = ctx.const(w_name, name)
    args = [ctx.var(ins[0]), ctx.var(w_name)] + [ctx.var(i) for i in ins[2:]]
    return ctx.sym.FullyConnected(
        *args, num_hidden=w.shape[0], no_bias=len(ins) < 3, flatten=True, name=name
    )


def _pool_convention(ctx, x: str, k, stride, pads, name) -> str:
    shp = ctx.static_shape(x)
    nsp = len(k)
    if shp is None or any(e < b for b, e in zip(pads[:nsp], pads[nsp:])):
        raise MXNetError(f"ONNX import: node '{name}' has asymmetric pads {pads}")
    for conv in ("valid", "full"):
        ok = True
        for i in range(nsp):
            n, kk, st, b, e = shp[2 + i], k[i], stride[i], pads[i], pads[nsp + i]
            want = (n + b + e - kk) // st + 1
            span = n + 2 * b - kk
            got = (span // st if conv == "valid" else -(-span // st)) + 1
            ok &= want == got
        if ok:
            return conv
    raise MXNetError(f"ONNX import: node '{name}' has asymmetric pads {pads}")


def _pool(ptype: str, is_global: bool):
    def fn(ctx, name, attrs, ins, shapes):
        x = ctx.var(ins[0])
        if is_global:
            return ctx.sym.Pooling(x, pool_type=ptype, global_pool=True, kernel=(1, 1), name=name)
        k = tuple(attrs["kernel_shape"])
        nsp = len(k)
        conv_ = "full" if int(attrs.get("ceil_mode", 0)) else "valid"
        stride = tuple(attrs.get("strides", [1] * nsp))
        pads = list(attrs.get("pads", [0] * (2 * nsp)))
        if pads[:nsp] != pads[nsp:] and not int(attrs.get("ceil_mode", 0)):
            # extra end padding (how 'full' pooling is exported): the same windows as
            # MXNet's symmetric pad with the 'valid' or 'full' output length
            conv_ = _pool_convention(ctx, ins[0], k, stride, pads, name)
            attrs = dict(attrs, pads=pads[:nsp] * 2)
        kw = dict(
            kernel=k,
            stride=stride,
            pad=_pads(attrs, nsp, name),
            pooling_convention=conv_,
        )
        if ptype == "avg":
            kw["count_include_pad"] = bool(int(attrs.get("count_include_pad", 0)))
        return ctx.sym.Pooling(x, pool_type=ptype, name=name, **kw)

    return fn


def _act(act_type: str):
    def fn(ctx, name, attrs, ins, shapes):
        return ctx.sym.Activation(ctx.var(ins[0]), act_type=act_type, name=name)

    return fn


def leaky(ctx, name, attrs, ins, shapes):
    return ctx.sym.LeakyReLU(
        ctx.var(ins[0]), act_type="leaky", slope=float(attrs.get("alpha", 0.01)), name=name
    )


def elu(ctx, name, attrs, ins, shapes):
    return ctx.sym.LeakyReLU(
        ctx.var(ins[0]), act_type="elu", slope=float(attrs.get("alpha", 1.0)), name=name
    )


def prelu(ctx, name, attrs, ins, shapes):
    x = ctx.var(ins[0])
    g = ctx.consts.get(ins[1])
    shp = ctx.static_shape(ins[0])
    nd = len(shp) if shp else 0
    if g is not None and shp is not None and nd >= 2:
        c = shp[1]
        per_channel = g.size == c  # (C,), (C, 1, ...): one slope per channel
        if g.size == 1 or per_channel:
            full = np.ascontiguousarray(
                np.broadcast_to(g.reshape(-1), (c,)) if g.size == 1 else g.reshape(-1)
            )
            gname = ctx.add_param(f"{name}_gamma", full.astype(g.dtype))
            return ctx.sym.LeakyReLU(x, ctx.var(gname), act_type="prelu", name=name)
    # any other broadcastable slope: max(x, 0) + slope * min(x, 0)
    pos = ctx.sym.relu(x, name=f"{name}_pos")
    neg = ctx.sym._internal._minimum_scalar(x, scalar=0.0, name=f"{name}_neg")
    return ctx.sym.broadcast_add(
        pos, ctx.sym.broadcast_mul(ctx.var(ins[1]), neg, name=f"{name}_scaled"), name=name
    )


def flatten(ctx, name, attrs, ins, shapes):
    axis = int(attrs.get("axis", 1))
    if axis == 1:
        return ctx.sym.Flatten(ctx.var(ins[0]), name=name)
    shp = ctx.static_shape(ins[0])
    if shp is None:
        raise MXNetError(f"ONNX import: Flatten '{name}' with axis={axis} needs a static shape")
    axis %= len(shp)
    lead = int(np.prod(shp[:axis])) if axis else 1
    return ctx.sym.Reshape(ctx.var(ins[0]), shape=(lead, -1), name=name)


def reshape(ctx, name, attrs, ins, shapes):
    shp = tuple(int(s) for s in ctx.const(ins[1], name))
    return ctx.sym.Reshape(ctx.var(ins[0]), shape=shp, name=name)


def concat(ctx, name, attrs, ins, shapes):
    args = [ctx.var(i) for i in ins]
    return ctx.sym.Concat(*args, dim=int(attrs.get("axis", 1)), name=name)


def _binary(op: str):
    def fn(ctx, name, attrs, ins, shapes):
        return getattr(ctx.sym, op)(ctx.var(ins[0]), ctx.var(ins[1]), name=name)

    return fn


def _unary(op: str):
    def fn(ctx, name, attrs, ins, shapes):
        return getattr(ctx.sym, op)(ctx.var(ins[0]), name=name)

    return fn


def add_n(ctx, name, attrs, ins, shapes):
    return ctx.sym.add_n(*[ctx.var(i) for i in ins], name=name)


def _softmax(op: str):
    def fn(ctx, name, attrs, ins, shapes):
        return getattr(ctx.sym, op)(ctx.var(ins[0]), axis=int(attrs.get("axis", -1)), name=name)

    return fn


def transpose(ctx, name, attrs, ins, shapes):
    perm = attrs.get("perm")
    kw = {"axes": tuple(perm)} if perm is not None else {}
    return ctx.sym.transpose(ctx.var(ins[0]), name=name, **kw)


def clip(ctx, name, attrs, ins, shapes):
    lo = (
        _scalar_const(ctx.const(ins[1], name))
        if len(ins) > 1 and ins[1]
        else float(attrs.get("min", -np.inf))
    )
    hi = (
        _scalar_const(ctx.const(ins[2], name))
        if len(ins) > 2 and ins[2]
        else float(attrs.get("max", np.inf))
    )
    return ctx.sym.clip(ctx.var(ins[0]), a_min=lo, a_max=hi, name=name)


def slice_(ctx, name, attrs, ins, shapes):
    starts = [int(v) for v in ctx.const(ins[1], name)]
    ends = [int(v) for v in ctx.const(ins[2], name)]
    axes = (
        [int(v) for v in ctx.const(ins[3], name)]
        if len(ins) > 3 and ins[3]
        else list(range(len(starts)))
    )
    steps = (
        [int(v) for v in ctx.const(ins[4], name)] if len(ins) > 4 and ins[4] else [1] * len(starts)
    )
    x = ctx.var(ins[0])
    big = 2**31
    if len(axes) == 1 and steps[0] == 1:
        end = None if ends[0] >= big else ends[0]
        return ctx.sym.slice_axis(x, axis=axes[0], begin=starts[0], end=end, name=name)
    nd = max(axes) + 1
    b, e, s = [None] * nd, [None] * nd, [None] * nd
    for a, st, en, sp in zip(axes, starts, ends, steps):
        b[a], s[a] = st, sp
        e[a] = None if abs(en) >= big else en
    return ctx.sym.slice(x, begin=tuple(b), end=tuple(e), step=tuple(s), name=name)


def _axes(ctx, name, attrs, ins):
    if len(ins) > 1 and ins[1]:
        if ins[1] not in ctx.consts and ctx.input_dims.get(ins[1]) == (0,):
            return None  # an empty axes input: every axis
        return [int(v) for v in ctx.const(ins[1], name)]
    return list(attrs["axes"]) if "axes" in attrs else None


def unsqueeze(ctx, name, attrs, ins, shapes):
    axes = _axes(ctx, name, attrs, ins)
    x = ctx.var(ins[0])
    for i, a in enumerate(sorted(axes)):
        x = ctx.sym.expand_dims(x, axis=a, name=name if i == len(axes) - 1 else f"{name}_{i}")
    return x


def squeeze(ctx, name, attrs, ins, shapes):
    axes = _axes(ctx, name, attrs, ins)
    kw = {"axis": tuple(axes)} if axes else {}
    return ctx.sym.squeeze(ctx.var(ins[0]), name=name, **kw)


def _reduce(op: str):
    def fn(ctx, name, attrs, ins, shapes):
        axes = _axes(ctx, name, attrs, ins)
        kw = {"axis": tuple(axes)} if axes else {}
        return getattr(ctx.sym, op)(
            ctx.var(ins[0]), keepdims=bool(attrs.get("keepdims", 1)), name=name, **kw
        )

    return fn


def gather(ctx, name, attrs, ins, shapes):
    if ins[0] in ctx.consts and int(attrs.get("axis", 0)) == 0:
        w = ctx.consts[ins[0]]
        idx = ctx.var(ins[1])
        return ctx.sym.Embedding(
            idx,
            ctx.var(ins[0]),
            input_dim=w.shape[0],
            output_dim=int(np.prod(w.shape[1:])),
            name=name,
        )
    return ctx.sym.take(ctx.var(ins[0]), ctx.var(ins[1]), axis=int(attrs.get("axis", 0)), name=name)


def cast(ctx, name, attrs, ins, shapes):
    onnx = ctx.onnx
    dt = onnx.helper.tensor_dtype_to_np_dtype(int(attrs["to"]))
    if np.dtype(dt) == np.bool_:  # MXNet 1.x keeps masks as 0/1 numbers
        return ctx.sym._internal._not_equal_scalar(ctx.var(ins[0]), scalar=0.0, name=name)
    return ctx.sym.Cast(ctx.var(ins[0]), dtype=np.dtype(dt).name, name=name)


def lrn(ctx, name, attrs, ins, shapes):
    return ctx.sym.LRN(
        ctx.var(ins[0]),
        alpha=float(attrs.get("alpha", 1e-4)),
        beta=float(attrs.get("beta", 0.75)),
        knorm=float(attrs.get("bias", 1.0)),
        nsize=int(attrs["size"]),
        name=name,
    )


def pad(ctx, name, attrs, ins, shapes):
    pads = [int(v) for v in ctx.const(ins[1], name)] if len(ins) > 1 else list(attrs["pads"])
    n = len(pads) // 2
    width = tuple(v for i in range(n) for v in (pads[i], pads[n + i]))
    mode = attrs.get("mode", b"constant")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    value = _scalar_const(ctx.const(ins[2], name)) if len(ins) > 2 and ins[2] else 0.0
    return ctx.sym.Pad(ctx.var(ins[0]), mode=mode, pad_width=width, constant_value=value, name=name)


def _resize_linear(ctx, name, attrs, ins, scales):
    """Bilinear Resize of NCHW data as contrib.BilinearResize2D (align_corners or
    half_pixel coordinates)."""
    ctm = attrs.get("coordinate_transformation_mode", b"half_pixel")
    ctm = ctm.decode() if isinstance(ctm, bytes) else ctm
    if ctm not in ("align_corners", "half_pixel", "pytorch_half_pixel"):
        raise MXNetError(
            f"ONNX import: Resize '{name}': linear mode with {ctm} coordinates is not supported"
        )
    sizes = ctx.consts.get(ins[3]) if len(ins) > 3 and ins[3] else None
    if sizes is not None:
        h, w = (int(v) for v in np.asarray(sizes).reshape(-1)[2:4])
    else:
        shp = ctx.static_shape(ins[0])
        if scales is None or shp is None or len(shp) != 4:
            raise MXNetError(f"ONNX import: Resize '{name}' needs constant sizes or scales")
        h, w = (int(np.floor(n * float(sc))) for n, sc in zip(shp[2:], scales[2:]))
    return ctx.sym.contrib.BilinearResize2D(
        ctx.var(ins[0]), height=h, width=w, align_corners=ctm == "align_corners", name=name
    )


def resize(ctx, name, attrs, ins, shapes):
    mode = attrs.get("mode", b"nearest")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    scales = ctx.const(ins[2], name) if len(ins) > 2 and ins[2] else None
    if mode == "linear":
        return _resize_linear(ctx, name, attrs, ins, scales)
    if (
        mode != "nearest"
        or scales is None
        or len(set(scales[2:].tolist())) != 1
        or float(scales[2]) != int(scales[2])
    ):
        raise MXNetError(
            f"ONNX import: Resize '{name}' is only supported as nearest "
            "upsampling by an integer factor"
        )
    return ctx.sym.UpSampling(
        ctx.var(ins[0]), scale=int(scales[2]), sample_type="nearest", num_args=1, name=name
    )


def matmul(ctx, name, attrs, ins, shapes):
    b = ctx.consts.get(ins[1])
    op = ctx.sym.dot if b is not None and b.ndim == 2 else ctx.sym.batch_dot
    return op(ctx.var(ins[0]), ctx.var(ins[1]), name=name)


def identity(ctx, name, attrs, ins, shapes):
    return ctx.sym.identity(ctx.var(ins[0]), name=name)


def dropout(ctx, name, attrs, ins, shapes):
    return ctx.sym.Dropout(ctx.var(ins[0]), p=float(attrs.get("ratio", 0.5)), name=name)


def hard_sigmoid(ctx, name, attrs, ins, shapes):
    return ctx.sym.hard_sigmoid(
        ctx.var(ins[0]),
        alpha=float(attrs.get("alpha", 0.2)),
        beta=float(attrs.get("beta", 0.5)),
        name=name,
    )


def instance_norm(ctx, name, attrs, ins, shapes):
    return ctx.sym.InstanceNorm(
        *[ctx.var(i) for i in ins], eps=float(attrs.get("epsilon", 1e-5)), name=name
    )


def split(ctx, name, attrs, ins, shapes):
    sizes = attrs.get("split")
    if sizes is None and len(ins) > 1 and ins[1]:
        sizes = ctx.const(ins[1], name).tolist()
    n = ctx.num_outputs
    if sizes is not None and len(set(sizes)) != 1:
        raise MXNetError(f"ONNX import: Split '{name}' into unequal parts is not supported")
    return ctx.sym.split(ctx.var(ins[0]), num_outputs=n, axis=int(attrs.get("axis", 0)), name=name)


def _argop(op: str):
    def fn(ctx, name, attrs, ins, shapes):
        axis = int(attrs.get("axis", 0))
        keep = bool(attrs.get("keepdims", 1))
        x = ctx.var(ins[0])
        if not int(attrs.get("select_last_index", 0)):
            return getattr(ctx.sym, op)(x, axis=axis, keepdims=keep, name=name)
        shp = ctx.static_shape(ins[0])
        if shp is None:
            raise MXNetError(
                f"ONNX import: {op} '{name}' with select_last_index needs a static input shape"
            )
        axis %= len(shp)
        # the last extreme = n - 1 - (the first extreme of the reversed data)
        r = getattr(ctx.sym, op)(
            ctx.sym.reverse(x, axis=axis), axis=axis, keepdims=keep, name=f"{name}_rev"
        )
        return ctx.sym._internal._rminus_scalar(r, scalar=float(shp[axis] - 1), name=name)

    return fn


def _variadic(op: str):
    """Max/Min/Sum/Mean of any number of (broadcastable) inputs."""

    def fn(ctx, name, attrs, ins, shapes):
        xs = [ctx.var(i) for i in ins]
        if len(xs) == 1:
            out = ctx.sym.identity(xs[0], name=name if op != "mean" else f"{name}_sum")
        else:
            binop = {"max": "broadcast_maximum", "min": "broadcast_minimum"}.get(
                op, "broadcast_add"
            )
            out = xs[0]
            for i, x in enumerate(xs[1:]):
                last = i == len(xs) - 2 and op != "mean"
                out = getattr(ctx.sym, binop)(out, x, name=name if last else f"{name}_{i}")
        if op == "mean":
            out = ctx.sym._internal._div_scalar(out, scalar=float(len(xs)), name=name)
        return out

    return fn


def hardmax(ctx, name, attrs, ins, shapes):
    shp = ctx.static_shape(ins[0])
    if shp is None:
        raise MXNetError(f"ONNX import: Hardmax '{name}' needs a static input shape")
    nd = len(shp)
    axis = int(attrs.get("axis", -1)) % nd
    am = ctx.sym.argmax(ctx.var(ins[0]), axis=axis, name=f"{name}_argmax")
    oh = ctx.sym.one_hot(am, depth=shp[axis], name=f"{name}_onehot" if axis != nd - 1 else name)
    if axis == nd - 1:
        return oh
    perm = list(range(nd - 1))
    perm.insert(axis, nd - 1)
    return ctx.sym.transpose(oh, axes=tuple(perm), name=name)


def _reduce_composite(kind: str):
    def fn(ctx, name, attrs, ins, shapes):
        axes = _axes(ctx, name, attrs, ins)
        kw = {"axis": tuple(axes)} if axes else {}
        keep = bool(attrs.get("keepdims", 1))
        x = ctx.var(ins[0])
        if kind == "sumsquare":
            return ctx.sym.sum(ctx.sym.square(x), keepdims=keep, name=name, **kw)
        if kind == "logsum":
            return ctx.sym.log(ctx.sym.sum(x, keepdims=keep, **kw), name=name)
        if kind == "logsumexp":
            return ctx.sym.log(ctx.sym.sum(ctx.sym.exp(x), keepdims=keep, **kw), name=name)
        return ctx.sym.norm(x, ord=1 if kind == "l1" else 2, keepdims=keep, name=name, **kw)

    return fn


def selu(ctx, name, attrs, ins, shapes):
    alpha = float(attrs.get("alpha", 1.67326319217681884765625))
    gamma = float(attrs.get("gamma", 1.05070102214813232421875))
    x = ctx.var(ins[0])
    if abs(alpha - 1.6732632) < 1e-6 and abs(gamma - 1.0507010) < 1e-6:
        return ctx.sym.LeakyReLU(x, act_type="selu", name=name)
    e = ctx.sym.LeakyReLU(x, act_type="elu", slope=alpha, name=f"{name}_elu")
    return ctx.sym._internal._mul_scalar(e, scalar=gamma, name=name)


def shape_op(ctx, name, attrs, ins, shapes):
    s = ctx.sym.shape_array(ctx.var(ins[0]), name=f"{name}_full")
    start, end = attrs.get("start"), attrs.get("end")
    if start is None and end is None:
        return ctx.sym.identity(s, name=name)
    shp = ctx.static_shape(ins[0])
    rank = len(shp) if shp is not None else None
    start = int(start or 0)
    if rank is not None:  # ONNX clips start/end to [0, rank]
        start = min(max(start + rank if start < 0 else start, 0), rank)
        if end is not None:
            end = int(end)
            end = min(max(end + rank if end < 0 else end, 0), rank)
    return ctx.sym.slice_axis(
        s, axis=0, begin=start, end=None if end is None else int(end), name=name
    )


def size_op(ctx, name, attrs, ins, shapes):
    # MXNet has no 0-d arrays: the count comes as shape (1,), as MXNet 1.9.1's size_array
    return ctx.sym.size_array(ctx.var(ins[0]), name=name)


def where(ctx, name, attrs, ins, shapes):
    return ctx.sym.where(*[ctx.var(i) for i in ins], name=name)


def tile(ctx, name, attrs, ins, shapes):
    reps = tuple(int(r) for r in ctx.const(ins[1], name))
    return ctx.sym.tile(ctx.var(ins[0]), reps=reps, name=name)


def expand(ctx, name, attrs, ins, shapes):
    shape = tuple(int(r) for r in ctx.const(ins[1], name))
    return ctx.sym.broadcast_to(ctx.var(ins[0]), shape=shape, name=name)


def power(ctx, name, attrs, ins, shapes):
    e = ctx.consts.get(ins[1])
    if e is not None and e.size == 1:  # a constant exponent: any dtype, as a scalar
        return ctx.sym._internal._power_scalar(
            ctx.var(ins[0]), scalar=float(e.reshape(-1)[0]), name=name
        )
    return ctx.sym.broadcast_power(ctx.var(ins[0]), ctx.var(ins[1]), name=name)


def _space_depth(op: str):
    def fn(ctx, name, attrs, ins, shapes):
        mode = attrs.get("mode", b"DCR")
        mode = mode.decode() if isinstance(mode, bytes) else mode
        if mode != "DCR":
            raise MXNetError(f"ONNX import: {op} '{name}' with mode={mode} is not supported")
        return getattr(ctx.sym, op)(ctx.var(ins[0]), block_size=int(attrs["blocksize"]), name=name)

    return fn


def _logical(op: str):
    def fn(ctx, name, attrs, ins, shapes):
        return getattr(ctx.sym, op)(ctx.var(ins[0]), ctx.var(ins[1]), name=name)

    return fn


def mod(ctx, name, attrs, ins, shapes):
    if int(attrs.get("fmod", 0)):
        raise MXNetError(f"ONNX import: Mod '{name}' with fmod=1 is not supported")
    return ctx.sym.broadcast_mod(ctx.var(ins[0]), ctx.var(ins[1]), name=name)


def topk(ctx, name, attrs, ins, shapes):
    k = int(np.asarray(ctx.const(ins[1], name)).reshape(-1)[0])
    out = ctx.sym.topk(
        ctx.var(ins[0]),
        k=k,
        axis=int(attrs.get("axis", -1)),
        is_ascend=not int(attrs.get("largest", 1)),
        ret_typ="both",
        dtype="int64",
        name=name,
    )
    return [out[0], out[1]]


def one_hot(ctx, name, attrs, ins, shapes):
    depth = int(np.asarray(ctx.const(ins[1], name)).reshape(-1)[0])
    off, on = (float(v) for v in np.asarray(ctx.const(ins[2], name)).reshape(-1)[:2])
    if int(attrs.get("axis", -1)) != -1:
        raise MXNetError(f"ONNX import: OneHot '{name}' is only supported with axis=-1")
    dt = np.asarray(ctx.consts[ins[2]]).dtype.name
    return ctx.sym.one_hot(
        ctx.var(ins[0]), depth=depth, on_value=on, off_value=off, dtype=dt, name=name
    )


def gather_nd(ctx, name, attrs, ins, shapes):
    if int(attrs.get("batch_dims", 0)):
        raise MXNetError(f"ONNX import: GatherND '{name}' with batch_dims is not supported")
    shp = ctx.static_shape(ins[1])
    if shp is None:
        raise MXNetError(f"ONNX import: GatherND '{name}' needs the static shape of its indices")
    nd = len(shp)
    idx = ctx.sym.transpose(ctx.var(ins[1]), axes=(nd - 1, *range(nd - 1)), name=f"{name}_idx")
    return ctx.sym.gather_nd(ctx.var(ins[0]), idx, name=name)


IMPORTERS = {
    "Conv": conv,
    "ConvTranspose": conv_transpose,
    "BatchNormalization": batchnorm,
    "Gemm": gemm,
    "MaxPool": _pool("max", False),
    "AveragePool": _pool("avg", False),
    "GlobalMaxPool": _pool("max", True),
    "GlobalAveragePool": _pool("avg", True),
    "Relu": _act("relu"),
    "Sigmoid": _act("sigmoid"),
    "Tanh": _act("tanh"),
    "Softplus": _act("softrelu"),
    "Softsign": _act("softsign"),
    "LeakyRelu": leaky,
    "Elu": elu,
    "PRelu": prelu,
    "Flatten": flatten,
    "Reshape": reshape,
    "Concat": concat,
    "Add": _binary("broadcast_add"),
    "Sub": _binary("broadcast_sub"),
    "Mul": _binary("broadcast_mul"),
    "Div": _binary("broadcast_div"),
    "Pow": power,
    "Max": _variadic("max"),
    "Min": _variadic("min"),
    "Mean": _variadic("mean"),
    "Sum": add_n,
    "Softmax": _softmax("softmax"),
    "LogSoftmax": _softmax("log_softmax"),
    "Transpose": transpose,
    "Clip": clip,
    "Slice": slice_,
    "Unsqueeze": unsqueeze,
    "Squeeze": squeeze,
    "ReduceSum": _reduce("sum"),
    "ReduceMean": _reduce("mean"),
    "ReduceMax": _reduce("max"),
    "ReduceMin": _reduce("min"),
    "ReduceProd": _reduce("prod"),
    "Gather": gather,
    "Cast": cast,
    "LRN": lrn,
    "Pad": pad,
    "Resize": resize,
    "MatMul": matmul,
    "Identity": identity,
    "Dropout": dropout,
    "HardSigmoid": hard_sigmoid,
    "InstanceNormalization": instance_norm,
    "Exp": _unary("exp"),
    "Log": _unary("log"),
    "Sqrt": _unary("sqrt"),
    "Abs": _unary("abs"),
    "Neg": _unary("negative"),
    "Erf": _unary("erf"),
    "Reciprocal": _unary("reciprocal"),
    "Floor": _unary("floor"),
    "Ceil": _unary("ceil"),
    "Sin": _unary("sin"),
    "Cos": _unary("cos"),
    "Round": _unary("round"),
    "Split": split,
    "ArgMax": _argop("argmax"),
    "ArgMin": _argop("argmin"),
    "Greater": _binary("broadcast_greater"),
    "Less": _binary("broadcast_lesser"),
    "Equal": _binary("broadcast_equal"),
    "GreaterOrEqual": _binary("broadcast_greater_equal"),
    "LessOrEqual": _binary("broadcast_lesser_equal"),
    "Not": _unary("logical_not"),
    "Where": where,
    "Tile": tile,
    "Expand": expand,
    "Sign": _unary("sign"),
    "Tan": _unary("tan"),
    "Asin": _unary("arcsin"),
    "Acos": _unary("arccos"),
    "Atan": _unary("arctan"),
    "Sinh": _unary("sinh"),
    "Cosh": _unary("cosh"),
    "Asinh": _unary("arcsinh"),
    "Acosh": _unary("arccosh"),
    "Atanh": _unary("arctanh"),
    "Hardmax": hardmax,
    "ReduceSumSquare": _reduce_composite("sumsquare"),
    "ReduceLogSum": _reduce_composite("logsum"),
    "ReduceLogSumExp": _reduce_composite("logsumexp"),
    "ReduceL1": _reduce_composite("l1"),
    "ReduceL2": _reduce_composite("l2"),
    "Selu": selu,
    "Size": size_op,
    "Shape": shape_op,
    "DepthToSpace": _space_depth("depth_to_space"),
    "SpaceToDepth": _space_depth("space_to_depth"),
    "And": _logical("broadcast_logical_and"),
    "Or": _logical("broadcast_logical_or"),
    "Xor": _logical("broadcast_logical_xor"),
    "Mod": mod,
    "TopK": topk,
    "OneHot": one_hot,
    "GatherND": gather_nd,
}
