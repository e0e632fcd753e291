"""Checkpoint helpers of ``mx.rnn``: save/load with per-gate (unpacked) cell weights."""

from __future__ import annotations

import warnings

from ..model import load_checkpoint, save_checkpoint
from .rnn_cell import BaseRNNCell

__all__ = ["save_rnn_checkpoint", "load_rnn_checkpoint", "do_rnn_checkpoint"]


def _cells(cells) -> list:
    return [cells] if isinstance(cells, BaseRNNCell) else list(cells)


def save_rnn_checkpoint(cells, prefix, epoch, symbol, arg_params, aux_params):
    """Save a checkpoint with the cells' weights unpacked (one array per gate).

    Examples
    --------
    >>> mx.rnn.save_rnn_checkpoint(cell, 'model', 1, sym, args, auxs)  # doctest: +SKIP
    """
    for cell in _cells(cells):
        arg_params = cell.unpack_weights(arg_params)
    save_checkpoint(prefix, epoch, symbol, arg_params, aux_params)


def load_rnn_checkpoint(cells, prefix, epoch):
    """Load a checkpoint saved by :func:`save_rnn_checkpoint`, packing the weights again.

    Returns
    -------
    (symbol, arg_params, aux_params)

    Examples
    --------
    >>> sym, args, auxs = mx.rnn.load_rnn_checkpoint(cell, 'model', 1)  # doctest: +SKIP
    """
    sym, arg, aux = load_checkpoint(prefix, epoch)
    for cell in _cells(cells):
        arg = cell.pack_weights(arg)
    return sym, arg, aux


def do_rnn_checkpoint(cells, prefix, period=1):
    """Epoch-end callback saving an RNN checkpoint every ``period`` epochs.

    Examples
    --------
    >>> cb = mx.rnn.do_rnn_checkpoint(cell, 'model', period=2)
    """
    period = int(max(1, period))

    def _callback(iter_no, sym=None, arg=None, aux=None):
        if (iter_no + 1) % period == 0:
            save_rnn_checkpoint(cells, prefix, iter_no + 1, sym, arg, aux)

    return _callback


def rnn_unroll(cell, length, inputs=None, begin_state=None, input_prefix="", layout="NTC"):
    """Deprecated: unroll ``cell`` for ``length`` steps (use ``cell.unroll``).

    Examples
    --------
    >>> cell = mx.rnn.RNNCell(4, prefix='r_')
    >>> outs, states = mx.rnn.rnn_unroll(cell, 3, mx.sym.var('data'))  # doctest: +SKIP
    """
    warnings.warn("rnn_unroll is deprecated. Please call cell.unroll directly.", stacklevel=2)
    # (MXNet 1.9.1 forwarded input_prefix, which unroll does not take: a TypeError there)
    return cell.unroll(length=length, inputs=inputs, begin_state=begin_state, layout=layout)
