"""NumPy-interface (``mx.np``) selection and padding operators: ``_npi_take``,
``_npi_where`` (and its ``_lscalar``/``_rscalar``/``_scalar2`` forms), ``_npi_nonzero``,
``_npi_pad``, ``_npi_diff``, ``_npi_ediff1d`` and ``_npi_boolean_mask_assign_*``.
"""

from __future__ import annotations

import ast

import torch

from ..base import MXNetError
from ._np_shape import zero_grad
from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, norm_axis, op_error

__all__: list[str] = []


def _doc(text: str, example: str) -> str:
    return f"{text}\n\nExample: ``{example}``"


# ---------------------------------------------------------------------------------------
# take


def _take(a: dict, data: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    op = "_npi_take"
    if data.dim() == 0:
        raise op_error(op, "cannot take from a 0-d array")
    axis = norm_axis(op, a["axis"], data.dim())
    n = data.shape[axis]
    idx = indices.detach().to(torch.int64)
    mode = a["mode"]
    if mode == "clip":
        idx = idx.clamp(0, max(n - 1, 0))
    elif mode == "wrap":
        idx = torch.remainder(idx, n) if n else idx
    elif idx.device.type != "meta" and idx.numel():
        if bool((idx < 0).any()) or bool((idx >= n).any()):
            raise op_error(op, f"take operator contains indices out of bound (axis {axis} "
                               f"of size {n}; mode='raise' accepts [0, {n - 1}])")
    out = torch.index_select(data, axis, idx.reshape(-1))
    shape = tuple(data.shape[:axis]) + tuple(indices.shape) + tuple(data.shape[axis + 1:])
    return out.reshape(shape)


register(OpDef("_npi_take", _take, inputs=("a", "indices"),
               params=[Param("axis", "int", 0, doc="The axis to take along."),
                       Param("mode", "enum", "clip", choices=("clip", "raise", "wrap"),
                             doc="How out-of-bound indices behave.")],
               doc=_doc("Take elements from an array along an axis (``mx.np.take``).",
                        "mx.nd._internal._npi_take(x, idx, axis=0, mode='clip')")))

# ---------------------------------------------------------------------------------------
# where


def _cond(c: torch.Tensor) -> torch.Tensor:
    return c if c.dtype == torch.bool else c != 0


def _where(a: dict, cond: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.dtype != y.dtype:
        raise op_error("_npi_where", f"x and y must have the same dtype (got "
                                     f"{str(x.dtype)[6:]} and {str(y.dtype)[6:]})")
    return torch.where(_cond(cond), x, y)


class _WhereScalar(torch.autograd.Function):
    """``where`` with one scalar side. MXNet 1.9.1's backward masks the gradient with the
    other side's mask (``where(c, 2., x)`` sends ``c`` to ``x``): reproduced here."""

    @staticmethod
    def forward(ctx, c, arr, scalar, left):
        ctx.save_for_backward(c)
        ctx.left = left
        s = torch.tensor(scalar, dtype=arr.dtype, device=arr.device)
        return torch.where(c, s, arr) if left else torch.where(c, arr, s)

    @staticmethod
    def backward(ctx, g):
        (c,) = ctx.saved_tensors
        mask = c if ctx.left else ~c
        return None, torch.where(mask, g, torch.zeros((), dtype=g.dtype, device=g.device)), \
            None, None


def _where_scalar(left: bool):
    def compute(a: dict, cond: torch.Tensor, arr: torch.Tensor) -> torch.Tensor:
        c = _cond(cond).broadcast_to(torch.broadcast_shapes(cond.shape, arr.shape))
        return _WhereScalar.apply(c, arr.broadcast_to(c.shape), a["scalar"], left)

    return compute


def _where_scalar2(a: dict, cond: torch.Tensor) -> torch.Tensor:
    x = torch.tensor(a["x"], dtype=torch.float32, device=cond.device)
    y = torch.tensor(a["y"], dtype=torch.float32, device=cond.device)
    return zero_grad(torch.where(_cond(cond), x, y), cond)


register(OpDef("_npi_where", _where, inputs=("condition", "x", "y"),
               doc=_doc("Elements of x where condition is true, else of y "
                        "(``mx.np.where``).", "mx.nd._internal._npi_where(c, x, y)")))
_SCALAR = [Param("scalar", "float", 0.0, doc="The scalar value.")]
register(OpDef("_npi_where_lscalar", _where_scalar(True), inputs=("condition", "x"),
               params=_SCALAR,
               doc=_doc("``where(condition, scalar, array)`` (``mx.np.where``).",
                        "mx.nd._internal._npi_where_lscalar(c, y, scalar=1.0)")))
register(OpDef("_npi_where_rscalar", _where_scalar(False), inputs=("condition", "y"),
               params=_SCALAR,
               doc=_doc("``where(condition, array, scalar)`` (``mx.np.where``).",
                        "mx.nd._internal._npi_where_rscalar(c, x, scalar=0.0)")))
register(OpDef("_npi_where_scalar2", _where_scalar2, inputs=("condition",),
               params=[Param("x", "float", 0.0, doc="Value where condition is true."),
                       Param("y", "float", 0.0, doc="Value where condition is false.")],
               doc=_doc("``where(condition, x, y)`` with two scalars (``mx.np.where``).",
                        "mx.nd._internal._npi_where_scalar2(c, x=1.0, y=0.0)")))

# ---------------------------------------------------------------------------------------
# nonzero


def _nonzero(a: dict, x: torch.Tensor) -> torch.Tensor:
    if x.device.type == "meta":
        raise op_error("_npi_nonzero", "the output shape depends on the input values")
    if x.dim() == 0:
        return torch.nonzero(x.detach().reshape(1)).to(torch.int64)
    return torch.nonzero(x.detach()).to(torch.int64)


register(OpDef("_npi_nonzero", _nonzero, inputs=("x",),
               doc=_doc("The (N, ndim) int64 indices of the non-zero elements "
                        "(``mx.np.nonzero``).", "mx.nd._internal._npi_nonzero(x)")))

# ---------------------------------------------------------------------------------------
# pad


class _PadWidthParam(Param):
    """``pad_width``: a tuple of (before, after) int pairs, one per axis."""

    __slots__ = ()

    def parse(self, value, op_name: str = ""):
        v = ast.literal_eval(value) if isinstance(value, str) else value
        try:
            return tuple(tuple(int(e) for e in p) for p in v)
        except (TypeError, ValueError):
            return super().parse(value, op_name)


def _axis_index(mode: str, n: int, before: int, after: int) -> torch.Tensor:
    i = torch.arange(-before, n + after)
    if mode == "edge":
        return i.clamp(0, n - 1)
    if mode == "reflect":
        if n == 1:
            return torch.zeros_like(i)
        p = 2 * (n - 1)
        r = torch.remainder(i, p)
        return torch.where(r >= n, p - r, r)
    p = 2 * n  # symmetric
    r = torch.remainder(i, p)
    return torch.where(r >= n, p - 1 - r, r)


def _pad(a: dict, x: torch.Tensor) -> torch.Tensor:
    op, pw, mode = "_npi_pad", a["pad_width"], a["mode"]
    nd = x.dim()
    if nd < 2:
        raise op_error(op, f"index = 1 must be in range [0, {nd}): the input must have at "
                           "least 2 dimensions")
    if len(pw) != nd:
        raise op_error(op, f"pad_width {pw} does not match an input of shape "
                           f"{fmt_shape(x.shape)}")
    for ax, (b, e) in enumerate(pw):
        if b < 0 or e < 0:
            raise op_error(op, "index can't contain negative values")
        if not (b or e):
            continue
        n = x.shape[ax]
        if mode == "constant":
            parts = []
            for k in (b, e):
                shape = list(x.shape)
                shape[ax] = k
                parts.append(torch.full(shape, a["constant_value"], dtype=x.dtype,
                                        device=x.device))
            x = torch.cat([parts[0], x, parts[1]], ax)
        elif mode in ("maximum", "minimum"):
            if n == 0:
                raise op_error(op, "stat_length of 0 yields no value for padding")
            stat = x.amax(ax, keepdim=True) if mode == "maximum" else x.amin(ax, keepdim=True)
            shape_b, shape_e = list(x.shape), list(x.shape)
            shape_b[ax], shape_e[ax] = b, e
            x = torch.cat([stat.expand(shape_b), x, stat.expand(shape_e)], ax)
        else:
            if n == 0:
                raise op_error(op, f"can't extend empty axis {ax} using modes other than "
                                   "'constant'")
            idx = _axis_index(mode, n, b, e).to(x.device)
            x = torch.index_select(x, ax, idx)
    x = x.clone() if not any(b or e for b, e in pw) else x
    if mode != "constant" and torch.is_grad_enabled() and x.requires_grad:
        x = _NoPadGrad.apply(x)
    return x


class _NoPadGrad(torch.autograd.Function):
    """MXNet 1.9.1's pad has a backward for mode 'constant' only: the others raise."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        raise MXNetError("Operator _backward__npi_pad: Other modes are not supported.")


register(OpDef("_npi_pad", _pad,
               params=[_PadWidthParam("pad_width", "any", doc="Number of values padded to "
                                      "the edges of each axis: ((before, after), ...)."),
                       Param("mode", "enum", "constant", choices=(
                           "constant", "edge", "maximum", "minimum", "reflect", "symmetric"),
                           doc="Padding mode."),
                       Param("constant_value", "float", 0.0, doc="The value for 'constant'."),
                       Param("reflect_type", "str", "even", doc="Only 'even' is supported.")],
               doc=_doc("Pad an array (``mx.np.pad``).",
                        "mx.nd._internal._npi_pad(x, pad_width=((1, 1),), mode='edge')")))

# ---------------------------------------------------------------------------------------
# diff / ediff1d


def _diff(a: dict, x: torch.Tensor) -> torch.Tensor:
    n = a["n"]
    if n < 0:
        raise op_error("_npi_diff", f"order must be non-negative but got {n}")
    if x.dim() == 0:
        raise op_error("_npi_diff", "diff requires input that is at least one dimensional")
    axis = norm_axis("_npi_diff", a["axis"], x.dim())
    for _ in range(n):
        if x.shape[axis] == 0:
            break
        x = x.narrow(axis, 1, x.shape[axis] - 1) - x.narrow(axis, 0, x.shape[axis] - 1)
    return x.clone() if n == 0 else x


register(OpDef("_npi_diff", _diff, inputs=("a",),
               params=[Param("n", "int", 1, doc="The number of times values are differenced."),
                       Param("axis", "int", -1, doc="The axis along which the difference is "
                             "taken.")],
               doc=_doc("The n-th discrete difference along an axis (``mx.np.diff``).",
                        "mx.nd._internal._npi_diff(x, n=1, axis=-1)")))


def _ediff_inputs(a: dict) -> tuple:
    names = ["input1"]
    if a["to_begin_arr_given"]:
        names.append("input2")
    if a["to_end_arr_given"]:
        names.append("input3")
    return tuple(names)


def _ediff1d(a: dict, x: torch.Tensor, *rest: torch.Tensor) -> torch.Tensor:
    rest = list(rest)
    flat = x.reshape(-1)
    parts = [flat[1:] - flat[:-1]]

    def edge(given: bool, scalar):
        if given:
            t = rest.pop(0)
            if t.dtype != x.dtype:
                raise op_error("_npi_ediff1d", f"Type inconsistent, Provided = "
                                               f"{str(x.dtype)[6:]}, inferred type = "
                                               f"{str(t.dtype)[6:]}")
            return t.reshape(-1)
        if scalar is not None:
            return torch.tensor([scalar], dtype=x.dtype, device=x.device)
        return None

    begin = edge(a["to_begin_arr_given"], a["to_begin_scalar"])
    end = edge(a["to_end_arr_given"], a["to_end_scalar"])
    if begin is not None:
        parts.insert(0, begin)
    if end is not None:
        parts.append(end)
    return torch.cat(parts) if len(parts) > 1 else parts[0].clone()


register(OpDef("_npi_ediff1d", _ediff1d, inputs=("input1", "input2", "input3"),
               active_inputs=_ediff_inputs,
               params=[Param("to_begin_arr_given", "bool", False, doc="Whether to_begin is an "
                             "array input."),
                       Param("to_end_arr_given", "bool", False, doc="Whether to_end is an array "
                             "input."),
                       Param("to_begin_scalar", "float_or_none", None, doc="A scalar to "
                             "prepend."),
                       Param("to_end_scalar", "float_or_none", None, doc="A scalar to append.")],
               doc=_doc("Differences between consecutive elements of the flattened array "
                        "(``mx.np.ediff1d``).", "mx.nd._internal._npi_ediff1d(x)")))

# ---------------------------------------------------------------------------------------
# memory sharing


def byte_span(t: torch.Tensor) -> tuple[int, int, int]:
    """(storage address, first byte, one past the last byte) that ``t`` can touch."""
    if t.numel() == 0:
        return t.untyped_storage().data_ptr(), 0, 0
    size = t.element_size()
    lo = t.storage_offset() * size
    hi = lo + size * (1 + sum((d - 1) * abs(s) for d, s in zip(t.shape, t.stride())))
    return t.untyped_storage().data_ptr(), lo, hi


def _share_memory(a: dict, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device.type == "meta":
        return torch.zeros((), dtype=torch.bool, device=x.device)
    px, lx, hx = byte_span(x)
    py, ly, hy = byte_span(y)
    return torch.tensor(px == py and lx < hy and ly < hx, dtype=torch.bool, device=x.device)


register(OpDef("_npi_share_memory", _share_memory, inputs=("a", "b"),
               infer_out=lambda a, s: [()],
               doc=_doc("Whether two arrays share memory (a 0-d bool array; "
                        "``mx.np.shares_memory``).", "mx.nd._internal._npi_share_memory(a, b)")))

# ---------------------------------------------------------------------------------------
# boolean mask assignment (what ``x[mask] = v`` runs in MXNet)


def _mask_index(op: str, a: dict, data: torch.Tensor, mask: torch.Tensor) -> tuple:
    start = a["start_axis"]
    want = tuple(data.shape[start:start + mask.dim()])
    if start < 0 or start + mask.dim() > data.dim() or tuple(mask.shape) != want:
        raise op_error(op, f"mask of shape {fmt_shape(mask.shape)} does not match data of "
                           f"shape {fmt_shape(data.shape)} from axis {start}")
    return (slice(None),) * start + (mask.detach().to(torch.bool),)


def _bool_assign_scalar(a: dict, data: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    idx = _mask_index("_npi_boolean_mask_assign_scalar", a, data, mask)
    out = data.clone()
    out[idx] = a["value"]
    return out


def _bool_assign_tensor(a: dict, data: torch.Tensor, mask: torch.Tensor,
                        value: torch.Tensor) -> torch.Tensor:
    idx = _mask_index("_npi_boolean_mask_assign_tensor", a, data, mask)
    out = data.clone()
    out[idx] = value.to(data.dtype)
    return out


_START_AXIS = Param("start_axis", "int", 0, doc="The axis of data where the mask starts.")
register(OpDef("_npi_boolean_mask_assign_scalar", _bool_assign_scalar, inputs=("data", "mask"),
               params=[Param("value", "float", 0.0, doc="The value written where mask is "
                             "True."), _START_AXIS],
               doc=_doc("``data`` with ``value`` where ``mask`` is True (``x[mask] = v``).",
                        "mx.nd._internal._npi_boolean_mask_assign_scalar(x, m, value=1.0)")))
register(OpDef("_npi_boolean_mask_assign_tensor", _bool_assign_tensor,
               inputs=("data", "mask", "value"), params=[_START_AXIS],
               doc=_doc("``data`` with the rows of ``value`` where ``mask`` is True.",
                        "mx.nd._internal._npi_boolean_mask_assign_tensor(x, m, v)")))
