"""Fused, bidirectional and modifier cells of ``mx.rnn`` (see :mod:`mxnet.rnn.rnn_cell`)."""

from __future__ import annotations

import warnings

from .. import symbol
from ..base import MXNetError
from .rnn_cell import (
    BaseRNNCell,
    DropoutCell,
    GRUCell,
    LSTMCell,
    RNNCell,
    SequentialRNNCell,
    _normalize_sequence,
)

__all__ = ["FusedRNNCell", "ModifierCell", "ZoneoutCell", "ResidualCell", "BidirectionalCell"]

_FUSED_GATES = {
    "rnn_relu": [""],
    "rnn_tanh": [""],
    "lstm": ["_i", "_f", "_c", "_o"],
    "gru": ["_r", "_z", "_o"],
}


class FusedRNNCell(BaseRNNCell):
    """Several layers of a recurrence run by the fused ``RNN`` operator (unroll only).

    Parameters
    ----------
    num_hidden : int
    num_layers : int
    mode : {'rnn_relu', 'rnn_tanh', 'lstm', 'gru'}
    bidirectional : bool
    dropout : float
    get_next_state : bool
        Whether ``unroll`` returns the final states.
    forget_bias : float
    prefix : str, default ``mode + '_'``
    params : RNNParams, optional

    Examples
    --------
    >>> cell = mx.rnn.FusedRNNCell(8, num_layers=2, mode='lstm', prefix='lstm_')
    >>> out, _ = cell.unroll(5, mx.sym.var('data'), layout='TNC', merge_outputs=True)
    """

    def __init__(
        self,
        num_hidden: int,
        num_layers: int = 1,
        mode: str = "lstm",
        bidirectional: bool = False,
        dropout: float = 0.0,
        get_next_state: bool = False,
        forget_bias: float = 1.0,
        prefix=None,
        params=None,
    ):
        from ..initializer import FusedRNN

        if mode not in _FUSED_GATES:
            raise MXNetError(
                f"FusedRNNCell: unknown mode '{mode}', expected one of {sorted(_FUSED_GATES)}"
            )
        if prefix is None:
            prefix = f"{mode}_"
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._dropout = dropout
        self._get_next_state = get_next_state
        self._directions = ["l", "r"] if bidirectional else ["l"]
        init = FusedRNN(None, num_hidden, num_layers, mode, bidirectional, forget_bias)
        self._parameter = self.params.get("parameters", init=init)

    @property
    def state_info(self):
        b = self._bidirectional + 1
        n = (self._mode == "lstm") + 1
        return [
            {"shape": (b * self._num_layers, 0, self._num_hidden), "__layout__": "LNC"}
            for _ in range(n)
        ]

    @property
    def _gate_names(self):
        return _FUSED_GATES[self._mode]

    @property
    def _num_gates(self) -> int:
        return len(self._gate_names)

    def _slots(self, num_input: int) -> list[tuple[str, tuple]]:
        """(name, shape) of every piece of the flat parameter vector, in order."""
        h, b, p = self._num_hidden, len(self._directions), self._prefix
        weights, biases = [], []
        for layer in range(self._num_layers):
            ins = num_input if layer == 0 else b * h
            for d in self._directions:
                for g in self._gate_names:
                    weights.append((f"{p}{d}{layer}_i2h{g}_weight", (h, ins)))
                for g in self._gate_names:
                    weights.append((f"{p}{d}{layer}_h2h{g}_weight", (h, h)))
                for g in self._gate_names:
                    biases.append((f"{p}{d}{layer}_i2h{g}_bias", (h,)))
                for g in self._gate_names:
                    biases.append((f"{p}{d}{layer}_h2h{g}_bias", (h,)))
        return weights + biases

    def unpack_weights(self, args):
        args = dict(args)
        arr = args.pop(self._parameter.name)
        b, m, h = len(self._directions), self._num_gates, self._num_hidden
        num_input = arr.size // b // h // m - (self._num_layers - 1) * (h + b * h + 2) - h - 2
        pos = 0
        for name, shape in self._slots(num_input):
            size = 1
            for s in shape:
                size *= s
            args[name] = arr[pos : pos + size].reshape(shape).copy()
            pos += size
        if pos != arr.size:
            raise MXNetError(
                f"FusedRNNCell.unpack_weights: parameter size {arr.size} does not "
                f"match the layout ({pos})"
            )
        return args

    def pack_weights(self, args):
        from .. import ndarray

        args = dict(args)
        w0 = args[f"{self._prefix}l0_i2h{self._gate_names[0]}_weight"]
        pieces = [args.pop(name).reshape((-1,)) for name, _ in self._slots(w0.shape[1])]
        args[self._parameter.name] = ndarray.concatenate(pieces)
        return args

    def __call__(self, inputs, states):
        raise MXNetError("FusedRNNCell cannot be stepped. Please use unroll")

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        inputs, axis = _normalize_sequence(length, inputs, layout, True)
        if axis == 1:
            warnings.warn(
                "NTC layout detected. Consider using TNC for FusedRNNCell for faster speed",
                stacklevel=2,
            )
            inputs = symbol.swapaxes(inputs, dim1=0, dim2=1)
        elif axis != 0:
            raise MXNetError(f"FusedRNNCell: unsupported layout {layout}")
        if begin_state is None:
            begin_state = self.begin_state()
        states = {"state": begin_state[0]}
        if self._mode == "lstm":
            states["state_cell"] = begin_state[1]
        rnn = symbol.RNN(
            data=inputs,
            parameters=self._parameter,
            state_size=self._num_hidden,
            num_layers=self._num_layers,
            bidirectional=self._bidirectional,
            p=self._dropout,
            state_outputs=self._get_next_state,
            mode=self._mode,
            name=f"{self._prefix}rnn",
            **states,
        )
        if not self._get_next_state:
            outputs, states = rnn, []
        else:
            n = 3 if self._mode == "lstm" else 2
            for k in range(1, n):
                rnn[k]._set_attr(__layout__="LNC")
            outputs, states = rnn[0], [rnn[k] for k in range(1, n)]
        if axis == 1:
            outputs = symbol.swapaxes(outputs, dim1=0, dim2=1)
        outputs, _ = _normalize_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def unfuse(self) -> SequentialRNNCell:
        """The equivalent stack of unfused cells (same parameter names after unpacking)."""
        make = {
            "rnn_relu": lambda p: RNNCell(self._num_hidden, activation="relu", prefix=p),
            "rnn_tanh": lambda p: RNNCell(self._num_hidden, activation="tanh", prefix=p),
            "lstm": lambda p: LSTMCell(self._num_hidden, prefix=p),
            "gru": lambda p: GRUCell(self._num_hidden, prefix=p),
        }[self._mode]
        stack = SequentialRNNCell()
        for i in range(self._num_layers):
            if self._bidirectional:
                stack.add(
                    BidirectionalCell(
                        make(f"{self._prefix}l{i}_"),
                        make(f"{self._prefix}r{i}_"),
                        output_prefix=f"{self._prefix}bi_l{i}_",
                    )
                )
            else:
                stack.add(make(f"{self._prefix}l{i}_"))
            if self._dropout > 0 and i != self._num_layers - 1:
                stack.add(DropoutCell(self._dropout, prefix=f"{self._prefix}_dropout{i}_"))
        return stack


