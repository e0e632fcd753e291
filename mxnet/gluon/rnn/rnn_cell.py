"""Recurrent cells: one step of a recurrence, and ``unroll`` over a sequence."""

from __future__ import annotations

from ... import ndarray
from ...base import MXNetError
from ..block import Block, HybridBlock, _indent
from ..nn import LeakyReLU
from ..parameter import tensor_types
from ._cell_utils import (
    _as_list,  # noqa: F401  (MXNet 1.9.1's module-level helpers, imported by custom cells)
    cells_begin_state,
    cells_state_info,
    format_sequence,
    get_begin_state,
    mask_sequence_variable_length,
    reverse_sequences,
)

# MXNet 1.9.1's private names of the helpers above (third-party RNN cells import them)
_cells_begin_state = cells_begin_state
_cells_state_info = cells_state_info
_format_sequence = format_sequence
_get_begin_state = get_begin_state
_mask_sequence_variable_length = mask_sequence_variable_length
_reverse_sequences = reverse_sequences

__all__ = [
    "RecurrentCell",
    "HybridRecurrentCell",
    "RNNCell",
    "LSTMCell",
    "GRUCell",
    "SequentialRNNCell",
    "HybridSequentialRNNCell",
    "DropoutCell",
    "ModifierCell",
    "ZoneoutCell",
    "ResidualCell",
    "BidirectionalCell",
]


def _get_activation(F, inputs, activation, **kwargs):
    if isinstance(activation, str):
        if activation in ("tanh", "sigmoid", "relu", "softsign"):
            return getattr(F, activation)(inputs, **kwargs)
        return F.Activation(inputs, act_type=activation, **kwargs)
    if isinstance(activation, LeakyReLU):
        return F.LeakyReLU(inputs, act_type="leaky", slope=activation._alpha, **kwargs)
    return activation(inputs, **kwargs)


def _np_states(states):
    """Begin states as ``mx.np`` arrays under ``npx.set_np()`` (same storage)."""
    from ...util import is_np_array

    if not is_np_array():
        return states
    from .._np_mode import to_np

    return to_np(states)


class RecurrentCell(Block):
    """Base class of recurrent cells: ``cell(x_t, states) -> (out_t, new_states)``."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._modified = False
        self.reset()

    def reset(self):
        """Reset the step counters before a new sequence."""
        self._init_counter = -1
        self._counter = -1
        for cell in self._children.values():
            cell.reset()

    def state_info(self, batch_size=0):
        raise MXNetError(f"{self.__class__.__name__} does not define state_info")

    def begin_state(self, batch_size=0, func=ndarray.zeros, **kwargs):
        """Initial states for ``batch_size`` sequences (``func`` makes each array)."""
        if self._modified:
            raise AssertionError(
                "After applying modifier cells (e.g. ZoneoutCell) the base "
                "cell cannot be called directly. Call the modifier cell "
                "instead."
            )
        states = []
        for info in self.state_info(batch_size):
            self._init_counter += 1
            info = dict(info) if info is not None else {}
            info.update(kwargs)
            # named <prefix>begin_state_<n> and given the __layout__ attribute, as MXNet
            # (func may be sym.var, whose name is required)
            name = f"{self._prefix}begin_state_{self._init_counter}"
            states.append(func(name=name, **info))
        return _np_states(states)

    def unroll(
        self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None
    ):
        """Run the cell over ``length`` steps of ``inputs``; returns (outputs, states).

        Examples
        --------
        >>> cell = mx.gluon.rnn.LSTMCell(8); cell.initialize()
        >>> out, st = cell.unroll(3, mx.nd.ones((2, 3, 4)), merge_outputs=True)
        >>> out.shape
        (2, 3, 8)
        """
        self.reset()
        inputs, axis, F, batch_size = format_sequence(length, inputs, layout, False)
        states = get_begin_state(self, F, begin_state, inputs, batch_size)
        outputs, all_states = [], []
        for i in range(length):
            output, states = self(inputs[i], states)
            outputs.append(output)
            if valid_length is not None:
                all_states.append(states)
        if valid_length is not None:
            states = [
                F.SequenceLast(
                    F.stack(*ele, axis=0),
                    sequence_length=valid_length,
                    use_sequence_length=True,
                    axis=0,
                )
                for ele in zip(*all_states)
            ]
            outputs = mask_sequence_variable_length(F, outputs, length, valid_length, axis, True)
        outputs, _, _, _ = format_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def forward(self, inputs, states):
        self._counter += 1
        return super().forward(inputs, states)


class HybridRecurrentCell(RecurrentCell, HybridBlock):
    """Recurrent cell whose step is written in ``hybrid_forward``."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def forward(self, inputs, states):
        self._counter += 1
        return HybridBlock.forward(self, inputs, states)


