"""Fused recurrent layers RNN, LSTM, GRU (MXNet's ``RNN`` operator and parameter names
``l0_i2h_weight``, ``r0_h2h_bias``...)."""

from __future__ import annotations

import re

from ... import ndarray
from ...base import MXNetError, abstract
from .._deferred import deferred_error
from ..block import HybridBlock
from ..parameter import shape_is_known, tensor_types

__all__ = ["RNN", "LSTM", "GRU"]

_FUSED_KEY = re.compile(r"(l|r)(\d+)_(i2h|h2h|h2r)_(weight|bias)\Z")


def _np_states(states):
    """Begin states as ``mx.np`` arrays under ``npx.set_np()`` (same storage)."""
    from ...util import is_np_array

    if not is_np_array():
        return states
    from .._np_mode import to_np

    return to_np(states)


class _RNNLayer(HybridBlock):
    """Shared implementation of the fused recurrent layers."""

    def __init__(
        self,
        hidden_size,
        num_layers,
        layout,
        dropout,
        bidirectional,
        input_size,
        i2h_weight_initializer,
        h2h_weight_initializer,
        i2h_bias_initializer,
        h2h_bias_initializer,
        mode,
        projection_size,
        h2r_weight_initializer,
        lstm_state_clip_min,
        lstm_state_clip_max,
        lstm_state_clip_nan,
        dtype,
        use_sequence_length=False,
        **kwargs,
    ):
        super().__init__(**kwargs)
        if layout not in ("TNC", "NTC"):
            raise AssertionError(f"Invalid layout {layout}; must be one of ['TNC' or 'NTC']")
        self._hidden_size = hidden_size
        self._projection_size = projection_size if projection_size else None
        self._num_layers = num_layers
        self._mode = mode
        self._layout = layout
        self._dropout = dropout
        self._dir = 2 if bidirectional else 1
        self._input_size = input_size
        self._lstm_state_clip_min = lstm_state_clip_min
        self._lstm_state_clip_max = lstm_state_clip_max
        self._lstm_state_clip_nan = lstm_state_clip_nan
        self._dtype = dtype
        self._use_sequence_length = use_sequence_length
        self._inits = {
            "i2h_weight_initializer": i2h_weight_initializer,
            "h2h_weight_initializer": h2h_weight_initializer,
            "i2h_bias_initializer": i2h_bias_initializer,
            "h2h_bias_initializer": h2h_bias_initializer,
        }
        self._gates = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}[mode]
        self.skip_states = False
        ng, ni, nh = self._gates, input_size, hidden_size
        npj = self._projection_size or nh
        for i in range(num_layers):
            for j in ["l", "r"][: self._dir]:
                self._register_param(
                    f"{j}{i}_i2h_weight", (ng * nh, ni), i2h_weight_initializer, dtype
                )
                self._register_param(
                    f"{j}{i}_h2h_weight", (ng * nh, npj), h2h_weight_initializer, dtype
                )
                self._register_param(f"{j}{i}_i2h_bias", (ng * nh,), i2h_bias_initializer, dtype)
                self._register_param(f"{j}{i}_h2h_bias", (ng * nh,), h2h_bias_initializer, dtype)
                if self._projection_size:
                    self._register_param(
                        f"{j}{i}_h2r_weight", (npj, nh), h2r_weight_initializer, dtype
                    )
            ni = npj * self._dir

    def _register_param(self, name, shape, init, dtype):
        p = self.params.get(name, shape=shape, init=init, allow_deferred_init=True, dtype=dtype)
        setattr(self, name, p)
        return p

    def __repr__(self):
        s = f"{self.__class__.__name__}({{mapping}}, {self._layout}"
        if self._num_layers != 1:
            s += f", num_layers={self._num_layers}"
        if self._dropout != 0:
            s += f", dropout={self._dropout}"
        if self._dir == 2:
            s += ", bidirectional"
        s += ")"
        shape = self.l0_i2h_weight.shape
        return s.format(mapping=f"{shape[1] if shape[1] else None} -> {shape[0] // self._gates}")

    def _collect_params_with_prefix(self, prefix=""):
        # MXNet 1.x files name a fused layer's parameters as its unfused cells would:
        # ``_unfused.<layer>.<gate>_<kind>`` (``_unfused.<layer>.<l|r>_cell.<gate>_<kind>``
        # when bidirectional); save_parameters/load_parameters use these keys.
        if prefix:
            prefix += "."
        bidirectional = self._dir == 2
        ret = {}
        for key, val in self._reg_params.items():
            m = _FUSED_KEY.match(key)
            if m is None:
                ret[prefix + key] = val
                continue
            d, layer, gate, kind = m.groups()
            cell = f"{d}_cell." if bidirectional else ""
            ret[f"{prefix}_unfused.{layer}.{cell}{gate}_{kind}"] = val
        for name, child in self._children.items():
            ret.update(child._collect_params_with_prefix(prefix + name))
        return ret

    def state_info(self, batch_size=0):
        raise abstract(self, "state_info")

    def _unfuse(self):
        """The same network as a stack of cells sharing this layer's parameters."""
        from . import rnn_cell

        if self._projection_size:
            raise AssertionError("_unfuse does not support projection layer yet!")
        if self._lstm_state_clip_min or self._lstm_state_clip_max:
            raise AssertionError("_unfuse does not support state clipping yet!")
        nh, mode = self._hidden_size, self._mode

        def get_cell(**kwargs):
            if mode.startswith("rnn_"):
                return rnn_cell.RNNCell(nh, activation=mode[4:], **kwargs)
            return {"lstm": rnn_cell.LSTMCell, "gru": rnn_cell.GRUCell}[mode](nh, **kwargs)

        stack = rnn_cell.HybridSequentialRNNCell(prefix=self.prefix, params=self.params)
        with stack.name_scope():
            ni = self._input_size
            for i in range(self._num_layers):
                kwargs = dict(self._inits, input_size=ni)
                if self._dir == 2:
                    stack.add(
                        rnn_cell.BidirectionalCell(
                            get_cell(prefix=f"l{i}_", **kwargs), get_cell(prefix=f"r{i}_", **kwargs)
                        )
                    )
                else:
                    stack.add(get_cell(prefix=f"l{i}_", **kwargs))
                if self._dropout > 0 and i != self._num_layers - 1:
                    stack.add(rnn_cell.DropoutCell(self._dropout))
                ni = nh * self._dir
        return stack

    def begin_state(self, batch_size=0, func=ndarray.zeros, **kwargs):
        """Initial states (zeros by default) for ``batch_size`` sequences."""
        states = []
        for i, info in enumerate(self.state_info(batch_size)):
            info = dict(info)
            info.update(kwargs)
            # MXNet passes ``__layout__`` on (an attribute of symbolic states) and names
            # the states (symbols ``<prefix>h0_<i>``); ``func`` takes ``name``
            states.append(func(name=f"{self.prefix}h0_{i}", **info))
        return _np_states(states)

    def _infer_input_size(self, inputs):
        if inputs.ndim != 3:
            # MXNet: the RNN operator's shape check, wrapped in deferred initialization's
            # ValueError while the input size is still unknown
            msg = (
                f"MXNetError: Error in operator {self.prefix}rnn0: Check failed: "
                f"dshape.ndim() == 3U ({inputs.ndim} vs. 3) : Input data should be rank-3 "
                "tensor of dim [sequence length, batch size, input size]"
            )
            if not shape_is_known(self.l0_i2h_weight.shape):
                raise ValueError(
                    f"Deferred initialization failed because shape cannot be inferred. {msg}"
                )
            raise MXNetError(msg)
        ni = inputs.shape[2]
        for i in range(self._num_layers):
            for j in ["l", "r"][: self._dir]:
                p = getattr(self, f"{j}{i}_i2h_weight")
                if not shape_is_known(p.shape):
                    # MXNet traced the graph first: the variable keeps the unknown shape
                    # (``__shape__: (n, 0)`` in exported JSON)
                    p.var()
                    p.shape = (self._gates * self._hidden_size, ni)
            ni = (self._projection_size or self._hidden_size) * self._dir

    def infer_shape(self, inputs, *args):
        """Infer parameter shapes from the input (and state) arrays."""
        if isinstance(inputs, ndarray.NDArray):
            self._infer_input_size(inputs)
            if self._projection_size:  # every other shape is fixed by the constructor
                return
        super().infer_shape(inputs, *args)

    def __call__(self, inputs, states=None, sequence_length=None, **kwargs):
        self.skip_states = states is None
        if states is None:
            if isinstance(inputs, ndarray.NDArray):
                batch_size = inputs.shape[self._layout.find("N")]
                states = self.begin_state(batch_size, ctx=inputs.context, dtype=inputs.dtype)
            else:
                from ... import symbol

                states = self.begin_state(0, func=symbol.zeros)
        if isinstance(states, tensor_types):
            states = [states]
        if isinstance(inputs, ndarray.NDArray):
            self._check_deferred_states(inputs, states)
            self._infer_input_size(inputs)
        if self._use_sequence_length:
            return super().__call__(inputs, states, sequence_length, **kwargs)
        return super().__call__(inputs, states, **kwargs)

    def _check_deferred_states(self, inputs, states) -> None:
        """MXNet infers the shapes of a layer still waiting for deferred initialization
        from its inputs *and* states: a state of the wrong shape fails that inference, so
        no parameter is initialized (and no random number drawn) before the error."""
        if not any(p._deferred_init for p in self._reg_params.values()):
            return
        batch_size = inputs.shape[self._layout.find("N")]
        for state, info in zip(states, self.state_info(batch_size)):
            if isinstance(state, ndarray.NDArray) and state.shape != info["shape"]:
                args = [inputs, *states]
                print("infer_shape error. Arguments:")
                for j, a in enumerate(args):
                    print(f"  data{j}: {tuple(a.shape)}")
                provided = "[" + ",".join(str(d) for d in state.shape) + "]"
                raise deferred_error(
                    f"MXNetError: Error in operator {self.prefix}rnn0: Shape inconsistent, "
                    f"Provided = {provided}, inferred shape=({','.join(map(str, info['shape']))})"
                )

    def hybrid_forward(self, F, inputs, states, sequence_length=None, **kwargs):
        from .._np_mode import is_nd_namespace

        if is_nd_namespace(F):
            batch_size = inputs.shape[self._layout.find("N")]
            for state, info in zip(states, self.state_info(batch_size)):
                if state.shape != info["shape"]:
                    raise ValueError(
                        f"Invalid recurrent state shape. Expecting "
                        f"{info['shape']}, got {state.shape}."
                    )
        out = self._forward_kernel(F, inputs, states, sequence_length, **kwargs)
        return out[0] if self.skip_states else out

    def _forward_kernel(self, F, inputs, states, sequence_length, **kwargs):
        if self._layout == "NTC":
            inputs = F.swapaxes(inputs, dim1=0, dim2=1)
        if self._projection_size and self._use_sequence_length:
            if not isinstance(inputs, ndarray.NDArray):
                raise MXNetError(
                    "LSTM with projection_size and use_sequence_length runs "
                    "imperatively only (not hybridized) in this build"
                )
            from ._lstmp import lstmp_forward

            outputs, states = lstmp_forward(self, inputs, states, kwargs)
            if self._layout == "NTC":
                outputs = F.swapaxes(outputs, dim1=0, dim2=1)
            return outputs, states
        # MXNet's flat order: every weight (h2r too, with a projection), then every bias
        gates = ("i2h", "h2h", "h2r") if self._projection_size else ("i2h", "h2h")
        params = [
            kwargs[f"{d}{layer}_{g}_{t}"].reshape(-1)
            for t in ("weight", "bias")
            for layer in range(self._num_layers)
            for d in ["l", "r"][: self._dir]
            for g in gates
            if not (g == "h2r" and t == "bias")
        ]
        params = F._internal._rnn_param_concat(*params, dim=0)
        rnn_args = list(states) + ([sequence_length] if self._use_sequence_length else [])
        rnn = F.RNN(
            inputs,
            params,
            *rnn_args,
            use_sequence_length=self._use_sequence_length,
            state_size=self._hidden_size,
            projection_size=self._projection_size,
            num_layers=self._num_layers,
            bidirectional=self._dir == 2,
            p=self._dropout,
            state_outputs=True,
            mode=self._mode,
            lstm_state_clip_min=self._lstm_state_clip_min,
            lstm_state_clip_max=self._lstm_state_clip_max,
            lstm_state_clip_nan=self._lstm_state_clip_nan,
        )
        if self._mode == "lstm":
            outputs, states = rnn[0], [rnn[1], rnn[2]]
        else:
            outputs, states = rnn[0], [rnn[1]]
        if self._layout == "NTC":
            outputs = F.swapaxes(outputs, dim1=0, dim2=1)
        return outputs, states


