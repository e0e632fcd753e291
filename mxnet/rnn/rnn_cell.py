"""Symbolic recurrent cells of the legacy ``mx.rnn`` API (pre-Gluon programs).

A cell maps ``(inputs, states)`` of one time step to ``(output, new_states)`` as Symbols;
``unroll`` repeats it over a sequence. Parameter variables are shared through
:class:`RNNParams` and named as in MXNet (``lstm_i2h_weight``...).
"""

from __future__ import annotations

from .. import symbol
from ..base import MXNetError

__all__ = ["RNNParams", "BaseRNNCell", "RNNCell", "LSTMCell", "GRUCell", "FusedRNNCell",
           "SequentialRNNCell", "DropoutCell", "ModifierCell", "ZoneoutCell", "ResidualCell",
           "BidirectionalCell"]


class RNNParams:
    """Container of the parameter variables of cells, created on first use.

    Parameters
    ----------
    prefix : str
        Prepended to every parameter name.

    Examples
    --------
    >>> p = mx.rnn.RNNParams('lstm_')
    >>> p.get('i2h_weight').name
    'lstm_i2h_weight'
    """

    def __init__(self, prefix: str = ""):
        self._prefix = prefix
        self._params: dict = {}

    def get(self, name: str, **kwargs):
        """The variable ``prefix + name`` (created with ``kwargs`` the first time)."""
        full = self._prefix + name
        if full not in self._params:
            self._params[full] = symbol.Variable(full, **kwargs)
        return self._params[full]


def _normalize_sequence(length, inputs, layout: str, merge, in_layout=None):
    """Turn ``inputs`` into a list of per-step Symbols (``merge=False``), one merged Symbol
    (``merge=True``), or leave it (``None``); returns ``(inputs, time axis)``."""
    if inputs is None:
        raise MXNetError("unroll: inputs must not be None")
    axis = layout.find("T")
    in_axis = in_layout.find("T") if in_layout is not None else axis
    if isinstance(inputs, symbol.Symbol):
        if merge is False:
            if len(inputs.list_outputs()) != 1:
                raise MXNetError("unroll only accepts a single-output Symbol as inputs")
            inputs = list(symbol.split(inputs, axis=in_axis, num_outputs=length,
                                       squeeze_axis=1))
    else:
        if length is not None and len(inputs) != length:
            raise MXNetError(f"unroll: got {len(inputs)} inputs for length {length}")
        if merge is True:
            inputs = symbol.Concat(*[symbol.expand_dims(x, axis=axis) for x in inputs],
                                   dim=axis)
            in_axis = axis
    if isinstance(inputs, symbol.Symbol) and axis != in_axis:
        inputs = symbol.swapaxes(inputs, dim1=axis, dim2=in_axis)
    return inputs, axis