def _cell_repr(cell):
    shape = cell.i2h_weight.shape
    s = f"{cell.__class__.__name__}({shape[1] if shape[1] else None} -> {shape[0]}"
    if isinstance(cell, RNNCell):  # MXNet prints the activation of RNNCell only
        s += f", {cell._activation}"
    return s + ")"


class _GatedCell(HybridRecurrentCell):
    _gates = 1

    def __init__(
        self,
        hidden_size,
        i2h_weight_initializer,
        h2h_weight_initializer,
        i2h_bias_initializer,
        h2h_bias_initializer,
        input_size,
        prefix,
        params,
    ):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        g = self._gates * hidden_size
        self.i2h_weight = self.params.get(
            "i2h_weight",
            shape=(g, input_size),
            init=i2h_weight_initializer,
            allow_deferred_init=True,
        )
        self.h2h_weight = self.params.get(
            "h2h_weight",
            shape=(g, hidden_size),
            init=h2h_weight_initializer,
            allow_deferred_init=True,
        )
        self.i2h_bias = self.params.get(
            "i2h_bias", shape=(g,), init=i2h_bias_initializer, allow_deferred_init=True
        )
        self.h2h_bias = self.params.get(
            "h2h_bias", shape=(g,), init=h2h_bias_initializer, allow_deferred_init=True
        )

    def _alias(self):
        return self._ALIAS

    def __repr__(self):
        return _cell_repr(self)

    def _fc(self, F, prefix, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        n = self._gates * self._hidden_size
        i2h = F.FullyConnected(
            data=inputs, weight=i2h_weight, bias=i2h_bias, num_hidden=n, name=prefix + "i2h"
        )
        h2h = F.FullyConnected(
            data=states[0], weight=h2h_weight, bias=h2h_bias, num_hidden=n, name=prefix + "h2h"
        )
        return i2h, h2h


class RNNCell(_GatedCell):
    """Elman cell: ``h' = act(W_i x + b_i + W_h h + b_h)``."""

    _gates, _ALIAS = 1, "rnn"

    def __init__(
        self,
        hidden_size,
        activation="tanh",
        i2h_weight_initializer=None,
        h2h_weight_initializer=None,
        i2h_bias_initializer="zeros",
        h2h_bias_initializer="zeros",
        input_size=0,
        prefix=None,
        params=None,
    ):
        super().__init__(
            hidden_size,
            i2h_weight_initializer,
            h2h_weight_initializer,
            i2h_bias_initializer,
            h2h_bias_initializer,
            input_size,
            prefix,
            params,
        )
        self._activation = activation

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = f"t{self._counter}_"
        i2h, h2h = self._fc(F, prefix, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias)
        output = _get_activation(
            F,
            F.elemwise_add(i2h, h2h, name=prefix + "plus0"),
            self._activation,
            name=prefix + "out",
        )
        return output, [output]


class LSTMCell(_GatedCell):
    """LSTM cell (gates i, f, c, o), states ``[h, c]``."""

    _gates, _ALIAS = 4, "lstm"

    def __init__(
        self,
        hidden_size,
        i2h_weight_initializer=None,
        h2h_weight_initializer=None,
        i2h_bias_initializer="zeros",
        h2h_bias_initializer="zeros",
        input_size=0,
        prefix=None,
        params=None,
        activation="tanh",
        recurrent_activation="sigmoid",
    ):
        super().__init__(
            hidden_size,
            i2h_weight_initializer,
            h2h_weight_initializer,
            i2h_bias_initializer,
            h2h_bias_initializer,
            input_size,
            prefix,
            params,
        )
        self._activation = activation
        self._recurrent_activation = recurrent_activation

    def state_info(self, batch_size=0):
        return [
            {"shape": (batch_size, self._hidden_size), "__layout__": "NC"},
            {"shape": (batch_size, self._hidden_size), "__layout__": "NC"},
        ]

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = f"t{self._counter}_"
        i2h, h2h = self._fc(F, prefix, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias)
        gates = F.elemwise_add(i2h, h2h, name=prefix + "plus0")
        sl = F.SliceChannel(gates, num_outputs=4, name=prefix + "slice")
        rec, act = self._recurrent_activation, self._activation
        in_gate = _get_activation(F, sl[0], rec, name=prefix + "i")
        forget_gate = _get_activation(F, sl[1], rec, name=prefix + "f")
        in_transform = _get_activation(F, sl[2], act, name=prefix + "c")
        out_gate = _get_activation(F, sl[3], rec, name=prefix + "o")
        next_c = F.elemwise_add(
            F.elemwise_mul(forget_gate, states[1], name=prefix + "mul0"),
            F.elemwise_mul(in_gate, in_transform, name=prefix + "mul1"),
            name=prefix + "state",
        )
        next_h = F.elemwise_mul(
            out_gate,
            F.Activation(next_c, act_type=act, name=prefix + "activation0"),
            name=prefix + "out",
        )
        return next_h, [next_h, next_c]


class GRUCell(_GatedCell):
    """GRU cell (gates r, z, n; MXNet's formula with the reset gate on ``W_h h + b_h``)."""

    _gates, _ALIAS = 3, "gru"

    def __init__(
        self,
        hidden_size,
        i2h_weight_initializer=None,
        h2h_weight_initializer=None,
        i2h_bias_initializer="zeros",
        h2h_bias_initializer="zeros",
        input_size=0,
        prefix=None,
        params=None,
        activation="tanh",
        recurrent_activation="sigmoid",
    ):
        super().__init__(
            hidden_size,
            i2h_weight_initializer,
            h2h_weight_initializer,
            i2h_bias_initializer,
            h2h_bias_initializer,
            input_size,
            prefix,
            params,
        )
        self._activation = activation
        self._recurrent_activation = recurrent_activation

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = f"t{self._counter}_"
        prev_h = states[0]
        i2h, h2h = self._fc(F, prefix, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias)
        i2h_r, i2h_z, i2h = F.SliceChannel(i2h, num_outputs=3, name=prefix + "i2h_slice")
        h2h_r, h2h_z, h2h = F.SliceChannel(h2h, num_outputs=3, name=prefix + "h2h_slice")
        rec = self._recurrent_activation
        reset_gate = _get_activation(
            F, F.elemwise_add(i2h_r, h2h_r, name=prefix + "plus0"), rec, name=prefix + "r_act"
        )
        update_gate = _get_activation(
            F, F.elemwise_add(i2h_z, h2h_z, name=prefix + "plus1"), rec, name=prefix + "z_act"
        )
        next_tmp = _get_activation(
            F,
            F.elemwise_add(
                i2h, F.elemwise_mul(reset_gate, h2h, name=prefix + "mul0"), name=prefix + "plus2"
            ),
            self._activation,
            name=prefix + "h_act",
        )
        ones = F.ones_like(update_gate, name=prefix + "ones_like0")
        next_h = F.elemwise_add(
            F.elemwise_mul(
                F.elemwise_sub(ones, update_gate, name=prefix + "minus0"),
                next_tmp,
                name=prefix + "mul1",
            ),
            F.elemwise_mul(update_gate, prev_h, name=prefix + "mul20"),
            name=prefix + "out",
        )
        return next_h, [next_h]


class SequentialRNNCell(RecurrentCell):
    """Stack of cells applied one after another at every step."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def __repr__(self):
        # MXNet 1.9.1: "(i): " lines are not indented, a child's own lines are (by 2)
        mod = "\n".join(f"({i}): {_indent(repr(m), 2)}" for i, m in self._children.items())
        return f"{self.__class__.__name__}(\n{mod}\n)"

    def add(self, cell):
        """Append a cell."""
        self.register_child(cell)

    def state_info(self, batch_size=0):
        return cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        if self._modified:
            raise AssertionError(
                "After applying modifier cells (e.g. ZoneoutCell) the base "
                "cell cannot be called directly. Call the modifier cell "
                "instead."
            )
        return cells_begin_state(self._children.values(), **kwargs)

    def unroll(
        self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None
    ):
        self.reset()
        inputs, _, F, batch_size = format_sequence(length, inputs, layout, None)
        num_cells = len(self._children)
        begin_state = get_begin_state(self, F, begin_state, inputs, batch_size)
        p, next_states = 0, []
        for i, cell in enumerate(self._children.values()):
            n = len(cell.state_info())
            states = begin_state[p : p + n]
            p += n
            inputs, states = cell.unroll(
                length,
                inputs=inputs,
                begin_state=states,
                layout=layout,
                merge_outputs=None if i < num_cells - 1 else merge_outputs,
                valid_length=valid_length,
            )
            next_states.extend(states)
        return inputs, next_states

    def __call__(self, inputs, states):
        self._counter += 1
        next_states, p = [], 0
        for cell in self._children.values():
            if isinstance(cell, BidirectionalCell):
                raise AssertionError("BidirectionalCell cannot be stepped")
            n = len(cell.state_info())
            state = states[p : p + n]
            p += n
            inputs, state = cell(inputs, state)
            next_states.append(state)
        return inputs, sum(next_states, [])

    def __getitem__(self, i):
        return list(self._children.values())[i]

    def __len__(self):
        return len(self._children)


class HybridSequentialRNNCell(SequentialRNNCell, HybridRecurrentCell):
    """Hybridizable :class:`SequentialRNNCell`."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def hybrid_forward(self, F, inputs, states):
        return SequentialRNNCell.__call__(self, inputs, states)


class DropoutCell(HybridRecurrentCell):
    """Dropout on the inputs of every step (no state)."""

    def __init__(self, rate, axes=(), prefix=None, params=None):
        super().__init__(prefix, params)
        if not isinstance(rate, (int, float)):
            raise AssertionError("rate must be a number")
        self._rate = rate
        self._axes = axes

    def __repr__(self):
        return f"{self.__class__.__name__}(rate={self._rate}, axes={self._axes})"

    def state_info(self, batch_size=0):
        return []

    def _alias(self):
        return "dropout"

    def hybrid_forward(self, F, inputs, states):
        if self._rate > 0:
            inputs = F.Dropout(
                data=inputs, p=self._rate, axes=self._axes, name=f"t{self._counter}_fwd"
            )
        return inputs, states

    def unroll(
        self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None
    ):
        self.reset()
        inputs, _, F, _ = format_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, tensor_types):
            return self.hybrid_forward(F, inputs, begin_state if begin_state else [])
        return super().unroll(
            length,
            inputs,
            begin_state=begin_state,
            layout=layout,
            merge_outputs=merge_outputs,
            valid_length=None,
        )


