"""NumPy-interface (``mx.np``) joining and splitting operators: ``_npi_concatenate``,
``_npi_stack``, ``_npi_vstack``, ``_npi_hstack``, ``_npi_dstack``, ``_npi_column_stack``,
``_npi_split``, ``_npi_hsplit``, ``_npi_dsplit``, ``_npi_delete`` and ``_npi_insert_*``.
"""

from __future__ import annotations

import torch

from ._np_shape import no_grad
from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, fresh, norm_axis, op_error
from ._slice import section_starts

__all__: list[str] = []

_NUM_ARGS = Param("num_args", "int", doc="Number of input arrays.")


def _doc(text: str, example: str) -> str:
    return f"{text}\n\nExample: ``{example}``"


def _same_dtype(op: str, xs) -> None:
    for i, x in enumerate(xs[1:], 1):
        if x.dtype != xs[0].dtype:
            raise op_error(op, f"Non-uniform data type: input 0 is {str(xs[0].dtype)[6:]}, "
                               f"input {i} is {str(x.dtype)[6:]}")


def cat(op: str, xs, axis: int) -> torch.Tensor:
    """Concatenate with NumPy's checks (equal ndim, matching non-axis sizes, one dtype)."""
    if not xs:
        raise op_error(op, "need at least one array to concatenate")
    _same_dtype(op, xs)
    nd = xs[0].dim()
    if nd == 0:
        raise op_error(op, "zero-dimensional arrays cannot be concatenated")
    axis = norm_axis(op, axis, nd)
    for i, x in enumerate(xs):
        if x.dim() != nd or any(d != e for k, (d, e) in enumerate(zip(x.shape, xs[0].shape))
                                if k != axis):
            raise op_error(op, f"all the input array dimensions except for the concatenation "
                               f"axis must match exactly: input 0 has shape "
                               f"{fmt_shape(xs[0].shape)}, input {i} has shape "
                               f"{fmt_shape(x.shape)}")
    return torch.cat(xs, axis)


def _concatenate(a: dict, *xs: torch.Tensor) -> torch.Tensor:
    if not xs:
        raise op_error("_npi_concatenate", "value 0 for Parameter num_args should be greater "
                                           "equal to 1")
    if a["axis"] is None:
        return cat("_npi_concatenate", [x.reshape(-1) for x in xs], 0)
    return cat("_npi_concatenate", list(xs), a["axis"])


def _stack(a: dict, *xs: torch.Tensor) -> torch.Tensor:
    op = "_npi_stack"
    if not xs:
        raise op_error(op, "need at least one array to stack")
    _same_dtype(op, xs)
    for i, x in enumerate(xs):
        if x.shape != xs[0].shape:
            raise op_error(op, f"all input arrays must have the same shape: input 0 has "
                               f"{fmt_shape(xs[0].shape)}, input {i} has {fmt_shape(x.shape)}")
    axis = norm_axis(op, a["axis"], xs[0].dim() + 1)
    return torch.stack(xs, axis)


def _vstack(a: dict, *xs: torch.Tensor) -> torch.Tensor:
    return cat("_npi_vstack", [x.reshape(1, -1) if x.dim() < 2 else x for x in xs], 0)


def _hstack(a: dict, *xs: torch.Tensor) -> torch.Tensor:
    ys = [x.reshape(1) if x.dim() == 0 else x for x in xs]
    return cat("_npi_hstack", ys, 0 if ys and ys[0].dim() == 1 else 1)


def _at3(x: torch.Tensor) -> torch.Tensor:
    if x.dim() == 0:
        return x.reshape(1, 1, 1)
    if x.dim() == 1:
        return x.reshape(1, -1, 1)
    if x.dim() == 2:
        return x.unsqueeze(-1)
    return x


def _dstack(a: dict, *xs: torch.Tensor) -> torch.Tensor:
    return cat("_npi_dstack", [_at3(x) for x in xs], 2)


def _column_stack(a: dict, *xs: torch.Tensor) -> torch.Tensor:
    return cat("_npi_column_stack", [x.reshape(-1, 1) if x.dim() < 2 else x for x in xs], 1)


for _name, _fn, _params, _text in (
        ("_npi_concatenate", _concatenate,
         [_NUM_ARGS, Param("axis", "int_or_none", 0, doc="The axis along which the arrays "
                           "are joined (None: flatten them first).")],
         "Join arrays along an existing axis (``mx.np.concatenate``)."),
        ("_npi_stack", _stack,
         [Param("axis", "int", 0, doc="The axis in the result along which the arrays are "
                "stacked."), _NUM_ARGS],
         "Join arrays along a new axis (``mx.np.stack``)."),
        ("_npi_vstack", _vstack, [_NUM_ARGS], "Stack arrays row-wise (``mx.np.vstack``)."),
        ("_npi_hstack", _hstack, [_NUM_ARGS], "Stack arrays column-wise (``mx.np.hstack``)."),
        ("_npi_dstack", _dstack, [_NUM_ARGS], "Stack arrays depth-wise (``mx.np.dstack``)."),
        ("_npi_column_stack", _column_stack, [_NUM_ARGS],
         "Stack 1-D arrays as columns (``mx.np.column_stack``).")):
    register(OpDef(_name, _fn, variadic="num_args", inputs=("data",), params=_params,
                   doc=_doc(_text, f"mx.nd._internal.{_name}(a, b, num_args=2)")))

