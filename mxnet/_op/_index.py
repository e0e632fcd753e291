"""Indexing operators: take, pick, one_hot, gather_nd, scatter_nd, _scatter_set_nd, batch_take,
SequenceMask, SequenceLast and SequenceReverse.

Index arrays may be of any numeric dtype (MXNet's are usually float32); they are truncated
toward zero, as MXNet's kernels cast them to integers.
"""

from __future__ import annotations

import torch

from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, fresh, norm_axis, op_error

__all__: list[str] = []


def _as_index(t: torch.Tensor) -> torch.Tensor:
    return t.detach().to(torch.int64)


def _bound(op: str, idx: torch.Tensor, n: int, mode: str) -> torch.Tensor:
    """Apply MXNet's out-of-range policy (clip, wrap or raise) to integer indices."""
    if mode == "clip":
        return idx.clamp(0, max(n - 1, 0))
    if mode == "wrap":
        return torch.remainder(idx, n) if n else idx
    if idx.device.type != "meta" and idx.numel() and (bool((idx < 0).any()) or
                                                       bool((idx >= n).any())):
        raise op_error(op, f"{op} operator contains indices out of bound (axis size {n})")
    return idx


# ---------------------------------------------------------------------------------------
# take / pick / batch_take


def _take(a: dict, data: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    nd = data.dim()
    axis = a["axis"]
    if not -nd <= axis < nd:
        raise op_error("take", f"Axis should be in the range of [-r, r-1] where r is the rank "
                               f"of input tensor (axis={axis}, input shape "
                               f"{fmt_shape(data.shape)})")
    axis = axis + nd if axis < 0 else axis
    idx = _bound("take", _as_index(indices), data.shape[axis], a["mode"])
    out = torch.index_select(data, axis, idx.reshape(-1))
    shape = tuple(data.shape[:axis]) + tuple(indices.shape) + tuple(data.shape[axis + 1:])
    return out.reshape(shape)


def _take_out(a: dict, s: list) -> list:
    """take's output shape without meta tracing (torch's meta kernels import its compiler
    stack): data's shape with ``axis`` replaced by the indices' shape."""
    data, idx = tuple(s[0]), tuple(s[1])
    nd = len(data)
    axis = a["axis"]
    if not -nd <= axis < nd:
        raise op_error("take", f"Axis should be in the range of [-r, r-1] where r is the rank "
                               f"of input tensor (axis={axis}, input shape {fmt_shape(data)})")
    axis = axis + nd if axis < 0 else axis
    return [data[:axis] + idx + data[axis + 1:]]


def _pick_out(a: dict, s: list) -> list:
    data, idx = tuple(s[0]), tuple(s[1])
    if a["axis"] is None:
        raise op_error("pick", "axis=None is not supported by pick yet. Must specify an axis.")
    axis = norm_axis("pick", a["axis"], len(data))
    want = data[:axis] + data[axis + 1:]
    if idx != want and idx != want[:axis] + (1,) + want[axis:]:
        raise op_error("pick", f"index shape {fmt_shape(idx)} does not match data "
                               f"shape {fmt_shape(data)} without axis {axis}")
    return [want[:axis] + (1,) + want[axis:] if a["keepdims"] else want]


def _pick_shape(a: dict, s: list) -> list:
    """MXNet 1.9.1 fills an unknown index shape: data's shape without ``axis``."""
    data, idx = s
    if data is not None and idx is None and a["axis"] is not None:
        axis = norm_axis("pick", a["axis"], len(data))
        s = [data, tuple(data[:axis]) + tuple(data[axis + 1:])]
    return s


def _data_type(a: dict, t: list):
    return t, [t[0]]  # the output has the data's dtype, whatever the indices'


register(OpDef("take", _take, inputs=("a", "indices"), fluent=True,
               infer_out=_take_out, infer_type=_data_type,
               params=[Param("axis", "int", 0, doc="The axis of input array to be taken."),
                       Param("mode", "enum", "clip", choices=("clip", "raise", "wrap"),
                             doc="Specify how out-of-bound indices bahave.")],
               doc="Take elements from an array along an axis."))


def _pick(a: dict, data: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    if a["axis"] is None:
        raise op_error("pick", "axis=None is not supported by pick yet. Must specify an axis.")
    nd = data.dim()
    axis = norm_axis("pick", a["axis"], nd)
    want = tuple(d for i, d in enumerate(data.shape) if i != axis)
    idx = _as_index(index)
    if tuple(idx.shape) == want:
        idx = idx.unsqueeze(axis)
    expect = want[:axis] + (1,) + want[axis:]
    if tuple(idx.shape) != expect:
        raise op_error("pick", f"index shape {fmt_shape(index.shape)} does not match data "
                               f"shape {fmt_shape(data.shape)} without axis {axis}")
    idx = _bound("pick", idx, data.shape[axis], a["mode"])
    out = torch.gather(data, axis, idx)
    return out if a["keepdims"] else out.squeeze(axis)


register(OpDef("pick", _pick, inputs=("data", "index"), fluent=True,
               infer_shape=_pick_shape, infer_out=_pick_out, infer_type=_data_type,
               params=[Param("axis", "int_or_none", -1, doc="int or None. The axis to picking "
                             "the elements."),
                       Param("keepdims", "bool", False, doc="If true, the axis where we pick "
                             "the elements is left in the result as dimension with size one."),
                       Param("mode", "enum", "clip", choices=("clip", "wrap"),
                             doc="Specify how out-of-bound indices behave.")],
               aliases=("choose_element_0index",),
               doc="Pick elements from an input array according to the input indices along "
                   "the given axis."))


def _batch_take(a: dict, data: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    if data.dim() < 1:
        raise op_error("batch_take", "data must have at least one dimension")
    m = data.shape[-1]
    rows = data.reshape(-1, m)
    if rows.shape[0] != indices.numel():
        raise op_error("batch_take", f"Index array's size must be the same as data array's "
                                     f"size excluding the first dimension (data "
                                     f"{fmt_shape(data.shape)}, indices "
                                     f"{fmt_shape(indices.shape)})")
    if indices.dtype != torch.int32 and indices.device.type != "meta":
        # MXNet 1.9.1's type rule: int32 indices only (checked after the shapes, as MXNet)
        from .._dtype import dtype_name

        raise op_error("batch_take", f"Type inconsistent, Provided = "
                                     f"{dtype_name(indices.dtype)}, inferred type = int32")
    idx = _bound("batch_take", _as_index(indices).reshape(-1, 1), m, "clip")
    return torch.gather(rows, 1, idx).reshape(indices.shape)


register(OpDef("batch_take", _batch_take, inputs=("a", "indices"),
               infer_type=lambda attrs, ins: ([ins[0], "int32"], [ins[0]]),
               doc="Take one element per row of a 2-D array: out[i] = a[i, indices[i]]."))


def _one_hot(a: dict, indices: torch.Tensor) -> torch.Tensor:
    from .._dtype import to_torch

    depth = a["depth"]
    if depth < 0:
        raise op_error("one_hot", f"depth must be non-negative ({depth})")
    dt = to_torch(a["dtype"])
    idx = _as_index(indices).unsqueeze(-1)
    hot = idx == torch.arange(depth, device=indices.device)
    on = torch.tensor(a["on_value"], dtype=torch.float64, device=indices.device).to(dt)
    off = torch.tensor(a["off_value"], dtype=torch.float64, device=indices.device).to(dt)
    return torch.where(hot, on, off)


register(OpDef("one_hot", _one_hot, inputs=("indices",), fluent=True,
               params=[Param("depth", "int", doc="Depth of the one hot dimension."),
                       Param("on_value", "float", 1.0, doc="The value assigned to the "
                             "locations represented by indices."),
                       Param("off_value", "float", 0.0, doc="The value assigned to the "
                             "locations not represented by indices."),
                       Param("dtype", "dtype", "float32", doc="DType of the output")],
               infer_type=lambda a, t: (t, [a["dtype"]]),
               infer_out=lambda a, s: [tuple(s[0]) + (a["depth"],)],
               doc="Return a one-hot array: out[..., j] = on_value where indices == j."))

# ---------------------------------------------------------------------------------------
# gather_nd / scatter_nd


def _nd_index(op: str, indices: torch.Tensor, shape, ndata: int) -> tuple:
    if indices.dim() < 1:
        raise op_error(op, "indices must have at least one dimension")
    m = indices.shape[0]
    if m > ndata:
        raise op_error(op, f"indices.shape[0] = {m} exceeds the data dimension {ndata} "
                           f"(indices {fmt_shape(indices.shape)})")
    idx = _as_index(indices)
    return tuple(idx[i] for i in range(m))


def _gather_nd(a: dict, data: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    idx = _nd_index("gather_nd", indices, data.shape, data.dim())
    for i, ix in enumerate(idx):
        if ix.numel() and ix.device.type != "meta" and int(ix.max()) >= data.shape[i]:
            from .._deferred import DeferredOpError
            from ..base import MXNetIndexError

            # MXNet checks the indices while the kernel runs: reported on read (IndexError)
            out_shape = tuple(indices.shape[1:]) + tuple(data.shape[len(idx):])
            raise DeferredOpError(
                f"Error in operator gather_nd: index {int(ix.max())} is out of bounds for "
                f"axis {i} with size {data.shape[i]}",
                (torch.zeros(out_shape, dtype=data.dtype, device=data.device),),
                MXNetIndexError)
    return data[idx]


register(OpDef("gather_nd", _gather_nd, inputs=("data", "indices"),
               doc="Gather elements or slices from data by N-dimensional indices."))


def _scatter_shape_check(op: str, data, indices, shape) -> None:
    m = indices.shape[0] if indices.dim() else 0
    expect = tuple(indices.shape[1:]) + tuple(shape[m:])
    if m > len(shape) or tuple(data.shape) != expect:
        raise op_error(op, f"Invalid data, indices, and output shape combination for {op}: "
                           f"{fmt_shape(data.shape)}, {fmt_shape(indices.shape)}, "
                           f"{fmt_shape(shape)}")


def _scatter_nd(a: dict, data: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    shape = tuple(a["shape"])
    _scatter_shape_check("scatter_nd", data, indices, shape)
    idx = _nd_index("scatter_nd", indices, shape, len(shape))
    out = torch.zeros(shape, dtype=data.dtype, device=data.device)
    return out.index_put(idx, data)


register(OpDef("scatter_nd", _scatter_nd, inputs=("data", "indices"),
               params=[Param("shape", "shape", doc="Shape of output.")],
               doc="Scatter data into a new zero array of the given shape (inverse of "
                   "gather_nd)."))


def _backward_gather_nd(a: dict, data: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    shape = tuple(a["shape"])
    _scatter_shape_check("_backward_gather_nd", data, indices, shape)
    idx = _nd_index("_backward_gather_nd", indices, shape, len(shape))
    out = torch.zeros(shape, dtype=data.dtype, device=data.device)
    return out.index_put(idx, data, accumulate=True)


register(OpDef("_backward_gather_nd", _backward_gather_nd, inputs=("data", "indices"),
               params=[Param("shape", "shape", doc="Shape of output.")],
               doc="Accumulate data into a new zero array of the given shape at the indices "
                   "(the gradient of gather_nd: repeated indices are summed)."))


def _scatter_set_nd(a: dict, lhs: torch.Tensor, rhs: torch.Tensor,
                    indices: torch.Tensor) -> torch.Tensor:
    shape = tuple(lhs.shape)
    _scatter_shape_check("_scatter_set_nd", rhs, indices, shape)
    idx = _nd_index("_scatter_set_nd", indices, shape, len(shape))
    return lhs.index_put(idx, rhs.to(lhs.dtype))


register(OpDef("_scatter_set_nd", _scatter_set_nd, inputs=("lhs", "rhs", "indices"),
               params=[Param("shape", "shape", doc="Shape of output.")],
               doc="Copy of lhs with the elements addressed by indices set from rhs."))

# ---------------------------------------------------------------------------------------
# Sequence*

_SEQ_PARAMS = [Param("use_sequence_length", "bool", False, doc="If set to true, this layer "
                     "takes in an extra input parameter `sequence_length` to specify variable "
                     "length sequence")]
_SEQ_AXIS = Param("axis", "int", 0, doc="The sequence axis. Only values of 0 and 1 are "
                                        "currently supported.")


def _seq_inputs(a: dict) -> list[str]:
    return ["data", "sequence_length"] if a["use_sequence_length"] else ["data"]


def _seq_infer(a: dict, shapes: list) -> list:
    if a["use_sequence_length"] and len(shapes) > 1 and shapes[0] is not None \
            and shapes[1] is None and len(shapes[0]) >= 2:
        shapes[1] = (shapes[0][1 - a["axis"]] if a["axis"] in (0, 1) else shapes[0][1],)
    return shapes


def _seq_lengths(op: str, a: dict, data: torch.Tensor, lengths, axes=(0, 1)) -> torch.Tensor:
    if a["axis"] not in axes:
        allowed = " or ".join(str(x) for x in axes)
        raise op_error(op, f"Current implementation expects axis to be {allowed} "
                           f"(axis={a['axis']}).")
    if data.dim() < 2:
        raise op_error(op, f"data must have at least 2 dimensions (shape "
                           f"{fmt_shape(data.shape)})")
    batch = data.shape[1 - a["axis"]]
    if lengths is None:
        raise op_error(op, "use_sequence_length=True needs the sequence_length input")
    if tuple(lengths.shape) != (batch,):
        raise op_error(op, f"Shape inconsistent, Provided = {fmt_shape(lengths.shape)}, "
                           f"inferred shape=({batch},)")
    return _as_index(lengths)


def _seq_mask(a: dict, data: torch.Tensor, lengths: torch.Tensor | None = None):
    axis = a["axis"]
    if axis not in (0, 1):
        raise op_error("SequenceMask", f"Current implementation expects axis to be 0 or 1 "
                                       f"(axis={axis}).")
    if not a["use_sequence_length"]:
        return fresh(data)
    ln = _seq_lengths("SequenceMask", a, data, lengths)
    steps = torch.arange(data.shape[axis], device=data.device)
    keep = steps[:, None] < ln[None, :] if axis == 0 else ln[:, None] > steps[None, :]
    keep = keep.reshape(tuple(keep.shape) + (1,) * (data.dim() - 2))
    value = torch.tensor(a["value"], dtype=torch.float64, device=data.device).to(data.dtype)
    return torch.where(keep, data, value)


register(OpDef("SequenceMask", _seq_mask, inputs=("data", "sequence_length"),
               active_inputs=_seq_inputs, infer_shape=_seq_infer,
               params=[*_SEQ_PARAMS,
                       Param("value", "float", 0.0, doc="The value to be used as a mask."),
                       _SEQ_AXIS],
               doc="Set the entries of each sequence past its length to a constant value."))


def _seq_last(a: dict, data: torch.Tensor, lengths: torch.Tensor | None = None):
    axis = a["axis"]
    if axis not in (0, 1):
        raise op_error("SequenceLast", f"Current implementation expects axis to be 0 or 1 "
                                       f"(axis={axis}).")
    t = data.shape[axis]
    if not a["use_sequence_length"]:
        return fresh(data.select(axis, t - 1))
    ln = _seq_lengths("SequenceLast", a, data, lengths)
    last = (ln - 1).clamp(0, max(t - 1, 0))
    shape = [1] * data.dim()
    shape[1 - axis] = -1
    idx = last.reshape(shape).expand(*[1 if i == axis else d
                                       for i, d in enumerate(data.shape)])
    return torch.gather(data, axis, idx).squeeze(axis)


register(OpDef("SequenceLast", _seq_last, inputs=("data", "sequence_length"),
               active_inputs=_seq_inputs, infer_shape=_seq_infer,
               params=[*_SEQ_PARAMS, _SEQ_AXIS],
               doc="Take the last element of each sequence (at its length when given)."))


def _seq_reverse(a: dict, data: torch.Tensor, lengths: torch.Tensor | None = None):
    if a["axis"] != 0:
        raise op_error("SequenceReverse", f"Current implementation expects axis to be 0 "
                                          f"(axis={a['axis']}).")
    if data.dim() < 2:
        raise op_error("SequenceReverse", f"data must have at least 2 dimensions (shape "
                                          f"{fmt_shape(data.shape)})")
    t = data.shape[0]
    if not a["use_sequence_length"]:
        return data.flip(0)
    ln = _seq_lengths("SequenceReverse", a, data, lengths, axes=(0,)).clamp(0, t)
    steps = torch.arange(t, device=data.device)[:, None]
    src = torch.where(steps < ln[None, :], ln[None, :] - 1 - steps, steps)
    src = src.reshape(tuple(src.shape) + (1,) * (data.dim() - 2)).expand(data.shape)
    return torch.gather(data, 0, src)


register(OpDef("SequenceReverse", _seq_reverse, inputs=("data", "sequence_length"),
               active_inputs=_seq_inputs, infer_shape=_seq_infer,
               params=[*_SEQ_PARAMS, Param("axis", "int", 0, doc="The sequence axis. Only 0 "
                                           "is currently supported.")],
               doc="Reverse the first `length` elements of each sequence along axis 0."))