class ModifierCell(HybridRecurrentCell):
    """Base of cells that wrap another cell (Zoneout, Residual)."""

    def __init__(self, base_cell):
        if base_cell._modified:
            raise AssertionError(
                f"Cell {base_cell.name} is already modified. One cell cannot be modified twice"
            )
        base_cell._modified = True
        super().__init__(prefix=base_cell.prefix + self._alias(), params=None)
        self.base_cell = base_cell

    @property
    def params(self):
        return self.base_cell.params

    def state_info(self, batch_size=0):
        return self.base_cell.state_info(batch_size)

    def begin_state(self, func=ndarray.zeros, **kwargs):
        self.base_cell._modified = False
        begin = self.base_cell.begin_state(func=func, **kwargs)
        self.base_cell._modified = True
        return begin

    def __repr__(self):
        return f"{self.__class__.__name__}({self.base_cell!r})"


class ZoneoutCell(ModifierCell):
    """Zoneout: randomly keep the previous output/state instead of the new one."""

    def __init__(self, base_cell, zoneout_outputs=0.0, zoneout_states=0.0):
        if isinstance(base_cell, BidirectionalCell):
            raise AssertionError(
                "BidirectionalCell doesn't support zoneout since it doesn't "
                "support step. Please add ZoneoutCell to the cells underneath "
                "instead."
            )
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self._prev_output = None
        super().__init__(base_cell)

    def _alias(self):
        return "zoneout"

    def __repr__(self):
        return (
            f"{self.__class__.__name__}(p_out={self.zoneout_outputs}, "
            f"p_state={self.zoneout_states}, {self.base_cell!r})"
        )

    def reset(self):
        super().reset()
        self._prev_output = None

    def hybrid_forward(self, F, inputs, states):
        cell, p_out, p_st = self.base_cell, self.zoneout_outputs, self.zoneout_states
        next_output, next_states = cell(inputs, states)

        def mask(p, like):
            return F.Dropout(F.ones_like(like), p=p)

        prev = self._prev_output
        if prev is None:
            prev = F.zeros_like(next_output)
        output = (
            F.where(mask(p_out, next_output), next_output, prev) if p_out != 0.0 else next_output
        )
        states = (
            [F.where(mask(p_st, n), n, o) for n, o in zip(next_states, states)]
            if p_st != 0.0
            else next_states
        )
        self._prev_output = output
        return output, states


