"""Fused Gluon RNN layers and MXNet 1.9.1's files (tests/compat/make_golden_rnn_layer.py):
``save_parameters`` keys ``_unfused.<layer>[.<l|r>_cell].<gate>_<kind>``, ``export`` writing
the graph's inputs in graph order and symbolic begin states with ``__layout__``."""

import os

import numpy as np
import pytest

import mxnet as mx
from tests.compat.make_golden_rnn_layer import build

GOLD = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "rnn_layer")
KINDS = ["bilstm", "gru", "rnnrelu"]


def G(name):
    return os.path.join(GOLD, name)


@pytest.mark.parametrize("kind", KINDS)
def test_load_mxnet_save_parameters(kind, tmp_path):
    io = mx.nd.load(G(f"{kind}-io.params"))
    net = build(kind)
    net.load_parameters(G(f"{kind}.params"))
    np.testing.assert_allclose(net(io["x"]).asnumpy(), io["y"].asnumpy(), rtol=1e-5, atol=1e-6)
    # written back: the same keys, in the same order, as MXNet's file
    net.save_parameters(str(tmp_path / "p.params"))
    assert list(mx.nd.load(str(tmp_path / "p.params"))) == list(mx.nd.load(G(f"{kind}.params")))
    with open(G(f"{kind}.params"), "rb") as f, open(tmp_path / "p.params", "rb") as g:
        assert f.read() == g.read()


def test_unfused_key_names():
    lstm = mx.gluon.rnn.LSTM(3, num_layers=2, bidirectional=True)
    keys = list(lstm._collect_params_with_prefix("x"))
    assert keys[:4] == [
        "x._unfused.0.l_cell.i2h_weight",
        "x._unfused.0.l_cell.h2h_weight",
        "x._unfused.0.l_cell.i2h_bias",
        "x._unfused.0.l_cell.h2h_bias",
    ]
    assert "x._unfused.1.r_cell.h2h_bias" in keys
    gru = mx.gluon.rnn.GRU(3)
    assert list(gru._collect_params_with_prefix()) == [
        "_unfused.0.i2h_weight",
        "_unfused.0.h2h_weight",
        "_unfused.0.i2h_bias",
        "_unfused.0.h2h_bias",
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_export_matches_mxnet(kind, tmp_path):
    io = mx.nd.load(G(f"{kind}-io.params"))
    with mx.name.NameManager():
        net = build(kind)
    net.initialize()
    net(io["x"])  # deferred init from an imperative call, as the generator did
    net.load_parameters(G(f"{kind}.params"))
    net.hybridize()
    np.testing.assert_allclose(net(io["x"]).asnumpy(), io["y"].asnumpy(), rtol=1e-5, atol=1e-6)
    out = str(tmp_path / kind)
    net.export(out)
    with open(G(f"{kind}-symbol.json")) as f, open(out + "-symbol.json") as g:
        assert g.read() == f.read()
    with open(G(f"{kind}-0000.params"), "rb") as f, open(out + "-0000.params", "rb") as g:
        assert g.read() == f.read()
    blk = mx.gluon.SymbolBlock.imports(G(f"{kind}-symbol.json"), ["data"], G(f"{kind}-0000.params"))
    np.testing.assert_allclose(blk(io["x"]).asnumpy(), io["y"].asnumpy(), rtol=1e-5, atol=1e-6)


def test_symbolic_begin_state_layout():
    lstm = mx.gluon.rnn.LSTM(3)
    states = lstm.begin_state(0, func=mx.sym.zeros)
    assert [s.list_attr()["__layout__"] for s in states] == ["LNC", "LNC"]


def test_wrong_input_rank_errors():
    # MXNet 1.9.1: deferred init wraps the RNN operator's check in a ValueError; an
    # initialized layer raises the operator's MXNetError
    lstm = mx.gluon.rnn.LSTM(3)
    lstm.initialize()
    with pytest.raises(ValueError, match="Deferred initialization failed because shape cannot"):
        lstm(mx.nd.ones((2, 4)))
    gru = mx.gluon.rnn.GRU(3, input_size=4)
    gru.initialize()
    with pytest.raises(mx.base.MXNetError, match="Input data should be rank-3 tensor"):
        gru(mx.nd.ones((2, 4)))