class BaseRNNCell:
    """Abstract base of the symbolic recurrent cells.

    Parameters
    ----------
    prefix : str
        Prefix of parameter and node names.
    params : RNNParams or None
        Shared parameters; a fresh container when None.

    Examples
    --------
    >>> cell = mx.rnn.RNNCell(8, prefix='rnn_')
    >>> outputs, states = cell.unroll(3, mx.sym.var('data'))
    """

    def __init__(self, prefix: str = "", params: RNNParams | None = None):
        if params is None:
            params = RNNParams(prefix)
            self._own_params = True
        else:
            self._own_params = False
        self._prefix = prefix
        self._params = params
        self._modified = False
        self.reset()

    def reset(self) -> None:
        """Reset the step counters before building a new graph."""
        self._init_counter = -1
        self._counter = -1
        for cell in getattr(self, "_cells", ()):
            cell.reset()

    def __call__(self, inputs, states):
        raise MXNetError(f"{type(self).__name__} cannot be stepped")

    @property
    def params(self) -> RNNParams:
        """The parameter container (the cell no longer owns it once read)."""
        self._own_params = False
        return self._params

    @property
    def state_info(self) -> list:
        """Shape/layout description of each state."""
        raise MXNetError(f"{type(self).__name__} has no state_info")

    @property
    def state_shape(self) -> list:
        """Shapes of the states (0 for the batch size)."""
        return [info["shape"] for info in self.state_info]

    @property
    def _gate_names(self):
        return ()

    def begin_state(self, func=symbol.zeros, **kwargs) -> list:
        """Initial states, made by ``func(name=..., shape=..., __layout__=..., **kwargs)``."""
        if self._modified:
            raise MXNetError("After applying modifier cells (e.g. DropoutCell) the base cell "
                             "cannot be called directly. Call the modifier cell instead.")
        states = []
        for info in self.state_info:
            self._init_counter += 1
            if info is not None:
                kwargs.update(info)
            states.append(func(name=f"{self._prefix}begin_state_{self._init_counter}",
                               **kwargs))
        return states

    def unpack_weights(self, args: dict) -> dict:
        """Split fused gate weights (``i2h_weight``) into one array per gate."""
        args = dict(args)
        if not self._gate_names:
            return args
        h = self._num_hidden
        for group in ("i2h", "h2h"):
            weight = args.pop(f"{self._prefix}{group}_weight")
            bias = args.pop(f"{self._prefix}{group}_bias")
            for j, gate in enumerate(self._gate_names):
                args[f"{self._prefix}{group}{gate}_weight"] = weight[j * h:(j + 1) * h].copy()
                args[f"{self._prefix}{group}{gate}_bias"] = bias[j * h:(j + 1) * h].copy()
        return args

    def pack_weights(self, args: dict) -> dict:
        """Inverse of :meth:`unpack_weights`."""
        from .. import ndarray

        args = dict(args)
        if not self._gate_names:
            return args
        for group in ("i2h", "h2h"):
            ws, bs = [], []
            for gate in self._gate_names:
                ws.append(args.pop(f"{self._prefix}{group}{gate}_weight"))
                bs.append(args.pop(f"{self._prefix}{group}{gate}_bias"))
            args[f"{self._prefix}{group}_weight"] = ndarray.concatenate(ws)
            args[f"{self._prefix}{group}_bias"] = ndarray.concatenate(bs)
        return args

    def unroll(self, length: int, inputs, begin_state=None, layout: str = "NTC",
               merge_outputs=None):
        """Apply the cell ``length`` times.

        Parameters
        ----------
        length : int
            Number of steps.
        inputs : Symbol or list of Symbol
            One Symbol with a ``T`` axis in ``layout``, or one Symbol per step.
        begin_state : list of Symbol, optional
            Initial states (default: :meth:`begin_state`).
        layout : str
            ``'NTC'`` or ``'TNC'``.
        merge_outputs : bool or None
            Merge outputs into one Symbol (True), a list (False), or keep the input form.

        Returns
        -------
        (outputs, states)
        """
        self.reset()
        inputs, _ = _normalize_sequence(length, inputs, layout, False)
        states = self.begin_state() if begin_state is None else begin_state
        outputs = []
        for i in range(length):
            out, states = self(inputs[i], states)
            outputs.append(out)
        outputs, _ = _normalize_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def _get_activation(self, inputs, activation, **kwargs):
        if isinstance(activation, str):
            return symbol.Activation(inputs, act_type=activation, **kwargs)
        return activation(inputs, **kwargs)


def _nc_state(h: int) -> dict:
    return {"shape": (0, h), "__layout__": "NC"}


class RNNCell(BaseRNNCell):
    """Elman RNN cell: ``h' = act(W x + b + U h + c)``.

    Examples
    --------
    >>> out, st = mx.rnn.RNNCell(4)(mx.sym.var('x'), [mx.sym.var('h')])
    """

    def __init__(self, num_hidden: int, activation="tanh", prefix: str = "rnn_",
                 params: RNNParams | None = None):
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._activation = activation
        self._iW = self.params.get("i2h_weight")
        self._iB = self.params.get("i2h_bias")
        self._hW = self.params.get("h2h_weight")
        self._hB = self.params.get("h2h_bias")

    @property
    def state_info(self):
        return [_nc_state(self._num_hidden)]

    @property
    def _gate_names(self):
        return ("",)

    def __call__(self, inputs, states):
        self._counter += 1
        name = f"{self._prefix}t{self._counter}_"
        i2h = symbol.FullyConnected(data=inputs, weight=self._iW, bias=self._iB,
                                    num_hidden=self._num_hidden, name=f"{name}i2h")
        h2h = symbol.FullyConnected(data=states[0], weight=self._hW, bias=self._hB,
                                    num_hidden=self._num_hidden, name=f"{name}h2h")
        out = self._get_activation(i2h + h2h, self._activation, name=f"{name}out")
        return out, [out]


