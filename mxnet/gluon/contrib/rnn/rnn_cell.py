"""Experimental recurrent cells: :class:`VariationalDropoutCell` and :class:`LSTMPCell`."""

from __future__ import annotations

from ...parameter import tensor_types
from ...rnn._cell_utils import (
    _as_list,
    format_sequence,
    get_begin_state,
    mask_sequence_variable_length,
)
from ...rnn.rnn_cell import (  # noqa: F401  (the private names as MXNet 1.9.1's module has them)
    BidirectionalCell,
    HybridRecurrentCell,
    ModifierCell,
    SequentialRNNCell,
    _format_sequence,
    _get_begin_state,
    _mask_sequence_variable_length,
)

__all__ = ["VariationalDropoutCell", "LSTMPCell", "dynamic_unroll"]


class VariationalDropoutCell(ModifierCell):
    """Dropout with one mask per sequence (the same at every step) on the inputs, the
    first state and the outputs of ``base_cell`` (Gal & Ghahramani, 2016).

    Parameters
    ----------
    base_cell : RecurrentCell
        The wrapped cell.
    drop_inputs, drop_states, drop_outputs : float
        Dropout rates.

    Examples
    --------
    >>> cell = mx.gluon.contrib.rnn.VariationalDropoutCell(mx.gluon.rnn.LSTMCell(8), 0.5)
    >>> cell
    VariationalDropoutCell(p_out = 0.0, p_state = 0.0)
    """

    def __init__(self, base_cell, drop_inputs=0.0, drop_states=0.0, drop_outputs=0.0):
        if drop_states and isinstance(base_cell, BidirectionalCell):
            raise AssertionError("BidirectionalCell doesn't support variational state dropout. "
                                 "Please add VariationalDropoutCell to the cells underneath "
                                 "instead.")
        super().__init__(base_cell)
        self.drop_inputs = drop_inputs
        self.drop_states = drop_states
        self.drop_outputs = drop_outputs
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    def _alias(self):
        return "vardrop"

    def reset(self):
        super().reset()
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    def _initialize_input_masks(self, F, inputs, states):
        if self.drop_states and self.drop_states_mask is None:
            self.drop_states_mask = F.Dropout(F.ones_like(states[0]), p=self.drop_states)
        if self.drop_inputs and self.drop_inputs_mask is None:
            self.drop_inputs_mask = F.Dropout(F.ones_like(inputs), p=self.drop_inputs)

    def _initialize_output_mask(self, F, output):
        if self.drop_outputs and self.drop_outputs_mask is None:
            self.drop_outputs_mask = F.Dropout(F.ones_like(output), p=self.drop_outputs)

    def hybrid_forward(self, F, inputs, states):
        self._initialize_input_masks(F, inputs, states)
        if self.drop_states:
            states = list(states)
            states[0] = states[0] * self.drop_states_mask  # only the hidden state h
        if self.drop_inputs:
            inputs = inputs * self.drop_inputs_mask
        next_output, next_states = self.base_cell(inputs, states)
        self._initialize_output_mask(F, next_output)
        if self.drop_outputs:
            next_output = next_output * self.drop_outputs_mask
        return next_output, next_states

    def __repr__(self):
        return (f"{self.__class__.__name__}(p_out = {self.drop_outputs}, "
                f"p_state = {self.drop_states})")

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        """Unroll; without state dropout the masks apply to the whole sequence at once."""
        if self.drop_states:
            return super().unroll(length, inputs, begin_state, layout, merge_outputs,
                                  valid_length=valid_length)
        self.reset()
        inputs, axis, F, batch_size = format_sequence(length, inputs, layout, True)
        states = get_begin_state(self, F, begin_state, inputs, batch_size)
        if self.drop_inputs:
            inputs = F.Dropout(inputs, p=self.drop_inputs, axes=(axis,))
        outputs, states = self.base_cell.unroll(length, inputs, states, layout,
                                                merge_outputs=True, valid_length=valid_length)
        if self.drop_outputs:
            outputs = F.Dropout(outputs, p=self.drop_outputs, axes=(axis,))
        if merge_outputs is None:
            merge_outputs = isinstance(outputs, tensor_types)
        outputs, _, _, _ = format_sequence(length, outputs, layout, merge_outputs)
        if valid_length is not None:
            outputs = mask_sequence_variable_length(F, outputs, length, valid_length, axis,
                                                    merge_outputs)
        return outputs, states


