"""Basic neural-network operators: FullyConnected, Activation, LeakyReLU, Dropout, Embedding.

Kernels are thin wrappers over ``torch.nn.functional``; gradients come from torch autograd.
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from ..base import MXNetError
from . import _relu
from ._params import Param
from ._registry import OpDef, register
from ._shape_rules import same_out, same_type
from ._state import state
from ._tanh import tanh as fast_tanh

__all__: list[str] = []


def fill(shapes: list, i: int, shape) -> None:
    """Set ``shapes[i]`` to ``shape`` when unknown; check it when known."""
    if i >= len(shapes):
        return
    shape = tuple(int(d) for d in shape)
    old = shapes[i]
    if old is None:
        shapes[i] = shape
        return
    old = tuple(old)
    if old == shape:
        return
    # partially known (0 = unknown dim, as in Gluon's deferred initialization)
    if len(old) == len(shape) and all(o in (0, n) for o, n in zip(old, shape)):
        shapes[i] = shape
        return
    raise MXNetError(
        f"Shape inconsistent, Provided = [{','.join(map(str, old))}], inferred shape="
        f"({','.join(map(str, shape))}{',' if len(shape) == 1 else ''}) (input {i})"
    )


def no_bias_inputs(names=("data", "weight", "bias")):
    """``active_inputs`` that drops ``bias`` when ``no_bias`` is set."""
    with_bias, without = list(names), [n for n in names if n != "bias"]
    return lambda a: without if a["no_bias"] else with_bias


# ---------------------------------------------------------------------------------------
# FullyConnected


def _fc(a, x, w, b=None):
    x_shape = x.shape
    if a["flatten"]:  # explicit size: reshape(n, -1) is ambiguous for a zero-size batch
        x = x.reshape(x.shape[0], math.prod(x.shape[1:]))
    k = x.shape[-1] if x.dim() else 1
    if w.dim() != 2 or w.shape[0] != a["num_hidden"] or w.shape[1] != k:
        # MXNet's shape check of the weight against the data (a Dense layer fed inputs of
        # another width than the one it was initialized with)
        raise MXNetError(
            f"Shape inconsistent, Provided = [{','.join(map(str, w.shape))}], "
            f"inferred shape=({a['num_hidden']},{k}) (FullyConnected weight for "
            f"data of shape {tuple(x_shape)})"
        )
    if b is not None and b.dim() == 2 and b.shape[1] == 1:
        b = b.reshape(-1)  # MXNet also takes a (num_hidden, 1) bias
    return F.linear(x, w, b)


def _fc_shape(a, s):
    d = s[0]
    if d is None:  # MXNet 1.9.1 infers nothing here until the data shape is known
        return s
    k = math.prod(d[1:]) if a["flatten"] else d[-1]
    fill(s, 1, (a["num_hidden"], k))
    if not a["no_bias"]:
        nh = a["num_hidden"]
        if len(s) < 3 or s[2] is None or tuple(s[2]) != (nh, 1):  # (num_hidden, 1) also accepted
            fill(s, 2, (nh,))
    return s


def _fc_out(a, s):
    """Output shape without meta tracing (addmm's decomposition would import dynamo)."""
    d = s[0]
    if a["flatten"]:
        return [(d[0], a["num_hidden"])]
    return [tuple(d[:-1]) + (a["num_hidden"],)]


register(
    OpDef(
        "FullyConnected",
        _fc,
        inputs=("data", "weight", "bias"),
        active_inputs=no_bias_inputs(),
        params=[
            Param("num_hidden", "int", doc="Number of hidden nodes of the output."),
            Param("no_bias", "bool", False, doc="Whether to disable bias parameter."),
            Param("flatten", "bool", True, doc="Whether to collapse all but the first axis."),
        ],
        infer_shape=_fc_shape,
        infer_out=_fc_out,
        infer_type=same_type,
        aliases=("_npx_fully_connected", "_sparse_FullyConnected"),
        doc="Applies a linear transformation: Y = XW^T + b.\n\nExample: "
        "``mx.nd.FullyConnected(x, w, b, num_hidden=4)``",
    )
)

# ---------------------------------------------------------------------------------------
# Activation


def _softsign(x):
    return x / (1 + x.abs())


_ACT = {
    "relu": lambda x: _relu.relu(x, keep_nan=False),  # oneDNN's: NaN gives 0
    "sigmoid": torch.sigmoid,
    "tanh": fast_tanh,
    "softrelu": F.softplus,
    "softsign": _softsign,
}


def _same(a, s):
    known = next((x for x in s[:1] if x is not None), None)
    if known is not None:
        s[0] = known
    return s


register(
    OpDef(
        "Activation",
        lambda a, x: _ACT[a["act_type"]](x),
        aliases=("_npx_activation",),
        params=[
            Param("act_type", "enum", choices=list(_ACT), doc="Activation function to be applied.")
        ],
        infer_shape=_same,
        infer_out=same_out,
        infer_type=same_type,
        doc="Element-wise activation function (relu, sigmoid, tanh, softrelu, softsign).\n\n"
        "Example: ``mx.nd.Activation(x, act_type='relu')``",
    )
)

# ---------------------------------------------------------------------------------------
# LeakyReLU

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_LAMBDA = 1.0507009873554804934193349852946


class _Selu(torch.autograd.Function):
    """SELU with MXNet 1.9.1's gradient: ``lambda * (y + alpha)`` for x <= 0 (the
    mathematical one is ``y + lambda * alpha``)."""

    @staticmethod
    def forward(ctx, x):
        y = _SELU_LAMBDA * torch.where(x > 0, x, _SELU_ALPHA * torch.expm1(x))
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * torch.where(
            x > 0, torch.full_like(y, _SELU_LAMBDA), _SELU_LAMBDA * (y + _SELU_ALPHA)
        )


def _leaky(a, x, gamma=None):
    t = a["act_type"]
    slope = a["slope"]
    if x.dtype in (torch.float16, torch.bfloat16):  # MXNet's kernels use DType(slope)
        slope = torch.tensor(slope, dtype=x.dtype).item()
    # the negative branch is chosen by x <= 0 so that NaN takes the identity branch: MXNet's
    # gradient there is 1 (forward NaN either way)
    if t == "leaky":
        out = torch.where(x <= 0, x * slope, x)
    elif t == "prelu":
        if gamma is None:
            raise MXNetError("LeakyReLU: act_type='prelu' needs the gamma input")
        g = gamma
        if x.dim() > 1 and g.dim() == 1 and g.shape[0] != 1:
            g = g.reshape((1, -1) + (1,) * (x.dim() - 2))
        out = torch.where(x > 0, x, x * g)
    elif t == "elu":
        if x.dtype in (torch.float16, torch.bfloat16):
            neg = (torch.expm1(x.clamp(max=0).float()) * slope).to(x.dtype)
            out = torch.where(x <= 0, neg, x)
        else:
            out = torch.where(x <= 0, slope * torch.expm1(x.clamp(max=0)), x)
    elif t == "selu":
        out = _Selu.apply(x)
    elif t == "gelu":
        xf = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x  # one rounding
        out = (0.5 * xf * (1 + torch.erf(xf * (1 / math.sqrt(2))))).to(x.dtype)
    else:  # rrelu
        lo, hi = a["lower_bound"], a["upper_bound"]
        if state.is_train:
            mask = torch.empty_like(x).uniform_(lo, hi)
            return torch.where(x > 0, x, x * mask), mask
        out = torch.where(x > 0, x, x * ((lo + hi) / 2))
        return out, torch.zeros_like(x)
    return out


def _leaky_shape(a, s):
    if a["act_type"] == "prelu" and s[0] is not None and len(s) > 1:
        fill(s, 1, (s[0][1] if len(s[0]) > 1 else 1,))
    return s


register(
    OpDef(
        "LeakyReLU",
        _leaky,
        inputs=("data", "gamma"),
        active_inputs=lambda a: ["data", "gamma"] if a["act_type"] == "prelu" else ["data"],
        outputs=lambda a: ["output", "mask"] if a["act_type"] == "rrelu" else ["output"],
        aliases=("_npx_leaky_relu",),
        params=[
            Param(
                "act_type",
                "enum",
                "leaky",
                choices=["elu", "gelu", "leaky", "prelu", "rrelu", "selu"],
                doc="Activation function to be applied.",
            ),
            Param("slope", "float", 0.25, doc="Init slope for the activation."),
            Param("lower_bound", "float", 0.125, doc="Lower bound of random slope (rrelu)."),
            Param("upper_bound", "float", 0.334, doc="Upper bound of random slope (rrelu)."),
        ],
        infer_shape=_leaky_shape,
        infer_out=lambda a, s: [tuple(s[0])] * (2 if a["act_type"] == "rrelu" else 1),
        doc="Leaky ReLU family: leaky, prelu (learned gamma), elu, selu, gelu, rrelu.\n\n"
        "Example: ``mx.nd.LeakyReLU(x, act_type='leaky', slope=0.1)``",
    )
)

# ---------------------------------------------------------------------------------------
# Dropout


def _mxrng_on() -> bool:
    """Whether MXNet's own CPU random stream is in use (see :mod:`mxnet._mxrng`)."""
    from .. import _mxrng

    return _mxrng.ENABLED


def _dropout(a, x):
    p = a["p"]
    if not (state.is_train or a["mode"] == "always") or p <= 0:
        return x.clone()
    if p >= 1:  # MXNet scales the all-zero mask by 1/(1-p) = inf: NaN outputs and gradients
        return x * math.nan
    axes = a["axes"]
    mshape = list(x.shape)
    for ax in axes:
        mshape[ax] = 1
    if x.device.type == "cpu" and x.dtype in (torch.float32, torch.float64) and _mxrng_on():
        # MXNet's CPU kernels: one uniform per mask element from its parallel stream
        # (mxnet._mxrng), kept when u <= 1 - p (u < 1 - p for the axes mask), scaled by
        # 1 / (1 - p) in float32
        from .. import _mxrng

        pkeep = np.float32(1.0) - np.float32(p)
        n = 1
        for d in mshape:
            n *= d
        # the mask (compare and scale) is made by the native sampler in one pass
        mask = _mxrng.dropout_mask(
            n, np.float32 if x.dtype == torch.float32 else np.float64, pkeep, bool(axes)
        )
        return x * torch.from_numpy(mask).view(mshape).to(x.dtype)
    keep = torch.empty(mshape, dtype=x.dtype, device=x.device).bernoulli_(1 - p)
    return x * keep * (1.0 / (1 - p))


register(
    OpDef(
        "Dropout",
        _dropout,
        aliases=("_npx_dropout",),
        infer_shape=_same,
        infer_out=lambda a, s: [tuple(s[0])],  # no meta tracing (imports torch's compiler)
        params=[
            Param("p", "float", 0.5, doc="Fraction of the input that gets dropped out."),
            Param(
                "mode",
                "enum",
                "training",
                choices=["always", "training"],
                doc="Whether to only turn on dropout during training or always.",
            ),
            Param("axes", "shape", (), doc="Axes for variational dropout kernel."),
            Param("cudnn_off", "bool_or_none", False, doc="Whether to turn off cudnn."),
        ],
        doc="Randomly zero inputs with probability p during training, scaling the rest by "
        "1/(1-p).\n\nExample: ``mx.nd.Dropout(x, p=0.2)``",
    )
)


# ---------------------------------------------------------------------------------------
# Embedding


class _NoIndexGrad(torch.autograd.Function):
    """Identity on the looked-up rows whose backward refuses a gradient for the indices,
    as MXNet 1.9.1's ``Embedding`` (and ``take``-like lookups) do."""

    @staticmethod
    def forward(ctx, out, data):
        return out.view_as(out)

    @staticmethod
    def backward(ctx, g):
        if ctx.needs_input_grad[1]:
            raise MXNetError(
                "Check failed: req[embedding::kData] == kNullOp: "
                "Embedding layer doesn't support calculate data gradient"
            )
        return g, None


def _embedding(a, data, weight):
    want = (a["input_dim"], a["output_dim"])
    if tuple(weight.shape) != want:
        raise MXNetError(
            f"Embedding: Shape inconsistent, Provided = {list(weight.shape)}, "
            f"inferred shape={want} (weight must be (input_dim, output_dim))"
        )
    idx = data.long() if data.is_floating_point() else data.to(torch.long)
    idx = idx.clamp(0, weight.shape[0] - 1)
    out = F.embedding(idx, weight)
    if data.requires_grad:
        return _NoIndexGrad.apply(out, data)
    return out


def _embedding_shape(a, s):
    if s[0] is not None:  # as MXNet 1.9.1: nothing is inferred before the data shape
        fill(s, 1, (a["input_dim"], a["output_dim"]))
    return s


def _embedding_type(a, dts):
    w = dts[1] if len(dts) > 1 and dts[1] is not None else a["dtype"]
    return [dts[0] or "float32", w], [w]


register(
    OpDef(
        "Embedding",
        _embedding,
        inputs=("data", "weight"),
        aliases=("_npx_embedding", "_sparse_Embedding"),
        params=[
            Param("input_dim", "int", doc="Vocabulary size of the input indices."),
            Param("output_dim", "int", doc="Dimension of the embedding vectors."),
            Param(
                "dtype",
                "enum",
                "float32",
                choices=[
                    "bfloat16",
                    "float16",
                    "float32",
                    "float64",
                    "int32",
                    "int64",
                    "int8",
                    "uint8",
                ],
                doc="Data type of weight.",
            ),
            Param(
                "sparse_grad",
                "bool",
                False,
                doc="Compute row_sparse gradient in the backward calculation.",
            ),
        ],
        infer_shape=_embedding_shape,
        infer_type=_embedding_type,
        infer_out=lambda a, s: [tuple(s[0]) + (a["output_dim"],)],
        doc="Maps integer indices to vector representations (embeddings).\n\n"
        "Example: ``mx.nd.Embedding(idx, w, input_dim=10, output_dim=4)``",
    )
)
