"""Deformable convolutions of ``mx.nd.contrib``: DeformableConvolution (v1) and
ModulatedDeformableConvolution (v2, with a modulation mask), 2-D NCHW only.

Each kernel tap samples the input bilinearly at its regular position plus a learned
offset (zero outside the image); the samples are then multiplied by the weight matrix.

Example: ``mx.nd.contrib.DeformableConvolution(x, offset, w, b, kernel=(3, 3), pad=(1, 1),
num_filter=8)``
"""

from __future__ import annotations

import torch

from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, op_error

__all__: list[str] = []


def _gather(img: torch.Tensor, y: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """img (B, C, H, W); integer y, x (B, P) -> (B, C, P), zero where out of range."""
    b, c, h, w = img.shape
    ok = (y >= 0) & (y < h) & (x >= 0) & (x < w)
    idx = (y.clamp(0, h - 1) * w + x.clamp(0, w - 1)).unsqueeze(1).expand(b, c, -1)
    vals = torch.gather(img.reshape(b, c, h * w), 2, idx)
    return vals * ok.unsqueeze(1).to(img.dtype)


def _bilinear(img: torch.Tensor, py: torch.Tensor, px: torch.Tensor,
              edge_clamp: bool) -> torch.Tensor:
    """Sample img (B, C, H, W) at float positions (B, P) -> (B, C, P).

    ``edge_clamp`` (DeformableConvolution's CPU kernel): only positions inside [0, H) x [0, W)
    are sampled and the last row/column takes its own value; otherwise (the modulated
    kernel) positions in (-1, H) x (-1, W) are sampled with zeros outside the image.
    """
    h, w = img.shape[2], img.shape[3]
    y0, x0 = torch.floor(py), torch.floor(px)
    ly, lx = py - y0, px - x0
    if edge_clamp:
        inside = (py >= 0) & (py < h) & (px >= 0) & (px < w)
        ly = torch.where(y0 >= h - 1, torch.zeros_like(ly), ly)
        lx = torch.where(x0 >= w - 1, torch.zeros_like(lx), lx)
    else:
        inside = (py > -1) & (py < h) & (px > -1) & (px < w)
    hy, hx = 1 - ly, 1 - lx
    y0, x0 = y0.long(), x0.long()
    out = (_gather(img, y0, x0) * (hy * hx).unsqueeze(1)
           + _gather(img, y0, x0 + 1) * (hy * lx).unsqueeze(1)
           + _gather(img, y0 + 1, x0) * (ly * hx).unsqueeze(1)
           + _gather(img, y0 + 1, x0 + 1) * (ly * lx).unsqueeze(1))
    return out * inside.unsqueeze(1).to(img.dtype)


def _cfg(op: str, a: dict, data: torch.Tensor) -> tuple:
    if data.dim() != 4:
        raise op_error(op, f"only 2-D deformable convolution (4-D NCHW data) is supported, got "
                           f"data {fmt_shape(data.shape)}")
    if a["layout"] not in (None, "NCHW"):
        raise op_error(op, f"layout {a['layout']} is not supported (NCHW only)")
    k = tuple(a["kernel"])
    if len(k) != 2:
        raise op_error(op, f"kernel must have 2 dimensions, got {k}")
    st = tuple(a["stride"]) or (1, 1)
    dl = tuple(a["dilate"]) or (1, 1)
    pd = tuple(a["pad"]) or (0, 0)
    return k, st, dl, pd


def _deform(op: str, a: dict, data, offset, mask, weight, bias) -> torch.Tensor:
    (kh, kw), (sh, sw), (dh, dw), (ph, pw) = _cfg(op, a, data)
    n, c, h, w = data.shape
    ho = (h + 2 * ph - (dh * (kh - 1) + 1)) // sh + 1
    wo = (w + 2 * pw - (dw * (kw - 1) + 1)) // sw + 1
    dg, grp, nf = a["num_deformable_group"], a["num_group"], a["num_filter"]
    kk = kh * kw
    if c % dg or c % grp or nf % grp:
        raise op_error(op, f"channels {c} / num_filter {nf} must be divisible by num_group "
                           f"{grp} and num_deformable_group {dg}")
    if tuple(offset.shape) != (n, 2 * dg * kk, ho, wo):
        raise op_error(op, f"offset shape {fmt_shape(offset.shape)} must be "
                           f"{fmt_shape((n, 2 * dg * kk, ho, wo))}")
    if tuple(weight.shape) != (nf, c // grp, kh, kw):
        raise op_error(op, f"weight shape {fmt_shape(weight.shape)} must be "
                           f"{fmt_shape((nf, c // grp, kh, kw))}")
    if mask is not None and tuple(mask.shape) != (n, dg * kk, ho, wo):
        raise op_error(op, f"mask shape {fmt_shape(mask.shape)} must be "
                           f"{fmt_shape((n, dg * kk, ho, wo))}")
    dev, dt = data.device, data.dtype
    base_y = (torch.arange(ho, device=dev, dtype=dt) * sh - ph)[:, None]
    base_x = (torch.arange(wo, device=dev, dtype=dt) * sw - pw)[None, :]
    off = offset.reshape(n, dg, kk, 2, ho, wo)
    ky = (torch.arange(kh, device=dev, dtype=dt) * dh).repeat_interleave(kw)
    kx = (torch.arange(kw, device=dev, dtype=dt) * dw).repeat(kh)
    py = base_y + ky[:, None, None] + off[:, :, :, 0]  # (n, dg, kk, ho, wo)
    px = base_x + kx[:, None, None] + off[:, :, :, 1]
    cg = c // dg
    img = data.reshape(n * dg, cg, h, w)
    cols = _bilinear(img, py.reshape(n * dg, -1), px.reshape(n * dg, -1), mask is None)
    cols = cols.reshape(n, dg, cg, kk, ho * wo)
    if mask is not None:
        cols = cols * mask.reshape(n, dg, 1, kk, ho * wo)
    cols = cols.reshape(n, grp, (c // grp) * kk, ho * wo)
    wmat = weight.reshape(grp, nf // grp, (c // grp) * kk)
    out = torch.einsum("gfk,ngkp->ngfp", wmat, cols).reshape(n, nf, ho, wo)
    if bias is not None:
        out = out + bias.reshape(1, nf, 1, 1)
    return out


def _dcn(a: dict, data, offset, weight, bias=None):
    return _deform("_contrib_DeformableConvolution", a, data, offset, None, weight, bias)


def _mdcn(a: dict, data, offset, mask, weight, bias=None):
    return _deform("_contrib_ModulatedDeformableConvolution", a, data, offset, mask, weight,
                   bias)


def _shape_fn(nin: int):
    def infer(a: dict, s: list) -> list:
        d = s[0]
        if d is None or len(d) != 4:
            return s
        kh, kw = tuple(a["kernel"])[:2] if len(a["kernel"]) == 2 else (1, 1)
        st = tuple(a["stride"]) or (1, 1)
        dl = tuple(a["dilate"]) or (1, 1)
        pd = tuple(a["pad"]) or (0, 0)
        ho = (d[2] + 2 * pd[0] - (dl[0] * (kh - 1) + 1)) // st[0] + 1
        wo = (d[3] + 2 * pd[1] - (dl[1] * (kw - 1) + 1)) // st[1] + 1
        dg, kk = a["num_deformable_group"], kh * kw
        if s[1] is None:
            s[1] = (d[0], 2 * dg * kk, ho, wo)
        if nin == 3 and s[2] is None:
            s[2] = (d[0], dg * kk, ho, wo)
        wi = nin
        if s[wi] is None:
            s[wi] = (a["num_filter"], d[1] // a["num_group"], kh, kw)
        if len(s) > wi + 1 and s[wi + 1] is None:
            s[wi + 1] = (a["num_filter"],)
        return s

    return infer


def _params(v2: bool) -> list:
    return [Param("kernel", "shape", doc="Convolution kernel size: (h, w) or (d, h, w)"),
            Param("stride", "shape", (), doc="Convolution stride: (h, w) or (d, h, w). "
                  "Defaults to 1 for each dimension."),
            Param("dilate", "shape", (), doc="Convolution dilate: (h, w) or (d, h, w). "
                  "Defaults to 1 for each dimension."),
            Param("pad", "shape", (), doc="Zero pad for convolution: (h, w) or (d, h, w). "
                  "Defaults to no padding."),
            Param("num_filter", "int", doc="Convolution filter(channel) number"),
            Param("num_group", "int", 1, doc="Number of group partitions."),
            Param("num_deformable_group", "int", 1, doc="Number of deformable group "
                  "partitions."),
            Param("workspace", "int", 1024, doc="Maximum temperal workspace allowed for "
                  "convolution (MB)."),
            Param("no_bias", "bool", False, doc="Whether to disable bias parameter.")] + (
        [Param("im2col_step", "int", 64, doc="Maximum number of images per im2col "
               "computation.")] if v2 else []) + [
        Param("layout", "enum", None, choices=("NCDHW", "NCHW", "NCW"),
              doc="Set layout for input, output and weight. Empty for default layout: NCW "
                  "for 1d, NCHW for 2d and NCDHW for 3d.")]


register(OpDef("_contrib_DeformableConvolution", _dcn,
               inputs=("data", "offset", "weight", "bias"),
               active_inputs=lambda a: ("data", "offset", "weight") if a["no_bias"] else
               ("data", "offset", "weight", "bias"),
               params=_params(False), infer_shape=_shape_fn(2),
               doc="Deformable convolution (Dai et al. 2017): kernel taps sample the input at "
                   "learned offsets.\n\nExample: ``mx.nd.contrib.DeformableConvolution(x, off, "
                   "w, b, kernel=(3, 3), num_filter=8)``"))
register(OpDef("_contrib_ModulatedDeformableConvolution", _mdcn,
               inputs=("data", "offset", "mask", "weight", "bias"),
               active_inputs=lambda a: ("data", "offset", "mask", "weight") if a["no_bias"] else
               ("data", "offset", "mask", "weight", "bias"),
               params=_params(True), infer_shape=_shape_fn(3),
               doc="Modulated deformable convolution (DCNv2): deformable taps scaled by a "
                   "mask.\n\nExample: ``mx.nd.contrib.ModulatedDeformableConvolution(x, off, "
                   "mask, w, b, kernel=(3, 3), num_filter=8)``"))


# ---------------------------------------------------------------------------------------
# DeformablePSROIPooling (Deformable R-FCN)


def _round_half_away(v: torch.Tensor) -> torch.Tensor:
    return torch.sign(v) * torch.floor(v.abs() + 0.5)


def _deform_psroi(a: dict, data: torch.Tensor, rois: torch.Tensor,
                  trans: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """All rois, bins, output channels and samples at once, in the data's float type and
    MXNet's operation order. The gradient reaches ``data`` through the bilinear weights and
    ``trans`` through MXNet's finite-cell slope ``(U21 - U11)(1 - dy) + (U22 - U12) dy``
    (times ``trans_std * roi_width``), taken at the clamped sample position."""
    op = "_contrib_DeformablePSROIPooling"
    p, od, g = a["pooled_size"], a["output_dim"], a["group_size"]
    part = a["part_size"] or p
    spp, std, no_trans = a["sample_per_part"], a["trans_std"], a["no_trans"]
    if data.dim() != 4 or rois.dim() != 2 or rois.shape[1] != 5:
        raise op_error(op, f"data must be (N, C, H, W) and rois (R, 5), got data "
                           f"{fmt_shape(data.shape)}, rois {fmt_shape(rois.shape)}")
    if data.shape[1] != od * g * g:
        raise op_error(op, f"data channels {data.shape[1]} must equal output_dim * group_size"
                           f"^2 = {od * g * g}")
    nr = rois.shape[0]
    if data.device.type == "meta":
        return data.new_empty((nr, od, p, p)), data.new_empty((nr, od, p, p))
    if nr == 0:
        z = data.new_zeros((0, od, p, p))
        return z, z.clone()
    use_trans = not no_trans and trans is not None
    ncls = trans.shape[1] // 2 if use_trans else 1
    per_cls = od // ncls if use_trans else od
    nb, ch, h, w = data.shape
    dev, dt = data.device, data.dtype
    sc = torch.tensor(a["spatial_scale"], dtype=dt, device=dev)
    r = rois.detach().to(dt)
    bidx = r[:, 0].long()
    x1, y1, x2, y2 = (_round_half_away(r[:, i]) for i in range(1, 5))
    sw, sh = x1 * sc - 0.5, y1 * sc - 0.5
    rw = torch.clamp_min((x2 + 1) * sc - 0.5 - sw, 0.1)
    rh = torch.clamp_min((y2 + 1) * sc - 0.5 - sh, 0.1)
    bw, bh = rw / p, rh / p
    subw, subh = bw / spp, bh / spp
    ar = torch.arange(p, device=dev)
    part_i = torch.floor(ar.to(dt) / p * part).long()  # part_h / part_w per bin
    gi = torch.clamp(torch.floor(ar.to(dt) * g / p).long(), 0, g - 1)
    cvec = torch.arange(od, device=dev)
    # bin origins (R, od, p, p): pw * bin_w + start (+ trans * roi size)
    pf = ar.to(dt)
    ws0 = (pf[None, :] * bw[:, None] + sw[:, None])[:, None, None, :]
    hs0 = (pf[None, :] * bh[:, None] + sh[:, None])[:, None, :, None]
    ws0, hs0 = ws0.expand(nr, od, p, p), hs0.expand(nr, od, p, p)
    if use_trans:
        cls = cvec // per_cls
        tsel = trans[:, :, part_i][:, :, :, part_i]  # (R, 2*ncls, p, p)
        ttx = tsel[:, 2 * cls] * std  # (R, od, p, p)
        tty = tsel[:, 2 * cls + 1] * std
        ws0 = ws0 + ttx.detach() * rw[:, None, None, None]
        hs0 = hs0 + tty.detach() * rh[:, None, None, None]
    sf = torch.arange(spp, device=dev).to(dt)
    # samples (R, od, p, p, spp_h, spp_w)
    xx = ws0[..., None, None] + (sf[None, :] * subw[:, None])[:, None, None, None, None, :]
    yy = hs0[..., None, None] + (sf[None, :] * subh[:, None])[:, None, None, None, :, None]
    xx, yy = torch.broadcast_tensors(xx, yy)
    ok = (xx >= -0.5) & (xx <= w - 0.5) & (yy >= -0.5) & (yy <= h - 0.5)
    xx, yy = xx.clamp(0, w - 1), yy.clamp(0, h - 1)
    xf, yf = torch.floor(xx), torch.floor(yy)
    xc, yc = torch.ceil(xx).long(), torch.ceil(yy).long()
    dx, dy = xx - xf, yy - yf
    xf, yf = xf.long(), yf.long()
    chan = (cvec[:, None, None] * g + gi[None, :, None]) * g + gi[None, None, :]  # (od, p, p)
    base = (bidx[:, None, None, None] * ch + chan[None]) * (h * w)  # (R, od, p, p)
    base = base[..., None, None]
    flat = data.reshape(-1)

    def at(yi, xi):
        return flat[(base + yi * w + xi).reshape(-1)].reshape(xx.shape)

    u11, u12, u21, u22 = at(yf, xf), at(yc, xf), at(yf, xc), at(yc, xc)
    val = ((1 - dx) * (1 - dy) * u11 + (1 - dx) * dy * u12
           + dx * (1 - dy) * u21 + dx * dy * u22)
    if use_trans and (ttx.requires_grad or tty.requires_grad):
        gx = ((u22 - u12) * dy + (u21 - u11) * (1 - dy)).detach()
        gy = ((u22 - u21) * dx + (u12 - u11) * (1 - dx)).detach()
        shift_x = (ttx - ttx.detach()) * rw[:, None, None, None]
        shift_y = (tty - tty.detach()) * rh[:, None, None, None]
        val = val + gx * shift_x[..., None, None] + gy * shift_y[..., None, None]
    okf = ok.to(dt)
    cnt = okf.sum((-1, -2))
    tot = (val * okf).sum((-1, -2))
    out = torch.where(cnt > 0, tot / cnt.clamp_min(1), torch.zeros((), dtype=dt, device=dev))
    return out, cnt


register(OpDef(
    "_contrib_DeformablePSROIPooling", _deform_psroi, inputs=("data", "rois", "trans"),
    active_inputs=lambda a: ("data", "rois") if a["no_trans"] else ("data", "rois", "trans"),
    outputs=("output", "top_count"), num_visible=lambda a: 1,
    params=[Param("spatial_scale", "float", doc="Ratio of input feature map height (or w) to "
                  "raw image height (or w). Equals the reciprocal of total stride in "
                  "convolutional layers"),
            Param("output_dim", "int", doc="fix output dim"),
            Param("group_size", "int", doc="fix group size"),
            Param("pooled_size", "int", doc="fix pooled size"),
            Param("part_size", "int", 0, doc="fix part size"),
            Param("sample_per_part", "int", 1, doc="fix samples per part"),
            Param("trans_std", "float", 0.0, doc="fix transition std"),
            Param("no_trans", "bool", False, doc="Whether to disable trans parameter.")],
    doc="Deformable position-sensitive ROI pooling (Deformable R-FCN): PSROIPooling whose "
        "bins are shifted by learned normalized offsets ``trans``.\n\n"
        "Example: ``mx.nd.contrib.DeformablePSROIPooling(feat, rois, trans, spatial_scale="
        "0.0625, output_dim=21, group_size=7, pooled_size=7, trans_std=0.1)``"))