# ---------------------------------------------------------------------------------------
# split


def _split_count(a: dict) -> int:
    return a["sections"] if a["sections"] > 0 else len(a["indices"])


def _split_kernel(op: str, axis_of):
    def compute(a: dict, x: torch.Tensor):
        axis = axis_of(a, x)
        size = x.shape[axis]
        if a["sections"] > 0:  # unequal sections as MXNet's kernel (the front ends check)
            starts = section_starts(size, a["sections"])
        else:
            starts = list(a["indices"])
        if not starts:
            raise op_error(op, "indices must not be empty")
        if size > 0:  # a zero-size axis gives empty pieces whatever the indices
            for i, (b, e) in enumerate(zip(starts, starts[1:] + [size])):
                if e > size:
                    raise op_error(op, f"end {e} is no less than the size of the axis {size}")
                if b > e:
                    raise op_error(op, f"start {b} is not less than end {e} for subarray {i}")
        outs = []
        for b, e in zip(starts, starts[1:] + [size]):
            b, e = min(max(b, 0), size), min(max(e, 0), size)
            piece = x.narrow(axis, b, max(e - b, 0))
            if a["squeeze_axis"]:
                piece = piece.squeeze(axis)
            outs.append(fresh(piece))
        return tuple(outs)

    return compute


def _split_axis(a, x):
    if x.dim() == 0:
        raise op_error("_npi_split", "cannot split a 0-d array")
    return norm_axis("_npi_split", a["axis"], x.dim())


def _hsplit_axis(a, x):
    if x.dim() == 0:
        raise op_error("_npi_hsplit", "hsplit only works on arrays of 1 or more dimensions")
    return 0 if x.dim() == 1 else 1


def _dsplit_axis(a, x):
    if x.dim() < 3:
        raise op_error("_npi_dsplit", "dsplit only works on arrays of 3 or more dimensions")
    return 2


_SPLIT_PARAMS = [Param("indices", "shape", doc="Start indices of the pieces."),
                 Param("axis", "int", 1, doc="Axis along which to split."),
                 Param("squeeze_axis", "bool", False, doc="Remove the split axis (of length "
                       "1) from the outputs."),
                 Param("sections", "int", 0, doc="Number of equal sections (0: use indices).")]
for _name, _axis_of in (("_npi_split", _split_axis), ("_npi_hsplit", _hsplit_axis),
                        ("_npi_dsplit", _dsplit_axis)):
    register(OpDef(_name, _split_kernel(_name, _axis_of), params=_SPLIT_PARAMS,
                   outputs=lambda a: [f"output{i}" for i in range(_split_count(a))],
                   doc=_doc(f"Split an array into pieces (``mx.np.{_name[5:]}``).",
                            f"mx.nd._internal.{_name}(x, indices=(), axis=0, sections=2)")))

# ---------------------------------------------------------------------------------------
# delete / insert


def _positions(op: str, a: dict, n: int, obj: torch.Tensor | None) -> torch.Tensor:
    """The integer positions named by ``int_ind``, ``start/stop/step`` or the ``obj`` array."""
    if a.get("int_ind") is not None:
        i = a["int_ind"]
        if not -n <= i < n:
            raise op_error(op, f"index {i} is out of bounds for axis with size {n}")
        return torch.tensor([i % n if n else i], dtype=torch.int64)
    if obj is None:
        start, stop, step = a["start"], a["stop"], a["step"]
        return torch.tensor(list(range(n))[slice(start, stop, step)], dtype=torch.int64)
    idx = obj.detach().to("cpu")
    if idx.dtype == torch.bool:
        return torch.nonzero(idx.reshape(-1)).reshape(-1)
    idx = idx.to(torch.int64).reshape(-1)  # any integer (or float) dtype, as MXNet
    return idx[(idx >= 0) & (idx < n)]  # MXNet 1.9.1 skips indices outside [0, n)


def _flat_axis(op: str, a: dict, x: torch.Tensor) -> tuple[torch.Tensor, int]:
    if a["axis"] is None:
        return x.reshape(-1), 0
    return x, norm_axis(op, a["axis"], x.dim())


def _delete(a: dict, x: torch.Tensor, obj: torch.Tensor | None = None) -> torch.Tensor:
    op = "_npi_delete"
    x, axis = _flat_axis(op, a, x)
    n = x.shape[axis]
    pos = _positions(op, a, n, obj)
    if pos.numel() and (bool((pos < -n).any()) or bool((pos >= n).any())):
        raise op_error(op, f"index out of bounds for axis {axis} with size {n}")
    keep = torch.ones(n, dtype=torch.bool)
    keep[pos % n if n else pos] = False
    out = torch.index_select(x, axis, torch.nonzero(keep).reshape(-1).to(x.device))
    return no_grad(out, op)


