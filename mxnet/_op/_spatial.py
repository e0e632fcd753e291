"""Spatial sampling operators: GridGenerator, BilinearSampler, SpatialTransformer, ROIPooling,
and the contrib ROIAlign, BilinearResize2D and AdaptiveAvgPooling2D.

Sampling grids hold normalized coordinates in [-1, 1] (channel 0 = x, channel 1 = y), where
-1 and 1 are the centres of the border pixels (torch's ``align_corners=True``).
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from ..base import MXNetError
from ._nn import fill
from ._params import Param
from ._registry import OpDef, register

__all__: list[str] = []


def _base_grid(h: int, w: int, like: torch.Tensor) -> torch.Tensor:
    """(3, h*w) homogeneous target coordinates (x, y, 1) in [-1, 1]."""
    xs = torch.linspace(-1, 1, w, dtype=like.dtype, device=like.device) if w > 1 else \
        torch.full((1,), -1.0, dtype=like.dtype, device=like.device)
    ys = torch.linspace(-1, 1, h, dtype=like.dtype, device=like.device) if h > 1 else \
        torch.full((1,), -1.0, dtype=like.dtype, device=like.device)
    gy, gx = torch.meshgrid(ys, xs, indexing="ij")
    return torch.stack([gx.reshape(-1), gy.reshape(-1), torch.ones_like(gx).reshape(-1)])


def _affine_grid(theta: torch.Tensor, h: int, w: int) -> torch.Tensor:
    n = theta.shape[0]
    grid = torch.matmul(theta.reshape(n, 2, 3), _base_grid(h, w, theta))
    return grid.reshape(n, 2, h, w)


def _grid_generator(a, data):
    if a["transform_type"] == "affine":
        h, w = a["target_shape"]
        if data.dim() != 2 or data.shape[1] != 6:
            raise MXNetError(f"GridGenerator: affine data must be (batch, 6), got "
                             f"{tuple(data.shape)}")
        return _affine_grid(data, h, w)
    if data.dim() != 4 or data.shape[1] != 2:
        raise MXNetError(f"GridGenerator: warp data must be (batch, 2, H, W), got "
                         f"{tuple(data.shape)}")
    h, w = data.shape[2], data.shape[3]
    xs = torch.arange(w, dtype=data.dtype, device=data.device).reshape(1, w)
    ys = torch.arange(h, dtype=data.dtype, device=data.device).reshape(h, 1)
    gx = (data[:, 0] + xs) / ((w - 1) / 2.0) - 1
    gy = (data[:, 1] + ys) / ((h - 1) / 2.0) - 1
    return torch.stack([gx, gy], 1)


register(OpDef(
    "GridGenerator", _grid_generator,
    params=[Param("transform_type", "enum", choices=["affine", "warp"],
                  doc="The type of transformation."),
            Param("target_shape", "shape", (0, 0),
                  doc="Specifies the output shape (H, W) (affine only).")],
    doc="Generate a sampling grid from affine parameters or an optical-flow field.\n\n"
        "Example: ``mx.nd.GridGenerator(theta, transform_type='affine', target_shape=(4, 4))``"))


def _sample(data: torch.Tensor, grid: torch.Tensor) -> torch.Tensor:
    if data.dim() != 4 or grid.dim() != 4 or grid.shape[1] != 2:
        raise MXNetError(f"BilinearSampler: data (N, C, H, W) and grid (N, 2, H', W') expected, "
                         f"got {tuple(data.shape)} and {tuple(grid.shape)}")
    return F.grid_sample(data, grid.permute(0, 2, 3, 1), mode="bilinear",
                         padding_mode="zeros", align_corners=True)


register(OpDef(
    "BilinearSampler", lambda a, d, g: _sample(d, g), inputs=("data", "grid"),
    params=[Param("cudnn_off", "bool_or_none", None, doc="whether to turn cudnn off")],
    doc="Sample the input at grid positions with bilinear interpolation (zeros outside).\n\n"
        "Example: ``mx.nd.BilinearSampler(x, grid)``"))


def _spatial_transformer(a, data, loc):
    h, w = a["target_shape"]
    if loc.dim() != 2 or loc.shape[1] != 6:
        raise MXNetError(f"SpatialTransformer: loc must be (batch, 6), got {tuple(loc.shape)}")
    return _sample(data, _affine_grid(loc, h, w))


def _st_shape(a, s):
    if s[0] is not None:
        fill(s, 1, (s[0][0], 6))
    return s


register(OpDef(
    "SpatialTransformer", _spatial_transformer, inputs=("data", "loc"), infer_shape=_st_shape,
    params=[Param("target_shape", "shape", (0, 0), doc="output shape(h, w) of spatial "
                  "transformer: (y, x)"),
            Param("transform_type", "enum", choices=["affine"], doc="transformation type"),
            Param("sampler_type", "enum", choices=["bilinear"], doc="sampling type"),
            Param("cudnn_off", "bool_or_none", None, doc="whether to turn cudnn off")],
    doc="Affine spatial transformer: grid from ``loc`` then bilinear sampling.\n\n"
        "Example: ``mx.nd.SpatialTransformer(x, loc, target_shape=(4, 4), "
        "transform_type='affine', sampler_type='bilinear')``"))


def _round(v: float) -> int:
    return int(math.floor(v + 0.5)) if v >= 0 else -int(math.floor(-v + 0.5))


def _bin_bounds(start: int, size: int, pooled: int, limit: int) -> list[tuple[int, int]]:
    """``[lo, hi)`` cells of each ROIPooling bin along one axis, clipped to the map."""
    bin_size = size / pooled
    return [(min(max(math.floor(p * bin_size) + start, 0), limit),
             min(max(math.ceil((p + 1) * bin_size) + start, 0), limit)) for p in range(pooled)]


def _max_bins(x: torch.Tensor, bounds: list[tuple[int, int]], dim: int) -> torch.Tensor:
    """Max of each ``[lo, hi)`` slice of ``x`` along ``dim``, stacked as the last axis (an
    empty bin gives -inf). ``max(dim).values`` sends the gradient to the first maximum, as
    MXNet's argmax-based backward."""
    outs = []
    for lo, hi in bounds:
        if hi > lo:
            outs.append(x.narrow(dim, lo, hi - lo).max(dim).values)
        else:
            shape = list(x.shape)
            del shape[dim]
            outs.append(x.new_full(shape, -math.inf))
    return torch.stack(outs, -1)


