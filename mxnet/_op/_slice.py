"""Joining, splitting and slicing operators: Concat, stack, SliceChannel, _split_v2, slice,
slice_axis, slice_like, _slice_assign, _slice_assign_scalar and Pad."""

from __future__ import annotations

from collections.abc import Sequence

import torch
import torch.nn.functional as F

from ._params import Param
from ._registry import OpDef, get_op, register
from ._shape import fmt_shape, fresh, norm_axis, op_error
from ._shape_rules import same_type

__all__ = ["slice_spec", "split_v2_indices"]

# ---------------------------------------------------------------------------------------
# join


def _same_dtype(op: str, xs: Sequence[torch.Tensor]) -> None:
    # MXNet 1.9.1's type-inference messages: Concat's own check, ElemwiseType's otherwise
    from .._dtype import dtype_name
    from ..base import MXNetError
    from ._elemwise import incompatible_dtype_message

    for i, x in enumerate(xs[1:], 1):
        if x.dtype != xs[0].dtype:
            if op != "Concat":
                raise MXNetError(incompatible_dtype_message(xs[0].dtype, x.dtype, i, op=op))
            raise MXNetError(
                "Check failed: in_type->at(i) == dtype || in_type->at(i) == -1: Non-uniform "
                f"data type in Concat, expected data type {dtype_name(xs[0].dtype)}, got data "
                f"type {dtype_name(x.dtype)} for input {i}"
            )


def _concat(a: dict, *xs: torch.Tensor) -> torch.Tensor:
    if not xs:
        raise op_error("Concat", "at least one input is required")
    _same_dtype("Concat", xs)
    nd = xs[0].dim()
    dim = a["dim"]
    if not -nd <= dim < nd:
        raise op_error("Concat", f"dim={dim} is out of range for inputs of ndim {nd}")
    dim = dim + nd if dim < 0 else dim
    expected = list(xs[0].shape)
    expected[dim] = -1
    for i, x in enumerate(xs):
        got = list(x.shape)
        if len(got) != nd or any(e not in (-1, g) for e, g in zip(expected, got)):
            raise op_error(
                "Concat",
                f"Incompatible input shape: expected "
                f"{fmt_shape(expected)}, got {fmt_shape(got)} for input "
                f"{i} (dim={a['dim']})",
            )
    return torch.cat(xs, dim)


def _concat_out(a: dict, shapes: list) -> list:
    """Concat's output shape without tracing (see ``_shape_rules``)."""
    first = tuple(shapes[0])
    nd = len(first)
    dim = a["dim"] + nd if a["dim"] < 0 else a["dim"]
    if (
        nd
        and 0 <= dim < nd
        and all(
            len(s) == nd and all(x == y for k, (x, y) in enumerate(zip(s, first)) if k != dim)
            for s in shapes
        )
    ):
        return [first[:dim] + (sum(s[dim] for s in shapes),) + first[dim + 1 :]]
    return get_op("Concat").trace_shapes(a, shapes)  # mismatch: the kernel reports it


register(
    OpDef(
        "Concat",
        _concat,
        aliases=("concat",),
        variadic="num_args",
        params=[
            Param("num_args", "int", doc="Number of inputs to be concated."),
            Param("dim", "int", 1, doc="the dimension to be concated."),
        ],
        infer_out=_concat_out,
        infer_type=same_type,  # (no meta trace: ~3 s first)
        doc="Join input arrays along an existing axis.",
    )
)


def _stack(a: dict, *xs: torch.Tensor) -> torch.Tensor:
    if not xs:
        raise op_error("stack", "at least one input is required")
    _same_dtype("stack", xs)
    nd = xs[0].dim() + 1
    axis = a["axis"]
    if not -nd <= axis < nd:
        raise op_error("stack", f"axis {axis} exceeds the input dimension of {nd - 1}")
    for i, x in enumerate(xs):
        if x.shape != xs[0].shape:
            raise op_error(
                "stack",
                f"all inputs must have the same shape: input 0 has "
                f"{fmt_shape(xs[0].shape)}, input {i} has "
                f"{fmt_shape(x.shape)}",
            )
    return torch.stack(xs, axis + nd if axis < 0 else axis)