def _slice_given(a: dict) -> bool:
    return a.get("int_ind") is not None or any(a.get(k) is not None
                                               for k in ("start", "stop", "step"))


_SLICE_PARAMS = [Param("start", "int_or_none", None, doc="Start of the slice."),
                 Param("stop", "int_or_none", None, doc="End of the slice."),
                 Param("step", "int_or_none", None, doc="Step of the slice."),
                 Param("int_ind", "int_or_none", None, doc="A single integer index."),
                 Param("axis", "int_or_none", None, doc="Axis (None: the flattened array).")]
register(OpDef("_npi_delete", _delete, inputs=("arr", "obj"),
               active_inputs=lambda a: ("arr",) if _slice_given(a) else ("arr", "obj"),
               params=_SLICE_PARAMS,
               doc=_doc("A new array with sub-arrays along an axis deleted (``mx.np.delete``).",
                        "mx.nd._internal._npi_delete(x, int_ind=1, axis=0)")))


def _insert_kernel(kind: str):
    op = f"_npi_insert_{kind}"

    def compute(a: dict, x: torch.Tensor, *rest: torch.Tensor) -> torch.Tensor:
        rest = list(rest)
        if a["val"] is not None:
            vals = torch.tensor(a["val"], dtype=x.dtype, device=x.device)
        else:
            vals = rest.pop(0).to(x.dtype)
        obj = rest.pop(0) if kind == "tensor" else None
        x, axis = _flat_axis(op, a, x)
        n = x.shape[axis]
        if kind == "scalar":
            i = a["int_ind"]
            if not -n <= i <= n:
                raise op_error(op, f"index {i} is out of bounds for axis {axis} with size {n}")
            i = i + n if i < 0 else i
            v = vals.reshape((1,) * max(x.dim() - vals.dim(), 0) + tuple(vals.shape))
            v = torch.movedim(v, 0, axis) if v.dim() else v
            slot = list(x.shape)
            slot[axis] = v.shape[axis] if v.dim() else 1
            v = v.broadcast_to(tuple(slot))
            pre, post = x.narrow(axis, 0, i), x.narrow(axis, i, n - i)
            return no_grad(torch.cat([pre, v, post], axis), op)
        if kind == "slice":
            pos = torch.tensor(list(range(n))[slice(a["start"], a["stop"], a["step"])],
                               dtype=torch.int64)
        else:
            if obj.dtype != torch.int64:
                raise op_error(op, f"obj must be an int64 array, got {str(obj.dtype)[6:]}")
            pos = obj.detach().to("cpu").to(torch.int64).reshape(-1)
            if pos.numel() and (bool((pos < -n).any()) or bool((pos > n).any())):
                raise op_error(op, f"index out of bounds for axis {axis} with size {n}")
            pos = torch.where(pos < 0, pos + n, pos)
        k = pos.numel()
        if k == 1:  # NumPy: one index inserts ``values`` as a block (no axis move)
            i = int(pos[0])
            v = vals.reshape((1,) * max(x.dim() - vals.dim(), 0) + tuple(vals.shape))
            slot = list(x.shape)
            slot[axis] = v.shape[axis] if v.dim() else 1
            v = v.broadcast_to(tuple(slot))
            pre, post = x.narrow(axis, 0, i), x.narrow(axis, i, n - i)
            return no_grad(torch.cat([pre, v, post], axis), op)
        order = torch.argsort(pos, stable=True)
        new_pos = torch.empty(k, dtype=torch.int64)
        new_pos[order] = pos[order] + torch.arange(k)
        slot = list(x.shape)
        slot[axis] = k
        v = vals.broadcast_to(tuple(slot)) if vals.dim() <= x.dim() else vals
        keep = torch.ones(n + k, dtype=torch.bool)
        keep[new_pos] = False
        shape = list(x.shape)
        shape[axis] = n + k
        out = torch.zeros(shape, dtype=x.dtype, device=x.device)
        old_idx = torch.nonzero(keep).reshape(-1).to(x.device)
        out = out.index_copy(axis, old_idx, x)
        return no_grad(out.index_copy(axis, new_pos.to(x.device), v.contiguous()), op)

    return compute


_VAL = Param("val", "float_or_none", None, doc="A scalar value to insert (instead of values).")
for _kind, _ins in (("scalar", ("arr", "values")), ("slice", ("arr", "values")),
                    ("tensor", ("arr", "values", "obj"))):
    _act = (lambda ins: lambda a: tuple(n for n in ins if n != "values" or a["val"] is None))(_ins)
    register(OpDef(f"_npi_insert_{_kind}", _insert_kernel(_kind), inputs=_ins,
                   active_inputs=_act, params=[_VAL, *_SLICE_PARAMS],
                   doc=_doc(f"Insert values before the given index ({_kind} form of "
                            f"``mx.np.insert``).",
                            f"mx.nd._internal._npi_insert_{_kind}(x, val=5.0, int_ind=1)")))
