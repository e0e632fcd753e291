"""Region proposal operators of Faster R-CNN: ``_contrib_Proposal`` (one image) and
``_contrib_MultiProposal`` (a batch). Forward only: MXNet's backward writes zeros.

Anchors are generated per feature-map cell from ``scales`` x ``ratios`` around a
``feature_stride``-sized base box, shifted by the RPN deltas, clipped to the image, filtered
by ``rpn_min_size``, sorted by foreground score and reduced by NMS. Outputs are ``rois``
(``[batch_index, x1, y1, x2, y2]``) and, with ``output_score``, their scores.

Example: ``rois = mx.nd.contrib.Proposal(cls_prob, bbox_pred, im_info, feature_stride=16)``
"""

from __future__ import annotations

import math

import numpy as np
import torch

from ._detection import zero_grad
from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, op_error
from ._state import state

__all__: list[str] = []


def _anchors(stride: int, ratios, scales) -> torch.Tensor:
    """Base anchors (A, 4), ratio-major, as the py-faster-rcnn generator."""
    w = h = float(stride)
    cx = cy = 0.5 * (stride - 1.0)
    out = []
    for r in ratios:
        for s in scales:
            size_r = math.floor(w * h / r)
            nw = math.floor(math.sqrt(size_r) + 0.5) * s
            nh = math.floor(nw / s * r + 0.5) * s
            out.append([cx - 0.5 * (nw - 1), cy - 0.5 * (nh - 1),
                        cx + 0.5 * (nw - 1), cy + 0.5 * (nh - 1)])
    return torch.tensor(out, dtype=torch.float32)


def _nms(dets: torch.Tensor, thresh: float, limit: int) -> list[int]:
    """Greedy NMS over score-sorted ``dets``: each kept box suppresses the later ones."""
    d = dets.detach().to(torch.float32).cpu().numpy()
    x1, y1, x2, y2 = d[:, 0], d[:, 1], d[:, 2], d[:, 3]
    area = (x2 - x1 + 1) * (y2 - y1 + 1)
    alive = np.ones(d.shape[0], dtype=bool)
    keep: list[int] = []
    for i in range(d.shape[0]):
        if len(keep) >= limit:
            break
        if not alive[i]:
            continue
        keep.append(i)
        w = np.minimum(x2[i], x2[i + 1:]) - np.maximum(x1[i], x1[i + 1:]) + 1
        h = np.minimum(y2[i], y2[i + 1:]) - np.maximum(y1[i], y1[i + 1:]) + 1
        inter = np.clip(w, 0, None) * np.clip(h, 0, None)
        alive[i + 1:] &= ~(inter / (area[i] + area[i + 1:] - inter) > thresh)
    return keep


def _one_image(a: dict, score: torch.Tensor, deltas: torch.Tensor,
               info: list[float]) -> tuple[torch.Tensor, torch.Tensor]:
    """score (A, H, W) foreground probabilities, deltas (4A, H, W) -> rois (P, 4), scores."""
    na, hh, ww = score.shape
    stride = a["feature_stride"]
    base = _anchors(stride, a["ratios"], a["scales"])
    if base.shape[0] != na:
        raise op_error("_contrib_Proposal", f"cls_prob has {na} anchors per cell but "
                                            f"len(ratios) * len(scales) = {base.shape[0]}")
    sy = torch.arange(hh, dtype=torch.float32)[:, None, None] * stride
    sx = torch.arange(ww, dtype=torch.float32)[None, :, None] * stride
    zero = torch.zeros((hh, ww, na))
    anc = torch.stack([base[:, 0] + sx + zero, base[:, 1] + sy + zero,
                       base[:, 2] + sx + zero, base[:, 3] + sy + zero],
                      -1).reshape(-1, 4)  # index (h, w, a)
    sc = score.permute(1, 2, 0).reshape(-1).clone()
    d = deltas.reshape(na, 4, hh, ww).permute(2, 3, 0, 1).reshape(-1, 4)
    im_h, im_w, im_scale = info[0], info[1], info[2]
    if a["iou_loss"]:
        box = anc + d
    else:
        bw = anc[:, 2] - anc[:, 0] + 1
        bh = anc[:, 3] - anc[:, 1] + 1
        cx = anc[:, 0] + 0.5 * (bw - 1)
        cy = anc[:, 1] + 0.5 * (bh - 1)
        pcx, pcy = d[:, 0] * bw + cx, d[:, 1] * bh + cy
        pw, ph = torch.exp(d[:, 2]) * bw, torch.exp(d[:, 3]) * bh
        box = torch.stack([pcx - 0.5 * (pw - 1), pcy - 0.5 * (ph - 1),
                           pcx + 0.5 * (pw - 1), pcy + 0.5 * (ph - 1)], -1)
    lim = torch.tensor([im_w - 1, im_h - 1, im_w - 1, im_h - 1], dtype=torch.float32)
    box = torch.minimum(box, lim).clamp(min=0)
    real_h, real_w = int(im_h / stride), int(im_w / stride)
    cell_h = torch.arange(hh)[:, None, None].expand(hh, ww, na).reshape(-1)
    cell_w = torch.arange(ww)[None, :, None].expand(hh, ww, na).reshape(-1)
    sc[(cell_h >= real_h) | (cell_w >= real_w)] = -1
    min_size = a["rpn_min_size"] * im_scale
    small = ((box[:, 2] - box[:, 0] + 1) < min_size) | ((box[:, 3] - box[:, 1] + 1) < min_size)
    grow = torch.tensor([-1, -1, 1, 1], dtype=torch.float32) * (min_size / 2)
    box = torch.where(small[:, None], box + grow, box)
    sc[small] = -1
    count = sc.numel()
    pre = a["rpn_pre_nms_top_n"]
    pre = min(pre if pre > 0 else count, count)
    post = min(a["rpn_post_nms_top_n"], pre)
    order = torch.sort(sc, descending=True, stable=True).indices[:pre]
    dets = box[order]
    keep = _nms(dets, a["threshold"], post)
    if not keep:
        raise op_error("_contrib_Proposal", "no proposal survived")
    idx = torch.tensor([keep[i % len(keep)] for i in range(a["rpn_post_nms_top_n"])])
    return dets[idx], sc[order][idx]