def _stack_out(a: dict, s: list) -> list:
    """stack's output shape without meta tracing (torch's meta kernels import its compiler
    stack): the common input shape with the new axis of size len(inputs)."""
    first = tuple(s[0])
    nd = len(first) + 1
    axis = a["axis"]
    if not -nd <= axis < nd:
        raise op_error("stack", f"axis {axis} exceeds the input dimension of {nd - 1}")
    for i, x in enumerate(s):
        if tuple(x) != first:
            raise op_error(
                "stack",
                f"all inputs must have the same shape: input 0 has "
                f"{fmt_shape(first)}, input {i} has {fmt_shape(x)}",
            )
    axis = axis + nd if axis < 0 else axis
    return [first[:axis] + (len(s),) + first[axis:]]



def _split_axis_params() -> list:
    """``axis`` and ``squeeze_axis``, shared by ``split`` and ``_split_v2``."""
    return [
        Param("axis", "int", 1, doc="Axis along which to split."),
        Param("squeeze_axis", "bool", False,
              doc="If true, removes the split axis (of length 1) from the outputs."),
    ]


register(
    OpDef(
        "stack",
        _stack,
        variadic="num_args",
        infer_out=_stack_out,
        params=[
            Param(
                "axis",
                "int",
                0,
                doc="The axis in the result array along which the input arrays are stacked.",
            ),
            Param("num_args", "int", doc="Number of inputs to be stacked."),
        ],
        doc="Join a sequence of arrays along a new axis.",
    )
)

# ---------------------------------------------------------------------------------------
# split


def _outputs(n: int) -> list[str]:
    return [f"output{i}" for i in range(n)]