class ModifierCell(BaseRNNCell):
    """Base of cells that wrap another cell (dropout, zoneout, residual).

    Examples
    --------
    >>> cell = mx.rnn.ResidualCell(mx.rnn.GRUCell(4))
    """

    def __init__(self, base_cell: BaseRNNCell):
        super().__init__()
        base_cell._modified = True
        self.base_cell = base_cell

    @property
    def params(self):
        self._own_params = False
        return self.base_cell.params

    @property
    def state_info(self):
        return self.base_cell.state_info

    def begin_state(self, init_sym=symbol.zeros, **kwargs):
        if self._modified:
            raise MXNetError(
                "After applying modifier cells (e.g. DropoutCell) the base cell "
                "cannot be called directly. Call the modifier cell instead."
            )
        self.base_cell._modified = False
        try:
            return self.base_cell.begin_state(func=init_sym, **kwargs)
        finally:
            self.base_cell._modified = True

    def unpack_weights(self, args):
        return self.base_cell.unpack_weights(args)

    def pack_weights(self, args):
        return self.base_cell.pack_weights(args)

    def __call__(self, inputs, states):
        raise MXNetError(f"{type(self).__name__} must define __call__")


class ZoneoutCell(ModifierCell):
    """Zoneout: randomly keep the previous output/states instead of the new ones.

    Examples
    --------
    >>> cell = mx.rnn.ZoneoutCell(mx.rnn.RNNCell(4), zoneout_outputs=0.5)
    """

    def __init__(self, base_cell, zoneout_outputs: float = 0.0, zoneout_states: float = 0.0):
        if isinstance(base_cell, FusedRNNCell):
            raise MXNetError("FusedRNNCell doesn't support zoneout. Please unfuse first.")
        if isinstance(base_cell, BidirectionalCell):
            raise MXNetError(
                "BidirectionalCell doesn't support zoneout since it doesn't "
                "support step. Please add ZoneoutCell to the cells underneath "
                "instead."
            )
        super().__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self.prev_output = None

    def reset(self):
        super().reset()
        self.prev_output = None

    def __call__(self, inputs, states):
        out, new_states = self.base_cell(inputs, states)

        def mask(p, like):
            return symbol.Dropout(symbol.ones_like(like), p=p)

        prev = self.prev_output if self.prev_output is not None else symbol.zeros((0, 0))
        if self.zoneout_outputs != 0.0:
            out = symbol.where(mask(self.zoneout_outputs, out), out, prev)
        if self.zoneout_states != 0.0:
            new_states = [
                symbol.where(mask(self.zoneout_states, n), n, o) for n, o in zip(new_states, states)
            ]
        self.prev_output = out
        return out, new_states


