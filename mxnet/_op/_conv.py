"""Convolution, Deconvolution, Pooling and UpSampling (1-D, 2-D and 3-D).

Convolutions run torch's kernels (oneDNN on CPU, cuDNN on GPU). Channel-last layouts are
handled by permuting to channel-first and back.
"""

from __future__ import annotations

import functools
import math
import os

import torch
import torch.nn.functional as F

from ..base import MXNetError
from . import _conv_wino as wino
from . import _dwconv as dwconv
from ._conv_native import applies as conv1x1_applies
from ._conv_native import conv1x1
from ._conv_phase import phase_conv2d, phase_conv_applies
from ._nn import fill, no_bias_inputs
from ._params import Param
from ._registry import OpDef, get_op, register
from ._shape_rules import same_type

__all__: list[str] = []

_LAYOUTS = ["NCDHW", "NCHW", "NCW", "NDHWC", "NHWC"]
_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_DECONV = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


def _geom(a: dict, nd: int, name: str):
    k = tuple(a["kernel"])
    if len(k) != nd:
        raise MXNetError(f"{name}: kernel {k} has {len(k)} dims but data has {nd} spatial dims")
    s = tuple(a["stride"]) or (1,) * nd
    d = tuple(a["dilate"]) or (1,) * nd
    p = tuple(a["pad"]) or (0,) * nd
    for v, n in ((s, "stride"), (d, "dilate"), (p, "pad")):
        if len(v) != nd:
            raise MXNetError(f"{name}: {n} {v} must have {nd} elements like kernel {k}")
    return k, s, d, p


def channel_last(layout) -> bool:
    return layout is not None and layout[-1] == "C"


def to_cf(x: torch.Tensor) -> torch.Tensor:
    """Channel-last to channel-first."""
    return x.permute(0, x.dim() - 1, *range(1, x.dim() - 1))


def to_cl(x: torch.Tensor) -> torch.Tensor:
    """Channel-first to channel-last."""
    return x.permute(0, *range(2, x.dim()), 1)


def _chan(a, shape):
    return shape[-1] if channel_last(a["layout"]) else shape[1]


def _spatial(a, shape):
    return tuple(shape[1:-1]) if channel_last(a["layout"]) else tuple(shape[2:])


# ---------------------------------------------------------------------------------------
# Convolution


def _grouped_on_cpu(x: torch.Tensor, groups: int) -> bool:
    """A grouped 2-D convolution of float32 CPU data held in NCHW memory."""
    return (groups > 1 and x.dtype == torch.float32 and x.device.type == "cpu"
            and x.is_contiguous() and not x.is_contiguous(memory_format=torch.channels_last))


# Dense 2-D convolutions of NCHW float32 CPU data with at least this many pixels per map
# run (and return) channels-last: Gluon training in-process A/B, batch 8-16, 1 thread:
# ResNet-18 at 224x224 8% faster, 128x128 5.6%, 96x96 2%, 64x64 3% slower; ResNet-50 at
# 224x224 7.5%, MobileNet-1.0 at 224x224 5%. Later layers get channels-last data and stay
# in it, imperatively and hybridized alike (the same rule runs in both).
LARGE_CL_PIXELS = 96 * 96


def _large_nchw_on_cpu(x: torch.Tensor) -> bool:
    """A 2-D map of float32 CPU data in NCHW memory that runs faster channels-last: large
    enough, or with a channel count oneDNN would pad to its 16-channel blocks."""
    return (x.dtype == torch.float32 and x.device.type == "cpu"
            and (x.shape[2] * x.shape[3] >= LARGE_CL_PIXELS or _odd_channels(x.shape[1]))
            and x.is_contiguous() and not x.is_contiguous(memory_format=torch.channels_last))


def _odd_channels(c: int) -> bool:
    """Input channels that oneDNN's blocked NCHW kernels pad to a multiple of 16 (LeNet's
    20: 1.6x the work); its channels-last kernels do not (LeNet's second convolution,
    batch 128, forward+backward: 17.5 ms against 25.0 ms, one core)."""
    return c > 4 and c % 16 != 0


