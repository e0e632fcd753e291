"""Normalization operators: BatchNorm (and the contrib BatchNormWithReLU and single-device
SyncBatchNorm), LayerNorm, InstanceNorm, GroupNorm, L2Normalization, LRN.

BatchNorm updates its moving statistics (auxiliary states) in place while training, as
``moving = moving * momentum + batch * (1 - momentum)`` with the biased batch variance.
"""

from __future__ import annotations

import functools

import numpy as np
import torch
import torch.nn.functional as F

from ..base import MXNetError
from . import _norm_native
from ._nn import fill
from ._params import Param
from ._registry import OpDef, register
from ._state import state

__all__: list[str] = []


def _axis(axis: int, ndim: int, name: str) -> int:
    a = axis + ndim if axis < 0 else axis
    if not 0 <= a < ndim:
        raise MXNetError(f"{name}: axis {axis} out of range for data with {ndim} dims")
    return a


def _bshape(ndim: int, axis: int) -> list[int]:
    s = [1] * ndim
    s[axis] = -1
    return s


# ---------------------------------------------------------------------------------------
# BatchNorm


class _InferNorm(torch.autograd.Function):
    """``(x - mean) * invstd`` whose backward is the batch-statistics formula."""

    @staticmethod
    def forward(ctx, x, mean, invstd, red):
        xhat = (x - mean) * invstd
        ctx.save_for_backward(xhat, invstd)
        ctx.red = red
        return xhat

    @staticmethod
    def backward(ctx, g):
        xhat, invstd = ctx.saved_tensors
        red = ctx.red
        dx = invstd * (g - g.mean(red, keepdim=True) - xhat * (g * xhat).mean(red, keepdim=True))
        return dx, None, None, None


class _TrainNorm(torch.autograd.Function):
    """Training-mode batch normalization over dim 1 as one graph node: torch's fused kernels
    both ways, the output a fresh tensor (so a following relu may overwrite it in place).

    Its backward also folds the batch statistics into the moving ones: MXNet 1.9.1 updates
    ``moving_mean``/``moving_var`` when BatchNorm's gradient is computed, not in the forward
    pass, so a training-mode forward that is never back-propagated (``train_mode`` without
    recording, a graph that is dropped, a frozen block no gradient reaches, an executor
    bound with ``grad_req='null'``) leaves them as they were. ``fixed``: gamma is taken as
    one (``fix_gamma``) and its gradient is zero.
    """

    @staticmethod
    def forward(ctx, x, gamma, beta, eps, fixed, moving):
        w = torch.ones_like(gamma) if fixed else gamma
        out, smean, sinvstd = torch.native_batch_norm(x, w, beta, None, None, True, 0.0, eps)
        var = (sinvstd.double().pow(-2) - eps).clamp_min(0).to(smean.dtype)
        ctx.save_for_backward(x, w, smean, sinvstd)
        ctx.eps, ctx.fixed, ctx.moving, ctx.var = eps, fixed, moving, var
        ctx.mark_non_differentiable(smean, var)
        return out, smean, var

    @staticmethod
    def backward(ctx, g, _gmean, _gvar):
        x, w, smean, sinvstd = ctx.saved_tensors
        need = ctx.needs_input_grad
        gx, gw, gb = torch.ops.aten.native_batch_norm_backward(
            g, x, w, None, None, smean, sinvstd, True, ctx.eps,
            [need[0], need[1] and not ctx.fixed, need[2]])
        if need[1] and ctx.fixed:
            gw = torch.zeros_like(w)
        _fold_moving(smean, ctx.var, ctx.moving, None)
        return gx, gw, gb, None, None, None


def _fold_moving(smean, var, moving, _grads) -> None:
    """Gradient pre-hook of a training BatchNorm node: fold the batch statistics into the
    moving ones (MXNet 1.9.1 updates them in BatchNorm's backward pass)."""
    mmean, mvar, m = moving
    keep, take = _momentum_weights(m)
    with torch.no_grad():
        mmean.mul_(keep).add_(_as(smean, mmean.dtype), alpha=take)
        mvar.mul_(keep).add_(_as(var, mvar.dtype), alpha=take)