def _split(a: dict, x: torch.Tensor):
    n = a["num_outputs"]
    axis = norm_axis("SliceChannel", a["axis"], x.dim())
    size = x.shape[axis]
    if n <= 0:
        raise op_error("SliceChannel", f"num_outputs must be positive ({n})")
    if size % n:
        raise op_error(
            "SliceChannel",
            f"You are trying to split the {axis}-th axis of input "
            f"tensor with shape {fmt_shape(x.shape)} into "
            f"num_outputs={n} evenly sized chunks, but this is not "
            f"possible because {n} does not evenly divide {size}",
        )
    if a["squeeze_axis"] and size != n:
        raise op_error(
            "SliceChannel",
            f"squeeze_axis requires num_outputs ({n}) to equal the split axis size ({size})",
        )
    parts = torch.split(x, size // n, dim=axis)
    if a["squeeze_axis"]:
        return tuple(fresh(p.squeeze(axis)) for p in parts)
    return tuple(fresh(p) for p in parts)


register(
    OpDef(
        "SliceChannel",
        _split,
        aliases=("split",),
        fluent=True,
        outputs=lambda a: _outputs(a["num_outputs"]),
        params=[
            Param("num_outputs", "int", doc="Number of splits."),
            *_split_axis_params(),
        ],
        doc="Split an array along an axis into equal parts.",
    )
)


def section_starts(size: int, k: int) -> list:
    """Start indices of ``k`` sections of an axis of ``size`` (``numpy.array_split``)."""
    each, extra = divmod(size, k)
    return [i * each + min(i, extra) for i in range(k)]


def _split_v2_count(a: dict) -> int:
    return a["sections"] if a["sections"] > 0 else len(a["indices"])


def split_v2_indices(shape: Sequence[int], indices_or_sections, axis: int = 0) -> tuple:
    """The ``indices`` argument of ``_split_v2`` for MXNet's ``split_v2`` front end.

    An int N splits ``shape[axis]`` into N equal parts (else ``ValueError``); a sequence of
    split points ``[2, 3]`` gives the start indices ``(0, 2, 3)``.

    Examples
    --------
    >>> split_v2_indices((2, 6), 3, axis=1)
    (0, 2, 4)
    >>> split_v2_indices((5,), [2, 3])
    (0, 2, 3)
    """
    if isinstance(indices_or_sections, int) and not isinstance(indices_or_sections, bool):
        size = shape[axis]
        if indices_or_sections <= 0 or size % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
        step = size // indices_or_sections
        return tuple(i * step for i in range(indices_or_sections))
    if isinstance(indices_or_sections, (list, tuple)):
        return (0,) + tuple(int(i) for i in indices_or_sections)
    raise ValueError("indices_or_sections must either int or tuple of ints")


def _split_v2(a: dict, x: torch.Tensor):
    axis = norm_axis("_split_v2", a["axis"], x.dim())
    size = x.shape[axis]
    if a["sections"] > 0:  # MXNet's kernel: the first size % k pieces one longer
        starts = section_starts(size, a["sections"])
    else:
        starts = list(a["indices"])
    if not starts:
        raise op_error("_split_v2", "indices must not be empty")
    ends = starts[1:] + [size]
    outs = []
    for b, e in zip(starts, ends):
        b, e = min(max(b, 0), size), min(max(e, 0), size)
        piece = x.narrow(axis, b, max(e - b, 0))
        if a["squeeze_axis"]:
            if piece.shape[axis] != 1:
                raise op_error(
                    "_split_v2",
                    f"squeeze_axis needs pieces of size 1 along axis "
                    f"{axis}, got {piece.shape[axis]}",
                )
            piece = piece.squeeze(axis)
        outs.append(fresh(piece))
    return tuple(outs)


register(
    OpDef(
        "_split_v2",
        _split_v2,
        outputs=lambda a: _outputs(_split_v2_count(a)),
        params=[
            Param("indices", "shape", doc="Indices of splits."),
            *_split_axis_params(),
            Param(
                "sections",
                "int",
                0,
                doc="Number of sections if equally "
                "splitted. Default to 0 which means split by indices.",
            ),
        ],
        doc="Split an array along an axis at the given start indices.",
    )
)

# ---------------------------------------------------------------------------------------
# slice


def slice_spec(op: str, shape: Sequence[int], begin, end, step):
    """Per-axis ``(python slice with positive step, reversed?)`` for MXNet's slice params.

    A negative step selects the same elements as a positive-step slice, in reverse order.
    """
    nd = len(shape)
    if len(begin) != len(end):
        raise op_error(op, f"begin and end must have the same length ({len(begin)} vs. {len(end)})")
    if len(begin) > nd:
        raise op_error(
            op,
            f"Slicing axis exceeds data dimensions ({len(begin)} vs. {nd}, "
            f"input shape {fmt_shape(shape)})",
        )
    if step and len(step) != len(begin):
        raise op_error(
            op, f"step must have the same length as begin ({len(step)} vs. {len(begin)})"
        )
    out = []
    flips = []
    for i, n in enumerate(shape):
        if i >= len(begin):
            out.append(slice(None))
            continue
        s = step[i] if step and step[i] is not None else 1
        if s == 0:
            raise op_error(op, f"slice op step[{i}] cannot be 0")
        start, stop, s = slice(begin[i], end[i], s).indices(n)
        if s > 0:
            out.append(slice(start, stop, s))
            continue
        count = len(range(start, stop, s))
        if count == 0:
            out.append(slice(0, 0))
        else:
            out.append(slice(start + (count - 1) * s, start + 1, -s))
            flips.append(i)
    return tuple(out), tuple(flips)


def _slice(a: dict, x: torch.Tensor) -> torch.Tensor:
    idx, flips = slice_spec("slice", tuple(x.shape), a["begin"], a["end"], a["step"])
    t = x[idx]
    return t.flip(flips) if flips else fresh(t)


def _slice_partial_out(a: dict, ins: list, outs: list) -> list:
    """MXNet keeps a sliced axis unknown when the input's size along it is unknown."""
    data, out = ins[0], outs[0] if outs else None
    if data is None or out is None or len(out) != len(data):
        return outs
    out = list(out)
    for i in range(min(len(a["begin"]), len(data))):
        if not data[i]:
            out[i] = 0
    return [tuple(out), *outs[1:]]


def _slice_axis_partial_out(a: dict, ins: list, outs: list) -> list:
    data, out = ins[0], outs[0] if outs else None
    if data is None or out is None or len(out) != len(data):
        return outs
    axis = a["axis"] + len(data) if a["axis"] < 0 else a["axis"]
    if 0 <= axis < len(data) and not data[axis]:
        out = list(out)
        out[axis] = 0
        return [tuple(out), *outs[1:]]
    return outs


_BEGIN = Param(
    "begin", "shape", doc="starting indices for the slice operation, supports negative indices."
)
_END = Param(
    "end", "shape", doc="ending indices for the slice operation, supports negative indices."
)
_STEP = Param("step", "shape", (), doc="step for the slice operation, supports negative values.")

register(
    OpDef(
        "slice",
        _slice,
        aliases=("crop",),
        fluent=True,
        params=[_BEGIN, _END, _STEP],
        doc="Slice a region of the array (per-axis begin, end and step; None keeps the default).",
    )
).partial_out = _slice_partial_out


def _slice_axis(a: dict, x: torch.Tensor) -> torch.Tensor:
    axis = norm_axis("slice_axis", a["axis"], x.dim())
    n = x.shape[axis]
    b, e = a["begin"], a["end"]
    b = b + n if b < 0 else b
    e = n if e is None else (e + n if e < 0 else e)
    if not (0 <= e <= n) or not (0 <= b < e):
        raise op_error(
            "slice_axis",
            f"Invalid begin, end, get begin={a['begin']}, end={a['end']} (axis {axis} of size {n})",
        )
    return fresh(x.narrow(axis, b, e - b))


register(
    OpDef(
        "slice_axis",
        _slice_axis,
        fluent=True,
        params=[
            Param("axis", "int", doc="Axis along which to be sliced, supports negative indexes."),
            Param(
                "begin",
                "int",
                doc="The beginning index along the axis to be sliced, supports negative indexes.",
            ),
            Param(
                "end",
                "int_or_none",
                doc="The ending index along the axis to be sliced, supports negative indexes.",
            ),
        ],
        doc="Slice along a given axis from begin to end (exclusive).",
    )
).partial_out = _slice_axis_partial_out


def _slice_like(a: dict, x: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    ish, fsh = tuple(x.shape), tuple(like.shape)
    axes = a["axes"]
    if not axes:
        if len(ish) != len(fsh):
            raise op_error(
                "slice_like",
                f"By default slice_axis performs slice on all axes, "
                f"but ndim mismatch for inputs: {len(ish)} vs. "
                f"{len(fsh)}",
            )
        axes = range(len(ish))
    idx = [slice(None)] * len(ish)
    for ax in axes:
        ax = norm_axis("slice_like", ax, len(ish), "axes")
        if ax >= len(fsh):
            raise op_error("slice_like", f"Slice axis: {ax} exceeds second input: {len(fsh)}")
        if fsh[ax] > ish[ax]:
            raise op_error(
                "slice_like",
                f"Slice axis {ax} with size {fsh[ax]} exceeds limit of input with size {ish[ax]}",
            )
        idx[ax] = slice(0, fsh[ax])
    return fresh(x[tuple(idx)])


register(
    OpDef(
        "slice_like",
        _slice_like,
        inputs=("data", "shape_like"),
        fluent=True,
        params=[
            Param(
                "axes",
                "shape",
                (),
                doc="List of axes on which input data will "
                "be sliced according to the corresponding size of the second "
                "input.",
            )
        ],
        doc="Slice the data to the shape of a second input along the given axes.",
    )
)


def _check_region(op: str, region: torch.Tensor, rhs_shape) -> None:
    if tuple(region.shape) != tuple(rhs_shape):
        raise op_error(
            op,
            f"the slice region has shape {fmt_shape(region.shape)} but the "
            f"assigned value has shape {fmt_shape(rhs_shape)}",
        )


def _slice_assign(a: dict, lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
    idx, flips = slice_spec("_slice_assign", tuple(lhs.shape), a["begin"], a["end"], a["step"])
    out = lhs.clone()
    _check_region("_slice_assign", out[idx], rhs.shape)
    out[idx] = rhs.flip(flips) if flips else rhs
    return out


register(
    OpDef(
        "_slice_assign",
        _slice_assign,
        inputs=("lhs", "rhs"),
        aliases=("_crop_assign",),
        params=[_BEGIN, _END, _STEP],
        doc="Copy of lhs with a slice region replaced by rhs.",
    )
)


def _slice_assign_scalar(a: dict, x: torch.Tensor) -> torch.Tensor:
    idx, _ = slice_spec("_slice_assign_scalar", tuple(x.shape), a["begin"], a["end"], a["step"])
    out = x.clone()
    out[idx] = a["scalar"]
    return out


register(
    OpDef(
        "_slice_assign_scalar",
        _slice_assign_scalar,
        aliases=("_crop_assign_scalar",),
        params=[
            Param("scalar", "float", 0.0, doc="The scalar value for assignment."),
            _BEGIN,
            _END,
            _STEP,
        ],
        doc="Copy of the input with a slice region set to a scalar.",
    )
)

# ---------------------------------------------------------------------------------------
# Pad

_TORCH_PAD = {"constant": "constant", "edge": "replicate", "reflect": "reflect"}


def _pad(a: dict, x: torch.Tensor) -> torch.Tensor:
    pw = a["pad_width"]
    nd = x.dim()
    if nd not in (4, 5):
        raise op_error(
            "Pad",
            f"Current implementation only supports 4-D or 5-D input "
            f"(input shape {fmt_shape(x.shape)}).",
        )
    if len(pw) != 2 * nd:
        raise op_error("Pad", f"pad_width {tuple(pw)} must have 2*ndim = {2 * nd} entries")
    if any(pw[:4]):
        raise op_error(
            "Pad", "Current implementation expects padding on the first two axes to be zero."
        )
    torch_pw = []
    for i in range(nd - 1, 1, -1):
        torch_pw += [pw[2 * i], pw[2 * i + 1]]
    mode = _TORCH_PAD[a["mode"]]
    if mode == "constant":
        return F.pad(x, torch_pw, mode="constant", value=a["constant_value"])
    if mode == "reflect":
        for i in range(2, nd):
            if max(pw[2 * i], pw[2 * i + 1]) >= x.shape[i]:
                raise op_error(
                    "Pad",
                    f"reflect padding {pw[2 * i]}, {pw[2 * i + 1]} must be "
                    f"smaller than axis {i} of size {x.shape[i]}",
                )
    return F.pad(x, torch_pw, mode=mode)


register(
    OpDef(
        "Pad",
        _pad,
        aliases=("pad",),
        fluent=True,
        params=[
            Param(
                "mode", "enum", choices=("constant", "edge", "reflect"), doc="Padding type to use."
            ),
            Param(
                "pad_width",
                "shape",
                doc="Widths of the padding regions applied "
                "to the edges of each axis (before, after per axis).",
            ),
            Param(
                "constant_value",
                "float",
                0.0,
                doc="The value used for padding when mode is 'constant'.",
            ),
        ],
        doc="Pad a 4-D or 5-D array along its spatial axes.",
    )
)
