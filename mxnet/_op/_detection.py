"""Object-detection operators of ``mx.nd.contrib``: box_iou, box_nms, bipartite_matching,
box_encode, box_decode and the SSD family (MultiBoxPrior, MultiBoxTarget,
MultiBoxDetection; the last two live in :mod:`._multibox`).

Boxes are ``[xmin, ymin, xmax, ymax]`` ("corner") or ``[x, y, width, height]`` ("center").
Example: ``mx.nd.contrib.box_iou(a, b)`` gives the pairwise IoU of two box sets.
"""

from __future__ import annotations

import math

import torch

from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, op_error

__all__: list[str] = []

_FORMAT = ("center", "corner")


class _ZeroGrad(torch.autograd.Function):
    """Attach an all-zero gradient to ``out`` for the given inputs (MXNet's backward of the
    box utilities writes zeros)."""

    @staticmethod
    def forward(ctx, out, *ins):  # type: ignore[override]
        ctx.specs = [(i.shape, i.dtype, i.device) for i in ins]
        return out.clone()

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        return (None,) + tuple(torch.zeros(s, dtype=d, device=v) for s, d, v in ctx.specs)


def zero_grad(fn):
    """Wrap a kernel so that it runs without autograd and its gradients are zeros."""

    def compute(a: dict, *tensors: torch.Tensor):
        with torch.no_grad():
            out = fn(a, *[t.detach() for t in tensors])
        if not torch.is_grad_enabled() or not any(t.requires_grad for t in tensors):
            return out
        ins = [t for t in tensors if t.requires_grad]
        outs = (out,) if isinstance(out, torch.Tensor) else tuple(out)
        outs = tuple(_ZeroGrad.apply(o, *ins) if o.is_floating_point() else o for o in outs)
        return outs[0] if isinstance(out, torch.Tensor) else outs

    return compute


def to_corner(b: torch.Tensor, fmt: str) -> torch.Tensor:
    """(..., 4) boxes in ``fmt`` -> corner boxes."""
    if fmt == "corner":
        return b
    x, y, w, h = b.unbind(-1)
    return torch.stack([x - w / 2, y - h / 2, x + w / 2, y + h / 2], dim=-1)


def pair_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """IoU of corner boxes (n, 4) x (m, 4) -> (n, m); zero where boxes do not overlap."""
    w = (torch.minimum(a[:, None, 2], b[None, :, 2]) -
         torch.maximum(a[:, None, 0], b[None, :, 0])).clamp(min=0)
    h = (torch.minimum(a[:, None, 3], b[None, :, 3]) -
         torch.maximum(a[:, None, 1], b[None, :, 1])).clamp(min=0)
    inter = w * h

    def area(t):
        ww, hh = t[:, 2] - t[:, 0], t[:, 3] - t[:, 1]
        return torch.where((ww < 0) | (hh < 0), torch.zeros_like(ww), ww * hh)

    union = area(a)[:, None] + area(b)[None, :] - inter
    return torch.where(inter > 0, inter / torch.where(inter > 0, union, torch.ones_like(union)),
                       torch.zeros_like(inter))


# ---------------------------------------------------------------------------------------
# box_iou