class RNN(_RNNLayer):
    """Multi-layer Elman RNN with ``tanh`` or ``relu``.

    Examples
    --------
    >>> layer = mx.gluon.rnn.RNN(100, 3); layer.initialize()
    >>> layer(mx.nd.random.uniform(shape=(5, 3, 10))).shape
    (5, 3, 100)
    """

    def __init__(
        self,
        hidden_size,
        num_layers=1,
        activation="relu",
        layout="TNC",
        dropout=0,
        bidirectional=False,
        i2h_weight_initializer=None,
        h2h_weight_initializer=None,
        i2h_bias_initializer="zeros",
        h2h_bias_initializer="zeros",
        input_size=0,
        dtype="float32",
        **kwargs,
    ):
        super().__init__(
            hidden_size,
            num_layers,
            layout,
            dropout,
            bidirectional,
            input_size,
            i2h_weight_initializer,
            h2h_weight_initializer,
            i2h_bias_initializer,
            h2h_bias_initializer,
            "rnn_" + activation,
            None,
            None,
            None,
            None,
            False,
            dtype,
            **kwargs,
        )

    def state_info(self, batch_size=0):
        return [
            {
                "shape": (self._num_layers * self._dir, batch_size, self._hidden_size),
                "__layout__": "LNC",
                "dtype": self._dtype,
            }
        ]