def _proposal(multi: bool):
    op = "_contrib_MultiProposal" if multi else "_contrib_Proposal"

    def compute(a: dict, cls_prob: torch.Tensor, bbox_pred: torch.Tensor,
                im_info: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if cls_prob.dim() != 4 or bbox_pred.dim() != 4 or cls_prob.shape[1] % 2 \
                or bbox_pred.shape[1] != 2 * cls_prob.shape[1] or im_info.dim() != 2:
            raise op_error(op, f"bad shapes: cls_prob {fmt_shape(cls_prob.shape)} (N, 2A, H, "
                               f"W), bbox_pred {fmt_shape(bbox_pred.shape)} (N, 4A, H, W), "
                               f"im_info {fmt_shape(im_info.shape)} (N, 3)")
        n = cls_prob.shape[0]
        if not multi and n != 1:
            raise op_error(op, "Sorry, multiple images each device is not implemented.")
        post = a["rpn_post_nms_top_n"]
        dt, dev = cls_prob.dtype, cls_prob.device
        if cls_prob.device.type == "meta":
            return (cls_prob.new_empty((n * post, 5)), cls_prob.new_empty((n * post, 1)))
        na = cls_prob.shape[1] // 2
        rois, scores = [], []
        for b in range(n):
            box, sc = _one_image(a, cls_prob[b, na:].float().cpu(), bbox_pred[b].float().cpu(),
                                 im_info[b].float().tolist())
            bcol = torch.full((box.shape[0], 1), float(b))
            rois.append(torch.cat([bcol, box], 1))
            scores.append(sc[:, None])
        return (torch.cat(rois).to(dev, dt), torch.cat(scores).to(dev, dt))

    return compute


_PARAMS = [
    Param("rpn_pre_nms_top_n", "int", 6000, doc="Number of top scoring boxes to keep before "
          "applying NMS to RPN proposals"),
    Param("rpn_post_nms_top_n", "int", 300, doc="Number of top scoring boxes to keep after "
          "applying NMS to RPN proposals"),
    Param("threshold", "float", 0.7, doc="NMS value, below which to suppress."),
    Param("rpn_min_size", "int", 16, doc="Minimum height or width in proposal"),
    Param("scales", "float_seq", (4.0, 8.0, 16.0, 32.0), doc="Used to generate anchor windows "
          "by enumerating scales"),
    Param("ratios", "float_seq", (0.5, 1.0, 2.0), doc="Used to generate anchor windows by "
          "enumerating ratios"),
    Param("feature_stride", "int", 16, doc="The size of the receptive field each unit in the "
          "convolution layer of the rpn,for example the product of all stride's prior to this "
          "layer."),
    Param("output_score", "bool", False, doc="Add score to outputs"),
    Param("iou_loss", "bool", False, doc="Usage of IoU Loss"),
]


def _zero_or_no_grad(fn):
    """Zero gradients under ``autograd.record``; in a bound executor the outputs carry no
    gradient at all, so (as in MXNet) any head gradient, whatever its shape, is ignored."""
    recorded = zero_grad(fn)

    def compute(a: dict, *tensors: torch.Tensor):
        if state.is_recording:
            return recorded(a, *tensors)
        with torch.no_grad():
            return fn(a, *[t.detach() for t in tensors])

    return compute


for _name, _multi in (("_contrib_Proposal", False), ("_contrib_MultiProposal", True)):
    register(OpDef(_name, _zero_or_no_grad(_proposal(_multi)),
                   inputs=("cls_prob", "bbox_pred", "im_info"), params=_PARAMS,
                   outputs=("output", "score"),
                   num_visible=lambda a: 2 if a["output_score"] else 1,
                   doc="Generate region proposals (Faster R-CNN RPN) from anchor scores and "
                       "box deltas" + (" for a batch of images." if _multi else " for one image.")
                       + "\n\nExample: ``mx.nd.contrib." + _name[9:] + "(cls_prob, bbox_pred, "
                       "im_info, rpn_post_nms_top_n=300)``"))