def _centre_only(x: torch.Tensor, w: torch.Tensor, pad, dilate) -> bool:
    """A 2-D convolution of one-pixel maps padded by half an odd kernel (MobileNet's last
    depthwise layers at 32x32): only the kernel's centre tap meets data."""
    return (x.shape[2] == 1 and x.shape[3] == 1 and w.shape[2] % 2 == 1
            and w.shape[3] % 2 == 1 and tuple(pad) == (w.shape[2] // 2, w.shape[3] // 2)
            and all(v == 1 for v in dilate) and w.shape[2] * w.shape[3] > 1)


def _centre_conv(x, w, b, groups: int) -> torch.Tensor:
    """The convolution of :func:`_centre_only` with the centre tap alone (the other taps meet
    zero padding): a 1x1 convolution, or a per-channel product for a depthwise one. oneDNN
    takes 1.7 ms for a 3x3 depthwise forward+backward on 32x256x1x1 data; this 0.08 ms."""
    kh, kw = w.shape[2] // 2, w.shape[3] // 2
    centre = w[:, :, kh:kh + 1, kw:kw + 1]
    if groups == x.shape[1] == w.shape[0] and w.shape[1] == 1:
        out = x * centre.reshape(1, -1, 1, 1)
        return out if b is None else out + b.reshape(1, -1, 1, 1)
    return F.conv2d(x, centre, b, 1, 0, 1, groups)


# 1x1 convolutions of at most this many multiply-adds run as one matrix product: torch's
# oneDNN call costs ~300 us of wrapper time forward+backward, the product ~40 us (32x128x2x2
# -> 128: 381 against 213 us; even at 4.2M; 8.4M: 685 against 752 us)
TINY_POINTWISE_MACS = 1 << 22


def _tiny_pointwise(x: torch.Tensor, w: torch.Tensor, stride, pad, dilate, groups) -> bool:
    """A dense 1x1 convolution of channels-last CPU data small enough for
    :func:`_pointwise_mm` (see ``TINY_POINTWISE_MACS``)."""
    return (groups == 1 and w.shape[2] == 1 and w.shape[3] == 1 and x.device.type == "cpu"
            and x.dtype in (torch.float32, torch.float64) and w.dtype == x.dtype
            and all(v == 1 for v in stride) and all(v == 0 for v in pad)
            and all(v == 1 for v in dilate) and x.is_contiguous(memory_format=torch.channels_last)
            and x.numel() * w.shape[0] <= TINY_POINTWISE_MACS)


def _pointwise_mm(x, w, b) -> torch.Tensor:
    """A 1x1 convolution of channels-last data as one product over its pixel rows; the
    result is channels-last."""
    n, c, h, wd = x.shape
    rows = x.permute(0, 2, 3, 1).reshape(n * h * wd, c)
    w2 = w.reshape(w.shape[0], c).t()
    y = torch.mm(rows, w2) if b is None else torch.addmm(b, rows, w2)
    return y.view(n, h, wd, w.shape[0]).permute(0, 3, 1, 2)


def _conv(a, x, w, b=None):
    nd = x.dim() - 2
    if nd not in _CONV:
        raise MXNetError(f"Convolution: data must be 3-D, 4-D or 5-D, got shape {tuple(x.shape)}")
    k, s, d, p = _geom(a, nd, "Convolution")
    cl = channel_last(a["layout"])
    if cl:
        x, w = to_cf(x), to_cf(w)
    if w.shape[0] != a["num_filter"]:
        raise MXNetError(f"Convolution: weight shape {tuple(w.shape)} does not match "
                         f"num_filter={a['num_filter']}")
    if nd == 2 and _centre_only(x, w, p, d):
        out = _centre_conv(x, w, b, a["num_group"])
    elif nd == 2 and dwconv.applies(x, w, d, a["num_group"], s, p):
        out = dwconv.conv(x, w, b, s, p)  # small depthwise maps: skip oneDNN's setup
    elif nd == 2 and phase_conv_applies(x, w, s, d, a["num_group"]):
        out = phase_conv2d(x, w, b, s, p)  # faster input gradient over few channels
    elif nd == 2 and _grouped_on_cpu(x, a["num_group"]):
        # torch's NCHW grouped (depthwise) kernels are 1.3-2.9x slower than its
        # channels-last ones (forward+backward): run those and keep the channels-last
        # result (same shape, NHWC strides), so that the layers after it (BatchNorm, the
        # next convolutions) run channels-last kernels too, imperatively and hybridized
        # alike. Gluon MobileNet training: 9-14% faster than converting back to NCHW.
        m = torch.channels_last
        out = F.conv2d(x.contiguous(memory_format=m), w.contiguous(memory_format=m), b, s, p,
                       d, a["num_group"])
    else:
        if nd == 2 and _large_nchw_on_cpu(x):
            x = x.contiguous(memory_format=torch.channels_last)
        if nd == 2 and _tiny_pointwise(x, w, s, p, d, a["num_group"]):
            out = _pointwise_mm(x, w, b)
        elif nd == 2 and conv1x1_applies(x, w, s, p, d, a["num_group"]):
            out = conv1x1(x, w, b, s)  # native weight gradient
        elif nd == 2 and wino.applies(x, w, s, p, d, a["num_group"]):
            out = wino.conv3x3(x, w, b)  # Winograd forward and input gradient
        else:
            out = _CONV[nd](x, w, b, s, p, d, a["num_group"])
    return to_cl(out) if cl else out


def _conv_shape(a, s):
    d = s[0]
    if d is None:  # MXNet 1.9.1 infers nothing here until the data shape is known
        return s
    c, g, k = _chan(a, d), a["num_group"], tuple(a["kernel"])
    if c % g:
        raise MXNetError(f"Convolution: input channels {c} not divisible by num_group={g}")
    if channel_last(a["layout"]):
        fill(s, 1, (a["num_filter"], *k, c // g))
    else:
        fill(s, 1, (a["num_filter"], c // g, *k))
    if not a["no_bias"]:
        fill(s, 2, (a["num_filter"],))
    return s


def _conv_params(extra=(), workspace=1024, no_bias=False):
    return [Param("kernel", "shape", doc="Convolution kernel size: (w,), (h, w) or (d, h, w)."),
            Param("stride", "shape", (), doc="Convolution stride. Defaults to 1 per dim."),
            Param("dilate", "shape", (), doc="Convolution dilate. Defaults to 1 per dim."),
            Param("pad", "shape", (), doc="Zero pad for convolution. Defaults to no padding."),
            *extra,
            Param("num_filter", "int", doc="Convolution filter(channel) number."),
            Param("num_group", "int", 1, doc="Number of group partitions."),
            Param("workspace", "int", workspace, doc="Maximum temporary workspace (MB)."),
            Param("no_bias", "bool", no_bias, doc="Whether to disable bias parameter."),
            Param("cudnn_tune", "enum", None,
                  choices=["None", "fastest", "limited_workspace", "off"],
                  doc="Whether to pick convolution algo by running performance test."),
            Param("cudnn_off", "bool", False, doc="Turn off cudnn for this layer."),
            Param("layout", "enum", None, choices=["None", *_LAYOUTS],
                  doc="Set layout for input, output and weight. Empty for default layout.")]


def _conv_out(a, s):
    """Convolution's output shape without tracing (see ``_shape_rules``); anything unusual
    is traced so the kernel reports it."""
    d, w = tuple(s[0]), tuple(s[1])
    nd = len(d) - 2
    cl = channel_last(a["layout"])
    k = tuple(a["kernel"])
    expect_w = _conv_shape(a, [d, None, None])[1]
    bias_ok = a["no_bias"] or len(s) < 3 or tuple(s[2]) == (a["num_filter"],)
    if nd in _CONV and len(k) == nd and w == tuple(expect_w) and bias_ok and \
            all(len(v) in (0, nd) for v in (a["stride"], a["dilate"], a["pad"])):
        _, st, dl, p = _geom(a, nd, "Convolution")
        sp = _spatial(a, d)
        out = tuple((sp[i] + 2 * p[i] - dl[i] * (k[i] - 1) - 1) // st[i] + 1 for i in range(nd))
        if all(o > 0 for o in out):
            f = a["num_filter"]
            return [(d[0], *out, f) if cl else (d[0], f, *out)]
    return get_op("Convolution").trace_shapes(a, s)


register(OpDef(
    "Convolution", _conv, inputs=("data", "weight", "bias"), active_inputs=no_bias_inputs(),
    params=_conv_params(), infer_shape=_conv_shape, aliases=("_npx_convolution",),
    infer_out=_conv_out, infer_type=same_type,
    doc="Compute N-D convolution on (N+2)-D input.\n\n"
        "Example: ``mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=8)``"))

# ---------------------------------------------------------------------------------------
# Deconvolution


def _deconv_pads(a, in_sp, k, s, d, p):
    """MXNet's (pad, adj): ``target_shape`` overrides ``pad``/``adj`` when given."""
    nd = len(k)
    adj = tuple(a["adj"]) or (0,) * nd
    ts = tuple(a["target_shape"])
    if ts and any(t > 0 for t in ts):
        pads, adjs = [], []
        for i in range(nd):
            total = s[i] * (in_sp[i] - 1) + d[i] * (k[i] - 1) + 1
            diff = total - ts[i]
            adjs.append(diff % 2)
            pads.append((diff + 1) // 2)
        return tuple(pads), tuple(adjs)
    return p, adj


def _deconv(a, x, w, b=None):
    nd = x.dim() - 2
    if nd not in _DECONV:
        raise MXNetError(f"Deconvolution: data must be 3-D, 4-D or 5-D, got {tuple(x.shape)}")
    k, s, d, p = _geom(a, nd, "Deconvolution")
    if a["num_filter"] % a["num_group"]:
        raise MXNetError(f"Deconvolution: output num_filter {a['num_filter']} must divide "
                         f"group size num_group={a['num_group']}")
    cl = channel_last(a["layout"])
    if cl:
        x, w = to_cf(x), to_cf(w)
    p, adj = _deconv_pads(a, tuple(x.shape[2:]), k, s, d, p)
    if any(v < 0 for v in p):
        raise MXNetError(f"Deconvolution: target_shape {a['target_shape']} is too large")
    out = _DECONV[nd](x, w, b, s, p, adj, a["num_group"], d)
    return to_cl(out) if cl else out


def _deconv_shape(a, s):
    d = s[0]
    if d is not None:
        c, g, k = _chan(a, d), a["num_group"], tuple(a["kernel"])
        if a["num_filter"] % g:
            raise MXNetError(f"Deconvolution: num_filter {a['num_filter']} not divisible by "
                             f"num_group={g}")
        if channel_last(a["layout"]):
            fill(s, 1, (c, *k, a["num_filter"] // g))
        else:
            fill(s, 1, (c, a["num_filter"] // g, *k))
    if not a["no_bias"]:
        fill(s, 2, (a["num_filter"],))
    return s


register(OpDef(
    "Deconvolution", _deconv, inputs=("data", "weight", "bias"),
    active_inputs=no_bias_inputs(),
    params=_conv_params((Param("adj", "shape", (), doc="Adjustment for output shape."),
                         Param("target_shape", "shape", (), doc="Shape of the output.")),
                        workspace=512, no_bias=True),
    infer_shape=_deconv_shape, aliases=("_npx_deconvolution",),
    doc="Transposed convolution (gradient of Convolution with respect to its input).\n\n"
        "Example: ``mx.nd.Deconvolution(x, w, kernel=(2, 2), stride=(2, 2), num_filter=4)``"))

# ---------------------------------------------------------------------------------------
# Pooling

_MAXPOOL = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_AVGPOOL = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}


def _pool_geom(a, sp):
    nd = len(sp)
    if a["global_pool"]:
        return tuple(sp), (1,) * nd, (0,) * nd
    k = tuple(a["kernel"])
    if len(k) != nd:
        raise MXNetError(f"Pooling: kernel {k} must have {nd} dims for data with {nd} spatial "
                         "dims")
    s = tuple(a["stride"]) or (1,) * nd
    p = tuple(a["pad"]) or (0,) * nd
    if len(s) < nd or len(p) < nd:  # (MXNet ignores extra entries)
        raise MXNetError(f"Pooling: stride {s} and pad {p} must have {nd} dims like kernel {k}")
    if a["pooling_convention"] == "same" and any(p):
        raise MXNetError(f"Pooling: Same pooling convention disables the use of pad parameter "
                         f"(pad={p})")
    return k, s[:nd], p[:nd]


def _pool_out(a, sp, k, s, p):
    conv = a["pooling_convention"]
    if a["global_pool"]:
        return (1,) * len(sp)
    out = []
    for i in range(len(sp)):
        if conv == "same":
            out.append(-(-sp[i] // s[i]))
        elif conv == "full":
            out.append(1 + -(-(sp[i] + 2 * p[i] - k[i]) // s[i]))
        else:
            out.append(1 + (sp[i] + 2 * p[i] - k[i]) // s[i])
        if out[-1] <= 0 or k[i] > sp[i] + 2 * p[i]:
            raise MXNetError(f"Pooling: kernel size ({k[i]}) exceeds input ({sp[i]}) padded to "
                             f"{sp[i] + 2 * p[i]}")
    return tuple(out)


def _pool(a, x):
    if x.dtype in (torch.float16, torch.bfloat16) and a["pool_type"] != "max":
        # MXNet sums half-precision windows in float32 (torch's CPU 3-D average pooling
        # has no half kernel at all)
        return _pool(a, x.float()).to(x.dtype)
    cl = a["layout"] is not None and a["layout"][-1] == "C"
    if cl:
        x = to_cf(x)
    nd = x.dim() - 2
    if nd not in _MAXPOOL:
        raise MXNetError(f"Pooling: data must be 3-D, 4-D or 5-D, got {tuple(x.shape)}")
    sp = tuple(x.shape[2:])
    if a["pooling_convention"] == "same" and (nd != 1 or a["pool_type"] != "max"):
        raise MXNetError("Pooling: Input data should be 3D in (batch, channel, x). Currently "
                         "'same' supports Max Pooling 1-D")
    k, s, p = _pool_geom(a, sp)
    out_sp = _pool_out(a, sp, k, s, p)
    fast = _pool_torch(a, x, nd, sp, k, s, p, out_sp)
    if fast is not None:
        return to_cl(fast) if cl else fast
    if a["pooling_convention"] == "same":
        total = [max(0, (o - 1) * s[i] + k[i] - sp[i]) for i, o in enumerate(out_sp)]
        lo = [t // 2 for t in total]
    else:
        lo = list(p)
    hi = [(o - 1) * s[i] + k[i] - sp[i] - lo[i] for i, o in enumerate(out_sp)]
    pads = []
    for i in reversed(range(nd)):
        pads += [lo[i], max(hi[i], 0)]
    t = a["pool_type"]
    if t == "max":
        # MXNet starts each window at the type's lowest value: a window with no data element
        # (``full`` convention past the padding) gives -FLT_MAX, not -inf
        low = torch.finfo(x.dtype).min if x.is_floating_point() else -math.inf
        xp = F.pad(x, pads, value=low) if any(pads) else x
        out = _MAXPOOL[nd](xp, k, s)
    else:
        pv = a["p_value"] if a["p_value"] is not None else 2
        if t == "lp":
            x = x * x if pv == 2 else (x if pv == 1 else x.pow(pv))
        xp = F.pad(x, pads) if any(pads) else x
        out = _AVGPOOL[nd](xp, k, s) * math.prod(k)
        if t == "avg":
            out = out / _pool_count(a, xp, sp, k, s, p, lo)
        elif t == "lp" and pv != 1:
            out = out.sqrt() if pv == 2 else out.sign() * out.abs().pow(1.0 / pv)
    out = out[(slice(None), slice(None)) + tuple(slice(0, o) for o in out_sp)]
    return to_cl(out) if cl else out


@functools.lru_cache(maxsize=1)
def _onednn_available() -> bool:
    return torch.backends.mkldnn.is_available() and os.environ.get(
        "MXNET_NG_ONEDNN_POOL", "1") not in ("0", "false", "False")


def _onednn_max_pool_ok(x, k, s, p, ceil) -> bool:
    """Whether oneDNN's max pooling (through torch's mkldnn tensors, autograd included) runs
    this 2-D pooling: non-overlapping windows without padding on float32 CPU data, except
    channels-last data with a multiple of 8 channels, where torch's own kernel is faster.
    Measured on LeNet's pools: 1.5-2.5x faster forward+backward than torch's kernel; the
    result and the gradient (first maximum of each window) are identical."""
    if (x.dtype != torch.float32 or x.device.type != "cpu" or ceil or any(p)
            or tuple(k) != tuple(s) or x.dim() != 4 or x.numel() == 0
            or torch.compiler.is_compiling() or not _onednn_available()):
        return False  # (traced graphs: torch's fake oneDNN tensors carry wrong strides)
    if x.is_contiguous(memory_format=torch.channels_last) and not x.is_contiguous():
        return x.shape[1] % 8 != 0
    return x.is_contiguous()


def _pool_torch(a, x, nd, sp, k, s, p, out_sp):
    """Torch's own pooling when its output size and divisor rules coincide with MXNet's."""
    conv, t = a["pooling_convention"], a["pool_type"]
    if conv == "same" or t == "lp" or any(2 * p[i] > k[i] for i in range(nd)):
        return None
    ceil = conv == "full"
    if ceil:
        for i in range(nd):
            if (out_sp[i] - 1) * s[i] >= sp[i] + p[i]:
                return None  # torch drops a last window that starts in the padding
    if t == "max":
        if nd == 2 and _onednn_max_pool_ok(x, k, s, p, ceil):
            return torch.mkldnn_max_pool2d(x.to_mkldnn(), list(k), list(s)).to_dense()
        return _MAXPOOL[nd](x, k, s, p, ceil_mode=ceil)
    include = t == "sum" or a["count_include_pad"] is None or a["count_include_pad"]
    if t == "sum" and ceil:
        return None  # torch's divisor shrinks on the overhang; sum needs the kernel size
    out = _AVGPOOL[nd](x, k, s, p, ceil_mode=ceil, count_include_pad=include)
    return out * math.prod(k) if t == "sum" else out


def _pool_count(a, xp, sp, k, s, p, lo):
    """Divisor of average pooling: window cells inside the input, plus its explicit padding
    when ``count_include_pad`` (the overhang of the 'full' convention never counts)."""
    include = a["count_include_pad"] is None or a["count_include_pad"]
    grid = tuple(xp.shape[2:])
    mask = torch.zeros((1, 1) + grid, dtype=xp.dtype, device=xp.device)
    region = []
    for i in range(len(sp)):
        extra = p[i] if include and a["pooling_convention"] != "same" else 0
        region.append(slice(max(lo[i] - extra, 0), min(lo[i] + sp[i] + extra, grid[i])))
    mask[(0, 0) + tuple(region)] = 1
    cnt = _AVGPOOL[len(sp)](mask, k, s) * math.prod(k)
    return cnt.clamp_min(1)


register(OpDef(
    "Pooling", _pool, aliases=("_npx_pooling",),
    params=[Param("kernel", "shape", (), doc="Pooling kernel size: (y, x) or (d, y, x)"),
            Param("pool_type", "enum", "max", choices=["avg", "lp", "max", "sum"],
                  doc="Pooling type to be applied."),
            Param("global_pool", "bool", False, doc="Ignore kernel size, do global pooling."),
            Param("cudnn_off", "bool", False, doc="Turn off cudnn pooling."),
            Param("pooling_convention", "enum", "valid", choices=["full", "same", "valid"],
                  doc="Pooling convention to be applied."),
            Param("stride", "shape", (), doc="Stride for pooling: (y, x) or (d, y, x)."),
            Param("pad", "shape", (), doc="Pad for pooling: (y, x) or (d, y, x)."),
            Param("p_value", "int_or_none", None, doc="Value of p for Lp pooling."),
            Param("count_include_pad", "bool_or_none", None,
                  doc="Whether padded cells count in average pooling."),
            Param("layout", "enum", None, choices=["None", "NCDHW", "NCHW", "NCW", "NDHWC",
                                                   "NHWC", "NWC"],
                  doc="Set layout for input and output.")],
    infer_out=lambda a, s: _pool_infer_out(a, s), infer_type=same_type,
    doc="Performs pooling (max, avg, sum, lp) on the input.\n\n"
        "Example: ``mx.nd.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type='max')``"))


def _pool_infer_out(a, s):
    """Pooling's output shape without tracing (see ``_shape_rules``)."""
    d = tuple(s[0])
    nd = len(d) - 2
    cl = a["layout"] is not None and a["layout"][-1] == "C"
    same_ok = a["pooling_convention"] != "same" or (nd == 1 and a["pool_type"] == "max")
    if nd in _MAXPOOL and same_ok:
        sp = d[1:-1] if cl else d[2:]
        k, st, p = _pool_geom(a, sp)
        out = _pool_out(a, sp, k, st, p)
        return [(d[0], *out, d[-1]) if cl else (d[0], d[1], *out)]
    return get_op("Pooling").trace_shapes(a, s)

# ---------------------------------------------------------------------------------------
# UpSampling


def _upsample(a, *xs):
    scale = a["scale"]
    if a["sample_type"] == "bilinear":
        if len(xs) != 2:
            raise MXNetError("UpSampling: sample_type='bilinear' takes data and weight")
        x, w = xs
        p = int(math.ceil((scale - 1) / 2.0))
        return F.conv_transpose2d(x, w, None, scale, p, 0, x.shape[1])
    h, wd = xs[0].shape[2] * scale, xs[0].shape[3] * scale
    outs = []
    for x in xs:
        if h % x.shape[2] or wd % x.shape[3]:
            raise MXNetError(f"UpSampling: input shape {tuple(x.shape)} does not divide the "
                             f"output size {(h, wd)}")
        f = h // x.shape[2]
        if wd // x.shape[3] != f:
            raise MXNetError("UpSampling: inputs need the same aspect ratio")
        outs.append(x.repeat_interleave(f, 2).repeat_interleave(f, 3) if f > 1 else x)
    if len(outs) == 1:
        return outs[0].clone() if outs[0] is xs[0] else outs[0]
    if a["multi_input_mode"] == "sum":
        out = outs[0]
        for o in outs[1:]:
            out = out + o
        return out
    return torch.cat(outs, 1)


def _upsample_shape(a, s):
    if a["sample_type"] == "bilinear" and s[0] is not None:
        k = 2 * a["scale"] - a["scale"] % 2
        fill(s, 1, (s[0][1], 1, k, k))
    return s


def _upsample_inputs(a):
    # bilinear: ``data`` and the (learned) ``weight`` whatever num_args says (MXNet 1.9.1);
    # nearest: the variadic ``arg0``... inputs
    return ["data", "weight"] if a["sample_type"] == "bilinear" else None


register(OpDef(
    "UpSampling", _upsample, variadic="num_args", active_inputs=_upsample_inputs,
    params=[Param("scale", "int", doc="Up sampling scale"),
            Param("num_filter", "int", 0, doc="Input filter. Only used by bilinear."),
            Param("sample_type", "enum", choices=["bilinear", "nearest"],
                  doc="upsampling method"),
            Param("multi_input_mode", "enum", "concat", choices=["concat", "sum"],
                  doc="How to handle multiple input (nearest only)."),
            Param("num_args", "int", doc="Number of inputs to be upsampled."),
            Param("workspace", "int", 512, doc="Tmp workspace for deconvolution (MB)")],
    infer_shape=_upsample_shape,
    doc="Upsample the given input data by nearest neighbour or bilinear (learned) kernels.\n\n"
        "Example: ``mx.nd.UpSampling(x, scale=2, sample_type='nearest')``"))

# ---------------------------------------------------------------------------------------
# legacy (v1) operators kept for old symbol files

register(OpDef(
    "Convolution_v1", _conv, inputs=("data", "weight", "bias"), active_inputs=no_bias_inputs(),
    params=_conv_params(), infer_shape=_conv_shape,
    doc="Legacy convolution (MXNet 0.x); same as Convolution.\n\n"
        "Example: ``mx.nd.Convolution_v1(x, w, b, kernel=(3, 3), num_filter=8)``"))

_V1_POOL_FIXED = {"cudnn_off": False, "p_value": None, "count_include_pad": True, "layout": None}


def _pool_v1(a, x):
    a = {**a, **_V1_POOL_FIXED}
    if a["pool_type"] == "max" and not a["global_pool"] and x.dim() >= 3:
        # MXNet's Pooling_v1 pads with zeros that take part in the maximum (an all-negative
        # window next to the border gives 0), then pools the padded data without padding
        _, _, p = _pool_geom(a, tuple(x.shape[2:]))
        if any(p):
            pads = []
            for i in reversed(range(len(p))):
                pads += [p[i], p[i]]
            x = F.pad(x, pads)
            a["pad"] = (0,) * len(p)
    return _pool(a, x)


register(OpDef(
    "Pooling_v1", _pool_v1,
    params=[Param("kernel", "shape", (), doc="pooling kernel size: (y, x) or (d, y, x)"),
            Param("pool_type", "enum", "max", choices=["avg", "max", "sum"],
                  doc="Pooling type to be applied."),
            Param("global_pool", "bool", False, doc="Ignore kernel size, do global pooling."),
            Param("pooling_convention", "enum", "valid", choices=["full", "valid"],
                  doc="Pooling convention to be applied."),
            Param("stride", "shape", (), doc="stride: for pooling (y, x) or (d, y, x)"),
            Param("pad", "shape", (), doc="pad for pooling: (y, x) or (d, y, x)")],
    doc="Legacy pooling (MXNet 0.x).\n\n"
        "Example: ``mx.nd.Pooling_v1(x, kernel=(2, 2), stride=(2, 2))``"))
