"""SSD anchor operators of ``mx.nd.contrib``: MultiBoxPrior, MultiBoxTarget and
MultiBoxDetection (the forward-only target/detection ops have no gradient).

Example: ``anchors = mx.nd.contrib.MultiBoxPrior(feat, sizes=(0.5, 0.25), ratios=(1, 2))``
"""

from __future__ import annotations

import numpy as np
import torch

from ._detection import pair_iou, zero_grad
from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, op_error

__all__: list[str] = []

_VAR = Param("variances", "float_seq", (0.1, 0.1, 0.2, 0.2),
             doc="Variances to be encoded in box regression target.")


# ---------------------------------------------------------------------------------------
# MultiBoxPrior


def _prior(a: dict, data: torch.Tensor) -> torch.Tensor:
    if data.dim() != 4:
        raise op_error("_contrib_MultiBoxPrior", f"data must be 4-D (batch, channel, height, "
                                                 f"width), got {fmt_shape(data.shape)}")
    h, w = data.shape[2], data.shape[3]
    # MXNet computes every anchor coordinate in float32, one rounding per operation, in
    # this order: ulp-level differences flip IoU ties in MultiBoxTarget's matching
    f = np.float32
    sizes, ratios = [f(v) for v in a["sizes"]], [f(v) for v in a["ratios"]]
    steps, offsets = a["steps"], [f(v) for v in a["offsets"]]
    fh, fw = f(h), f(w)
    sy = f(steps[0]) if steps[0] > 0 else f(1) / fh
    sx = f(steps[1]) if len(steps) > 1 and steps[1] > 0 else f(1) / fw
    r0 = np.sqrt(ratios[0])  # the sizes use the first ratio (1 by default)
    half = [(s * fh / fw * r0 / f(2), s / r0 / f(2)) for s in sizes]
    half += [(sizes[0] * fh / fw * np.sqrt(r) / f(2), sizes[0] / np.sqrt(r) / f(2))
             for r in ratios[1:]]
    dev = data.device
    cy = torch.from_numpy((np.arange(h, dtype=f) + offsets[0]) * sy).to(dev)
    cx = torch.from_numpy((np.arange(w, dtype=f) + offsets[1]) * sx).to(dev)
    cy, cx = cy[:, None, None].expand(h, w, len(half)), cx[None, :, None].expand(h, w, len(half))
    hw = torch.tensor([p[0] for p in half], dtype=torch.float32, device=dev)
    hh = torch.tensor([p[1] for p in half], dtype=torch.float32, device=dev)
    out = torch.stack([cx - hw, cy - hh, cx + hw, cy + hh], -1).reshape(1, -1, 4)
    if a["clip"]:
        out = out.clamp(0, 1)
    return out.to(data.dtype)


register(OpDef(
    "_contrib_MultiBoxPrior", zero_grad(_prior),
    params=[Param("sizes", "float_seq", (1.0,), doc="List of sizes of generated MultiBoxPriores."),
            Param("ratios", "float_seq", (1.0,), doc="List of aspect ratios of generated "
                  "MultiBoxPriores."),
            Param("clip", "bool", False, doc="Whether to clip out-of-boundary boxes."),
            Param("steps", "float_seq", (-1.0, -1.0), doc="Priorbox step across y and x, -1 "
                  "for auto calculation."),
            Param("offsets", "float_seq", (0.5, 0.5), doc="Priorbox center offsets, y and x "
                  "respectively")],
    doc="Generate prior (anchor) boxes of shape (1, H*W*(len(sizes)+len(ratios)-1), 4) from a "
        "feature map.\n\nExample: ``mx.nd.contrib.MultiBoxPrior(x, sizes=(0.5,), ratios=(1, "
        "2))``"))


# ---------------------------------------------------------------------------------------
# MultiBoxTarget


