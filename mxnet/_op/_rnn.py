"""The fused recurrent operator ``RNN`` (rnn_relu, rnn_tanh, lstm, gru) with MXNet's flat
parameter layout, and ``_rnn_param_concat`` that builds that flat vector.

MXNet's flat ``parameters`` vector holds every weight, then every bias: for each layer, for
each direction (left-to-right, then right-to-left), ``i2h_weight`` (G*H, in) and
``h2h_weight`` (G*H, H); then the ``i2h_bias`` and ``h2h_bias`` (G*H each) in the same order.
Gate orders (LSTM i, f, g, o; GRU r, z, n) equal torch's, so the kernel is torch's fused RNN.
"""

from __future__ import annotations

import math
import os
import warnings

import torch

from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register
from ._state import state

__all__: list[str] = []

_GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}


def _proj(a) -> int | None:
    """The LSTM projection size (LSTMP), or None."""
    return a["projection_size"] if a["mode"] == "lstm" and a["projection_size"] else None


def _layout(a, input_size):
    """[(layer, direction, in_size)] in MXNet's order, and the total parameter count.

    With a projection (LSTMP) each slot's weights are i2h (G*H, in), h2h (G*H, P) and h2r
    (P, H), and the recurrent size is P."""
    G, H, L = _GATES[a["mode"]], a["state_size"], a["num_layers"]
    P = _proj(a)
    R = P or H
    D = 2 if a["bidirectional"] else 1
    slots = []
    for layer in range(L):
        ins = input_size if layer == 0 else R * D
        for d in range(D):
            slots.append((layer, d, ins))
    total = sum(G * H * ins + G * H * R + (P * H if P else 0) for _, _, ins in slots)
    return slots, total + len(slots) * 2 * G * H


def _check(a):
    if _proj(a) is not None and _proj(a) >= a["state_size"]:
        raise MXNetError(
            f"Operator RNN: projection_size ({_proj(a)}) must be smaller than "
            f"state_size ({a['state_size']})"
        )
    # (lstm_state_clip_min/max: MXNet's CPU kernel ignores them; only cuDNN clips)
    # (use_sequence_length: MXNet's CPU kernel runs every step of every sequence, ignoring
    # the lengths; only cuDNN masks)


def _unpack(a, params, input_size):
    """Torch's flat weight list (w_ih, w_hh, b_ih, b_hh[, w_hr] per layer and direction)
    from MXNet's vector (every weight, h2r included, then every bias)."""
    G, H = _GATES[a["mode"]], a["state_size"]
    P = _proj(a)
    R = P or H
    slots, total = _layout(a, input_size)
    if params.numel() != total:
        raise MXNetError(
            f"Operator RNN: parameters has {params.numel()} elements, expected "
            f"{total} for input size {input_size}, state_size {H}, "
            f"num_layers {a['num_layers']}, mode {a['mode']}"
        )
    weights, projs, off = [], [], 0
    for _, _, ins in slots:
        w_ih = params[off : off + G * H * ins].view(G * H, ins)
        off += G * H * ins
        w_hh = params[off : off + G * H * R].view(G * H, R)
        off += G * H * R
        weights.append([w_ih, w_hh])
        if P:
            projs.append(params[off : off + P * H].view(P, H))
            off += P * H
    for w in weights:
        w.append(params[off : off + G * H])
        off += G * H
        w.append(params[off : off + G * H])
        off += G * H
    if P:
        for w, w_hr in zip(weights, projs):
            w.append(w_hr)
    return [t for w in weights for t in w]


def _onednn_rnn(data) -> bool:
    """Whether MXNet 1.9.1 runs this RNN through oneDNN: float32 CPU data unless
    ``MXNET_USE_MKLDNN_RNN=0``. Its oneDNN RNN applies no dropout between the layers (checked
    on MXNet 1.9.1: training outputs with ``p=0.3`` equal those with ``p=0``); its native
    kernel (float64, or the variable set to 0) does."""
    return (
        data.device.type == "cpu"
        and data.dtype == torch.float32
        and os.environ.get("MXNET_USE_MKLDNN_RNN", "1").strip() not in ("0", "false", "False")
    )


def _rnn(a, data, params, state_h, *rest):
    _check(a)
    if data.device.type == "cuda" and (
        a["lstm_state_clip_min"] is not None or a["lstm_state_clip_max"] is not None
    ):
        raise MXNetError(
            "Operator RNN: lstm_state_clip_min/max (cuDNN cell-state clipping) "
            "are not supported on GPU"
        )
    if data.device.type == "cuda" and a["use_sequence_length"]:
        raise MXNetError(
            "Operator RNN: use_sequence_length (cuDNN masking of padded steps) "
            "is not supported on GPU"
        )
    if (
        data.device.type == "cpu"
        and (a["lstm_state_clip_min"] is not None or a["lstm_state_clip_max"] is not None)
        and not _onednn_rnn(data)
    ):
        # MXNet 1.9.1: oneDNN (float32) ignores the clipping; its native kernel refuses it
        raise MXNetError(
            "Operator RNN: LSTM state clipping is only supported for GPU with CuDNN later "
            "than 7.2.1"
        )
    mode = a["mode"]
    flat = _unpack(a, params, data.shape[2])
    L, bi, p = a["num_layers"], a["bidirectional"], a["p"]
    train = state.is_train
    if p and _onednn_rnn(data):
        p = 0.0
    if mode == "lstm":
        with warnings.catch_warnings():  # (torch: LSTM projections run without oneDNN)
            warnings.simplefilter("ignore", UserWarning)
            out, h, c = torch._VF.lstm(data, (state_h, rest[0]), flat, True, L, p, train, bi, False)
        outs = (out, h, c)
    else:
        fn = {"gru": torch._VF.gru, "rnn_tanh": torch._VF.rnn_tanh, "rnn_relu": torch._VF.rnn_relu}[
            mode
        ]
        out, h = fn(data, state_h, flat, True, L, p, train, bi, False)
        outs = (out, h)
    return outs if a["state_outputs"] else outs[0]


