"""Loss outputs with MXNet's own gradients, plus smooth_l1 and CTCLoss.

``SoftmaxOutput``, the ``*RegressionOutput`` family and ``MakeLoss`` ignore the incoming head
gradient (unless ``out_grad``) and return the gradient of their implied loss, scaled as MXNet
does; their label inputs receive a zero gradient.
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


class _FixedGrad(torch.autograd.Function):
    """Forward ``fn(data, label) -> (out, grad)``; backward returns ``grad`` for data whatever
    the head gradient, and zeros for the label."""

    ignores_head = True  # see _apply.reaches_head_ignoring

    @staticmethod
    def forward(ctx, data, label, fn):
        out, grad = fn(data, label)
        ctx.save_for_backward(grad)
        ctx.label_meta = None if label is None else (label.shape, label.dtype)
        return out

    @staticmethod
    def backward(ctx, head):
        (grad,) = ctx.saved_tensors
        lg = None
        if ctx.label_meta is not None and ctx.needs_input_grad[1]:
            shape, dtype = ctx.label_meta
            lg = torch.zeros(shape, dtype=dtype, device=grad.device)
        return grad, lg, None


def _run(fn, data, label=None):
    needs = torch.is_grad_enabled() and (data.requires_grad or (
        label is not None and label.requires_grad))
    if not needs:
        return fn(data, label, grad=False)[0]
    return _FixedGrad.apply(data, label, lambda d, lab: fn(d, lab, grad=True))


# ---------------------------------------------------------------------------------------
# SoftmaxOutput


_TYPE_NAMES = {torch.float16: "float16", torch.float32: "float32", torch.float64: "float64",
               torch.uint8: "uint8", torch.int8: "int8", torch.int32: "int32",
               torch.int64: "int64", torch.bool: "bool", torch.bfloat16: "bfloat16"}


def _uniform_type_error(label_dtype, data_dtype) -> MXNetError:
    return MXNetError(f"Error in operator SoftmaxOutput: This layer requires uniform type. "
                      f"Expected '{_TYPE_NAMES.get(data_dtype, data_dtype)}' v.s. given "
                      f"'{_TYPE_NAMES.get(label_dtype, label_dtype)}' at 'label'")


def _softmax_output(a, data, label):
    if label.dtype != data.dtype:  # MXNet 1.9.1's type check
        raise _uniform_type_error(label.dtype, data.dtype)
    n = data.shape[0]
    multi, keep = a["multi_output"], a["preserve_shape"]

    def fn(x, lab, grad):
        if multi:
            c = x.shape[1]
            xs = x.reshape(n, c, -1)
            p = torch.softmax(xs, 1)
            lab2 = lab.reshape(n, -1)
            axis = 1
        elif keep:
            c = x.shape[-1]
            p = torch.softmax(x, -1)
            lab2 = lab
            axis = -1
        else:
            xs = x.reshape(n, -1)
            c = xs.shape[1]
            p = torch.softmax(xs, 1)
            lab2 = lab.reshape(-1)
            axis = 1
        out = p.reshape(x.shape)
        if not grad:
            return out, None
        if lab.shape == x.shape:  # probability labels: a label shaped like the data
            # (MXNet applies grad_scale but no normalization here)
            return out, (out - lab.reshape(x.shape).to(out.dtype)) * a["grad_scale"]
        if not (multi or keep):
            if lab2.shape[0] < n:
                raise MXNetError(f"SoftmaxOutput: label shape {tuple(lab.shape)} does not "
                                 f"match data shape {tuple(x.shape)} (expected ({n},))")
            # MXNet reads the first n labels (a label shaped like data.shape[:-1] works)
            lab2 = lab2[:n]
        idx = lab2.long()
        valid = lab2 != a["ignore_label"]
        onehot = F.one_hot(idx.clamp(0, c - 1), c).to(p.dtype)
        # a label outside [0, c) picks no class (MXNet: the gradient is the softmax itself)
        onehot = onehot * ((idx >= 0) & (idx < c)).unsqueeze(-1).to(p.dtype)
        if axis == 1 and multi:
            onehot = onehot.movedim(-1, 1)
        alpha = 0.0 if multi else a["smooth_alpha"]  # MXNet smooths no multi_output labels
        if alpha:
            onehot = onehot * (1 - alpha) + (1 - onehot) * (alpha / (c - 1))
        g = p - onehot
        if a["use_ignore"]:  # ignored rows get +0 (a product would leave -0.0)
            g = torch.where(valid.unsqueeze(axis), g, 0.0)
        scale = a["grad_scale"]
        norm = a["normalization"]
        if norm == "batch":
            g = g * (scale / lab2.numel())
        elif norm == "valid":
            g = g * (scale / valid.sum().to(g.dtype).clamp_min(1))
        elif multi:
            g = g * (scale / lab2.shape[1])
        elif scale != 1:
            g = g * scale
        if a["out_grad"]:
            g = g * p  # MXNet 1.9.1 scales by the softmax output here, not the head gradient
        return out, g.reshape(x.shape)

    return _run(fn, data, label)


def _softmax_output_shape(a, s):
    d = s[0]
    if d is not None and s[1] is not None and tuple(s[1]) == tuple(d):
        return s  # a label shaped like the data holds class probabilities
    if d is not None:
        if a["multi_output"]:
            # MXNet 1.9.1 takes (N, H*W...), (N, H, W...) or (N, 1, H, W...) labels
            spatial = tuple(d[2:])
            if s[1] is not None and tuple(s[1]) in ((d[0], *spatial), (d[0], 1, *spatial)):
                return s
            fill(s, 1, (d[0], math.prod(spatial)))
        else:
            fill(s, 1, tuple(d[:-1]))
    return s


def _softmax_output_type(a, ins):
    """The output (and an unknown label) take the data's dtype; MXNet decides nothing from
    the label alone."""
    d = ins[0]
    if d is None:
        return list(ins), [None]
    if len(ins) > 1 and ins[1] is not None and ins[1] != d:
        raise MXNetError(f"This layer requires uniform type. Expected '{d}' v.s. given "
                         f"'{ins[1]}' at 'label'")
    return [d] + [d if t is None else t for t in ins[1:]], [d]


register(OpDef(
    "SoftmaxOutput", _softmax_output, inputs=("data", "label"), aliases=("Softmax",),
    params=[Param("grad_scale", "float", 1.0, doc="Scales the gradient by a float factor."),
            Param("ignore_label", "float", -1.0,
                  doc="The instances whose labels == ignore_label will be ignored."),
            Param("multi_output", "bool", False,
                  doc="Softmax over axis 1 with n x k x x_1 ... x_n input."),
            Param("use_ignore", "bool", False, doc="Whether to ignore ignore_label."),
            Param("preserve_shape", "bool", False, doc="Softmax over the last axis."),
            Param("normalization", "enum", "null", choices=["batch", "null", "valid"],
                  doc="Normalizes the gradient."),
            Param("out_grad", "bool", False, doc="Multiplies gradient with output gradient."),
            Param("smooth_alpha", "float", 0.0, doc="Label smoothing constant.")],
    infer_shape=_softmax_output_shape, infer_out=lambda a, s: [tuple(s[0])],
    infer_type=_softmax_output_type,
    doc="Softmax forward; backward gives the cross-entropy gradient (softmax - onehot(label)) "
        "scaled by grad_scale and the normalization.\n\n"
        "Example: ``mx.nd.SoftmaxOutput(x, label)``"))

# ---------------------------------------------------------------------------------------
# regression outputs


def _regression(kind: str):
    def compute(a, data, label):
        def fn(x, lab, grad):
            out = torch.sigmoid(x) if kind == "logistic" else x.clone()
            if not grad:
                return out, None
            lab = lab.reshape(out.shape).to(out.dtype)
            num_output = lab.numel() // lab.shape[0] if lab.dim() else 1
            diff = out - lab
            if kind == "mae":  # MXNet: +1 where out > label, else -1 (ties and NaN too)
                g = torch.where(diff > 0, 1.0, -1.0).to(diff.dtype)
            else:
                g = diff
            return out, g * (a["grad_scale"] / max(num_output, 1))

        return _run(fn, data, label)

    return compute


def _regression_shape(a, s):
    d, lab = s[0], s[1]
    if d is not None and lab is not None and 0 not in d and 0 not in lab \
            and len(lab) != len(d) and lab[:1] == d[:1] and math.prod(lab) == math.prod(d):
        return s  # like MXNet: any label with the batch size and the element count of data
    if d is not None:
        # a (N, 1) output takes a 1-D label by default, as in MXNet
        fill(s, 1, (d[0],) if len(d) == 2 and d[1] == 1 and lab is None else d)
    elif lab is not None:
        s[0] = lab
    return s


for _name, _kind, _doc in (
        ("LinearRegressionOutput", "linear", "identity; gradient (out - label)"),
        ("LogisticRegressionOutput", "logistic", "sigmoid; gradient (out - label)"),
        ("MAERegressionOutput", "mae", "identity; gradient sign(out - label)")):
    register(OpDef(
        _name, _regression(_kind), inputs=("data", "label"), aliases=(f"_sparse_{_name}",),
        params=[Param("grad_scale", "float", 1.0, doc="Scale the gradient by a float factor")],
        infer_shape=_regression_shape,
        doc=f"Regression output layer: forward {_doc} * grad_scale / num_output.\n\n"
            f"Example: ``mx.nd.{_name}(x, label)``"))

# ---------------------------------------------------------------------------------------
# MakeLoss


def _make_loss(a, data):
    def fn(x, lab, grad):
        out = x.clone()
        if not grad:
            return out, None
        scale = a["grad_scale"]
        if a["normalization"] == "batch":
            g = torch.full_like(x, scale / x.shape[0])
        elif a["normalization"] == "valid":
            cnt = (x > a["valid_thresh"]).sum().to(x.dtype).clamp_min(1)
            g = torch.ones_like(x) * (scale / cnt)
        else:
            g = torch.full_like(x, scale)
        return out, g

    return _run(fn, data)


register(OpDef(
    "MakeLoss", _make_loss,
    params=[Param("grad_scale", "float", 1.0, doc="Gradient scale as a supplement to unary "
                  "and binary operators"),
            Param("valid_thresh", "float", 0.0, doc="Clip each element in the array to 0 when "
                  "it is less than valid_thresh."),
            Param("normalization", "enum", "null", choices=["batch", "null", "valid"],
                  doc="How to normalize the gradient.")],
    infer_shape=lambda a, s: s,
    doc="Mark the input as a loss: its gradient is grad_scale (normalized) whatever the head "
        "gradient.\n\nExample: ``mx.nd.MakeLoss(loss)``"))

# ---------------------------------------------------------------------------------------
# smooth_l1


def _smooth_l1(a, x):
    s2 = a["scalar"] ** 2
    ax = x.abs()
    return torch.where(ax < 1.0 / s2, 0.5 * s2 * x * x, ax - 0.5 / s2)


register(OpDef(
    "smooth_l1", _smooth_l1, aliases=("_npx_smooth_l1",), infer_shape=lambda a, s: s,
    infer_out=lambda a, s: [tuple(s[0])],
    params=[Param("scalar", "float", 1.0, doc="scalar input (sigma)")],
    doc="Smooth L1 loss: 0.5 (sigma x)^2 if |x| < 1/sigma^2 else |x| - 0.5/sigma^2.\n\n"
        "Example: ``mx.nd.smooth_l1(x, scalar=1.0)``"))

# ---------------------------------------------------------------------------------------
# CTCLoss


def _lengths_from_padding(label: torch.Tensor, pad: int) -> torch.Tensor:
    keep = (label != pad).to(torch.long).cumprod(1)
    return keep.sum(1)


def _ctc(a, data, label, *rest):
    rest = list(rest)
    t, n, c = data.shape
    dl = rest.pop(0) if a["use_data_lengths"] else None
    ll = rest.pop(0) if a["use_label_lengths"] else None
    first = a["blank_label"] == "first"
    blank = 0 if first else c - 1
    lab = label.long()
    in_len = dl.long() if dl is not None else torch.full((n,), t, dtype=torch.long,
                                                          device=data.device)
    tgt_len = ll.long() if ll is not None else _lengths_from_padding(lab, 0 if first else -1)
    if data.device.type == "meta":
        return data.new_empty((n,))
    x = data.float() if data.dtype == torch.float16 else data
    if dl is not None:  # steps past a sequence's length (may hold NaN) get a zero gradient
        steps = torch.arange(t, device=data.device)[:, None] < in_len[None, :]
        x = torch.where(steps[:, :, None], x, torch.zeros((), dtype=x.dtype, device=x.device))
    logp = torch.log_softmax(x, 2)
    loss = F.ctc_loss(logp, lab.clamp_min(0), in_len, tgt_len, blank=blank,
                      reduction="none", zero_infinity=False)
    return loss.to(data.dtype)


def _ctc_inputs(a):
    names = ["data", "label"]
    if a["use_data_lengths"]:
        names.append("data_lengths")
    if a["use_label_lengths"]:
        names.append("label_lengths")
    return names


def _ctc_shape(a, s):
    if s[0] is not None and len(s) > 2 and a["use_data_lengths"]:
        fill(s, 2, (s[0][1],))
    return s


register(OpDef(
    "CTCLoss", _ctc, inputs=("data", "label", "data_lengths", "label_lengths"),
    active_inputs=_ctc_inputs, outputs=("output0",),
    aliases=("ctc_loss", "_contrib_CTCLoss", "_contrib_ctc_loss"),
    params=[Param("use_data_lengths", "bool", False,
                  doc="Whether the data lenghts are decided by `data_lengths`."),
            Param("use_label_lengths", "bool", False,
                  doc="Whether the label lenghts are decided by `label_lengths`."),
            Param("blank_label", "enum", "first", choices=["first", "last"],
                  doc="Set the label that is reserved for blank label.")],
    infer_shape=_ctc_shape, infer_out=lambda a, s: [(s[0][1],)],
    doc="Connectionist Temporal Classification loss over (T, N, C) activations (softmax is "
        "applied inside).\n\nExample: ``mx.nd.CTCLoss(x, label)``"))