def _encode(anchor: torch.Tensor, gt: torch.Tensor, var) -> torch.Tensor:
    aw, ah = anchor[..., 2] - anchor[..., 0], anchor[..., 3] - anchor[..., 1]
    ax, ay = (anchor[..., 0] + anchor[..., 2]) / 2, (anchor[..., 1] + anchor[..., 3]) / 2
    gw, gh = gt[..., 2] - gt[..., 0], gt[..., 3] - gt[..., 1]
    gx, gy = (gt[..., 0] + gt[..., 2]) / 2, (gt[..., 1] + gt[..., 3]) / 2
    return torch.stack([(gx - ax) / aw / var[0], (gy - ay) / ah / var[1],
                        torch.log(gw / aw) / var[2], torch.log(gh / ah) / var[3]], -1)


def _match_one(a: dict, anchors: torch.Tensor, label: torch.Tensor,
               cls_pred: torch.Tensor) -> tuple[list[int], list[int]]:
    """Anchor flags (1 positive, 0 negative, -1 ignored) and matched gt per anchor."""
    n = anchors.shape[0]
    nvalid = 0
    for row in label.tolist():
        if row[0] == -1.0:
            break
        nvalid += 1
    flags, match = [-1] * n, [-1] * n
    if nvalid == 0:
        return flags, match
    iou = pair_iou(anchors.double(), label[:nvalid, 1:5].double()).float().tolist()
    best = [-1.0] * n
    gt_done = [False] * nvalid
    npos = 0
    while not all(gt_done):
        ba, bg, mo = -1, -1, 1e-6
        for j in range(n):
            if flags[j] == 1:
                continue
            row = iou[j]
            for k in range(nvalid):
                if not gt_done[k] and row[k] > mo:
                    ba, bg, mo = j, k, row[k]
        if ba == -1:
            break
        best[ba], match[ba] = mo, bg
        npos += 1
        gt_done[bg] = True
        flags[ba] = 1
    if a["overlap_threshold"] > 0:
        for j in range(n):
            if flags[j] == 1:
                continue
            row = iou[j]
            k = max(range(nvalid), key=lambda i: (row[i], -i))
            best[j], match[j] = row[k], k
            if row[k] > a["overlap_threshold"]:
                npos += 1
                gt_done[k] = True
                flags[j] = 1
    if a["negative_mining_ratio"] > 0:
        if a["negative_mining_thresh"] <= 0:
            raise op_error("_contrib_MultiBoxTarget", "negative_mining_thresh must be > 0")
        # MXNet's CPU kernel ignores minimum_negative_samples (only its GPU kernel reads it)
        nneg = int(npos * a["negative_mining_ratio"])
        nneg = min(nneg, n - npos)
        if nneg > 0:
            prob = torch.softmax(cls_pred.double(), dim=0)[0].tolist()
            cand = []
            for j in range(n):
                if flags[j] == 1:
                    continue
                if best[j] < 0:
                    row = iou[j]
                    k = max(range(nvalid), key=lambda i: (row[i], -i))
                    best[j], match[j] = row[k], k
                if best[j] < a["negative_mining_thresh"] and flags[j] == -1:
                    cand.append((-prob[j], j))
            cand.sort(key=lambda t: -t[0])  # stable: hardest negatives first
            for _, j in cand[:nneg]:
                flags[j] = 0
    else:
        flags = [f if f == 1 else 0 for f in flags]
    return flags, match


