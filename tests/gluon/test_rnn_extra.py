"""gluon.rnn additions: fused-layer ``_unfuse``/``infer_shape``, list-input unroll,
symbolic valid_length unroll, and gluon.contrib.rnn cells (values from MXNet 1.9.1)."""

import json

import numpy as np

import mxnet as mx
from mxnet import gluon
from mxnet.gluon import rnn


def test_unfuse_matches_fused_lstm():
    x = mx.nd.ones((2, 2, 2))
    model = rnn.LSTM(2, num_layers=2, bidirectional=True)
    cells = model._unfuse()
    model.initialize(mx.init.One())
    y = model(x).asnumpy()
    y_cell = cells.unroll(2, x, layout="TNC", merge_outputs=True)[0].asnumpy()
    np.testing.assert_allclose(y, y_cell, rtol=1e-5, atol=1e-6)
    # MXNet 1.9.1 gives this value for the first time step with all-ones weights
    np.testing.assert_allclose(y[0, 0], [0.70556980, 0.70556980, 0.94732213, 0.94732213], rtol=1e-4)


def test_fused_layer_infer_shape():
    layer = rnn.GRU(4, num_layers=2, layout="NTC")
    layer.initialize()
    x = mx.nd.ones((1, 5, 3))
    layer.infer_shape(x, layer.begin_state(1))
    assert layer.l0_i2h_weight.shape == (12, 3)
    assert layer.l1_i2h_weight.shape == (12, 4)


def test_unroll_list_inputs_tnc():
    cell = rnn.LSTMCell(6)
    cell.initialize()
    inputs = [mx.nd.ones((10, 5)) for _ in range(3)]
    for layout in ("TNC", "NTC"):
        outputs, _ = cell.unroll(3, inputs, layout=layout)
        assert [o.shape for o in outputs] == [(10, 6)] * 3


def test_bidirectional_symbolic_valid_length():
    class Bi(gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            with self.name_scope():
                self.bi = rnn.BidirectionalCell(rnn.LSTMCell(4), rnn.LSTMCell(4))

        def hybrid_forward(self, F, x, vl):
            return self.bi.unroll(3, x, valid_length=vl, layout="NTC", merge_outputs=True)[0]

    net = Bi()
    net.initialize()
    net.hybridize()
    assert net(mx.nd.ones((2, 3, 5)), mx.nd.array([3, 2])).shape == (2, 3, 8)


def test_contrib_cells():
    from mxnet.gluon.contrib import rnn as crnn

    cell = crnn.LSTMPCell(8, 4, prefix="p_")
    assert str(cell) == "LSTMPCell(None -> 32 -> 4)"
    assert sorted(cell.collect_params().keys()) == [
        "p_h2h_bias",
        "p_h2h_weight",
        "p_h2r_weight",
        "p_i2h_bias",
        "p_i2h_weight",
    ]
    cell.initialize()
    out, states = cell.unroll(3, mx.nd.ones((2, 3, 5)), merge_outputs=True)
    assert out.shape == (2, 3, 4) and [s.shape for s in states] == [(2, 4), (2, 8)]

    vd = crnn.VariationalDropoutCell(rnn.GRUCell(6), drop_inputs=0.5, drop_outputs=0.5)
    assert str(vd) == "VariationalDropoutCell(p_out = 0.5, p_state = 0.0)"
    vd.initialize()
    out, _ = vd.unroll(
        4, mx.nd.ones((2, 4, 3)), merge_outputs=True, valid_length=mx.nd.array([2, 4])
    )
    assert out.shape == (2, 4, 6)
    assert (out[0, 2:].asnumpy() == 0).all()


def test_conv_rnn_cells():
    from mxnet.gluon.contrib import rnn as crnn

    cell = crnn.Conv2DLSTMCell((3, 8, 8), 4, 3, 3, prefix="c_")
    assert str(cell) == "Conv2DLSTMCell(3 -> 16, tanh, NCHW)"
    assert cell.state_info(2)[0]["shape"] == (2, 4, 6, 6)
    shapes = {k: v.shape for k, v in cell.collect_params().items()}
    assert shapes == {
        "c_i2h_weight": (16, 3, 3, 3),
        "c_h2h_weight": (16, 4, 3, 3),
        "c_i2h_bias": (16,),
        "c_h2h_bias": (16,),
    }
    gru = crnn.Conv1DGRUCell((0, 7), 10, (3,), (3,))
    assert str(gru) == "Conv1DGRUCell(None -> 30, tanh, NCW)"
    gru.initialize()
    out, _ = gru.unroll(3, mx.nd.ones((2, 3, 5, 7)), merge_outputs=True)
    assert out.shape == (2, 3, 10, 5) and gru.i2h_weight.shape == (30, 5, 3)
    inputs = [mx.sym.var(f"rnn_t{i}_data") for i in range(2)]
    sym_cell = crnn.Conv1DRNNCell((10, 50), 100, 3, 3, prefix="rnn_")
    outs, _ = sym_cell.unroll(2, inputs)
    grouped = mx.sym.Group(outs)
    assert grouped.list_outputs() == ["rnn_t0_out_output", "rnn_t1_out_output"]
    assert (
        grouped.infer_shape(rnn_t0_data=(1, 10, 50), rnn_t1_data=(1, 10, 50))[1]
        == [(1, 100, 48)] * 2
    )


def test_dynamic_unroll_matches_unroll():
    from mxnet.gluon.contrib.rnn import dynamic_unroll

    cell = rnn.LSTMCell(4)
    cell.initialize()
    x = mx.nd.random.uniform(shape=(2, 5, 3))
    vl = mx.nd.array([5, 3])
    out, st = dynamic_unroll(cell, x, cell.begin_state(2), layout="NTC", valid_length=vl)
    ref, ref_st = cell.unroll(
        5, x, cell.begin_state(2), layout="NTC", merge_outputs=True, valid_length=vl
    )
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(st, ref_st):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)


