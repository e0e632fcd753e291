"""Legacy layer operators: Crop, SVMOutput, Correlation, IdentityAttachKLSparseReg,
im2col and col2im.

Example: ``mx.nd.im2col(x, kernel=(3, 3), pad=(1, 1))`` gives the sliding-window columns
that a convolution multiplies with its weight matrix.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, op_error

__all__: list[str] = []


# ---------------------------------------------------------------------------------------
# Crop


def _crop(a: dict, *tensors: torch.Tensor) -> torch.Tensor:
    data = tensors[0]
    if data.dim() != 4:
        raise op_error("Crop", f"data must be 4-D (N, C, H, W), got {fmt_shape(data.shape)}")
    if len(tensors) > 1:
        h, w = tensors[1].shape[2], tensors[1].shape[3]
    else:
        h, w = a["h_w"]
    H, W = data.shape[2], data.shape[3]
    if a["center_crop"]:
        oy, ox = (H - h) // 2, (W - w) // 2
    else:
        oy, ox = a["offset"]
    if h <= 0 or w <= 0 or oy < 0 or ox < 0 or oy + h > H or ox + w > W:
        raise op_error("Crop", f"cannot crop ({h}, {w}) at offset ({oy}, {ox}) from an input "
                               f"of shape {fmt_shape(data.shape)}")
    return data[:, :, oy:oy + h, ox:ox + w]


register(OpDef("Crop", _crop, variadic="num_args",
               params=[Param("num_args", "int", doc="Number of inputs for crop, if equals one, "
                             "then we will use the h_wfor crop height and width, else if equals "
                             "two, then we will use the heightand width of the second input "
                             "symbol, we name crop_like here"),
                       Param("offset", "shape", (0, 0), doc="crop offset coordinate: (y, x)"),
                       Param("h_w", "shape", (0, 0), doc="crop height and width: (h, w)"),
                       Param("center_crop", "bool", False, doc="If set to true, then it will "
                             "use be the center_crop,or it will crop using the shape of "
                             "crop_like")],
               doc="Crop the spatial dimensions of a 4-D input to ``h_w`` or to the size of a "
                   "second input.\n\nExample: ``mx.nd.Crop(x, h_w=(2, 2), num_args=1)``"))


# ---------------------------------------------------------------------------------------
# SVMOutput


class _SVMGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, data, label, margin, coef, linear):  # type: ignore[override]
        ctx.save_for_backward(data, label)
        ctx.cfg = (margin, coef, linear)
        return data.clone()

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        data, label = ctx.saved_tensors
        margin, coef, linear = ctx.cfg
        x = data.reshape(data.shape[0], -1)
        k = label.detach().reshape(-1).to(torch.int64).clamp(0, x.shape[1] - 1)
        is_k = torch.zeros_like(x, dtype=torch.bool).scatter(1, k[:, None], True)
        if linear:
            gk = -(margin > x).to(x.dtype) * coef
            go = (margin > -x).to(x.dtype) * coef
        else:
            # MXNet 1.9.1's L2-SVM writes the entries outside the margin as -0.0
            neg0 = torch.full_like(x, -0.0)
            gk = torch.where(margin > x, -2 * (margin - x), neg0) * coef
            go = torch.where(margin > -x, 2 * (margin + x), neg0) * coef
        grad = torch.where(is_k, gk, go).reshape(data.shape)
        return grad, None, None, None, None


def _svm(a: dict, data: torch.Tensor, label: torch.Tensor) -> torch.Tensor:
    if label.numel() != data.shape[0]:
        raise op_error("SVMOutput", f"label {fmt_shape(label.shape)} must hold one class per "
                                    f"row of data {fmt_shape(data.shape)}")
    if not data.requires_grad:
        return data.clone()
    return _SVMGrad.apply(data, label, a["margin"], a["regularization_coefficient"],
                          a["use_linear"])


def _svm_shape(a: dict, s: list) -> list:
    if s[0] is not None and s[1] is None:
        s[1] = (s[0][0],)
    return s


register(OpDef("SVMOutput", _svm, inputs=("data", "label"), infer_shape=_svm_shape,
               params=[Param("margin", "float", 1.0, doc="The loss function penalizes outputs "
                             "that lie outside this margin. Default margin is 1."),
                       Param("regularization_coefficient", "float", 1.0,
                             doc="Regularization parameter for the SVM. This balances the "
                                 "tradeoff between coefficient size and error."),
                       Param("use_linear", "bool", False, doc="Whether to use L1-SVM "
                             "objective. L2-SVM objective is used by default.")],
               doc="Identity forward; the backward pass gives the (squared) hinge-loss "
                   "gradient for the labels, ignoring the head gradient.\n\n"
                   "Example: ``mx.nd.SVMOutput(scores, labels, margin=1.0)``"))


# ---------------------------------------------------------------------------------------
# Correlation (FlowNet)


def _correlation(a: dict, d1: torch.Tensor, d2: torch.Tensor) -> torch.Tensor:
    if d1.dim() != 4 or tuple(d1.shape) != tuple(d2.shape):
        raise op_error("Correlation", f"data1 {fmt_shape(d1.shape)} and data2 "
                                      f"{fmt_shape(d2.shape)} must be 4-D of the same shape")
    k, md, s1, s2, pad = (a["kernel_size"], a["max_displacement"], a["stride1"], a["stride2"],
                          a["pad_size"])
    if k % 2 == 0:
        raise op_error("Correlation", f"kernel_size must be odd (got {k})")
    n, c, h, w = d1.shape
    ph, pw = h + 2 * pad, w + 2 * pad
    border = md + (k - 1) // 2
    th = -(-(ph - 2 * border) // s1)
    tw = -(-(pw - 2 * border) // s1)
    if th < 1 or tw < 1:
        raise op_error("Correlation", f"input {fmt_shape(d1.shape)} with pad_size {pad} is "
                                      f"too small for max_displacement {md} and kernel_size {k}")
    r = md // s2
    a1 = F.pad(d1, (pad, pad, pad, pad))
    a2 = F.pad(d2, (pad, pad, pad, pad))
    span_h, span_w = (th - 1) * s1 + k, (tw - 1) * s1 + k
    base1 = a1[:, :, md:md + span_h, md:md + span_w]
    outs = []
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            y0, x0 = md + dy * s2, md + dx * s2
            base2 = a2[:, :, y0:y0 + span_h, x0:x0 + span_w]
            if a["is_multiply"]:
                m = base1 * base2
            else:
                # |x1 - x2| whose gradient on a tie is +1 for data1 and -1 for data2 (MXNet)
                diff = base1 - base2
                m = diff * torch.where(diff >= 0, 1.0, -1.0).to(diff.dtype).detach()
            m = m.sum(1, keepdim=True)
            outs.append(F.avg_pool2d(m, k, stride=s1) / c if k > 1 else m[:, :, ::s1, ::s1] / c)
    return torch.cat(outs, 1)


_NONNEG = "int"
register(OpDef("Correlation", _correlation, inputs=("data1", "data2"),
               params=[Param("kernel_size", _NONNEG, 1, doc="kernel size for Correlation must "
                             "be an odd number"),
                       Param("max_displacement", _NONNEG, 1, doc="Max displacement of "
                             "Correlation "),
                       Param("stride1", _NONNEG, 1, doc="stride1 quantize data1 globally"),
                       Param("stride2", _NONNEG, 1, doc="stride2 quantize data2 within the "
                             "neighborhood centered around data1"),
                       Param("pad_size", _NONNEG, 0, doc="pad for Correlation"),
                       Param("is_multiply", "bool", True, doc="operation type is either "
                             "multiplication or subduction")],
               doc="FlowNet correlation of two feature maps over a grid of displacements "
                   "(one output channel per displacement).\n\n"
                   "Example: ``mx.nd.Correlation(f1, f2, max_displacement=4, pad_size=4)``"))


# ---------------------------------------------------------------------------------------
# IdentityAttachKLSparseReg


class _KLSparse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, data, avg, target, penalty, momentum):  # type: ignore[override]
        ctx.save_for_backward(data)
        ctx.avg = avg
        ctx.cfg = (target, penalty, momentum)
        return data.clone()

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        (data,) = ctx.saved_tensors
        target, penalty, momentum = ctx.cfg
        avg = ctx.avg
        mean = data.reshape(data.shape[0], data.shape[1], -1).mean(dim=(0, 2))
        with torch.no_grad():
            avg.mul_(momentum).add_(mean.to(avg.dtype) * (1 - momentum))
        shape = (1, data.shape[1]) + (1,) * (data.dim() - 2)
        b = avg.reshape(shape).to(g.dtype)
        reg = penalty * (-target / b + (1 - target) / (1 - b))
        return g + reg, None, None, None, None


def _kl_sparse(a: dict, data: torch.Tensor, moving_avg: torch.Tensor) -> torch.Tensor:
    if data.device.type == "meta" or not data.requires_grad:
        return data.clone()
    return _KLSparse.apply(data, moving_avg, a["sparseness_target"], a["penalty"],
                           a["momentum"])


def _kl_shape(a: dict, s: list) -> list:
    if s[0] is not None and s[1] is None:
        s[1] = (s[0][1],)
    return s


register(OpDef("IdentityAttachKLSparseReg", _kl_sparse, inputs=("data",), aux=("moving_avg",),
               infer_shape=_kl_shape,
               params=[Param("sparseness_target", "float", 0.1, doc="The sparseness target"),
                       Param("penalty", "float", 0.001, doc="The tradeoff parameter for the "
                             "sparseness penalty"),
                       Param("momentum", "float", 0.9, doc="The momentum for running "
                             "average")],
               doc="Identity forward; the backward pass adds a KL sparseness penalty on the "
                   "running mean activation (updated in ``moving_avg``).\n\n"
                   "Example: ``mx.sym.IdentityAttachKLSparseReg(h, sparseness_target=0.1)``"))


# ---------------------------------------------------------------------------------------
# im2col / col2im


def _conv_cfg(op: str, a: dict, nsp: int) -> tuple:
    k = tuple(a["kernel"])
    if len(k) != nsp:
        raise op_error(op, f"kernel {k} must have {nsp} spatial dimensions")
    st = tuple(a["stride"]) or (1,) * nsp
    dl = tuple(a["dilate"]) or (1,) * nsp
    pd = tuple(a["pad"]) or (0,) * nsp
    return k, st, dl, pd


def _im2col(a: dict, data: torch.Tensor) -> torch.Tensor:
    if data.dim() != 4:
        raise op_error("im2col", f"only 2-D kernels (4-D data) are supported, got data "
                                 f"{fmt_shape(data.shape)}")
    k, st, dl, pd = _conv_cfg("im2col", a, 2)
    return F.unfold(data, k, dilation=dl, padding=pd, stride=st)


def _col2im(a: dict, data: torch.Tensor) -> torch.Tensor:
    if data.dim() != 3:
        raise op_error("col2im", f"data must be 3-D (N, C*kh*kw, L), got "
                                 f"{fmt_shape(data.shape)}")
    k, st, dl, pd = _conv_cfg("col2im", a, 2)
    out = tuple(a["output_size"])
    return F.fold(data, out, k, dilation=dl, padding=pd, stride=st)


_CONV = [Param("kernel", "shape", doc="Sliding kernel size: (w,), (h, w) or (d, h, w)."),
         Param("stride", "shape", (), doc="The stride between adjacent sliding blocks in "
               "spatial dimension: (w,), (h, w) or (d, h, w). Defaults to 1 for each dimension."),
         Param("dilate", "shape", (), doc="The spacing between adjacent kernel points: (w,), "
               "(h, w) or (d, h, w). Defaults to 1 for each dimension."),
         Param("pad", "shape", (), doc="The zero-value padding size on both sides of spatial "
               "dimension: (w,), (h, w) or (d, h, w). Defaults to no padding.")]
register(OpDef("im2col", _im2col, params=_CONV,
               doc="Extract sliding blocks into columns: (N, C, H, W) -> (N, C*kh*kw, L).\n\n"
                   "Example: ``mx.nd.im2col(x, kernel=(3, 3), pad=(1, 1))``"))
register(OpDef("col2im", _col2im,
               params=[Param("output_size", "shape", doc="The spatial dimension of image "
                             "array: (w,), (h, w) or (d, h, w).")] + _CONV,
               doc="Sum columns back into an image (the adjoint of im2col).\n\n"
                   "Example: ``mx.nd.col2im(cols, output_size=(4, 4), kernel=(2, 2))``"))


# ---------------------------------------------------------------------------------------
# PSROIPooling (R-FCN) and count_sketch


def _psroi(a: dict, data: torch.Tensor, rois: torch.Tensor) -> torch.Tensor:
    op = "_contrib_PSROIPooling"
    p, od = a["pooled_size"], a["output_dim"]
    g = a["group_size"] or p
    if data.dim() != 4 or rois.dim() != 2 or rois.shape[1] != 5:
        raise op_error(op, f"data must be (N, C, H, W) and rois (R, 5), got data "
                           f"{fmt_shape(data.shape)}, rois {fmt_shape(rois.shape)}")
    if data.shape[1] != od * g * g:
        raise op_error(op, f"data channels {data.shape[1]} must equal output_dim * group_size"
                           f"^2 = {od * g * g}")
    nr = rois.shape[0]
    if data.device.type == "meta":
        return data.new_empty((nr, od, p, p))
    h, w = data.shape[2], data.shape[3]
    sc = a["spatial_scale"]
    r = rois.detach().double()
    boxes = (torch.sign(r) * torch.floor(r.abs() + 0.5)).tolist()  # C round: halves away

    if nr == 0:
        return data.new_zeros((0, od, p, p))
    # bin bounds per (roi, ph, pw), then every bin sum from one summed-area table
    bi, hs, he, ws, we = [], [], [], [], []
    for b, x1, y1, x2, y2 in boxes:
        sw, sh = x1 * sc, y1 * sc
        rw, rh = max((x2 + 1) * sc - sw, 0.1), max((y2 + 1) * sc - sh, 0.1)
        bh, bw = rh / p, rw / p
        for ph in range(p):
            for pw in range(p):
                bi.append(int(b))
                hs.append(min(max(math.floor(ph * bh + sh), 0), h))
                he.append(min(max(math.ceil((ph + 1) * bh + sh), 0), h))
                ws.append(min(max(math.floor(pw * bw + sw), 0), w))
                we.append(min(max(math.ceil((pw + 1) * bw + sw), 0), w))
    dev = data.device

    def idx(v):
        return torch.tensor(v, dtype=torch.long, device=dev).reshape(nr, 1, p, p)

    bi_t, hs_t, he_t, ws_t, we_t = idx(bi), idx(hs), idx(he), idx(ws), idx(we)
    gh = torch.tensor([min(ph * g // p, g - 1) for ph in range(p)], device=dev)
    gw = torch.tensor([min(pw * g // p, g - 1) for pw in range(p)], device=dev)
    cidx = torch.arange(od, device=dev)
    ch = ((cidx[:, None, None] * g + gh[None, :, None]) * g + gw[None, None, :])[None]
    sat = F.pad(data.double().cumsum(2).cumsum(3), (1, 0, 1, 0))
    total = (sat[bi_t, ch, he_t, we_t] - sat[bi_t, ch, hs_t, we_t]
             - sat[bi_t, ch, he_t, ws_t] + sat[bi_t, ch, hs_t, ws_t])
    area = ((he_t - hs_t) * (we_t - ws_t)).to(torch.float64)
    out = torch.where(area > 0, total / area.clamp_min(1), torch.zeros((), dtype=total.dtype,
                                                                       device=dev))
    return out.to(data.dtype)


register(OpDef("_contrib_PSROIPooling", _psroi, inputs=("data", "rois"),
               params=[Param("spatial_scale", "float", doc="Ratio of input feature map height "
                             "(or w) to raw image height (or w). Equals the reciprocal of total "
                             "stride in convolutional layers"),
                       Param("output_dim", "int", doc="fix output dim"),
                       Param("pooled_size", "int", doc="fix pooled size"),
                       Param("group_size", "int", 0, doc="fix group size")],
               doc="Position-sensitive ROI average pooling (R-FCN): bin (i, j) of output "
                   "channel c averages input channel (c*g + i)*g + j over the bin.\n\n"
                   "Example: ``mx.nd.contrib.PSROIPooling(feat, rois, spatial_scale=0.0625, "
                   "output_dim=21, pooled_size=7)``"))


def _count_sketch(a: dict, data: torch.Tensor, h: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    n = data.shape[-1]
    if h.numel() != n or s.numel() != n:
        raise op_error("_contrib_count_sketch", f"h {fmt_shape(h.shape)} and s "
                                                f"{fmt_shape(s.shape)} must hold one entry per "
                                                f"input feature ({n})")
    x = data.reshape(-1, n) * s.reshape(1, n).to(data.dtype)
    idx = h.detach().reshape(-1).to(torch.int64).clamp(0, a["out_dim"] - 1)
    out = x.new_zeros((x.shape[0], a["out_dim"])).index_add(1, idx, x)
    return out.reshape(tuple(data.shape[:-1]) + (a["out_dim"],))


register(OpDef("_contrib_count_sketch", _count_sketch, inputs=("data", "h", "s"),
               params=[Param("out_dim", "int", doc="The output dimension."),
                       Param("processing_batch_size", "int", 32, doc="How many sketch vectors "
                             "to process at one time.")],
               doc="Count sketch: ``out[:, h[i]] += s[i] * data[:, i]`` (MXNet ships it for "
                   "GPU only).\n\nExample: ``mx.nd.contrib.count_sketch(x, h, s, "
                   "out_dim=16)``"))


# ---------------------------------------------------------------------------------------
# RROIAlign (rotated ROI align; forward only, as in MXNet)


def _sample_clamped(img: torch.Tensor, y: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """Bilinear samples of img (C, H, W) at (P,) positions, MXNet's ROIAlign edge rules."""
    c, h, w = img.shape
    bad = (y < -1.0) | (y > h) | (x < -1.0) | (x > w)
    y, x = y.clamp(min=0), x.clamp(min=0)
    y0, x0 = y.floor().long(), x.floor().long()
    ytop, xtop = y0 >= h - 1, x0 >= w - 1
    y0, x0 = torch.where(ytop, h - 1, y0), torch.where(xtop, w - 1, x0)
    y1, x1 = torch.where(ytop, y0, y0 + 1), torch.where(xtop, x0, x0 + 1)
    ly = torch.where(ytop, torch.zeros_like(y), y - y0.to(y.dtype))
    lx = torch.where(xtop, torch.zeros_like(x), x - x0.to(x.dtype))
    flat = img.reshape(c, h * w)

    def at(yy, xx):
        return flat[:, yy * w + xx]

    val = (at(y0, x0) * (1 - ly) * (1 - lx) + at(y0, x1) * (1 - ly) * lx
           + at(y1, x0) * ly * (1 - lx) + at(y1, x1) * ly * lx)
    return torch.where(bad, torch.zeros_like(val), val)


