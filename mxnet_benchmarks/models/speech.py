"""DeepSpeech2-style network: convolutions over a spectrogram, then GRU layers.

Uses the fused ``RNN`` operator when the MXNet build has it, otherwise the same GRU unrolled
over time from ``FullyConnected`` and element-wise operators (identical maths). The loss is
a per-frame softmax (a stand-in for CTC, which only changes the last node).
"""

from __future__ import annotations

import mxnet as mx

from .layers import Model, conv


def _gru_unrolled(v, steps: int, hidden: int, layers: int):
    """GRU over ``v`` of shape (T, N, D); returns the T outputs of the top layer, each (N, H)."""
    seq = None
    for layer in range(layers):
        name = f"rnn_l{layer}"
        if seq is None:  # one big input projection for all time steps
            proj = mx.sym.FullyConnected(v, num_hidden=3 * hidden, flatten=False,
                                         name=f"{name}_i2h")
            xs = mx.sym.SliceChannel(proj, num_outputs=steps, axis=0, squeeze_axis=True)
            xs = [xs[t] for t in range(steps)]
        else:
            w = mx.sym.Variable(f"{name}_i2h_weight")
            b = mx.sym.Variable(f"{name}_i2h_bias")
            xs = [mx.sym.FullyConnected(h, weight=w, bias=b, num_hidden=3 * hidden)
                  for h in seq]
        wh = mx.sym.Variable(f"{name}_h2h_weight")
        bh = mx.sym.Variable(f"{name}_h2h_bias")
        h = None
        seq = []
        for x in xs:
            xr, xz, xn = mx.sym.SliceChannel(x, num_outputs=3, axis=1)
            if h is None:
                r, z, n = None, mx.sym.sigmoid(xz), mx.sym.tanh(xn)
                h = (1 - z) * n
            else:
                g = mx.sym.FullyConnected(h, weight=wh, bias=bh, num_hidden=3 * hidden)
                hr, hz, hn = mx.sym.SliceChannel(g, num_outputs=3, axis=1)
                r = mx.sym.sigmoid(xr + hr)
                z = mx.sym.sigmoid(xz + hz)
                n = mx.sym.tanh(xn + r * hn)
                h = (1 - z) * n + z * h
            seq.append(h)
    return seq


class DeepSpeech2(Model):
    implements = "deep_speech2"
    input_shape = (1, 200, 161)  # (channel, time steps, frequency bins)
    num_classes = 29
    hidden = 800
    layers = 3

    def __init__(self, params):
        super().__init__(params)
        v = self.data()
        steps = (self.input_shape[1] + 2 * 5 - 11) // 2 + 1
        self.label_shape = (steps,)
        v = conv(v, 32, (11, 41), (2, 2), (5, 20), bn=True)
        v = conv(v, 32, (11, 21), (1, 2), (5, 10), bn=True)
        # (N, C, T, F) -> (T, N, C*F) for the recurrent layers
        v = mx.sym.transpose(v, axes=(2, 0, 1, 3))
        v = mx.sym.reshape(v, shape=(0, 0, -3))
        if hasattr(mx.sym, "RNN") and not params.get("unrolled_rnn"):
            v = mx.sym.RNN(data=v, parameters=mx.sym.Variable("rnn_parameters", init=mx.init.Uniform(0.05)),
                           state=mx.sym.Variable("rnn_state", init=mx.init.Zero()), state_size=self.hidden,
                           num_layers=self.layers, mode="gru", name="rnn")
            v = mx.sym.transpose(v, axes=(1, 0, 2))  # (N, T, H)
        else:
            v = mx.sym.stack(*_gru_unrolled(v, steps, self.hidden, self.layers), axis=1)
        v = mx.sym.reshape(v, shape=(-3, 0))  # (N*T, H)
        v = mx.sym.FullyConnected(v, num_hidden=self.num_classes, name="fc_out")
        if self.params.get("dtype", "float32") != "float32":
            v = mx.sym.Cast(v, dtype="float32")
        if self.phase == "training":
            label = mx.sym.reshape(mx.sym.Variable("softmax_label"), shape=(-1,))
            self._output = mx.sym.SoftmaxOutput(v, label=label, name="softmax")
        else:
            self._output = mx.sym.softmax(v, name="softmax")