class ResidualCell(ModifierCell):
    """Adds the input to the output of the wrapped cell.

    Examples
    --------
    >>> cell = mx.rnn.ResidualCell(mx.rnn.GRUCell(4))
    """

    def __call__(self, inputs, states):
        out, states = self.base_cell(inputs, states)
        return symbol.elemwise_add(out, inputs, name=f"{out.name}_plus_residual"), states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        self.base_cell._modified = False
        outputs, states = self.base_cell.unroll(
            length,
            inputs=inputs,
            begin_state=begin_state,
            layout=layout,
            merge_outputs=merge_outputs,
        )
        self.base_cell._modified = True
        if merge_outputs is None:
            merge_outputs = isinstance(outputs, symbol.Symbol)
        inputs, _ = _normalize_sequence(length, inputs, layout, merge_outputs)
        if merge_outputs:
            outputs = symbol.elemwise_add(outputs, inputs, name=f"{outputs.name}_plus_residual")
        else:
            outputs = [
                symbol.elemwise_add(o, i, name=f"{o.name}_plus_residual")
                for o, i in zip(outputs, inputs)
            ]
        return outputs, states


class BidirectionalCell(BaseRNNCell):
    """Runs one cell forward and one backward in time and concatenates their outputs.

    Examples
    --------
    >>> bi = mx.rnn.BidirectionalCell(mx.rnn.LSTMCell(4, prefix='l_'),
    ...                               mx.rnn.LSTMCell(4, prefix='r_'))
    >>> out, states = bi.unroll(3, mx.sym.var('data'), merge_outputs=True)
    """

    def __init__(self, l_cell, r_cell, params=None, output_prefix: str = "bi_"):
        super().__init__("", params=params)
        self._output_prefix = output_prefix
        self._override_cell_params = params is not None
        if self._override_cell_params:
            if not (l_cell._own_params and r_cell._own_params):
                raise MXNetError(
                    "Either specify params for BidirectionalCell or child cells, not both."
                )
            l_cell.params._params.update(self.params._params)
            r_cell.params._params.update(self.params._params)
        self.params._params.update(l_cell.params._params)
        self.params._params.update(r_cell.params._params)
        self._cells = [l_cell, r_cell]

    def unpack_weights(self, args):
        for cell in self._cells:
            args = cell.unpack_weights(args)
        return args

    def pack_weights(self, args):
        for cell in self._cells:
            args = cell.pack_weights(args)
        return args

    def __call__(self, inputs, states):
        raise MXNetError("Bidirectional cannot be stepped. Please use unroll")

    @property
    def state_info(self):
        return sum((c.state_info for c in self._cells), [])

    def begin_state(self, **kwargs):
        if self._modified:
            raise MXNetError(
                "After applying modifier cells (e.g. DropoutCell) the base cell "
                "cannot be called directly. Call the modifier cell instead."
            )
        return sum((c.begin_state(**kwargs) for c in self._cells), [])

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        inputs, axis = _normalize_sequence(length, inputs, layout, False)
        if begin_state is None:
            begin_state = self.begin_state()
        l_cell, r_cell = self._cells
        nl = len(l_cell.state_info)
        l_out, l_states = l_cell.unroll(
            length,
            inputs=inputs,
            begin_state=begin_state[:nl],
            layout=layout,
            merge_outputs=merge_outputs,
        )
        r_out, r_states = r_cell.unroll(
            length,
            inputs=list(reversed(inputs)),
            begin_state=begin_state[nl:],
            layout=layout,
            merge_outputs=merge_outputs,
        )
        if merge_outputs is None:
            merge_outputs = isinstance(l_out, symbol.Symbol) and isinstance(r_out, symbol.Symbol)
            if not merge_outputs:
                if isinstance(l_out, symbol.Symbol):
                    l_out = list(symbol.split(l_out, axis=axis, num_outputs=length, squeeze_axis=1))
                if isinstance(r_out, symbol.Symbol):
                    r_out = list(symbol.split(r_out, axis=axis, num_outputs=length, squeeze_axis=1))
        if merge_outputs:
            l_out, r_out = [l_out], [symbol.reverse(r_out, axis=axis)]
        else:
            r_out = list(reversed(r_out))
        p = self._output_prefix
        outputs = [
            symbol.Concat(
                lo, ro, dim=1 + merge_outputs, name=f"{p}out" if merge_outputs else f"{p}t{i}"
            )
            for i, (lo, ro) in enumerate(zip(l_out, r_out))
        ]
        if merge_outputs:
            outputs = outputs[0]
        return outputs, [l_states, r_states]