class ResidualCell(ModifierCell):
    """Add the step input to the base cell's output."""

    def _alias(self):
        return "residualcell"

    def hybrid_forward(self, F, inputs, states):
        output, states = self.base_cell(inputs, states)
        return F.elemwise_add(output, inputs, name=f"t{self._counter}_fwd"), states

    def unroll(
        self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None
    ):
        self.reset()
        self.base_cell._modified = False
        outputs, states = self.base_cell.unroll(
            length,
            inputs=inputs,
            begin_state=begin_state,
            layout=layout,
            merge_outputs=merge_outputs,
            valid_length=valid_length,
        )
        self.base_cell._modified = True
        merge = isinstance(outputs, tensor_types) if merge_outputs is None else merge_outputs
        inputs, axis, F, _ = format_sequence(length, inputs, layout, merge)
        if valid_length is not None:
            inputs = mask_sequence_variable_length(F, inputs, length, valid_length, axis, merge)
        if merge:
            return F.elemwise_add(outputs, inputs), states
        return [F.elemwise_add(i, j) for i, j in zip(outputs, inputs)], states


class BidirectionalCell(HybridRecurrentCell):
    """Run ``l_cell`` forward and ``r_cell`` backward in time; outputs concatenated."""

    def __init__(self, l_cell, r_cell, output_prefix="bi_"):
        super().__init__(prefix="", params=None)
        self.register_child(l_cell, "l_cell")
        self.register_child(r_cell, "r_cell")
        self._output_prefix = output_prefix

    def __call__(self, inputs, states):
        raise MXNetError("Bidirectional cannot be stepped. Please use unroll")

    def __repr__(self):
        l_cell, r_cell = self._children.values()
        return f"{self.__class__.__name__}(forward={l_cell!r}, backward={r_cell!r})"

    def state_info(self, batch_size=0):
        return cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        if self._modified:
            raise AssertionError(
                "After applying modifier cells (e.g. DropoutCell) the base "
                "cell cannot be called directly. Call the modifier cell "
                "instead."
            )
        return cells_begin_state(self._children.values(), **kwargs)

    def unroll(
        self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None
    ):
        self.reset()
        inputs, axis, F, batch_size = format_sequence(length, inputs, layout, False)
        reversed_inputs = list(reverse_sequences(inputs, length, valid_length))
        states = get_begin_state(self, F, begin_state, inputs, batch_size)
        l_cell, r_cell = self._children.values()
        nl = len(l_cell.state_info(batch_size))
        l_out, l_states = l_cell.unroll(
            length,
            inputs=inputs,
            begin_state=states[:nl],
            layout=layout,
            merge_outputs=merge_outputs,
            valid_length=valid_length,
        )
        r_out, r_states = r_cell.unroll(
            length,
            inputs=reversed_inputs,
            begin_state=states[nl:],
            layout=layout,
            merge_outputs=False,
            valid_length=valid_length,
        )
        rev_r = reverse_sequences(r_out, length, valid_length)
        if merge_outputs is None:
            merge_outputs = isinstance(l_out, tensor_types)
            l_out, _, _, _ = format_sequence(None, l_out, layout, merge_outputs)
            rev_r, _, _, _ = format_sequence(None, rev_r, layout, merge_outputs)
        if merge_outputs:
            if not isinstance(rev_r, tensor_types):
                rev_r = F.stack(*rev_r, axis=axis)
            outputs = F.concat(l_out, rev_r, dim=2, name=f"{self._output_prefix}out")
        else:
            outputs = [
                F.concat(lo, ro, dim=1, name=f"{self._output_prefix}t{i}")
                for i, (lo, ro) in enumerate(zip(l_out, rev_r))
            ]
        if valid_length is not None:
            outputs = mask_sequence_variable_length(
                F, outputs, length, valid_length, axis, merge_outputs
            )
        return outputs, l_states + r_states