def _rroi_align(a: dict, data: torch.Tensor, rois: torch.Tensor) -> torch.Tensor:
    op = "_contrib_RROIAlign"
    if data.dim() != 4 or rois.dim() != 2 or rois.shape[1] != 6:
        raise op_error(op, f"data must be 4-D and rois (R, 6) [batch, x, y, w, h, theta], got "
                           f"data {fmt_shape(data.shape)}, rois {fmt_shape(rois.shape)}")
    ph, pw = a["pooled_size"]
    if data.device.type == "meta":
        return data.new_empty((rois.shape[0], data.shape[1], ph, pw))
    sc, sr = a["spatial_scale"], a["sampling_ratio"]
    out = []
    dt = data.dtype
    for b, cx, cy, rw, rh, theta in rois.detach().double().tolist():
        cx, cy = cx * sc, cy * sc
        rw, rh = max(rw * sc, 1.0), max(rh * sc, 1.0)
        t = theta * math.pi / 180.0
        bh, bw = rh / ph, rw / pw
        gh = sr if sr > 0 else math.ceil(rh / ph)
        gw = sr if sr > 0 else math.ceil(rw / pw)
        iy = torch.arange(ph, dtype=torch.float64)[:, None] * bh + \
            (torch.arange(gh, dtype=torch.float64)[None, :] + 0.5) * bh / gh - rh / 2
        ix = torch.arange(pw, dtype=torch.float64)[:, None] * bw + \
            (torch.arange(gw, dtype=torch.float64)[None, :] + 0.5) * bw / gw - rw / 2
        yy = iy.reshape(ph, 1, gh, 1).expand(ph, pw, gh, gw)
        xx = ix.reshape(1, pw, 1, gw).expand(ph, pw, gh, gw)
        x = (xx * math.cos(t) + yy * math.sin(t) + cx).to(dt).reshape(-1)
        y = (yy * math.cos(t) - xx * math.sin(t) + cy).to(dt).reshape(-1)
        vals = _sample_clamped(data[int(b)].detach(), y.to(data.device), x.to(data.device))
        out.append(vals.reshape(-1, ph, pw, gh * gw).mean(-1))
    if not out:
        return data.new_zeros((0, data.shape[1], ph, pw))
    return torch.stack(out, 0)


register(OpDef("_contrib_RROIAlign", _rroi_align, inputs=("data", "rois"),
               params=[Param("pooled_size", "shape", doc="RROI align output shape (h,w) "),
                       Param("spatial_scale", "float", doc="Ratio of input feature map height "
                             "(or width) to raw image height (or width). Equals the reciprocal "
                             "of total stride in convolutional layers"),
                       Param("sampling_ratio", "int", -1, doc="Optional sampling ratio of ROI "
                             "align, using adaptive size by default.")],
               doc="Rotated ROI align: average of bilinear samples over each bin of rotated "
                   "rois ``[batch, x_center, y_center, w, h, theta_degrees]`` (no gradient, as "
                   "in MXNet).\n\nExample: ``mx.nd.contrib.RROIAlign(feat, rois, "
                   "pooled_size=(7, 7), spatial_scale=0.25)``"))