def _rnn_inputs(a):
    names = ["data", "parameters", "state"]
    if a["mode"] == "lstm":
        names.append("state_cell")
    if a["use_sequence_length"]:
        names.append("sequence_length")
    return names


def _rnn_outputs(a):
    if not a["state_outputs"]:
        return ["output"]
    return ["output", "state_output"] + (["statecell_output"] if a["mode"] == "lstm" else [])


def _rnn_infer(a, shapes):
    data = shapes[0]
    if data is None:
        return shapes
    T, N, C = data
    D = 2 if a["bidirectional"] else 1
    _, total = _layout(a, C)
    shapes = list(shapes)
    shapes[1] = shapes[1] or (total,)
    st = (a["num_layers"] * D, N, a["state_size"])
    shapes[2] = shapes[2] or (st[:2] + (_proj(a) or st[2],))
    if a["mode"] == "lstm" and len(shapes) > 3:
        shapes[3] = shapes[3] or st
    if a["use_sequence_length"]:
        k = 4 if a["mode"] == "lstm" else 3
        if len(shapes) > k:
            shapes[k] = shapes[k] or (N,)
    return shapes


def _rnn_out(a, shapes):
    T, N, _ = shapes[0]
    D = 2 if a["bidirectional"] else 1
    st = (a["num_layers"] * D, N, a["state_size"])
    R = _proj(a) or a["state_size"]
    outs = [(T, N, D * R), st[:2] + (R,), st]
    return outs[: len(_rnn_outputs(a))]


register(
    OpDef(
        "RNN",
        _rnn,
        params=[
            Param("state_size", "int", doc="size of the state for each layer"),
            Param("num_layers", "int", doc="number of stacked layers"),
            Param(
                "bidirectional", "bool", False, doc="whether to use bidirectional recurrent layers"
            ),
            Param(
                "mode",
                "enum",
                choices=["gru", "lstm", "rnn_relu", "rnn_tanh"],
                doc="the type of RNN to compute",
            ),
            Param(
                "p",
                "float",
                0.0,
                doc="drop rate of the dropout on the outputs of each "
                "RNN layer, except the last layer.",
            ),
            Param(
                "state_outputs", "bool", False, doc="Whether to have the states as symbol outputs."
            ),
            Param("projection_size", "int_or_none", None, doc="size of project size"),
            Param(
                "lstm_state_clip_min",
                "float_or_none",
                None,
                doc="Minimum clip value of LSTM states.",
            ),
            Param(
                "lstm_state_clip_max",
                "float_or_none",
                None,
                doc="Maximum clip value of LSTM states.",
            ),
            Param(
                "lstm_state_clip_nan",
                "bool",
                False,
                doc="Whether to stop NaN from propagating in state by clipping it to min/max.",
            ),
            Param(
                "use_sequence_length",
                "bool",
                False,
                doc="If set to true, this layer takes in an extra input parameter "
                "`sequence_length` to specify variable length sequence",
            ),
        ],
        inputs=("data", "parameters", "state", "state_cell", "sequence_length"),
        active_inputs=_rnn_inputs,
        outputs=_rnn_outputs,
        infer_shape=_rnn_infer,
        infer_out=_rnn_out,
        doc="Fused recurrent layers over a (T, N, C) sequence with MXNet's flat parameter "
        "vector.\n\nExample: ``mx.nd.RNN(x, params, h0, state_size=8, num_layers=1, "
        "mode='gru')``",
    )
)


def _param_concat(a, *xs):
    return torch.cat([x.reshape(-1) for x in xs], 0)


def _param_concat_out(a, shapes):
    n = 0
    for s in shapes:
        k = 1
        for d in s:
            k *= d
        n += k
    return [(n,)]


def _param_concat_back(a, ins, outs):
    """Inputs of unknown size share evenly what the known ones leave of the output (MXNet's
    RNNParamConcatShape: a layer's input-to-hidden weights -- two of them for a
    bidirectional layer -- are inferred from the RNN's parameter vector so)."""
    unknown = [k for k, s in enumerate(ins) if s is None or 0 in s]
    if not unknown or not outs or outs[0] is None:
        return [None] * len(ins)
    rest = outs[0][0] - sum(math.prod(s) for j, s in enumerate(ins) if j not in unknown)
    res = [None] * len(ins)
    if rest <= 0 or rest % len(unknown):
        return res
    each = rest // len(unknown)
    for k in unknown:
        s = ins[k]
        if s is None or len(s) == 1:
            res[k] = (each,)
        elif s.count(0) == 1:
            known = math.prod(d for d in s if d)
            if known and each % known == 0:
                res[k] = tuple(each // known if d == 0 else d for d in s)
    return res


register(
    OpDef(
        "_rnn_param_concat",
        _param_concat,
        variadic="num_args",
        infer_out=_param_concat_out,
        infer_back=_param_concat_back,
        params=[
            Param("num_args", "int", doc="Number of inputs to be concated."),
            Param("dim", "int", 1, doc="the dimension to be concated."),
        ],
        doc="Flatten and concatenate RNN parameters into MXNet's flat parameter vector.",
    )
)