def _as(t: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """``t.to(dtype)`` without the call when it is already that (a few us per call)."""
    return t if t.dtype == dtype else t.to(dtype)


_WEIGHTS: dict = {}


def _momentum_weights(m: float) -> tuple[float, float]:
    """MXNet's momentum is a C float: moving * 0.9f + batch * (1 - 0.9f), 1 - 0.9f being
    0.100000024 (visible in float64 moving statistics). Memoised in a plain dict, which
    ``torch.compile`` traces (it warns about ``functools`` caches)."""
    w = _WEIGHTS.get(m)
    if w is None:
        m32 = np.float32(m)
        w = _WEIGHTS[m] = (float(m32), float(np.float32(1) - m32))
    return w


def _train_norm(x, gamma, beta, eps, fixed, moving, relu=False):
    """Training-mode batch normalization over dim 1: ``(out, batch mean, batch variance)``.

    With a learned gamma under autograd this is torch's own node (its backward runs no
    Python) plus a gradient pre-hook that updates the moving statistics: about half the
    per-call cost of :class:`_TrainNorm`, which matters for nets of many small layers.
    :class:`_TrainNorm` serves ``fix_gamma`` (gamma stays in the graph, its gradient is
    zero) and ``torch.compile`` (which traces functions, not node hooks).
    """
    compiling = torch.compiler.is_compiling()
    if _norm_native.usable(x):  # torch.compile keeps its operators as opaque calls
        return _norm_native.train_norm(x, gamma, beta, eps, fixed, moving, relu)
    if relu:
        out, smean, var = _train_norm(x, gamma, beta, eps, fixed, moving)
        return torch.relu(out), smean, var
    if fixed or not torch.is_grad_enabled() or compiling:
        return _TrainNorm.apply(x, gamma, beta, eps, fixed, moving)
    out, smean, sinvstd = torch.native_batch_norm(x, gamma, beta, None, None, True, 0.0, eps)
    var = (sinvstd.double().pow(-2) - eps).clamp_min(0).to(smean.dtype)
    node = out.grad_fn
    if node is not None:
        node.register_prehook(functools.partial(_fold_moving, smean, var, moving))
    return out, smean, var


def _fix_gamma_inplace(gamma: torch.Tensor) -> None:
    """MXNet 1.9.1's BatchNorm with ``fix_gamma=True`` writes ones into its gamma input
    (nd, Module and Gluon alike), so saved checkpoints hold gamma == 1 and weight decay
    never drifts it. ``.data`` keeps autograd's version counter (a block called twice in
    one recorded graph) untouched."""
    if not torch.compiler.is_compiling():
        gamma.data.fill_(1)


def _batchnorm(a, x, gamma, beta, mmean, mvar, relu=False):
    ax = _axis(a["axis"], x.dim(), "BatchNorm")
    if a["fix_gamma"]:
        _fix_gamma_inplace(gamma)
    red = [i for i in range(x.dim()) if i != ax]
    bs = _bshape(x.dim(), ax)
    eps = a["eps"]
    gamma, beta = _as(gamma, x.dtype), _as(beta, x.dtype)
    xc = x if ax == 1 else x.movedim(ax, 1)
    if x.dim() < 2:
        raise MXNetError(f"BatchNorm: data needs at least 2 dims, got {tuple(x.shape)}")
    if state.is_train and not a["use_global_stats"]:
        # one pass: the kernel returns the batch mean and inverse std it normalised with
        # (it also accepts one value per channel, where MXNet returns beta)
        out, mean, var = _train_norm(xc, gamma, beta, eps, bool(a["fix_gamma"]),
                                     (mmean, mvar, a["momentum"]), relu)
        relu = False  # applied
    else:
        if a["fix_gamma"]:
            # gamma is treated as one; its gradient is zero
            gamma = gamma * 0 + 1 if gamma.requires_grad else torch.ones_like(gamma)
        mean, var = mmean.to(x.dtype), mvar.to(x.dtype)
        if not a["use_global_stats"] and torch.is_grad_enabled() and x.requires_grad:
            # MXNet 1.9.1 back-propagates through the moving statistics as if they were the
            # batch statistics (inference-mode backward without use_global_stats)
            invstd = torch.rsqrt(var + eps)
            xhat = _InferNorm.apply(x, mean.reshape(bs), invstd.reshape(bs), red)
            out = xhat * gamma.reshape(bs) + beta.reshape(bs)
            return (torch.relu(out) if relu else out), mean.clone(), invstd
        out = F.batch_norm(xc, mean, var, gamma, beta, False, 0.0, eps)
    if ax != 1:
        out = out.movedim(1, ax)
    if relu:
        out = torch.relu(out)
    if not a["output_mean_var"]:
        return out, mean, var  # hidden outputs: skip the inverse-std computation
    if mean is mmean:
        mean = mean.clone()  # never hand out the moving statistics' own storage
    return out, mean, torch.rsqrt(var + eps)


def _bn_shape(a, s):
    d = s[0]
    if d is not None:
        c = d[_axis(a["axis"], len(d), "BatchNorm")]
        for i in range(1, 5):
            fill(s, i, (c,))
    return s


def _bn_out(a, s):
    """Output shapes without tracing (tracing batch_norm on meta tensors pulls in dynamo)."""
    d = s[0]
    c = (d[_axis(a["axis"], len(d), "BatchNorm")],)
    return [tuple(d), c, c]


def _bn_type(a, dts):
    d = dts[0] or "float32"
    p = "float32" if d in ("float16", "bfloat16") else d
    ins = [d] + [t or p for t in dts[1:]]
    return ins, [d, p, p]


_BN_PARAMS = [
    Param("eps", "float", 1e-3, doc="Epsilon to prevent div 0."),
    Param("momentum", "float", 0.9, doc="Momentum for moving average."),
    Param("fix_gamma", "bool", True, doc="Fix gamma while training."),
    Param("use_global_stats", "bool", False,
          doc="Use global moving statistics instead of local batch statistics."),
    Param("output_mean_var", "bool", False, doc="Output the mean and inverse std."),
    Param("axis", "int", 1, doc="Specify which shape axis the channel is specified."),
    Param("cudnn_off", "bool", False, doc="Do not select CUDNN operator, if available."),
    Param("min_calib_range", "float_or_none", None,
          doc="Minimum calibration value (quantization only)."),
    Param("max_calib_range", "float_or_none", None,
          doc="Maximum calibration value (quantization only)."),
]
_BN_IO = dict(inputs=("data", "gamma", "beta"), aux=("moving_mean", "moving_var"),
              outputs=("output", "mean", "var"),
              num_visible=lambda a: 3 if a["output_mean_var"] else 1)

register(OpDef(
    "BatchNorm", _batchnorm, params=_BN_PARAMS, aliases=("_npx_batch_norm",),
    infer_shape=_bn_shape, infer_out=_bn_out, infer_type=_bn_type, **_BN_IO,
    doc="Batch normalization over the channel ``axis``; updates the moving statistics in "
        "place when training.\n\nExample: ``mx.nd.BatchNorm(x, gamma, beta, mean, var)``"))


def _bn_relu(a, x, gamma, beta, mmean, mvar):
    return _batchnorm(a, x, gamma, beta, mmean, mvar, relu=True)


def bn_add_relu_native(a, x, gamma, beta, mmean, mvar, z):
    """``relu(BatchNorm(x) + z)`` as one native pass when it qualifies (training mode,
    batch statistics, channel axis 1, ``z`` laid out as ``x``), else ``None``."""
    if (not state.is_train or a["use_global_stats"] or a["output_mean_var"]
            or _axis(a["axis"], x.dim(), "BatchNorm") != 1
            or not _norm_native.add_relu_usable(x, z)):
        return None
    if a["fix_gamma"]:
        _fix_gamma_inplace(gamma)
    return _norm_native.train_norm_add_relu(
        x, gamma.to(x.dtype), beta.to(x.dtype), z, a["eps"], bool(a["fix_gamma"]),
        (mmean, mvar, a["momentum"]))


register(OpDef(
    "_contrib_BatchNormWithReLU", _bn_relu, params=_BN_PARAMS, infer_shape=_bn_shape, infer_out=_bn_out,
    infer_type=_bn_type, **_BN_IO,
    doc="Batch normalization followed by ReLU.\n\n"
        "Example: ``mx.nd.contrib.BatchNormWithReLU(x, gamma, beta, mean, var)``"))


def _sync_bn(a, x, gamma, beta, mmean, mvar):
    if a["ndev"] > 1 and state.is_train and not a["use_global_stats"]:
        # only training synchronizes batch statistics; inference uses the moving ones
        raise MXNetError(f"_contrib_SyncBatchNorm: synchronizing statistics across ndev="
                         f"{a['ndev']} devices is not supported; use ndev=1 (BatchNorm)")
    out, mean, var = _batchnorm(
        {**a, "axis": 1, "cudnn_off": False, "output_mean_var": False},
        x, gamma, beta, mmean, mvar,
    )
    if state.is_train and not a["use_global_stats"]:
        # MXNet's SyncBatchNorm outputs the batch mean and (biased) batch variance, not the
        # inverse std BatchNorm gives
        return out, mean, var
    # outside training it leaves both outputs unwritten (zeros)
    return out, torch.zeros_like(mean), torch.zeros_like(mean)


register(OpDef(
    "_contrib_SyncBatchNorm", _sync_bn,
    params=[*_BN_PARAMS[:5],
            Param("ndev", "int", 1, doc="The count of GPU devices"),
            Param("key", "str", doc="Hash key for synchronization, please set the same hash "
                  "key for same layer, Block.prefix is typically used as in "
                  ":class:`gluon.nn.contrib.SyncBatchNorm`.")],
    infer_shape=lambda a, s: _bn_shape({**a, "axis": 1}, s), infer_type=_bn_type, **_BN_IO,
    doc="Batch normalization with statistics synchronized across devices (one device here)."
        "\n\nExample: ``mx.nd.contrib.SyncBatchNorm(x, gamma, beta, mean, var, key='bn0')``"))

# ---------------------------------------------------------------------------------------
# LayerNorm


def _layernorm(a, x, gamma, beta):
    ax = _axis(a["axis"], x.dim(), "LayerNorm")
    mean = x.mean(ax, keepdim=True)
    var = (x - mean).square().mean(ax, keepdim=True)
    std = torch.sqrt(var + a["eps"])
    bs = _bshape(x.dim(), ax)
    out = (x - mean) / std * gamma.reshape(bs) + beta.reshape(bs)
    return out, mean.detach(), std.detach()  # MXNet: no gradient flows from mean / std


def _ln_shape(a, s):
    if s[0] is not None:
        c = s[0][_axis(a["axis"], len(s[0]), "LayerNorm")]
        fill(s, 1, (c,))
        fill(s, 2, (c,))
    return s


def _ln_out(a, s):
    # output shapes without meta tracing (torch's Python reference kernels import its
    # compiler stack: seconds at the first bind)
    d = tuple(s[0])
    ax = _axis(a["axis"], len(d), "LayerNorm")
    red = d[:ax] + (1,) + d[ax + 1:]
    return [d, red, red]


register(OpDef(
    "LayerNorm", _layernorm, inputs=("data", "gamma", "beta"), outputs=("output", "mean", "std"),
    num_visible=lambda a: 3 if a["output_mean_var"] else 1, aliases=("_npx_layer_norm",),
    params=[Param("axis", "int", -1, doc="The axis to perform layer normalization."),
            Param("eps", "float", 1e-5, doc="An epsilon parameter to prevent division by 0."),
            Param("output_mean_var", "bool", False, doc="Output the mean and std or not.")],
    infer_shape=_ln_shape, infer_out=_ln_out,
    doc="Layer normalization over ``axis``.\n\nExample: ``mx.nd.LayerNorm(x, gamma, beta)``"))

# ---------------------------------------------------------------------------------------
# InstanceNorm and GroupNorm


def _instancenorm(a, x, gamma, beta):
    red = list(range(2, x.dim()))
    mean = x.mean(red, keepdim=True)
    var = (x - mean).square().mean(red, keepdim=True)
    bs = _bshape(x.dim(), 1)
    return (x - mean) * torch.rsqrt(var + a["eps"]) * gamma.reshape(bs) + beta.reshape(bs)


def _chan_shape(a, s):
    if s[0] is not None:
        fill(s, 1, (s[0][1],))
        fill(s, 2, (s[0][1],))
    return s


register(OpDef(
    "InstanceNorm", _instancenorm, inputs=("data", "gamma", "beta"), infer_shape=_chan_shape,
    infer_out=lambda a, s: [tuple(s[0])],
    params=[Param("eps", "float", 1e-3, doc="An epsilon parameter to prevent division by 0.")],
    doc="Instance normalization: normalize each (sample, channel) over its spatial axes.\n\n"
        "Example: ``mx.nd.InstanceNorm(x, gamma, beta)``"))


def _groupnorm(a, x, gamma, beta):
    g = a["num_groups"]
    n, c = x.shape[0], x.shape[1]
    if c % g:
        raise MXNetError(f"GroupNorm: channels {c} not divisible by num_groups={g}")
    xg = x.reshape(n, g, -1)
    mean = xg.mean(2, keepdim=True)
    var = (xg - mean).square().mean(2, keepdim=True)
    std = torch.sqrt(var + a["eps"])
    xn = ((xg - mean) / std).reshape((n, g, c // g) + tuple(x.shape[2:]))
    bs = (1, g) + (1,) * (x.dim() - 1)
    out = (xn * gamma.reshape(bs) + beta.reshape(bs)).reshape(x.shape)
    return out, mean.detach().reshape(n, g), std.detach().reshape(n, g)  # (as LayerNorm)


def _gn_out(a, s):
    d = tuple(s[0])
    g = a["num_groups"]
    if len(d) < 2 or d[1] % g:
        raise MXNetError(f"GroupNorm: channels of data shape {d} not divisible by "
                         f"num_groups={g}")
    return [d, (d[0], g), (d[0], g)]


def _gn_shape(a, s):
    if s[0] is not None:
        fill(s, 1, (a["num_groups"],))
        fill(s, 2, (a["num_groups"],))
    return s


register(OpDef(
    "GroupNorm", _groupnorm, inputs=("data", "gamma", "beta"), outputs=("output", "mean", "std"),
    num_visible=lambda a: 3 if a["output_mean_var"] else 1, infer_shape=_gn_shape,
    infer_out=lambda a, s: _gn_out(a, s),
    params=[Param("num_groups", "int", 1, doc="Total number of groups."),
            Param("eps", "float", 1e-5, doc="An epsilon parameter to prevent division by 0."),
            Param("output_mean_var", "bool", False, doc="Output the mean and std or not.")],
    doc="Group normalization: channels split in ``num_groups`` groups normalized together; "
        "gamma and beta hold one value per group.\n\n"
        "Example: ``mx.nd.GroupNorm(x, gamma, beta, num_groups=2)``"))

# ---------------------------------------------------------------------------------------
# L2Normalization and LRN


def _l2norm(a, x):
    mode = a["mode"]
    if mode == "instance":
        red = list(range(1, x.dim()))
    elif mode == "channel":
        red = [1]
    else:
        red = list(range(2, x.dim()))
    if x.dim() < 2 or (mode == "spatial" and x.dim() < 3):
        raise MXNetError(f"L2Normalization: data shape {tuple(x.shape)} too small for "
                         f"mode={mode}")
    return x / torch.sqrt(x.square().sum(red, keepdim=True) + a["eps"])


def _same(a, s):
    return s


def _l2_out(a, s):
    d = tuple(s[0])
    if len(d) < 2 or (a["mode"] == "spatial" and len(d) < 3):
        raise MXNetError(f"L2Normalization: data shape {d} too small for mode={a['mode']}")
    return [d]


register(OpDef(
    "L2Normalization", _l2norm, infer_shape=_same, infer_out=lambda a, s: _l2_out(a, s),
    params=[Param("eps", "float", 1e-10, doc="A small constant for numerical stability."),
            Param("mode", "enum", "instance", choices=["channel", "instance", "spatial"],
                  doc="Specify the dimension along which to compute L2 norm.")],
    doc="Normalize the input by its L2 norm (per instance, channel or spatial map).\n\n"
        "Example: ``mx.nd.L2Normalization(x, mode='channel')``"))


def _lrn(a, x):
    n = a["nsize"]
    return F.local_response_norm(x, n, alpha=a["alpha"], beta=a["beta"], k=a["knorm"])


register(OpDef(
    "LRN", _lrn, infer_shape=_same, infer_out=lambda a, s: [tuple(s[0])],
    params=[Param("alpha", "float", 1e-4, doc="The variance scaling parameter."),
            Param("beta", "float", 0.75, doc="The power parameter."),
            Param("knorm", "float", 2.0, doc="The parameter k."),
            Param("nsize", "int", doc="Normalization window width in elements.")],
    doc="Local response normalization across channels.\n\n"
        "Example: ``mx.nd.LRN(x, nsize=3)``"))


def _bn_v1(a, x, gamma, beta, mmean, mvar):
    return _batchnorm({**a, "axis": 1, "cudnn_off": False}, x, gamma, beta, mmean, mvar)


register(OpDef(
    "BatchNorm_v1", _bn_v1, params=_BN_PARAMS[:5],
    infer_shape=lambda a, s: _bn_shape({**a, "axis": 1}, s), infer_type=_bn_type, **_BN_IO,
    doc="Legacy batch normalization (MXNet 0.x) over axis 1.\n\n"
        "Example: ``mx.nd.BatchNorm_v1(x, gamma, beta, mean, var)``"))
