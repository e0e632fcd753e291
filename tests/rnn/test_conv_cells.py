"""Legacy convolutional RNN cells (mx.rnn.ConvRNNCell / ConvLSTMCell / ConvGRUCell)."""

import pytest

import mxnet as mx

_KW = dict(input_shape=(1, 3, 16, 10), num_hidden=10, h2h_kernel=(3, 3), h2h_dilate=(1, 1),
           i2h_kernel=(3, 3), i2h_stride=(1, 1), i2h_pad=(1, 1), i2h_dilate=(1, 1),
           prefix="rnn_")


@pytest.mark.parametrize("name,gates,nstates", [("ConvRNNCell", 1, 1), ("ConvLSTMCell", 4, 2),
                                                 ("ConvGRUCell", 3, 1)])
def test_conv_cells_unroll_shapes(name, gates, nstates):
    cell = getattr(mx.rnn, name)(**_KW)
    outputs, states = cell.unroll(3, inputs=[mx.sym.Variable(f"rnn_t{i}_data") for i in range(3)])
    outputs = mx.sym.Group(outputs)
    assert sorted(cell.params._params) == ["rnn_h2h_bias", "rnn_h2h_weight", "rnn_i2h_bias",
                                           "rnn_i2h_weight"]
    assert outputs.list_outputs() == ["rnn_t0_out_output", "rnn_t1_out_output",
                                      "rnn_t2_out_output"]
    args, outs, _ = outputs.infer_shape(**{f"rnn_t{i}_data": (1, 3, 16, 10) for i in range(3)})
    assert outs == [(1, 10, 16, 10)] * 3
    shapes = dict(zip(outputs.list_arguments(), args))
    assert shapes["rnn_h2h_weight"] == (10 * gates, 10, 3, 3)
    assert len(states) == nstates
    assert cell.state_info[0] == {"shape": (0, 10, 16, 10), "__layout__": "NCHW"}


def test_conv_cell_state_shape_follows_i2h_convolution():
    cell = mx.rnn.ConvRNNCell(input_shape=(2, 3, 9, 7), num_hidden=5, i2h_stride=(2, 2),
                              i2h_pad=(0, 0), h2h_kernel=(5, 5), h2h_dilate=(2, 2))
    assert cell.state_info[0]["shape"] == (0, 5, 4, 3)
    assert cell._prefix == "ConvRNN_"
    with pytest.raises(ValueError):
        mx.rnn.ConvRNNCell(input_shape=(1, 3, 8, 8), num_hidden=2, h2h_kernel=(2, 2))