class LSTMCell(BaseRNNCell):
    """Long short-term memory cell (gates i, f, c, o).

    Examples
    --------
    >>> cell = mx.rnn.LSTMCell(4, prefix='lstm_')
    >>> out, (h, c) = cell(mx.sym.var('x'), cell.begin_state())
    """

    def __init__(self, num_hidden: int, prefix: str = "lstm_", params: RNNParams | None = None,
                 forget_bias: float = 1.0):
        from ..initializer import LSTMBias

        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._iW = self.params.get("i2h_weight")
        self._hW = self.params.get("h2h_weight")
        self._iB = self.params.get("i2h_bias", init=LSTMBias(forget_bias=forget_bias))
        self._hB = self.params.get("h2h_bias")

    @property
    def state_info(self):
        return [_nc_state(self._num_hidden), _nc_state(self._num_hidden)]

    @property
    def _gate_names(self):
        return ["_i", "_f", "_c", "_o"]

    def __call__(self, inputs, states):
        self._counter += 1
        name = f"{self._prefix}t{self._counter}_"
        h4 = self._num_hidden * 4
        i2h = symbol.FullyConnected(data=inputs, weight=self._iW, bias=self._iB,
                                    num_hidden=h4, name=f"{name}i2h")
        h2h = symbol.FullyConnected(data=states[0], weight=self._hW, bias=self._hB,
                                    num_hidden=h4, name=f"{name}h2h")
        gates = symbol.SliceChannel(i2h + h2h, num_outputs=4, name=f"{name}slice")
        in_gate = symbol.Activation(gates[0], act_type="sigmoid", name=f"{name}i")
        forget_gate = symbol.Activation(gates[1], act_type="sigmoid", name=f"{name}f")
        in_transform = symbol.Activation(gates[2], act_type="tanh", name=f"{name}c")
        out_gate = symbol.Activation(gates[3], act_type="sigmoid", name=f"{name}o")
        next_c = symbol._internal._plus(forget_gate * states[1], in_gate * in_transform,
                                        name=f"{name}state")
        next_h = symbol._internal._mul(out_gate, symbol.Activation(next_c, act_type="tanh"),
                                       name=f"{name}out")
        return next_h, [next_h, next_c]


class GRUCell(BaseRNNCell):
    """Gated recurrent unit cell (gates r, z and the candidate).

    Examples
    --------
    >>> out, st = mx.rnn.GRUCell(4)(mx.sym.var('x'), [mx.sym.var('h')])
    """

    def __init__(self, num_hidden: int, prefix: str = "gru_", params: RNNParams | None = None):
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._iW = self.params.get("i2h_weight")
        self._iB = self.params.get("i2h_bias")
        self._hW = self.params.get("h2h_weight")
        self._hB = self.params.get("h2h_bias")

    @property
    def state_info(self):
        return [_nc_state(self._num_hidden)]

    @property
    def _gate_names(self):
        return ["_r", "_z", "_o"]

    def __call__(self, inputs, states):
        self._counter += 1
        name = f"{self._prefix}t{self._counter}_"
        h3 = self._num_hidden * 3
        prev_h = states[0]
        i2h = symbol.FullyConnected(data=inputs, weight=self._iW, bias=self._iB,
                                    num_hidden=h3, name=f"{name}_i2h")
        h2h = symbol.FullyConnected(data=prev_h, weight=self._hW, bias=self._hB,
                                    num_hidden=h3, name=f"{name}_h2h")
        i_r, i_z, i_n = symbol.SliceChannel(i2h, num_outputs=3, name=f"{name}_i2h_slice")
        h_r, h_z, h_n = symbol.SliceChannel(h2h, num_outputs=3, name=f"{name}_h2h_slice")
        reset = symbol.Activation(i_r + h_r, act_type="sigmoid", name=f"{name}_r_act")
        update = symbol.Activation(i_z + h_z, act_type="sigmoid", name=f"{name}_z_act")
        cand = symbol.Activation(i_n + reset * h_n, act_type="tanh", name=f"{name}_h_act")
        next_h = symbol._internal._plus((1.0 - update) * cand, update * prev_h,
                                        name=f"{name}out")
        return next_h, [next_h]