def test_fused_lstmp_matches_cell_stack():
    from mxnet.gluon.contrib import rnn as crnn

    layer = rnn.LSTM(
        6, num_layers=2, projection_size=3, bidirectional=True, input_size=4, prefix="lstm0_"
    )
    shapes = {k: v.shape for k, v in layer.collect_params().items()}
    assert shapes["lstm0_l0_h2r_weight"] == (3, 6)
    assert shapes["lstm0_r1_i2h_weight"] == (24, 6) and shapes["lstm0_l1_h2h_weight"] == (24, 3)
    assert [s["shape"] for s in layer.state_info(2)] == [(4, 2, 3), (4, 2, 6)]
    stack = rnn.HybridSequentialRNNCell(prefix="lstm0_")
    with stack.name_scope():
        for i in range(2):
            stack.add(
                rnn.BidirectionalCell(
                    crnn.LSTMPCell(6, 3, prefix=f"l{i}_"), crnn.LSTMPCell(6, 3, prefix=f"r{i}_")
                )
            )
    layer.initialize()
    stack.initialize()
    x = mx.nd.random.uniform(shape=(5, 2, 4))
    layer.infer_shape(x, layer.begin_state(2))
    for name, p in layer.collect_params().items():
        w = mx.nd.random.uniform(shape=p.shape)
        p.set_data(w)
        stack.collect_params()[name].set_data(w)
    out, states = layer(x, layer.begin_state(2))
    ref, _ = stack.unroll(
        5, x, begin_state=stack.begin_state(batch_size=2), layout="TNC", merge_outputs=True
    )
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-4, atol=1e-5)
    assert out.shape == (5, 2, 6) and states[0].shape == (4, 2, 3)


def test_sequential_rnn_cell_repr_indents_children_like_mxnet():
    inner = gluon.rnn.HybridSequentialRNNCell()
    inner.add(gluon.rnn.RNNCell(3))
    outer = gluon.rnn.HybridSequentialRNNCell()
    outer.add(gluon.rnn.LSTMCell(2))
    outer.add(inner)
    assert repr(outer) == (
        "HybridSequentialRNNCell(\n(0): LSTMCell(None -> 8)\n"
        "(1): HybridSequentialRNNCell(\n  (0): RNNCell(None -> 3, tanh)\n  )\n)"
    )


def test_symbolic_merged_unroll_stacks_the_steps():
    cell = gluon.rnn.LSTMCell(4, prefix="lstm_")
    out, _ = cell.unroll(3, mx.sym.Variable("data"), layout="NTC", merge_outputs=True)
    assert out.list_outputs()[0].startswith("stack")
    assert out.infer_shape(data=(2, 3, 5))[1] == [(2, 3, 4)]


def test_rnn_layer_on_symbols_infers_the_input_weight_and_names_its_states():
    layer = gluon.rnn.LSTM(4, num_layers=2, prefix="lstm_")
    out = layer(mx.sym.Variable("data"))
    args, outs, _ = out.infer_shape(data=(3, 2, 5))
    shapes = dict(zip(out.list_arguments(), args))
    assert shapes["lstm_l0_i2h_weight"] == (16, 5)
    assert shapes["lstm_l1_i2h_weight"] == (16, 4)
    assert outs == [(3, 2, 4)]
    ops = {n["name"]: n["op"] for n in json.loads(out.tojson())["nodes"]}
    assert ops.get("lstm_h0_0") == "_zeros" and ops.get("lstm_h0_1") == "_zeros"


def test_nd_creators_accept_and_ignore_name():
    assert mx.nd.zeros((2,), name="a").shape == (2,)
    assert mx.nd.ones((1,), name="b").asnumpy().tolist() == [1.0]


def test_deferred_rnn_layer_with_wrong_state_shape_fails_before_initializing(capsys):
    # d2l rnn-concise: a state for batch 1 fed with a batch-32 input. MXNet's deferred
    # shape inference sees the states too and fails before any parameter is drawn.
    import pytest

    layer = rnn.LSTM(8, num_layers=2)
    layer.initialize()
    x = mx.nd.ones((3, 2, 5))
    with pytest.raises(ValueError) as e:
        layer(x, layer.begin_state(batch_size=1))
    assert str(e.value) == (
        "Deferred initialization failed because shape cannot be inferred. MXNetError: "
        f"Error in operator {layer.prefix}rnn0: Shape inconsistent, Provided = [2,1,8], "
        "inferred shape=(2,2,8)")
    assert "infer_shape error. Arguments:\n  data0: (3, 2, 5)\n  data1: (2, 1, 8)" in (
        capsys.readouterr().out)
    assert layer.l0_i2h_weight.shape[1] in (0, -1)
    with pytest.raises(mx.gluon.parameter.DeferredInitializationError):
        layer.l0_i2h_weight.data()
    out, _ = layer(x, layer.begin_state(batch_size=2))
    assert out.shape == (3, 2, 8) and layer.l0_i2h_weight.shape == (32, 5)