def _roi_pooling(a, data, rois):
    ph, pw = a["pooled_size"]
    scale = a["spatial_scale"]
    n, c, h, w = data.shape
    if rois.dim() != 2 or rois.shape[1] != 5:
        raise MXNetError(f"ROIPooling: rois must be (num_rois, 5), got {tuple(rois.shape)}")
    outs = []
    for r in rois.detach().cpu().tolist():
        b = int(r[0])
        if b < 0:  # MXNet 1.9.1: a negative batch index (padding rois) pools to zeros
            outs.append(data.new_zeros((c, ph, pw)))
            continue
        if b >= n:
            raise MXNetError(f"ROIPooling: batch index {b} out of range for data batch {n}")
        x0, y0, x1, y1 = (_round(v * scale) for v in r[1:])
        rh, rw = max(y1 - y0 + 1, 1), max(x1 - x0 + 1, 1)
        hb = _bin_bounds(y0, rh, ph, h)
        wb = _bin_bounds(x0, rw, pw, w)
        rows = [(lo, hi) for lo, hi in hb if hi > lo]
        if not rows or all(hi <= lo for lo, hi in wb):
            outs.append(data.new_zeros((c, ph, pw)))
            continue
        # only the rows some bin covers: per column bin a max over columns, then per row
        # bin a max over those rows (row-major first maximum, MXNet's argmax)
        r0, r1 = min(lo for lo, _ in rows), max(hi for _, hi in rows)
        t = _max_bins(data[b, :, r0:r1], wb, 2)  # (c, r1 - r0, pw)
        o = _max_bins(t, [(lo - r0, hi - r0) if hi > lo else (0, 0) for lo, hi in hb], 1)
        o = o.transpose(1, 2)  # (c, ph, pw)
        outs.append(torch.where(torch.isinf(o) & (o < 0), torch.zeros_like(o), o))
    if not outs:
        return data.new_zeros((0, c, ph, pw))
    return torch.stack(outs)


register(OpDef(
    "ROIPooling", _roi_pooling, inputs=("data", "rois"), aliases=("_npx_roi_pooling",),
    params=[Param("pooled_size", "shape", doc="ROI pooling output shape (h,w)"),
            Param("spatial_scale", "float", doc="Ratio of input feature map height (or w) to "
                  "raw image height (or w).")],
    infer_out=lambda a, s: [(s[1][0], s[0][1], *a["pooled_size"])],
    doc="Max-pool each region of interest (batch, x1, y1, x2, y2) to a fixed size.\n\n"
        "Example: ``mx.nd.ROIPooling(x, rois, pooled_size=(2, 2), spatial_scale=1.0)``"))