class LSTMPCell(HybridRecurrentCell):
    """LSTM cell with a projection of the hidden state (Sak et al., 2014); states are
    ``[r, c]`` with ``r`` of size ``projection_size``.

    Examples
    --------
    >>> mx.gluon.contrib.rnn.LSTMPCell(8, 4)
    LSTMPCell(None -> 32 -> 4)
    """

    def __init__(self, hidden_size, projection_size, i2h_weight_initializer=None,
                 h2h_weight_initializer=None, h2r_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0,
                 prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self._projection_size = projection_size
        g = 4 * hidden_size
        get = self.params.get
        self.i2h_weight = get("i2h_weight", shape=(g, input_size), init=i2h_weight_initializer,
                              allow_deferred_init=True)
        self.h2h_weight = get("h2h_weight", shape=(g, projection_size),
                              init=h2h_weight_initializer, allow_deferred_init=True)
        self.h2r_weight = get("h2r_weight", shape=(projection_size, hidden_size),
                              init=h2r_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = get("i2h_bias", shape=(g,), init=i2h_bias_initializer,
                            allow_deferred_init=True)
        self.h2h_bias = get("h2h_bias", shape=(g,), init=h2h_bias_initializer,
                            allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._projection_size), "__layout__": "NC"},
                {"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def _alias(self):
        return "lstmp"

    def __repr__(self):
        shape = self.i2h_weight.shape
        mapping = (f"{shape[1] if shape[1] else None} -> {shape[0]} -> "
                   f"{self.h2r_weight.shape[0]}")
        return f"{self.__class__.__name__}({mapping})"

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, h2r_weight, i2h_bias,
                       h2h_bias):
        prefix = f"t{self._counter}_"
        n = self._hidden_size * 4
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias, num_hidden=n,
                               name=prefix + "i2h")
        h2h = F.FullyConnected(data=states[0], weight=h2h_weight, bias=h2h_bias, num_hidden=n,
                               name=prefix + "h2h")
        gates = F.SliceChannel(i2h + h2h, num_outputs=4, name=prefix + "slice")
        in_gate = F.Activation(gates[0], act_type="sigmoid", name=prefix + "i")
        forget_gate = F.Activation(gates[1], act_type="sigmoid", name=prefix + "f")
        in_transform = F.Activation(gates[2], act_type="tanh", name=prefix + "c")
        out_gate = F.Activation(gates[3], act_type="sigmoid", name=prefix + "o")
        next_c = F._internal._plus(forget_gate * states[1], in_gate * in_transform,
                                   name=prefix + "state")
        hidden = F._internal._mul(out_gate, F.Activation(next_c, act_type="tanh"),
                                  name=prefix + "hidden")
        next_r = F.FullyConnected(data=hidden, num_hidden=self._projection_size,
                                  weight=h2r_weight, no_bias=True, name=prefix + "out")
        return next_r, [next_r, next_c]


def dynamic_unroll(cell, inputs, begin_state, drop_inputs=0, drop_outputs=0, layout="TNC",
                   valid_length=None):
    """Unroll ``cell`` over the time axis of ``inputs`` with ``contrib.foreach`` (the
    sequence length need not be known when tracing).

    Returns ``(outputs, states)``; with ``valid_length`` the outputs past each sequence's
    end are zero and the states are those of its last valid step.

    Examples
    --------
    >>> cell = mx.gluon.rnn.GRUCell(4); cell.initialize()
    >>> x = mx.nd.ones((5, 2, 3))
    >>> out, st = dynamic_unroll(cell, x, cell.begin_state(2))
    >>> out.shape
    (5, 2, 4)
    """
    inputs, axis, F, _ = format_sequence(0, inputs, layout, True)
    axes = list(range(len(layout)))
    if axis != 0:  # foreach walks axis 0
        axes[0], axes[axis] = axes[axis], axes[0]
        inputs = F.transpose(inputs, axes=axes)
    states = begin_state
    if drop_inputs:
        inputs = F.Dropout(inputs, p=drop_inputs, axes=(axis,))
    if valid_length is None:
        def loop_body(step, states):
            return cell(step, states)
    else:
        states = list(_as_list(states)) + [F.zeros((1,))]  # the last state counts steps

        def loop_body(step, states):
            cell_states, iter_no = states[:-1], states[-1]
            out, new_states = cell(step, cell_states)
            keep = F.broadcast_greater(valid_length, iter_no)
            new_states = [F.where(keep, new, old) for new, old in zip(new_states, cell_states)]
            return out, new_states + [iter_no + 1]
    outputs, states = F.contrib.foreach(loop_body, inputs, states)
    if drop_outputs:
        outputs = F.Dropout(outputs, p=drop_outputs, axes=(axis,))
    if axis != 0:
        outputs = F.transpose(outputs, axes)
    if valid_length is None:
        return outputs, states
    outputs = F.SequenceMask(outputs, sequence_length=valid_length, use_sequence_length=True,
                             axis=axis)
    return outputs, states[:-1]
