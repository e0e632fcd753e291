"""gluon.rnn: layers and cells against MXNet 1.9.1 (names, printed forms, outputs with
deterministic weights) and eager == hybridized == exported-and-imported."""

import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import rnn

from .test_model_zoo import zoo_weights

GOLD = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "gluon")
OUT = dict(np.load(os.path.join(GOLD, "rnn.npz")))
with open(os.path.join(GOLD, "rnn.json")) as _f:
    META = json.load(_f)

MODELS = {
    "lstm": (lambda: rnn.LSTM(5, 2, bidirectional=True, prefix="lstm_"), (3, 2, 4)),
    "gru_ntc": (lambda: rnn.GRU(4, layout="NTC", prefix="gru_"), (2, 3, 4)),
    "rnn_tanh": (lambda: rnn.RNN(3, 2, activation="tanh", prefix="rnn_"), (3, 2, 4)),
    "lstmcell": (lambda: rnn.LSTMCell(5, prefix="lc_"), (2, 3, 4)),
    "grucell": (lambda: rnn.GRUCell(5, prefix="gc_"), (2, 3, 4)),
    "rnncell": (lambda: rnn.RNNCell(5, activation="relu", prefix="rc_"), (2, 3, 4)),
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_matches_mxnet(name):
    make, shape = MODELS[name]
    blk = make()
    blk.initialize()
    x = mx.nd.array(np.sin(np.arange(int(np.prod(shape))) * 0.3).reshape(shape))
    if isinstance(blk, rnn.RecurrentCell):
        blk.unroll(shape[1], x, merge_outputs=True)
        zoo_weights(blk)
        y, st = blk.unroll(shape[1], x, merge_outputs=True)
    else:
        blk(x)
        zoo_weights(blk)
        y, st = blk(x, blk.begin_state(shape[0] if name == "gru_ntc" else shape[1]))
    np.testing.assert_allclose(y.asnumpy(), OUT[name], rtol=1e-5, atol=1e-5)
    for i, s in enumerate(st):
        np.testing.assert_allclose(s.asnumpy(), OUT[f"{name}_state{i}"], rtol=1e-5, atol=1e-5)
    names, text = META[name]
    assert list(blk.collect_params().keys()) == names
    assert repr(blk) == text


@pytest.mark.parametrize("name", ["lstm", "gru_ntc", "rnn_tanh"])
def test_layer_modes(name, tmp_path):
    """Eager == hybridized == exported-and-imported (the states are graph inputs too)."""
    make, shape = MODELS[name]
    blk = make()
    blk.initialize()
    x = mx.nd.array(np.sin(np.arange(int(np.prod(shape))) * 0.3).reshape(shape))
    batch = shape[0] if name == "gru_ntc" else shape[1]
    states = blk.begin_state(batch)
    ref, ref_st = blk(x, states)
    blk.hybridize()
    hyb, hyb_st = blk(x, states)
    np.testing.assert_allclose(hyb.asnumpy(), ref.asnumpy(), rtol=1e-5, atol=1e-6)
    blk.export(str(tmp_path / "r"))
    names = [f"data{i}" for i in range(1 + len(states))]
    imp = gluon.SymbolBlock.imports(str(tmp_path / "r-symbol.json"), names,
                                    str(tmp_path / "r-0000.params"))
    got = imp(x, *states)
    np.testing.assert_allclose(got[0].asnumpy(), ref.asnumpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(got[1:], ref_st):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)


def test_layer_training_and_errors():
    layer = rnn.GRU(4, input_size=3)
    layer.initialize()
    x = mx.nd.ones((5, 2, 3))
    with autograd.record():
        y = layer(x).sum()
    y.backward()
    assert layer.l0_i2h_weight.grad().shape == (12, 3)
    with pytest.raises(ValueError, match="Invalid recurrent state shape"):
        layer(x, [mx.nd.zeros((1, 3, 4))])
    with pytest.raises(AssertionError, match="Invalid layout"):
        rnn.LSTM(3, layout="CNT")


def test_cells_containers():
    seq = rnn.SequentialRNNCell()
    with seq.name_scope():
        seq.add(rnn.LSTMCell(4))
        seq.add(rnn.DropoutCell(0.0))
        seq.add(rnn.ResidualCell(rnn.GRUCell(4)))
    seq.initialize()
    out, states = seq.unroll(3, mx.nd.ones((2, 3, 5)), merge_outputs=True)
    assert out.shape == (2, 3, 4) and len(states) == 3
    step_out, _ = seq(mx.nd.ones((2, 5)), seq.begin_state(batch_size=2))
    assert step_out.shape == (2, 4)
    bi = rnn.BidirectionalCell(rnn.LSTMCell(3, prefix="l_"), rnn.LSTMCell(3, prefix="r_"))
    bi.initialize()
    out, states = bi.unroll(4, mx.nd.ones((2, 4, 5)), merge_outputs=True)
    assert out.shape == (2, 4, 6) and len(states) == 4
    with pytest.raises(mx.base.MXNetError, match="cannot be stepped"):
        bi(mx.nd.ones((2, 5)), [])
    vl = mx.nd.array([2, 4])
    out, _ = bi.unroll(4, mx.nd.ones((2, 4, 5)), merge_outputs=True, valid_length=vl)
    assert (out.asnumpy()[0, 2:] == 0).all()
    z = rnn.ZoneoutCell(rnn.RNNCell(3), zoneout_outputs=0.5, zoneout_states=0.5)
    z.initialize()
    with autograd.train_mode():
        out, _ = z.unroll(3, mx.nd.ones((2, 3, 5)), merge_outputs=False)
    assert len(out) == 3 and out[0].shape == (2, 3)
    h = rnn.HybridSequentialRNNCell()
    h.add(rnn.RNNCell(3))
    h.initialize()
    assert h.unroll(2, mx.nd.ones((1, 2, 4)), merge_outputs=True)[0].shape == (1, 2, 3)
    with pytest.raises(AssertionError, match="already modified"):
        base = rnn.RNNCell(2)
        rnn.ResidualCell(base)
        rnn.ZoneoutCell(base)


def test_unroll_symbolic():
    from mxnet import symbol as sym

    cell = rnn.LSTMCell(4, prefix="c_")
    outs, states = cell.unroll(3, sym.var("data"), layout="NTC", merge_outputs=True)
    assert "c_i2h_weight" in outs.list_arguments()
    _, out_shapes, _ = outs.infer_shape(data=(2, 3, 5))
    assert out_shapes == [(2, 3, 4)]
    assert isinstance(gluon.rnn.RNN(2), gluon.HybridBlock)