def _box_iou(a: dict, lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
    for name, t in (("lhs", lhs), ("rhs", rhs)):
        if t.dim() < 2 or t.shape[-1] != 4:
            raise op_error("_contrib_box_iou", f"last dimension of {name} must be 4, "
                                               f"{fmt_shape(t.shape)} provided")
    lb = to_corner(lhs.detach().reshape(-1, 4), a["format"])
    rb = to_corner(rhs.detach().reshape(-1, 4), a["format"])
    out = pair_iou(lb, rb)
    return out.reshape(tuple(lhs.shape[:-1]) + tuple(rhs.shape[:-1]))


register(OpDef("_contrib_box_iou", zero_grad(_box_iou), inputs=("lhs", "rhs"),
               params=[Param("format", "enum", "corner", choices=_FORMAT,
                             doc="The box encoding type.")],
               doc="Pairwise intersection-over-union of two sets of boxes; the output shape "
                   "is ``lhs.shape[:-1] + rhs.shape[:-1]``.\n\n"
                   "Example: ``mx.nd.contrib.box_iou(a, b, format='corner')``"))


# ---------------------------------------------------------------------------------------
# box_nms


def _nms_keep(boxes: torch.Tensor, ids: torch.Tensor | None, order: torch.Tensor,
              thresh: float, strict: bool = True) -> list[int]:
    """Greedy NMS over ``order`` (indices sorted by score); returns kept indices."""
    if order.numel() == 0:
        return []
    sel = boxes[order]
    iou = pair_iou(sel, sel)
    sup = iou > thresh if strict else iou >= thresh
    if ids is not None:
        sid = ids[order]
        sup &= sid[:, None] == sid[None, :]
    sup = sup.tolist()
    alive = [True] * len(sup)
    for i in range(len(sup)):
        if not alive[i]:
            continue
        row = sup[i]
        for j in range(i + 1, len(sup)):
            if alive[j] and row[j]:
                alive[j] = False
    return [int(order[i]) for i in range(len(alive)) if alive[i]]


def _box_nms(a: dict, data: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    op = "_contrib_box_nms"
    if data.dim() < 2:
        raise op_error(op, f"input must have dim >= 2 the last two dimensions are num_box and "
                           f"box_width {fmt_shape(data.shape)} provided")
    width = data.shape[-1]
    cs, si, ii = a["coord_start"], a["score_index"], a["id_index"]
    if width < (6 if ii > 0 else 5) or not 0 <= si < width or cs < 0 or cs + 3 >= width \
            or cs <= si <= cs + 3 or (ii >= 0 and (ii >= width or cs <= ii <= cs + 3
                                                   or ii == si)):
        raise op_error(op, f"invalid score_index={si}, coord_start={cs}, id_index={ii} for "
                           f"box width {width} (input {fmt_shape(data.shape)})")
    n = data.shape[-2]
    rec_shape = tuple(data.shape[:-1]) + (1,)
    if data.device.type == "meta":
        return data.clone(), data.new_empty(rec_shape)
    if a["topk"] == 0 or data.numel() == 0:  # MXNet returns the input unchanged for topk=0
        rng = torch.arange(math.prod(rec_shape), dtype=data.dtype, device=data.device)
        return data.clone(), rng.reshape(rec_shape)
    flat = data.reshape(-1, n, width)
    rows, records = [], []
    det = flat.detach()
    for b in range(flat.shape[0]):
        d = det[b]
        score = d[:, si]
        valid = score > a["valid_thresh"]
        if ii >= 0:  # MXNet drops boxes of the background class, -1 included
            valid &= d[:, ii] != a["background_id"]
        cand = torch.nonzero(valid).reshape(-1)
        order = cand[torch.sort(score[cand], descending=True, stable=True).indices]
        topk = a["topk"]
        if topk >= 0:
            order = order[:topk]
        boxes = to_corner(d[:, cs:cs + 4], a["in_format"])
        ids = d[:, ii] if ii >= 0 and not a["force_suppress"] else None
        keep = _nms_keep(boxes, ids, order, a["overlap_thresh"])
        idx = torch.tensor(keep, dtype=torch.int64, device=data.device)
        kept = torch.index_select(flat[b], 0, idx)
        pad = torch.full((n - len(keep), width), -1.0, dtype=data.dtype, device=data.device)
        rows.append(torch.cat([kept, pad], 0))
        rec = torch.full((n,), -1.0, dtype=data.dtype, device=data.device)
        rec[:len(keep)] = idx.to(data.dtype)
        records.append(rec)
    out = torch.stack(rows, 0)
    if a["in_format"] != a["out_format"]:
        coords = out[..., cs:cs + 4]
        if a["out_format"] == "center":
            x1, y1, x2, y2 = coords.unbind(-1)
            conv = torch.stack([(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1], -1)
        else:
            conv = to_corner(coords, "center")
        conv = torch.where((coords[..., :1] < 0), coords, conv)  # -1 rows stay as they are
        out = torch.cat([out[..., :cs], conv, out[..., cs + 4:]], -1)
    rec = torch.stack(records, 0)
    return out.reshape(data.shape), rec.reshape(rec_shape)


register(OpDef(
    "_contrib_box_nms", _box_nms, aliases=("_contrib_box_non_maximum_suppression",),
    outputs=("output0", "output1"), num_visible=lambda a: 1,
    params=[Param("overlap_thresh", "float", 0.5, doc="Overlapping(IoU) threshold to suppress "
                  "object with smaller score."),
            Param("valid_thresh", "float", 0.0, doc="Filter input boxes to those whose scores "
                  "greater than valid_thresh."),
            Param("topk", "int", -1, doc="Apply nms to topk boxes with descending scores, -1 "
                  "to no restriction."),
            Param("coord_start", "int", 2, doc="Start index of the consecutive 4 coordinates."),
            Param("score_index", "int", 1, doc="Index of the scores/confidence of boxes."),
            Param("id_index", "int", -1, doc="Optional, index of the class categories, -1 to "
                  "disable."),
            Param("background_id", "int", -1, doc="Optional, id of the background class which "
                  "will be ignored in nms."),
            Param("force_suppress", "bool", False, doc="Optional, if set false and id_index is "
                  "provided, nms will only apply to boxes belongs to the same category"),
            Param("in_format", "enum", "corner", choices=_FORMAT,
                  doc="The input box encoding type."),
            Param("out_format", "enum", "corner", choices=_FORMAT,
                  doc="The output box encoding type.")],
    doc="Non-maximum suppression: kept boxes sorted by descending score first, the other rows "
        "filled with -1.\n\nExample: ``mx.nd.contrib.box_nms(dets, overlap_thresh=0.5)``"))


# ---------------------------------------------------------------------------------------
# bipartite_matching


def _bipartite(a: dict, data: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    if data.dim() < 2:
        raise op_error("_contrib_bipartite_matching", f"score matrix must have dim >= 2 "
                                                      f"{data.dim()} provided")
    r, c = data.shape[-2], data.shape[-1]
    lead = tuple(data.shape[:-2])
    if data.device.type == "meta":
        return data.new_empty(lead + (r,)), data.new_empty(lead + (c,))
    flat = data.detach().reshape(-1, r * c)
    rows = torch.full((flat.shape[0], r), -1.0, dtype=data.dtype)
    cols = torch.full((flat.shape[0], c), -1.0, dtype=data.dtype)
    thr, asc, topk = a["threshold"], a["is_ascend"], a["topk"]
    for b in range(flat.shape[0]):
        s = flat[b].cpu()
        order = torch.sort(s, descending=not asc, stable=True).indices.tolist()
        vals = s.tolist()
        rm, cm = [-1] * r, [-1] * c
        count = 0
        for j in order:
            ri, ci = divmod(j, c)
            if rm[ri] == -1 and cm[ci] == -1:
                if (vals[j] > thr) if not asc else (vals[j] < thr):
                    rm[ri], cm[ci] = ci, ri
                    count += 1
                    if 0 < topk < count:
                        break
                else:
                    break
        rows[b] = torch.tensor(rm, dtype=data.dtype)
        cols[b] = torch.tensor(cm, dtype=data.dtype)
    return (rows.to(data.device).reshape(lead + (r,)),
            cols.to(data.device).reshape(lead + (c,)))


register(OpDef(
    "_contrib_bipartite_matching", zero_grad(_bipartite), outputs=("output0", "output1"),
    params=[Param("is_ascend", "bool", False, doc="Use ascend order for scores instead of "
                  "descending. Please set threshold accordingly."),
            Param("threshold", "float", doc="Ignore matching when score < thresh, if "
                  "is_ascend=false, or ignore score > thresh, if is_ascend=true."),
            Param("topk", "int", -1, doc="Limit the number of matches to topk, set -1 for no "
                  "limit")],
    doc="Greedy bipartite matching of a score matrix: returns the matched column of each row "
        "and the matched row of each column (-1 when unmatched).\n\n"
        "Example: ``rows, cols = mx.nd.contrib.bipartite_matching(s, threshold=0.1)``"))


# ---------------------------------------------------------------------------------------
# box_encode / box_decode


def _center(b: torch.Tensor) -> tuple[torch.Tensor, ...]:
    x1, y1, x2, y2 = b.unbind(-1)
    w, h = x2 - x1, y2 - y1
    return x1 + w / 2, y1 + h / 2, w, h


def _box_encode(a: dict, samples, matches, anchors, refs, means, stds):
    op = "_contrib_box_encode"
    if anchors.dim() != 3 or anchors.shape[-1] != 4 or refs.dim() != 3 \
            or tuple(samples.shape) != tuple(anchors.shape[:2]) \
            or tuple(matches.shape) != tuple(samples.shape):
        raise op_error(op, f"bad shapes: samples {fmt_shape(samples.shape)}, matches "
                           f"{fmt_shape(matches.shape)}, anchors {fmt_shape(anchors.shape)}, "
                           f"refs {fmt_shape(refs.shape)}")
    idx = matches.detach().to(torch.int64).clamp(0, max(refs.shape[1] - 1, 0))
    ref = torch.gather(refs, 1, idx.unsqueeze(-1).expand(-1, -1, 4))
    gx, gy, gw, gh = _center(ref)
    ax, ay, aw, ah = _center(anchors)
    t = torch.stack([(gx - ax) / aw, (gy - ay) / ah, torch.log(gw / aw), torch.log(gh / ah)],
                    -1)
    t = (t - means.reshape(1, 1, 4)) / stds.reshape(1, 1, 4)
    pos = (samples > 0.5).unsqueeze(-1)
    zero = torch.zeros((), dtype=t.dtype, device=t.device)
    targets = torch.where(pos, t, zero)
    masks = pos.expand_as(t).to(t.dtype)
    return targets, masks


register(OpDef("_contrib_box_encode", zero_grad(_box_encode),
               inputs=("samples", "matches", "anchors", "refs", "means", "stds"),
               outputs=("output0", "output1"),
               doc="Encode matched reference boxes relative to anchors (center offsets and "
                   "log sizes, normalized by means/stds); returns (targets, masks).\n\n"
                   "Example: ``t, m = mx.nd.contrib.box_encode(s, mt, anc, refs, means, stds)``"))


def _box_decode(a: dict, data: torch.Tensor, anchors: torch.Tensor) -> torch.Tensor:
    if data.dim() != 3 or data.shape[-1] != 4 or anchors.dim() != 3 or anchors.shape[-1] != 4:
        raise op_error("_contrib_box_decode", f"data {fmt_shape(data.shape)} and anchors "
                                              f"{fmt_shape(anchors.shape)} must be (B, N, 4)")
    if a["format"] == "corner":
        ax, ay, aw, ah = _center(anchors)
    else:
        ax, ay, aw, ah = anchors.unbind(-1)
    dx, dy, dw, dh = data.unbind(-1)
    ox = dx * a["std0"] * aw + ax
    oy = dy * a["std1"] * ah + ay
    dw, dh = dw * a["std2"], dh * a["std3"]
    if a["clip"] > 0:
        dw, dh = dw.clamp(max=a["clip"]), dh.clamp(max=a["clip"])
    ow, oh = torch.exp(dw) * aw / 2, torch.exp(dh) * ah / 2
    return torch.stack([ox - ow, oy - oh, ox + ow, oy + oh], -1)


register(OpDef("_contrib_box_decode", zero_grad(_box_decode),
               inputs=("data", "anchors"),
               params=[Param("std0", "float", 1.0, doc="value to be divided from the 1st "
                             "encoded values"),
                       Param("std1", "float", 1.0, doc="value to be divided from the 2nd "
                             "encoded values"),
                       Param("std2", "float", 1.0, doc="value to be divided from the 3rd "
                             "encoded values"),
                       Param("std3", "float", 1.0, doc="value to be divided from the 4th "
                             "encoded values"),
                       Param("clip", "float", -1.0, doc="If larger than 0, bounding box target "
                             "will be clipped to this value."),
                       Param("format", "enum", "center", choices=_FORMAT,
                             doc="The box encoding type of the anchors.")],
               doc="Decode box regression outputs against anchors into corner boxes.\n\n"
                   "Example: ``mx.nd.contrib.box_decode(pred, anchors, format='corner')``"))
