"""Convolutional recurrent cells (Shi et al., 2015): Conv{1,2,3}D{RNN,LSTM,GRU}Cell.

The input-to-hidden and hidden-to-hidden transforms are convolutions; the hidden-to-hidden
convolution is padded so the state keeps its spatial shape.
"""

from __future__ import annotations

from ...rnn.rnn_cell import HybridRecurrentCell, _get_activation

__all__ = [f"Conv{d}D{k}Cell" for d in (1, 2, 3) for k in ("RNN", "LSTM", "GRU")]


def _tuple(v, dims):
    return (v,) * dims if isinstance(v, int) else tuple(v)


class _BaseConvRNNCell(HybridRecurrentCell):
    _gates = 1
    _num_states = 1

    def __init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel, i2h_pad,
                 i2h_dilate, h2h_dilate, i2h_weight_initializer, h2h_weight_initializer,
                 i2h_bias_initializer, h2h_bias_initializer, dims, conv_layout, activation,
                 prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._hidden_channels = hidden_channels
        self._input_shape = tuple(input_shape)
        self._conv_layout = conv_layout
        self._activation = activation
        self._dims = dims
        self._i2h_kernel = _tuple(i2h_kernel, dims)
        self._h2h_kernel = _tuple(h2h_kernel, dims)
        self._i2h_pad = _tuple(i2h_pad, dims)
        self._i2h_dilate = _tuple(i2h_dilate, dims)
        self._h2h_dilate = _tuple(h2h_dilate, dims)
        if not all(k % 2 == 1 for k in self._h2h_kernel):
            raise AssertionError(f"Only support odd number, get h2h_kernel= {h2h_kernel}")
        self._h2h_pad = tuple(d * (k - 1) // 2 for d, k in zip(self._h2h_dilate,
                                                                 self._h2h_kernel))
        self._channel_axis = conv_layout.find("C")
        if self._channel_axis != 1:
            raise AssertionError(f"conv_layout {conv_layout}: only channel-first layouts "
                                 "(NCW, NCHW, NCDHW) are supported")
        self._in_channels = self._input_shape[0]
        spatial = self._input_shape[1:]
        out = tuple((s + 2 * p - d * (k - 1) - 1) + 1 for s, p, d, k in
                    zip(spatial, self._i2h_pad, self._i2h_dilate, self._i2h_kernel))
        self._state_shape = (hidden_channels,) + out
        n = hidden_channels * self._gates
        self.i2h_weight = self.params.get(
            "i2h_weight", shape=(n, self._in_channels) + self._i2h_kernel,
            init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = self.params.get(
            "h2h_weight", shape=(n, hidden_channels) + self._h2h_kernel,
            init=h2h_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = self.params.get("i2h_bias", shape=(n,), init=i2h_bias_initializer,
                                        allow_deferred_init=True)
        self.h2h_bias = self.params.get("h2h_bias", shape=(n,), init=h2h_bias_initializer,
                                        allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size,) + self._state_shape, "__layout__": self._conv_layout}
                for _ in range(self._num_states)]

    def _alias(self):
        return "conv_rnn"

    def __repr__(self):
        shape = self.i2h_weight.shape
        mapping = f"{shape[1] if shape[1] else None} -> {shape[0]}"
        return f"{self.__class__.__name__}({mapping}, {self._activation}, {self._conv_layout})"

    def _conv_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias,
                      prefix):
        n = self._hidden_channels * self._gates
        stride = (1,) * self._dims
        i2h = F.Convolution(data=inputs, num_filter=n, kernel=self._i2h_kernel, stride=stride,
                            pad=self._i2h_pad, dilate=self._i2h_dilate, weight=i2h_weight,
                            bias=i2h_bias, layout=self._conv_layout, name=prefix + "i2h")
        h2h = F.Convolution(data=states[0], num_filter=n, kernel=self._h2h_kernel,
                            dilate=self._h2h_dilate, pad=self._h2h_pad, stride=stride,
                            weight=h2h_weight, bias=h2h_bias, layout=self._conv_layout,
                            name=prefix + "h2h")
        return i2h, h2h


class _ConvRNNCell(_BaseConvRNNCell):
    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = f"t{self._counter}_"
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, prefix)
        output = _get_activation(F, i2h + h2h, self._activation, name=prefix + "out")
        return output, [output]


class _ConvLSTMCell(_BaseConvRNNCell):
    _gates = 4
    _num_states = 2

    def _alias(self):
        return "conv_lstm"

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = f"t{self._counter}_"
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, prefix)
        gates = F.SliceChannel(i2h + h2h, num_outputs=4, axis=self._channel_axis,
                               name=prefix + "slice")
        in_gate = F.Activation(gates[0], act_type="sigmoid", name=prefix + "i")
        forget_gate = F.Activation(gates[1], act_type="sigmoid", name=prefix + "f")
        in_transform = _get_activation(F, gates[2], self._activation, name=prefix + "c")
        out_gate = F.Activation(gates[3], act_type="sigmoid", name=prefix + "o")
        next_c = F._internal._plus(forget_gate * states[1], in_gate * in_transform,
                                   name=prefix + "state")
        next_h = F._internal._mul(out_gate, _get_activation(F, next_c, self._activation),
                                  name=prefix + "out")
        return next_h, [next_h, next_c]


class _ConvGRUCell(_BaseConvRNNCell):
    _gates = 3

    def _alias(self):
        return "conv_gru"

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = f"t{self._counter}_"
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, prefix)
        ax = self._channel_axis
        i2h_r, i2h_z, i2h = F.SliceChannel(i2h, num_outputs=3, axis=ax,
                                           name=prefix + "i2h_slice")
        h2h_r, h2h_z, h2h = F.SliceChannel(h2h, num_outputs=3, axis=ax,
                                           name=prefix + "h2h_slice")
        reset_gate = F.Activation(i2h_r + h2h_r, act_type="sigmoid", name=prefix + "r_act")
        update_gate = F.Activation(i2h_z + h2h_z, act_type="sigmoid", name=prefix + "z_act")
        next_h_tmp = _get_activation(F, i2h + reset_gate * h2h, self._activation,
                                     name=prefix + "h_act")
        next_h = F._internal._plus((1.0 - update_gate) * next_h_tmp, update_gate * states[0],
                                   name=prefix + "out")
        return next_h, [next_h]


_LAYOUTS = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def _make(kind, base, dims):
    def __init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel,
                 i2h_pad=(0,) * dims, i2h_dilate=(1,) * dims, h2h_dilate=(1,) * dims,
                 i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros",
                 conv_layout=_LAYOUTS[dims], activation="tanh", prefix=None, params=None):
        base.__init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel, i2h_pad,
                      i2h_dilate, h2h_dilate, i2h_weight_initializer, h2h_weight_initializer,
                      i2h_bias_initializer, h2h_bias_initializer, dims, conv_layout,
                      activation, prefix=prefix, params=params)

    name = f"Conv{dims}D{kind}Cell"
    doc = (f"{dims}-D convolutional {kind} cell.\n\n    Examples\n    --------\n"
           f"    >>> cell = mx.gluon.contrib.rnn.{name}((3,) + (8,) * {dims}, 4, 3, 3)\n")
    cls = type(name, (base,), {"__init__": __init__, "__doc__": doc,
                               "__module__": __name__})
    return cls


for _d in (1, 2, 3):
    for _k, _b in (("RNN", _ConvRNNCell), ("LSTM", _ConvLSTMCell), ("GRU", _ConvGRUCell)):
        globals()[f"Conv{_d}D{_k}Cell"] = _make(_k, _b, _d)