def _target(a: dict, anchor: torch.Tensor, label: torch.Tensor, cls_pred: torch.Tensor):
    op = "_contrib_MultiBoxTarget"
    if anchor.dim() != 3 or anchor.shape[-1] != 4 or label.dim() != 3 or label.shape[-1] < 5 \
            or cls_pred.dim() != 3 or cls_pred.shape[2] != anchor.shape[1]:
        raise op_error(op, f"bad shapes: anchor {fmt_shape(anchor.shape)} (1, N, 4), label "
                           f"{fmt_shape(label.shape)} (B, M, >=5), cls_pred "
                           f"{fmt_shape(cls_pred.shape)} (B, C, N)")
    if len(a["variances"]) != 4:
        raise op_error(op, "Variance size must be 4")
    b, n = label.shape[0], anchor.shape[1]
    if anchor.device.type == "meta":
        return (anchor.new_empty((b, n * 4)), anchor.new_empty((b, n * 4)),
                anchor.new_empty((b, n)))
    anc = anchor.detach().reshape(-1, 4)
    loc_t = torch.zeros((b, n, 4), dtype=anchor.dtype, device=anchor.device)
    loc_m = torch.zeros_like(loc_t)
    cls_t = torch.full((b, n), a["ignore_label"], dtype=anchor.dtype, device=anchor.device)
    for i in range(b):
        lab = label[i].detach()
        flags, match = _match_one(a, anc, lab, cls_pred[i].detach())
        ft = torch.tensor(flags, device=anchor.device)
        pos = torch.nonzero(ft == 1).reshape(-1)
        cls_t[i][ft == 0] = 0
        if pos.numel():
            m = torch.tensor(match, device=anchor.device)[pos]
            cls_t[i][pos] = lab[m, 0].to(anchor.dtype) + 1
            loc_m[i][pos] = 1
            loc_t[i][pos] = _encode(anc[pos], lab[m, 1:5].to(anchor.dtype),
                                    a["variances"]).to(anchor.dtype)
    return loc_t.reshape(b, n * 4), loc_m.reshape(b, n * 4), cls_t


register(OpDef(
    "_contrib_MultiBoxTarget", zero_grad(_target),
    inputs=("anchor", "label", "cls_pred"),
    outputs=("loc_target", "loc_mask", "cls_target"),
    params=[Param("overlap_threshold", "float", 0.5, doc="Anchor-GT overlap threshold to be "
                  "regarded as a positive match."),
            Param("ignore_label", "float", -1.0, doc="Label for ignored anchors."),
            Param("negative_mining_ratio", "float", -1.0, doc="Max negative to positive "
                  "samples ratio, use -1 to disable mining"),
            Param("negative_mining_thresh", "float", 0.5, doc="Threshold used for negative "
                  "mining."),
            Param("minimum_negative_samples", "int", 0, doc="Minimum number of negative "
                  "samples."),
            _VAR],
    doc="SSD training targets: (loc_target, loc_mask, cls_target) from anchors, labels "
        "(B, M, [cls, x1, y1, x2, y2], -1 padded) and class predictions.\n\n"
        "Example: ``t, m, c = mx.nd.contrib.MultiBoxTarget(anchors, labels, cls_preds)``"))


# ---------------------------------------------------------------------------------------
# MultiBoxDetection


def _decode(anchor: torch.Tensor, loc: torch.Tensor, clip: bool, var) -> torch.Tensor:
    aw, ah = anchor[:, 2] - anchor[:, 0], anchor[:, 3] - anchor[:, 1]
    ax, ay = (anchor[:, 0] + anchor[:, 2]) / 2, (anchor[:, 1] + anchor[:, 3]) / 2
    ox, oy = loc[:, 0] * var[0] * aw + ax, loc[:, 1] * var[1] * ah + ay
    ow, oh = torch.exp(loc[:, 2] * var[2]) * aw / 2, torch.exp(loc[:, 3] * var[3]) * ah / 2
    out = torch.stack([ox - ow, oy - oh, ox + ow, oy + oh], -1)
    return out.clamp(0, 1) if clip else out


