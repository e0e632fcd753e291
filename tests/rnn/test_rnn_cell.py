"""Legacy mx.rnn cells against MXNet 1.9.1 goldens (names, shapes, values)."""

import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import rnn
from mxnet.base import MXNetError
from tests.compat.make_golden_rnn import CASES, build

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "rnn")
with open(os.path.join(GOLDEN, "meta.json")) as _f:
    META = json.load(_f)


@pytest.mark.parametrize("case", CASES)
def test_unrolled_graph_matches_mxnet(case):
    sym, dshape = build(case)
    meta = META[case]
    assert sym.list_arguments() == meta["arguments"]
    assert sym.list_outputs() == meta["outputs"]
    arg_shapes, out_shapes, _ = sym.infer_shape(data=dshape)
    assert [list(s) for s in arg_shapes] == meta["arg_shapes"]
    assert [list(s) for s in out_shapes] == meta["out_shapes"]
    gold = np.load(os.path.join(GOLDEN, f"{case}.npz"))
    args = {k[4:]: mx.nd.array(gold[k]) for k in gold.files if k.startswith("arg:")}
    outs = sym.bind(mx.cpu(), args).forward()
    for i, o in enumerate(outs):
        np.testing.assert_allclose(o.asnumpy(), gold[f"out:{i}"], rtol=1e-5, atol=1e-6)


def test_begin_state_names_and_attrs():
    cell = rnn.LSTMCell(4, prefix="lstm_")
    assert [s.list_outputs()[0] for s in cell.begin_state()] == META["begin_state"]
    assert cell.begin_state()[0].list_attr() == META["begin_attrs"]
    assert cell.state_info == [{"shape": (0, 4), "__layout__": "NC"}] * 2
    assert cell.state_shape == [(0, 4), (0, 4)]


def test_fused_unpack_matches_mxnet():
    cell = rnn.FusedRNNCell(4, num_layers=2, mode="lstm", bidirectional=True, prefix="f_")
    size = (3 + 4 + 2) * 4 * 4 * 2 + 4 * 4 * (4 + 8 + 2) * 2
    un = cell.unpack_weights({"f_parameters": mx.nd.arange(size)})
    got = {k: [list(v.shape), float(v.asnumpy().sum())] for k, v in un.items()}
    assert got == META["fused_unpack"]
    packed = cell.pack_weights(un)
    np.testing.assert_array_equal(packed["f_parameters"].asnumpy(), np.arange(size))


def test_unpack_pack_roundtrip_lstm():
    cell = rnn.LSTMCell(3, prefix="lstm_")
    args = {
        "lstm_i2h_weight": mx.nd.arange(24).reshape((12, 2)),
        "lstm_i2h_bias": mx.nd.arange(12),
        "lstm_h2h_weight": mx.nd.ones((12, 3)),
        "lstm_h2h_bias": mx.nd.zeros(12),
    }
    un = cell.unpack_weights(args)
    assert sorted(un) == sorted(
        f"lstm_{g}{k}_{t}"
        for g in ("i2h", "h2h")
        for k in ("_i", "_f", "_c", "_o")
        for t in ("weight", "bias")
    )
    np.testing.assert_array_equal(
        un["lstm_i2h_f_weight"].asnumpy(), np.arange(24).reshape(12, 2)[3:6]
    )
    back = cell.pack_weights(un)
    for k, v in args.items():
        np.testing.assert_array_equal(back[k].asnumpy(), v.asnumpy())


def test_fused_equals_unfused():
    fused = rnn.FusedRNNCell(4, num_layers=2, mode="gru", prefix="g_")
    fsym, _ = fused.unroll(3, mx.sym.var("data"), layout="TNC", merge_outputs=True)
    unfused = fused.unfuse()
    usym, _ = unfused.unroll(3, mx.sym.var("data"), layout="TNC", merge_outputs=True)
    shapes, _, _ = fsym.infer_shape(data=(3, 2, 5))
    rng = np.random.RandomState(0)
    fargs = {
        n: mx.nd.array(rng.uniform(-0.5, 0.5, s)) for n, s in zip(fsym.list_arguments(), shapes)
    }
    uargs = fused.unpack_weights(fargs)
    uargs = unfused.pack_weights(uargs)
    a = fsym.bind(mx.cpu(), fargs).forward()[0].asnumpy()
    b = usym.bind(mx.cpu(), {n: uargs[n] for n in usym.list_arguments()}).forward()[0]
    np.testing.assert_allclose(a, b.asnumpy(), rtol=1e-5, atol=1e-6)


def test_step_errors_and_zoneout():
    with pytest.raises(MXNetError, match="unroll"):
        rnn.FusedRNNCell(4)(mx.sym.var("x"), [])
    base = rnn.RNNCell(4)
    z = rnn.ZoneoutCell(base, zoneout_outputs=0.5, zoneout_states=0.5)
    with pytest.raises(MXNetError, match="modifier"):
        base.begin_state()
    outs, st = z.unroll(3, mx.sym.var("data"), merge_outputs=True)
    _, out_shapes, _ = mx.sym.Group([outs] + st).infer_shape(data=(2, 3, 5))
    assert out_shapes == [(2, 3, 4), (2, 4)]
    with pytest.raises(MXNetError, match="zoneout"):
        rnn.ZoneoutCell(rnn.FusedRNNCell(4))


def test_zoneout_cell_starts_from_an_unknown_shape_zeros_symbol():
    # MXNet 1.9.1: the first "previous output" is symbol.zeros((0, 0)), shaped by inference
    cell = rnn.ZoneoutCell(rnn.GRUCell(4, prefix="g_"), 0.5, 0.5)
    out, _ = cell.unroll(3, mx.sym.Variable("data"), layout="NTC", merge_outputs=True)
    ops = [n["op"] for n in json.loads(out.tojson())["nodes"]]
    assert "_zeros" in ops and "zeros_like" not in ops
    assert out.infer_shape(data=(2, 3, 5))[1] == [(2, 3, 4)]
    ex = out.simple_bind(mx.cpu(), data=(2, 3, 5))
    for v in ex.arg_dict.values():
        v[:] = 0.1
    assert ex.forward(is_train=False)[0].shape == (2, 3, 4)
