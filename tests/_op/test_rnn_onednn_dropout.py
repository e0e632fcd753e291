"""MXNet 1.9.1's CPU RNN runs float32 data through oneDNN, which applies no dropout between
the layers: training with ``dropout=p`` gives the ``dropout=0`` result (checked on MXNet
1.9.1); float64 data (native kernel) and MXNET_USE_MKLDNN_RNN=0 do apply it."""

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd


def _train_out(dropout, dtype="float32", mode="lstm"):
    mx.random.seed(1)
    np.random.seed(3)
    x = mx.nd.array(np.random.normal(size=(5, 2, 4)), dtype=dtype)
    cls = {"lstm": mx.gluon.rnn.LSTM, "gru": mx.gluon.rnn.GRU, "rnn": mx.gluon.rnn.RNN}[mode]
    layer = cls(6, num_layers=2, dropout=dropout, input_size=4, dtype=dtype)
    layer.initialize(mx.init.Xavier())
    with autograd.record():
        y = layer(x)
    return y.asnumpy()


@pytest.mark.parametrize("mode", ["lstm", "gru", "rnn"])
def test_float32_training_has_no_inter_layer_dropout(mode):
    np.testing.assert_array_equal(_train_out(0.3, mode=mode), _train_out(0.0, mode=mode))


def test_float64_and_native_kernel_apply_dropout(monkeypatch):
    assert np.abs(_train_out(0.3, "float64") - _train_out(0.0, "float64")).max() > 1e-3
    monkeypatch.setenv("MXNET_USE_MKLDNN_RNN", "0")
    assert np.abs(_train_out(0.3) - _train_out(0.0)).max() > 1e-3


def test_state_clipping_ignored_by_onednn_refused_by_native_kernel():
    x = mx.nd.ones((3, 2, 4))
    layer = mx.gluon.rnn.LSTM(5, input_size=4, state_clip_min=-1, state_clip_max=1)
    layer.initialize()
    assert layer(x).shape == (3, 2, 5)  # float32: oneDNN, clipping ignored (MXNet 1.9.1)
    layer64 = mx.gluon.rnn.LSTM(
        5, input_size=4, state_clip_min=-1, state_clip_max=1, dtype="float64"
    )
    layer64.initialize()
    with pytest.raises(mx.base.MXNetError, match="LSTM state clipping is only supported"):
        layer64(x.astype("float64")).wait_to_read()
