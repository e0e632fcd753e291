"""Run ONCE under the oracle (real MXNet 1.9.1): writes tests/compat/golden/rnn/.

Each case unrolls legacy ``mx.rnn`` cells, binds them with fixed random weights and stores
argument names/shapes, output names and output values.
"""

import json
import os

import numpy as np

import mxnet as mx

OUT = os.path.join(os.path.dirname(__file__), "golden", "rnn")
N, T, C, H = 2, 5, 3, 4


def _flat(states):
    out = []
    for s in states:
        out += _flat(s) if isinstance(s, list) else [s]
    return out


def build(case):
    """Return (symbol, data shape) for ``case`` (the same code runs in the tests); automatic
    node names are counted from 0 (a fresh NameManager)."""
    with mx.name.NameManager():
        return _build(case)


def _build(case):
    from mxnet import rnn
    data = mx.sym.var("data")
    if case == "lstm2":
        cell = rnn.SequentialRNNCell()
        cell.add(rnn.LSTMCell(H, prefix="l0_"))
        cell.add(rnn.LSTMCell(H, prefix="l1_"))
        outs, st = cell.unroll(T, data, layout="NTC", merge_outputs=True)
        return mx.sym.Group([outs] + _flat(st)), (N, T, C)
    if case == "gru_tnc_list":
        cell = rnn.GRUCell(H, prefix="gru_")
        outs, st = cell.unroll(3, data, layout="TNC", merge_outputs=False)
        return mx.sym.Group(outs + _flat(st)), (3, N, C)
    if case == "rnn_relu":
        cell = rnn.RNNCell(H, activation="relu", prefix="rnn_")
        outs, st = cell.unroll(T, data, merge_outputs=True)
        return mx.sym.Group([outs] + _flat(st)), (N, T, C)
    if case == "bi_lstm":
        cell = rnn.BidirectionalCell(rnn.LSTMCell(H, prefix="l_"), rnn.LSTMCell(H, prefix="r_"))
        outs, st = cell.unroll(T, data, merge_outputs=True)
        return mx.sym.Group([outs] + _flat(st)), (N, T, C)
    if case == "bi_gru_list":
        cell = rnn.BidirectionalCell(rnn.GRUCell(H, prefix="l_"), rnn.GRUCell(H, prefix="r_"))
        outs, st = cell.unroll(3, data, merge_outputs=False)
        return mx.sym.Group(outs + _flat(st)), (N, 3, C)
    if case == "residual_dropout":
        cell = rnn.SequentialRNNCell()
        cell.add(rnn.ResidualCell(rnn.GRUCell(C, prefix="g0_")))
        cell.add(rnn.DropoutCell(0.5))
        cell.add(rnn.RNNCell(H, prefix="r1_"))
        outs, st = cell.unroll(T, data, merge_outputs=True)
        return mx.sym.Group([outs] + _flat(st)), (N, T, C)
    if case == "fused_lstm":
        cell = rnn.FusedRNNCell(H, num_layers=2, mode="lstm", get_next_state=True,
                                prefix="lstm_")
        outs, st = cell.unroll(T, data, layout="TNC", merge_outputs=True)
        return mx.sym.Group([outs] + _flat(st)), (T, N, C)
    if case == "fused_gru_bi":
        cell = rnn.FusedRNNCell(H, num_layers=1, mode="gru", bidirectional=True,
                                prefix="gru_")
        outs, st = cell.unroll(T, data, layout="TNC", merge_outputs=True)
        return mx.sym.Group([outs] + _flat(st)), (T, N, C)
    raise ValueError(case)


CASES = ["lstm2", "gru_tnc_list", "rnn_relu", "bi_lstm", "bi_gru_list", "residual_dropout",
         "fused_lstm", "fused_gru_bi"]


def fused_unpack():
    cell = mx.rnn.FusedRNNCell(H, num_layers=2, mode="lstm", bidirectional=True,
                               prefix="f_")
    cell.unroll(T, mx.sym.var("data"), layout="TNC")
    size = (C + H + 2) * H * 4 * 2 + (2 - 1) * 4 * H * (H + 2 * H + 2) * 2
    arr = mx.nd.arange(size)
    un = cell.unpack_weights({"f_parameters": arr})
    return {k: [list(v.shape), float(v.asnumpy().sum())] for k, v in un.items()}


def main():
    os.makedirs(OUT, exist_ok=True)
    meta = {}
    for case in CASES:
        sym, dshape = build(case)
        arg_shapes, out_shapes, _ = sym.infer_shape(data=dshape)
        rng = np.random.RandomState(0)
        arrays = {}
        for name, shp in zip(sym.list_arguments(), arg_shapes):
            arrays[name] = rng.uniform(-0.5, 0.5, shp).astype("float32")
        outs = sym.bind(mx.cpu(), {k: mx.nd.array(v) for k, v in arrays.items()}).forward()
        meta[case] = {"arguments": sym.list_arguments(), "outputs": sym.list_outputs(),
                      "arg_shapes": [list(s) for s in arg_shapes],
                      "out_shapes": [list(s) for s in out_shapes]}
        np.savez(os.path.join(OUT, f"{case}.npz"),
                 **{f"arg:{k}": v for k, v in arrays.items()},
                 **{f"out:{i}": o.asnumpy() for i, o in enumerate(outs)})
    meta["fused_unpack"] = fused_unpack()
    cell = mx.rnn.LSTMCell(H, prefix="lstm_")
    meta["begin_state"] = [s.list_outputs()[0] for s in cell.begin_state()]
    meta["begin_attrs"] = cell.begin_state()[0].list_attr()
    meta["encode"] = mx.rnn.encode_sentences([["a", "b", "c"], ["b", "d"]], invalid_label=0,
                                             start_label=0)
    meta["encode_unk"] = mx.rnn.encode_sentences([["a", "z"]], vocab={"a": 1, "<unk>": 2},
                                                 unknown_token="<unk>")
    with open(os.path.join(OUT, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