class SequentialRNNCell(BaseRNNCell):
    """A stack of cells applied one after another.

    Examples
    --------
    >>> stack = mx.rnn.SequentialRNNCell()
    >>> stack.add(mx.rnn.LSTMCell(4, prefix='l0_'))
    >>> stack.add(mx.rnn.LSTMCell(4, prefix='l1_'))
    """

    def __init__(self, params: RNNParams | None = None):
        super().__init__(prefix="", params=params)
        self._override_cell_params = params is not None
        self._cells: list = []

    def add(self, cell: BaseRNNCell) -> None:
        """Append ``cell`` to the stack."""
        self._cells.append(cell)
        if self._override_cell_params:
            if not cell._own_params:
                raise MXNetError("Either specify params for SequentialRNNCell or child cells, "
                                 "not both.")
            cell.params._params.update(self.params._params)
        self.params._params.update(cell.params._params)

    @property
    def state_info(self):
        return sum((c.state_info for c in self._cells), [])

    def begin_state(self, **kwargs):
        if self._modified:
            raise MXNetError("After applying modifier cells (e.g. DropoutCell) the base cell "
                             "cannot be called directly. Call the modifier cell instead.")
        return sum((c.begin_state(**kwargs) for c in self._cells), [])

    def unpack_weights(self, args):
        for cell in self._cells:
            args = cell.unpack_weights(args)
        return args

    def pack_weights(self, args):
        for cell in self._cells:
            args = cell.pack_weights(args)
        return args

    def __call__(self, inputs, states):
        self._counter += 1
        next_states, p = [], 0
        for cell in self._cells:
            if isinstance(cell, BidirectionalCell):
                raise MXNetError("BidirectionalCell cannot be stepped. Please use unroll")
            n = len(cell.state_info)
            inputs, st = cell(inputs, states[p:p + n])
            p += n
            next_states += st
        return inputs, next_states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        if begin_state is None:
            begin_state = self.begin_state()
        next_states, p = [], 0
        last = len(self._cells) - 1
        for i, cell in enumerate(self._cells):
            n = len(cell.state_info)
            inputs, st = cell.unroll(length, inputs=inputs, begin_state=begin_state[p:p + n],
                                     layout=layout,
                                     merge_outputs=None if i < last else merge_outputs)
            p += n
            next_states.extend(st)
        return inputs, next_states


class DropoutCell(BaseRNNCell):
    """Dropout on the inputs (no state).

    Examples
    --------
    >>> out, _ = mx.rnn.DropoutCell(0.5)(mx.sym.var('x'), [])
    """

    def __init__(self, dropout: float, prefix: str = "dropout_", params=None):
        super().__init__(prefix, params)
        if not isinstance(dropout, (int, float)):
            raise MXNetError("dropout probability must be a number")
        self.dropout = dropout

    @property
    def state_info(self):
        return []

    def __call__(self, inputs, states):
        if self.dropout > 0:
            inputs = symbol.Dropout(data=inputs, p=self.dropout)
        return inputs, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        inputs, _ = _normalize_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, symbol.Symbol):
            return self(inputs, [])
        return super().unroll(length, inputs, begin_state=begin_state, layout=layout,
                              merge_outputs=merge_outputs)


from ._cells_more import (  # noqa: E402  (they subclass the cells above)
    BidirectionalCell,
    FusedRNNCell,
    ModifierCell,
    ResidualCell,
    ZoneoutCell,
)
