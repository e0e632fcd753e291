"""Sequence helpers shared by the recurrent cells (formatting, reversing, masking)."""

from __future__ import annotations

from ... import ndarray
from ..parameter import tensor_types


def _symbol():
    from ... import symbol

    return symbol


def _is_sym(x) -> bool:
    return isinstance(x, _symbol().Symbol)


def _as_list(obj):
    if isinstance(obj, (list, tuple)):
        return list(obj)
    if _is_sym(obj) and len(obj.list_outputs()) > 1:  # e.g. the outputs of a symbolic split
        return list(obj)
    return [obj]


def format_sequence(length, inputs, layout, merge, in_layout=None):
    """Split or merge ``inputs`` along the time axis; returns (inputs, axis, F, batch)."""
    if inputs is None:
        raise AssertionError(
            "unroll(inputs=None) has been deprecated. Please create input variables outside unroll."
        )
    axis = layout.find("T")
    batch_axis = layout.find("N")
    batch_size = 0
    in_axis = in_layout.find("T") if in_layout is not None else axis
    if _is_sym(inputs):
        F = _symbol()
        if merge is False:
            if len(inputs.list_outputs()) != 1:
                raise AssertionError(
                    "unroll doesn't allow grouped symbol as input. Please "
                    "convert to list with list(inputs) first or let unroll "
                    "handle splitting."
                )
            inputs = list(F.split(inputs, axis=in_axis, num_outputs=length, squeeze_axis=1))
    elif isinstance(inputs, ndarray.NDArray):
        F = ndarray
        batch_size = inputs.shape[batch_axis]
        if merge is False:
            if length is not None and length != inputs.shape[in_axis]:
                raise AssertionError(
                    f"unroll length {length} does not match the input's "
                    f"time dimension {inputs.shape[in_axis]}"
                )
            inputs = _as_list(
                ndarray.split(
                    inputs, axis=in_axis, num_outputs=inputs.shape[in_axis], squeeze_axis=1
                )
            )
    else:
        if length is not None and len(inputs) != length:
            raise AssertionError(f"unroll length {length} does not match {len(inputs)} inputs")
        if _is_sym(inputs[0]):
            F = _symbol()
        else:
            F = ndarray
            batch_size = inputs[0].shape[0]  # one (N, C) array per step
        if merge is True:
            inputs = F.stack(*inputs, axis=axis)
            in_axis = axis
    if isinstance(inputs, tensor_types) and axis != in_axis:
        inputs = F.swapaxes(inputs, dim1=axis, dim2=in_axis)
    return inputs, axis, F, batch_size


def get_begin_state(cell, F, begin_state, inputs, batch_size):
    if begin_state is not None:
        return begin_state
    if F is ndarray:
        from ...context import Context

        ctx = inputs.context if isinstance(inputs, tensor_types) else inputs[0].context
        with Context(ctx):
            return cell.begin_state(func=F.zeros, batch_size=batch_size)
    return cell.begin_state(func=F.zeros, batch_size=batch_size)


def mask_sequence_variable_length(F, data, length, valid_length, time_axis, merge):
    if not isinstance(data, tensor_types):
        data = F.stack(*data, axis=time_axis)
    outputs = F.SequenceMask(
        data, sequence_length=valid_length, use_sequence_length=True, axis=time_axis
    )
    if not merge:
        outputs = _as_list(F.split(outputs, num_outputs=length, axis=time_axis, squeeze_axis=True))
    return outputs


def reverse_sequences(sequences, unroll_step, valid_length=None):
    F = _symbol() if _is_sym(sequences[0]) else ndarray
    if valid_length is None:
        return list(reversed(sequences))
    rev = F.SequenceReverse(
        F.stack(*sequences, axis=0), sequence_length=valid_length, use_sequence_length=True
    )
    if unroll_step > 1 or F is not ndarray:
        return _as_list(F.split(rev, axis=0, num_outputs=unroll_step, squeeze_axis=True))
    return [rev[0]]


def cells_state_info(cells, batch_size):
    return sum((c.state_info(batch_size) for c in cells), [])


def cells_begin_state(cells, **kwargs):
    return sum((c.begin_state(**kwargs) for c in cells), [])
