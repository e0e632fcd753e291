"""DeepSpeech2-style network (convolutions over a spectrogram, then recurrent layers)."""

from __future__ import annotations

import mxnet as mx
from mxnet._op import has_op
from mxnet.base import MXNetError

from .layers import Model, conv


class DeepSpeech2(Model):
    implements = "deep_speech2"
    input_shape = (1, 200, 161)  # (channel, time steps, frequency bins)
    num_classes = 29

    def __init__(self, params):
        super().__init__(params)
        if not has_op("RNN"):
            raise MXNetError("deep_speech2 needs the fused 'RNN' operator, which is not "
                             "registered in this build")
        v = self.data()
        v = conv(v, 32, (11, 41), (2, 2), (5, 20), bn=True)
        v = conv(v, 32, (11, 21), (1, 2), (5, 10), bn=True)
        # (N, C, T, F) -> (T, N, C*F) for the recurrent layers
        v = mx.sym.transpose(v, axes=(2, 0, 1, 3))
        v = mx.sym.reshape(v, shape=(0, 0, -3))
        hidden, layers = 800, 3
        params_var = mx.sym.Variable("rnn_parameters")
        state = mx.sym.Variable("rnn_state")
        v = mx.sym.RNN(data=v, parameters=params_var, state=state, state_size=hidden,
                       num_layers=layers, mode="gru", bidirectional=False, name="rnn")
        v = mx.sym.reshape(mx.sym.transpose(v, axes=(1, 0, 2)), shape=(-3, 0))
        v = mx.sym.FullyConnected(v, num_hidden=self.num_classes, name="fc_out")
        if self.phase == "training":
            self._output = mx.sym.SoftmaxOutput(v, name="softmax", preserve_shape=True)
        else:
            self._output = mx.sym.softmax(v, name="softmax")
