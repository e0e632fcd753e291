"""MXNet -> ONNX converters for the neural-network layers (conv, pooling, norm, dense)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...base import MXNetError
from ._common import ExportContext

__all__ = ["NN_CONVERTERS"]

Conv = dict[str, Any]


def _tup(v: Any, n: int, fill: int) -> list[int]:
    v = tuple(v or ())
    return [int(x) for x in v] if v else [fill] * n


def _conv_common(attrs: dict, nsp: int) -> Conv:
    kernel = [int(k) for k in attrs["kernel"]]
    pad = _tup(attrs.get("pad"), nsp, 0)
    return dict(
        kernel_shape=kernel,
        strides=_tup(attrs.get("stride"), nsp, 1),
        dilations=_tup(attrs.get("dilate"), nsp, 1),
        pads=pad + pad,
        group=int(attrs.get("num_group", 1)),
    )


def convolution(ctx: ExportContext, name, attrs, ins, shapes, outs):
    kw = _conv_common(attrs, len(attrs["kernel"]))
    return [ctx.node("Conv", ins, [name], name=name, **kw)]


def deconvolution(ctx: ExportContext, name, attrs, ins, shapes, outs):
    nsp = len(attrs["kernel"])
    kw = _conv_common(attrs, nsp)
    adj = _tup(attrs.get("adj"), nsp, 0)
    target = [int(t) for t in (attrs.get("target_shape") or ())]
    if target and any(target):
        # as MXNet: the pads and the extra end padding that give exactly target_shape
        pad, adj = [], []
        for i in range(nsp):
            dk = kw["dilations"][i] * (kw["kernel_shape"][i] - 1) + 1
            total = kw["strides"][i] * (shapes[0][2 + i] - 1) + dk - target[i]
            pad.append((total + 1) // 2)
            adj.append(total % 2)
        kw["pads"] = pad + pad
    kw["output_padding"] = adj
    return [ctx.node("ConvTranspose", ins, [name], name=name, **kw)]


def batchnorm(ctx: ExportContext, name, attrs, ins, shapes, outs):
    if int(attrs.get("axis", 1)) != 1:
        raise MXNetError(
            f"ONNX export: BatchNorm '{name}' with axis={attrs['axis']} is not "
            "supported (only axis=1)"
        )
    if attrs.get("output_mean_var"):
        raise MXNetError(
            f"ONNX export: BatchNorm '{name}' with output_mean_var=True is not supported"
        )
    # no ``momentum`` attribute: some runtimes read its presence as training mode
    ins = list(ins)
    if attrs.get("fix_gamma", True):
        ins[1] = ctx.const(f"{name}_fixed_gamma", np.ones(shapes[1]), ctx.in_dtype())
    return [
        ctx.node(
            "BatchNormalization",
            ins,
            [name],
            name=name,
            epsilon=float(attrs.get("eps", 1e-3)),
        )
    ]


def fully_connected(ctx: ExportContext, name, attrs, ins, shapes, outs):
    data, weight = ins[0], ins[1]
    bias = ins[2:3]
    if attrs.get("flatten", True):
        flat = ctx.node("Flatten", [data], [f"{name}_data_flattened"], axis=1)
        return [
            ctx.node(
                "Gemm",
                [flat, weight, *bias],
                [name],
                name=name,
                alpha=1.0,
                beta=1.0,
                transA=0,
                transB=1,
            )
        ]
    wt = ctx.node("Transpose", [weight], [f"{name}_weight_t"], perm=[1, 0])
    if not bias:
        return [ctx.node("MatMul", [data, wt], [name], name=name)]
    mm = ctx.node("MatMul", [data, wt], [f"{name}_matmul"])
    return [ctx.node("Add", [mm, bias[0]], [name], name=name)]


def pooling(ctx: ExportContext, name, attrs, ins, shapes, outs):
    ptype = attrs.get("pool_type", "max")
    nsp = len(shapes[0]) - 2
    if attrs.get("global_pool"):
        if ptype == "lp":  # an L1/L2 reduction over the spatial axes (GlobalLpPool's value)
            p = int(attrs.get("p_value") or 2)
            if p not in (1, 2):
                raise MXNetError(f"ONNX export: Pooling '{name}': p_value={p} is not supported")
            red = "ReduceL2" if p == 2 else "ReduceL1"
            axes = list(range(2, nsp + 2))
            return [ctx.node(red, ins[:1], [name], name=name, axes=axes, keepdims=1)]
        op = {"max": "GlobalMaxPool", "avg": "GlobalAveragePool"}.get(ptype)
        if op is None:
            raise MXNetError(
                f"ONNX export: Pooling '{name}': global pool_type={ptype} is not supported"
            )
        return [ctx.node(op, ins, [name], name=name)]
    conv = attrs.get("pooling_convention", "valid")
    if conv not in ("valid", "full"):
        raise MXNetError(
            f"ONNX export: Pooling '{name}': pooling_convention={conv} is not supported"
        )
    pad = _tup(attrs.get("pad"), nsp, 0)
    kernel = [int(k) for k in attrs["kernel"]]
    strides = _tup(attrs.get("stride"), nsp, 1)
    kw = dict(kernel_shape=kernel, strides=strides, pads=pad + pad, ceil_mode=0)
    extra = [0] * nsp  # MXNet 'full' windows lying wholly in the end padding
    if conv == "full" and ptype in ("max", "avg"):
        # runtimes disagree on ceil_mode's last window (newer ones drop a window that starts
        # in the end padding, MXNet keeps it): floor mode with explicit end padding instead
        end = []
        for i in range(nsp):
            n, k, st, p = shapes[0][2 + i], kernel[i], strides[i], pad[i]
            total = -(-(n + 2 * p - k) // st) + 1  # MXNet's output length
            inside = sum(1 for j in range(total) if j * st - p < n)
            end.append(max((inside - 1) * st + k - p - n, 0))
            extra[i] = total - inside
        kw["pads"] = pad + end
    if ptype in ("max", "avg"):
        if ptype == "avg":
            cip = attrs.get("count_include_pad")
            kw["count_include_pad"] = 1 if cip is None or cip else 0
        op = "MaxPool" if ptype == "max" else "AveragePool"
        if not any(extra):
            return [ctx.node(op, ins, [name], name=name, **kw)]
        y = ctx.node(op, ins, [f"{name}_pooled"], **kw)
        # those windows hold no data: MXNet gives the lowest float (max) or 0 (avg)
        dt = ctx.in_dtype()
        fill = float(np.finfo(dt).min) if ptype == "max" else 0.0
        pads = ctx.const(f"{name}_tail_pads", [0, 0] + [0] * nsp + [0, 0] + extra)
        val = ctx.const(f"{name}_tail_value", fill, dt)
        return [ctx.node("Pad", [y, pads, val], [name], name=name, mode="constant")]
    if ptype == "lp":
        return [
            ctx.node(
                "LpPool",
                ins,
                [name],
                name=name,
                p=int(attrs.get("p_value") or 2),
                **{k: v for k, v in kw.items() if k != "ceil_mode"},
            )
        ]
    raise MXNetError(f"ONNX export: Pooling '{name}': pool_type={ptype} is not supported")


def activation(ctx: ExportContext, name, attrs, ins, shapes, outs):
    act = attrs["act_type"]
    op = {
        "relu": "Relu",
        "sigmoid": "Sigmoid",
        "tanh": "Tanh",
        "softrelu": "Softplus",
        "softsign": "Softsign",
    }.get(act)
    if op is None:
        raise MXNetError(f"ONNX export: Activation '{name}': act_type={act} is not supported")
    return [ctx.node(op, ins, [name], name=name)]


def leaky_relu(ctx: ExportContext, name, attrs, ins, shapes, outs):
    act = attrs.get("act_type", "leaky")
    slope = float(attrs.get("slope", 0.25))
    if act == "leaky":
        return [ctx.node("LeakyRelu", ins[:1], [name], name=name, alpha=slope)]
    if act == "elu":
        return [ctx.node("Elu", ins[:1], [name], name=name, alpha=slope)]
    if act == "gelu":
        from ._ops_export_more import gelu

        return gelu(ctx, name, attrs, ins, shapes, outs)
    if act == "selu":
        return [ctx.node("Selu", ins[:1], [name], name=name)]
    if act == "prelu":
        nd = len(shapes[0])
        gshape = [-1] + [1] * (nd - 2) if nd > 2 else [-1]
        shp = ctx.const(f"{name}_gamma_shape", gshape)
        g = ctx.node("Reshape", [ins[1], shp], [f"{name}_gamma_reshaped"])
        return [ctx.node("PRelu", [ins[0], g], [name], name=name)]
    raise MXNetError(f"ONNX export: LeakyReLU '{name}': act_type={act} is not supported")


def lrn(ctx: ExportContext, name, attrs, ins, shapes, outs):
    return [
        ctx.node(
            "LRN",
            ins,
            [name],
            name=name,
            alpha=float(attrs.get("alpha", 1e-4)),
            beta=float(attrs.get("beta", 0.75)),
            bias=float(attrs.get("knorm", 2.0)),
            size=int(attrs["nsize"]),
        )
    ]


def embedding(ctx: ExportContext, name, attrs, ins, shapes, outs):
    idx = ctx.node("Cast", [ins[0]], [f"{name}_indices_int64"], to=7)
    return [ctx.node("Gather", [ins[1], idx], [name], name=name, axis=0)]


def upsampling(ctx: ExportContext, name, attrs, ins, shapes, outs):
    if attrs.get("sample_type", "nearest") != "nearest" or len(ins) != 1:
        raise MXNetError(
            f"ONNX export: UpSampling '{name}': only nearest sampling of one input is supported"
        )
    s = float(attrs["scale"])
    nd = len(shapes[0])
    scales = ctx.const(f"{name}_scales", [1.0, 1.0] + [s] * (nd - 2), np.float32)
    return [
        ctx.node(
            "Resize",
            [ins[0], "", scales],
            [name],
            name=name,
            mode="nearest",
            coordinate_transformation_mode="asymmetric",
            nearest_mode="floor",
        )
    ]


def instance_norm(ctx: ExportContext, name, attrs, ins, shapes, outs):
    return [
        ctx.node(
            "InstanceNormalization", ins, [name], name=name, epsilon=float(attrs.get("eps", 1e-3))
        )
    ]


NN_CONVERTERS = {
    "Convolution": convolution,
    "Deconvolution": deconvolution,
    "BatchNorm": batchnorm,
    "FullyConnected": fully_connected,
    "Pooling": pooling,
    "Activation": activation,
    "LeakyReLU": leaky_relu,
    "LRN": lrn,
    "Embedding": embedding,
    "UpSampling": upsampling,
    "InstanceNorm": instance_norm,
}