def _overlap(p: list, q: list) -> float:
    w = max(0.0, min(p[2], q[2]) - max(p[0], q[0]))
    h = max(0.0, min(p[3], q[3]) - max(p[1], q[1]))
    i = w * h
    u = (p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - i
    return 0.0 if u <= 0 else i / u


def _detect_one(a: dict, prob: torch.Tensor, loc: torch.Tensor, anc: torch.Tensor) -> list:
    c, n = prob.shape
    rest = prob[1:]
    score, idx = (rest.max(0) if c > 1 else (torch.full((n,), -1.0), torch.zeros(n,
                                                                                 dtype=torch.long)))
    cls_id = idx + 1 if c > 1 else idx
    cls_id = torch.where(score < a["threshold"], torch.zeros_like(cls_id), cls_id)
    boxes = _decode(anc, loc.reshape(n, 4), a["clip"], a["variances"])
    rows = torch.cat([(cls_id - 1).to(boxes.dtype)[:, None], score[:, None].to(boxes.dtype),
                      boxes], 1).tolist()
    out = [r for r in rows if r[0] >= 0]
    valid = len(out)
    out += [[-1.0] * 6 for _ in range(n - valid)]
    thr = a["nms_threshold"]
    if valid < 1 or thr <= 0 or thr > 1:
        return out
    order = sorted(range(valid), key=lambda i: -out[i][1])  # stable
    tmp = [list(r) for r in out[:valid]]
    nkeep = valid
    if 0 < a["nms_topk"] < nkeep:
        nkeep = a["nms_topk"]
        for i in range(nkeep, valid):
            out[i][0] = -1.0
    for i in range(nkeep):
        out[i] = list(tmp[order[i]])
    for i in range(nkeep):
        if out[i][0] < 0:
            continue
        for j in range(i + 1, nkeep):
            if out[j][0] < 0:
                continue
            if a["force_suppress"] or out[i][0] == out[j][0]:
                if _overlap(out[i][2:], out[j][2:]) >= thr:
                    out[j][0] = -1.0
    return out


def _detection(a: dict, cls_prob: torch.Tensor, loc_pred: torch.Tensor,
               anchor: torch.Tensor) -> torch.Tensor:
    op = "_contrib_MultiBoxDetection"
    if cls_prob.dim() != 3 or loc_pred.dim() != 2 or anchor.dim() != 3 \
            or loc_pred.shape[1] != cls_prob.shape[2] * 4 \
            or anchor.shape[1] != cls_prob.shape[2]:
        raise op_error(op, f"bad shapes: cls_prob {fmt_shape(cls_prob.shape)} (B, C, N), "
                           f"loc_pred {fmt_shape(loc_pred.shape)} (B, N*4), anchor "
                           f"{fmt_shape(anchor.shape)} (1, N, 4)")
    if len(a["variances"]) != 4:
        raise op_error(op, "Variance size must be 4")
    b, n = cls_prob.shape[0], cls_prob.shape[2]
    if cls_prob.device.type == "meta":
        return cls_prob.new_empty((b, n, 6))
    anc = anchor.detach().reshape(-1, 4).cpu()
    res = [_detect_one(a, cls_prob[i].detach().cpu(), loc_pred[i].detach().cpu(), anc)
           for i in range(b)]
    return torch.tensor(res, dtype=cls_prob.dtype).reshape(b, n, 6).to(cls_prob.device)


register(OpDef(
    "_contrib_MultiBoxDetection", zero_grad(_detection),
    inputs=("cls_prob", "loc_pred", "anchor"),
    params=[Param("clip", "bool", True, doc="Clip out-of-boundary boxes."),
            Param("threshold", "float", 0.01, doc="Threshold to be a positive prediction."),
            Param("background_id", "int", 0, doc="Background id."),
            Param("nms_threshold", "float", 0.5, doc="Non-maximum suppression threshold."),
            Param("force_suppress", "bool", False, doc="Suppress all detections regardless of "
                  "class_id."),
            _VAR,
            Param("nms_topk", "int", -1, doc="Keep maximum top k detections before nms, -1 for "
                  "no limit.")],
    doc="Convert SSD predictions into detections (B, N, [id, score, x1, y1, x2, y2]) with "
        "non-maximum suppression; suppressed rows get id -1.\n\n"
        "Example: ``mx.nd.contrib.MultiBoxDetection(cls_prob, loc_pred, anchors)``"))