class LSTM(_RNNLayer):
    """Multi-layer long short-term memory layer.

    Examples
    --------
    >>> layer = mx.gluon.rnn.LSTM(100, 3); layer.initialize()
    """

    def __init__(
        self,
        hidden_size,
        num_layers=1,
        layout="TNC",
        dropout=0,
        bidirectional=False,
        input_size=0,
        i2h_weight_initializer=None,
        h2h_weight_initializer=None,
        i2h_bias_initializer="zeros",
        h2h_bias_initializer="zeros",
        projection_size=None,
        h2r_weight_initializer=None,
        state_clip_min=None,
        state_clip_max=None,
        state_clip_nan=False,
        dtype="float32",
        **kwargs,
    ):
        super().__init__(
            hidden_size,
            num_layers,
            layout,
            dropout,
            bidirectional,
            input_size,
            i2h_weight_initializer,
            h2h_weight_initializer,
            i2h_bias_initializer,
            h2h_bias_initializer,
            "lstm",
            projection_size,
            h2r_weight_initializer,
            state_clip_min,
            state_clip_max,
            state_clip_nan,
            dtype,
            **kwargs,
        )

    def state_info(self, batch_size=0):
        shape = (self._num_layers * self._dir, batch_size, self._hidden_size)
        r_shape = shape[:2] + (self._projection_size or self._hidden_size,)
        return [
            {"shape": r_shape, "__layout__": "LNC", "dtype": self._dtype},
            {"shape": shape, "__layout__": "LNC", "dtype": self._dtype},
        ]


class GRU(_RNNLayer):
    """Multi-layer gated recurrent unit layer.

    Examples
    --------
    >>> layer = mx.gluon.rnn.GRU(100, 3); layer.initialize()
    """

    def __init__(
        self,
        hidden_size,
        num_layers=1,
        layout="TNC",
        dropout=0,
        bidirectional=False,
        input_size=0,
        i2h_weight_initializer=None,
        h2h_weight_initializer=None,
        i2h_bias_initializer="zeros",
        h2h_bias_initializer="zeros",
        dtype="float32",
        **kwargs,
    ):
        super().__init__(
            hidden_size,
            num_layers,
            layout,
            dropout,
            bidirectional,
            input_size,
            i2h_weight_initializer,
            h2h_weight_initializer,
            i2h_bias_initializer,
            h2h_bias_initializer,
            "gru",
            None,
            None,
            None,
            None,
            False,
            dtype,
            **kwargs,
        )

    def state_info(self, batch_size=0):
        return [
            {
                "shape": (self._num_layers * self._dir, batch_size, self._hidden_size),
                "__layout__": "LNC",
                "dtype": self._dtype,
            }
        ]