# ---------------------------------------------------------------------------------------
# contrib resizing and adaptive pooling


def _adaptive_size(a, x) -> tuple[int, int]:
    size = tuple(a["output_size"])
    if not size:
        return 1, 1
    return (size[0], size[0]) if len(size) == 1 else (size[0], size[1])


def _adaptive_avg_pool(a, x):
    if x.dim() != 4:
        raise MXNetError(f"AdaptiveAvgPooling2D: data must be 4-D (N, C, H, W), got "
                         f"{tuple(x.shape)}")
    return F.adaptive_avg_pool2d(x, _adaptive_size(a, x))


class _Shaped:
    """A shape standing in for a tensor in the size rules (no meta tracing: torch's meta
    kernels import its compiler stack, seconds at the first bind)."""

    def __init__(self, shape) -> None:
        self.shape = tuple(shape)


def _adaptive_out(a, s):
    d = tuple(s[0])
    if len(d) != 4:
        raise MXNetError(f"AdaptiveAvgPooling2D: data must be 4-D (N, C, H, W), got {d}")
    return [d[:2] + _adaptive_size(a, None)]


register(OpDef(
    "_contrib_AdaptiveAvgPooling2D", _adaptive_avg_pool, infer_out=_adaptive_out,
    params=[Param("output_size", "shape", (), doc="int (output size) or a tuple of int for "
                  "output (height, width).")],
    doc="Adaptive average pooling to a fixed (height, width).\n\n"
        "Example: ``mx.nd.contrib.AdaptiveAvgPooling2D(x, output_size=(2, 2))``"))


def _resize_size(a, x, like) -> tuple[int, int]:
    h, w = x.shape[2], x.shape[3]
    mode = a["mode"]
    sh, sw = a["scale_height"], a["scale_width"]
    if mode == "like":
        if like is None:
            raise MXNetError("BilinearResize2D: mode='like' needs the like input")
        return like.shape[2], like.shape[3]
    if mode == "size":
        if sh is None and sw is None:
            return a["height"], a["width"]
        if sh is None or sw is None:
            raise MXNetError("BilinearResize2D: give both scale_height and scale_width")
        return int(h * sh), int(w * sw)
    if mode == "odd_scale":
        if sh is None or sw is None:
            raise MXNetError("BilinearResize2D: mode='odd_scale' needs scale_height and "
                             "scale_width")
        return tuple(int((n - 1) * s + 1) if n % 2 else int(n * s)
                     for n, s in ((h, sh), (w, sw)))
    even = mode.startswith("to_even")
    up = mode.endswith("up")
    out = []
    for n in (h, w):
        if (n % 2 == 0) == even:
            out.append(n)
        else:
            out.append(n + 1 if up else n - 1)
    return tuple(out)


def _bilinear_resize(a, x, like=None):
    if x.dim() != 4:
        raise MXNetError(f"BilinearResize2D: data must be 4-D (N, C, H, W), got "
                         f"{tuple(x.shape)}")
    size = _resize_size(a, x, like)
    if min(size) <= 0:
        raise MXNetError(f"BilinearResize2D: output size {size} must be positive")
    return F.interpolate(x, size=size, mode="bilinear", align_corners=a["align_corners"])


def _resize_out(a, s):
    d = tuple(s[0])
    if len(d) != 4:
        raise MXNetError(f"BilinearResize2D: data must be 4-D (N, C, H, W), got {d}")
    like = _Shaped(s[1]) if len(s) > 1 else None
    size = tuple(_resize_size(a, _Shaped(d), like))
    if min(size) <= 0:
        raise MXNetError(f"BilinearResize2D: output size {size} must be positive")
    return [d[:2] + size]


register(OpDef(
    "_contrib_BilinearResize2D", _bilinear_resize, inputs=("data", "like"),
    infer_out=_resize_out,
    active_inputs=lambda a: ["data", "like"] if a["mode"] == "like" else ["data"],
    params=[Param("height", "int", 1, doc="output height (required, but ignored if scale_height "
                  "is defined or mode is not 'size')"),
            Param("width", "int", 1, doc="output width (required, but ignored if scale_width "
                  "is defined or mode is not 'size')"),
            Param("scale_height", "float_or_none", None, doc="sampling scale of the height"),
            Param("scale_width", "float_or_none", None, doc="sampling scale of the width"),
            Param("mode", "enum", "size", choices=["like", "odd_scale", "size", "to_even_down",
                                                   "to_even_up", "to_odd_down", "to_odd_up"],
                  doc="resizing mode"),
            Param("align_corners", "bool", True, doc="With align_corners = True, the "
                  "interpolating doesn't proportionally align the output and input pixels")],
    doc="Resize (N, C, H, W) images with bilinear interpolation.\n\n"
        "Example: ``mx.nd.contrib.BilinearResize2D(x, height=8, width=8)``"))

