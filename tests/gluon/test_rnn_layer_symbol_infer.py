"""Gluon LSTM/GRU layers called on a Symbol infer their input-to-hidden weights from the data
shape, bidirectional ones included (both directions' weights are unknown at once; MXNet
1.9.1's _rnn_param_concat shares the remainder evenly). cnocr's CRNN builds its symbolic
training graph this way."""

import pytest

import mxnet as mx
from mxnet.gluon.rnn.rnn_layer import GRU, LSTM


@pytest.mark.parametrize("cls,gates", [(LSTM, 4), (GRU, 3)])
@pytest.mark.parametrize("bidirectional", [True, False])
def test_rnn_layer_on_symbol_infers_i2h_weights(cls, gates, bidirectional):
    y = cls(16, 2, bidirectional=bidirectional)(mx.sym.var("data"))
    args, outs, _ = y.infer_shape(data=(15, 2, 512))
    i2h = [s for n, s in zip(y.list_arguments(), args) if "i2h_weight" in n]
    d = 2 if bidirectional else 1
    want = [(gates * 16, 512)] * d + [(gates * 16, 16 * d)] * d
    assert i2h == want
    assert outs == [(15, 2, 16 * d)]