# ---------------------------------------------------------------------------------------
# ROIAlign


def _interp_matrix(coords: list[float], size: int, like: torch.Tensor) -> torch.Tensor:
    """(len(coords), size) bilinear weights, zero rows for samples outside [-1, size]."""
    m = torch.zeros((len(coords), size), dtype=like.dtype, device=like.device)
    for i, c in enumerate(coords):
        if c < -1.0 or c > size:
            continue
        c = max(c, 0.0)
        lo = int(c)
        if lo >= size - 1:
            m[i, size - 1] = 1.0
            continue
        frac = c - lo
        m[i, lo] = 1.0 - frac
        m[i, lo + 1] = frac
    return m


def _roi_align(a, data, rois):
    ph, pw = a["pooled_size"]
    scale, ratio = a["spatial_scale"], a["sample_ratio"]
    n, c, h, w = data.shape
    if rois.dim() != 2 or rois.shape[1] != 5:
        raise MXNetError(f"ROIAlign: rois must be (num_rois, 5), got {tuple(rois.shape)}")
    psens = a["position_sensitive"]
    if psens and c % (ph * pw):
        raise MXNetError(f"ROIAlign: channels {c} not divisible by pooled size {ph}x{pw}")
    offset = 0.5 if a["aligned"] else 0.0
    outs = []
    for r in rois.detach().cpu().tolist():
        b = int(r[0])
        if b < 0:  # MXNet 1.9.1: a negative batch index (the -1 rows NMS pads with, which
            # GluonCV's FPN RCNN feeds on) gives zeros and no gradient
            outs.append(data.new_zeros((c // (ph * pw) if psens else c, ph, pw)))
            continue
        if b >= n:
            raise MXNetError(f"ROIAlign: batch index {b} out of range for data batch {n}")
        x0, y0, x1, y1 = (v * scale - offset for v in r[1:])
        rh, rw = y1 - y0, x1 - x0
        if not a["aligned"]:
            rh, rw = max(rh, 1.0), max(rw, 1.0)
        gh = ratio if ratio > 0 else max(math.ceil(rh / ph), 1)
        gw = ratio if ratio > 0 else max(math.ceil(rw / pw), 1)
        ys = [y0 + p * rh / ph + (i + 0.5) * rh / ph / gh for p in range(ph) for i in range(gh)]
        xs = [x0 + p * rw / pw + (i + 0.5) * rw / pw / gw for p in range(pw) for i in range(gw)]
        wy, wx = _interp_matrix(ys, h, data), _interp_matrix(xs, w, data)
        sampled = torch.matmul(torch.matmul(wy, data[b]), wx.t())  # (c, ph*gh, pw*gw)
        pooled = sampled.reshape(c, ph, gh, pw, gw).mean((2, 4))
        if psens:
            k = ph * pw
            pooled = torch.diagonal(pooled.reshape(c // k, k, k), dim1=1, dim2=2)
            pooled = pooled.reshape(c // k, ph, pw)
        outs.append(pooled)
    co = c // (ph * pw) if psens else c
    if not outs:
        return data.new_zeros((0, co, ph, pw))
    return torch.stack(outs)


register(OpDef(
    "_contrib_ROIAlign", _roi_align, inputs=("data", "rois"),
    params=[Param("pooled_size", "shape", doc="ROI Align output roi feature map height and "
                  "width: (h, w)"),
            Param("spatial_scale", "float", doc="Ratio of input feature map height (or w) to "
                  "raw image height (or w)."),
            Param("sample_ratio", "int", -1, doc="Optional sampling ratio of ROI align, using "
                  "adaptive size by default."),
            Param("position_sensitive", "bool", False, doc="Whether to perform "
                  "position-sensitive RoI pooling."),
            Param("aligned", "bool", False, doc="Center-align the box coordinates by half a "
                  "pixel.")],
    infer_out=lambda a, s: [(s[1][0], s[0][1] // (a["pooled_size"][0] * a["pooled_size"][1])
                             if a["position_sensitive"] else s[0][1], *a["pooled_size"])],
    doc="Region of interest alignment: bilinear samples averaged per output bin.\n\n"
        "Example: ``mx.nd.contrib.ROIAlign(x, rois, pooled_size=(2, 2), spatial_scale=1.0)``"))
