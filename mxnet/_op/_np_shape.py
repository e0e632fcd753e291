"""NumPy-interface (``mx.np``) shape operators: ``_np_reshape``, ``_npi_reshape`` (npx
shape codes), ``_np_transpose``, ``_npi_swapaxes``, ``_np_moveaxis``, ``_npi_expand_dims``,
``_np_squeeze``, ``_npi_broadcast_to``, ``_np_atleast_{1,2,3}d``, ``_npi_flip``,
``_np_roll``, ``_npi_rot90``, ``_npi_tile``, ``_np_repeat`` and ``_np_copy``.

Outputs are new arrays (MXNet never returns views), gradients come from torch.
"""

from __future__ import annotations

import math

import torch

from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, fresh, norm_axis, op_error

__all__ = ["np_reshape_target", "npx_reshape_target", "zero_grad", "no_grad"]


def _doc(text: str, example: str) -> str:
    return f"{text}\n\nExample: ``{example}``"


# ---------------------------------------------------------------------------------------
# reshape


def np_reshape_target(op: str, dshape, newshape) -> tuple:
    """NumPy's target shape: at most one ``-1``, sizes must match."""
    shape = list(newshape)
    size = math.prod(dshape)
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise op_error(op, "can only specify one unknown dimension")
    for d in shape:
        if d < -1:
            raise op_error(op, f"invalid dimension {d} in new shape {tuple(newshape)}")
    if unknown:
        known = math.prod(d for d in shape if d != -1)
        if known == 0 or size % known:
            raise op_error(op, f"cannot reshape array of size {size} into shape "
                               f"{tuple(newshape)}")
        shape[unknown[0]] = size // known
    if math.prod(shape) != size:
        raise op_error(op, f"cannot reshape array of size {size} into shape {tuple(newshape)}")
    return tuple(shape)


def _npx_codes(op: str, dshape: tuple, spec: list) -> list:
    out: list = []
    src, i, infer_at = 0, 0, -1
    nd = len(dshape)
    while i < len(spec):
        c = spec[i]
        if c >= 0:
            out.append(c)
            src += 1
        elif c == -1:
            if infer_at >= 0:
                raise op_error(op, "One and only one dim can be inferred")
            infer_at = len(out)
            out.append(-1)
            src += 1
        elif c == -2:
            if src >= nd:
                raise op_error(op, f"code -2 has no input dimension (shape {fmt_shape(dshape)})")
            out.append(dshape[src])
            src += 1
        elif c == -3:
            if src >= nd or dshape[src] != 1:
                raise op_error(op, "-3 index should only be used to skip dimension size 1")
            src += 1
        elif c == -4:
            out.extend(dshape[src:])
            src = nd
        elif c == -5:
            if src + 1 >= nd:
                raise op_error(op, "code -5 needs two input dimensions")
            out.append(dshape[src] * dshape[src + 1])
            src += 2
        elif c == -6:
            if i + 2 >= len(spec) or src >= nd:
                raise op_error(op, "code -6 must be followed by two dimensions")
            d0, d1, d2 = dshape[src], spec[i + 1], spec[i + 2]
            if d1 == -1:
                d1 = d0 // d2 if d2 else 0
            elif d2 == -1:
                d2 = d0 // d1 if d1 else 0
            if d1 * d2 != d0:
                raise op_error(op, f"Split dims {d1}, {d2} do not divide original dim {d0}")
            out += [d1, d2]
            src += 1
            i += 2
        else:
            raise op_error(op, f"invalid shape code {c}")
        i += 1
    if infer_at >= 0:
        known = math.prod(d for d in out if d != -1)
        total = math.prod(dshape)
        out[infer_at] = total // known if known else 0
    return out


def npx_reshape_target(op: str, dshape, newshape, reverse: bool = False) -> tuple:
    """``npx.reshape``'s target: -1 infer, -2 copy, -3 drop a size-1 axis, -4 copy the
    rest, -5 merge two axes, -6 split one axis into the next two codes."""
    dshape = tuple(dshape)
    if reverse:
        out = _npx_codes(op, dshape[::-1], list(newshape)[::-1])[::-1]
    else:
        out = _npx_codes(op, dshape, list(newshape))
    if math.prod(out) != math.prod(dshape):
        raise op_error(op, f"cannot reshape array of shape {fmt_shape(dshape)} into "
                           f"{tuple(newshape)}")
    return tuple(out)


def _check_order(op: str, order: str) -> None:
    if order != "C":
        raise op_error(op, f"only order='C' is supported (got {order!r})")


def _np_reshape(a: dict, x: torch.Tensor) -> torch.Tensor:
    _check_order("_np_reshape", a["order"])
    return fresh(x.reshape(np_reshape_target("_np_reshape", tuple(x.shape), a["newshape"])))


def _npi_reshape(a: dict, x: torch.Tensor) -> torch.Tensor:
    _check_order("_npi_reshape", a["order"])
    shape = npx_reshape_target("_npi_reshape", tuple(x.shape), a["newshape"], a["reverse"])
    return fresh(x.reshape(shape))


_NEWSHAPE = Param("newshape", "shape", doc="The new shape (int or tuple of ints).")
_ORDER = Param("order", "str", "C", doc="Read the elements in this index order (only 'C').")
register(OpDef("_np_reshape", _np_reshape, inputs=("a",), params=[_NEWSHAPE, _ORDER],
               doc=_doc("Give a new shape to an array (``mx.np.reshape``).",
                        "mx.nd._internal._np_reshape(x, newshape=(2, -1))")))
register(OpDef("_npi_reshape", _npi_reshape, inputs=("a",),
               params=[_NEWSHAPE, Param("reverse", "bool", False, doc="Match the codes from "
                                        "right to left."), _ORDER],
               doc=_doc("Reshape with npx shape codes (-1 infer, -2 copy, -3 skip a size-1 "
                        "axis, -4 copy the rest, -5 merge two, -6 split one).",
                        "mx.nd._internal._npi_reshape(x, newshape=(-2, -1))")))

# ---------------------------------------------------------------------------------------
# axes


def _transpose(a: dict, x: torch.Tensor) -> torch.Tensor:
    nd = x.dim()
    axes = a["axes"]
    if axes is None or len(axes) == 0:
        perm = tuple(range(nd))[::-1]
    else:
        if len(axes) != nd:
            raise op_error("_np_transpose", f"axes {tuple(axes)} don't match array of ndim {nd}")
        perm = tuple(norm_axis("_np_transpose", int(d), nd, "axes") for d in axes)
        if len(set(perm)) != nd:
            raise op_error("_np_transpose", f"repeated axis in transpose {tuple(axes)}")
    return fresh(x.permute(perm))


register(OpDef("_np_transpose", _transpose, inputs=("a",),
               params=[Param("axes", "shape_or_none", None, doc="The permutation of the axes "
                             "(reversed by default).")],
               doc=_doc("Permute the axes of an array (``mx.np.transpose``).",
                        "mx.nd._internal._np_transpose(x, axes=(1, 0))")))


def _swapaxes(a: dict, x: torch.Tensor) -> torch.Tensor:
    nd = x.dim()
    d1 = norm_axis("_npi_swapaxes", a["dim1"], nd, "axis1")
    d2 = norm_axis("_npi_swapaxes", a["dim2"], nd, "axis2")
    return fresh(x.transpose(d1, d2))


register(OpDef("_npi_swapaxes", _swapaxes,
               params=[Param("dim1", "int", 0, doc="the first axis to be swapped."),
                       Param("dim2", "int", 0, doc="the second axis to be swapped.")],
               doc=_doc("Interchange two axes (``mx.np.swapaxes``).",
                        "mx.nd._internal._npi_swapaxes(x, dim1=0, dim2=1)")))


def _moveaxis(a: dict, x: torch.Tensor) -> torch.Tensor:
    op, nd = "_np_moveaxis", x.dim()
    src = [norm_axis(op, d, nd, "source") for d in a["source"]]
    dst = [norm_axis(op, d, nd, "destination") for d in a["destination"]]
    if len(src) != len(dst):
        raise op_error(op, "`source` and `destination` arguments must have the same number "
                           "of elements")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise op_error(op, "repeated axis in `source` or `destination` argument")
    return fresh(torch.movedim(x, src, dst))


register(OpDef("_np_moveaxis", _moveaxis, inputs=("a",),
               params=[Param("source", "shape", doc="Original positions of the axes."),
                       Param("destination", "shape", doc="Destination positions.")],
               doc=_doc("Move axes to new positions (``mx.np.moveaxis``).",
                        "mx.nd._internal._np_moveaxis(x, source=0, destination=1)")))


def _expand_dims(a: dict, x: torch.Tensor) -> torch.Tensor:
    nd = x.dim() + 1
    axis = a["axis"]
    if not -nd <= axis < nd:
        raise op_error("_npi_expand_dims", f"axis {axis} is out of bounds for array of "
                                           f"dimension {nd}")
    return fresh(x.unsqueeze(axis + nd if axis < 0 else axis))


register(OpDef("_npi_expand_dims", _expand_dims,
               params=[Param("axis", "int", doc="Position where the new axis is placed.")],
               doc=_doc("Insert a new axis of size 1 (``mx.np.expand_dims``).",
                        "mx.nd._internal._npi_expand_dims(x, axis=0)")))


def _squeeze(a: dict, x: torch.Tensor) -> torch.Tensor:
    axis, nd = a["axis"], x.dim()
    if axis is None:
        return fresh(x.reshape(tuple(d for d in x.shape if d != 1)))
    if nd == 0:  # NumPy accepts axis 0 / -1 on a 0-d array
        for d in axis:
            if d not in (0, -1):
                raise op_error("_np_squeeze", f"axis {d} is out of bounds for a 0-d array")
        return fresh(x)
    axes = {norm_axis("_np_squeeze", d, nd) for d in axis}
    for d in axes:
        if x.shape[d] != 1:
            raise op_error("_np_squeeze", "cannot select an axis to squeeze out which has "
                                          f"size={x.shape[d]} not equal to one")
    return fresh(x.reshape(tuple(s for i, s in enumerate(x.shape) if i not in axes)))


register(OpDef("_np_squeeze", _squeeze, inputs=("a",),
               params=[Param("axis", "shape_or_none", None, doc="The size-1 axes to remove "
                             "(all by default).")],
               doc=_doc("Remove axes of length one (``mx.np.squeeze``).",
                        "mx.nd._internal._np_squeeze(x, axis=0)")))


def _broadcast_to(a: dict, x: torch.Tensor) -> torch.Tensor:
    shape = list(a["shape"])
    ish = tuple(x.shape)
    off = len(shape) - len(ish)
    for j, d in enumerate(shape):  # -2 keeps the input's (right-aligned) dimension
        if d == -2 and 0 <= j - off < len(ish):
            shape[j] = ish[j - off]
    shape = tuple(shape)
    ok = len(shape) >= len(ish) and all(d >= 0 for d in shape) and all(
        i in (1, o) for i, o in zip(ish[::-1], shape[::-1]))
    if not ok:
        raise op_error("_npi_broadcast_to", f"operands could not be broadcast together with "
                                            f"remapped shapes {fmt_shape(ish)} and requested "
                                            f"shape {fmt_shape(shape)}")
    return fresh(x.broadcast_to(shape))


register(OpDef("_npi_broadcast_to", _broadcast_to, inputs=("array",),
               params=[Param("shape", "shape", (), doc="The shape of the desired array.")],
               doc=_doc("Broadcast an array to a new shape (``mx.np.broadcast_to``).",
                        "mx.nd._internal._npi_broadcast_to(x, shape=(2, 3))")))


class _ZeroGrad(torch.autograd.Function):
    """``out`` unchanged, with a zero gradient to ``src`` (MXNet's gradient-less ops)."""

    @staticmethod
    def forward(ctx, out, src):
        ctx.spec = (src.shape, src.dtype, src.device)
        return out.view_as(out)

    @staticmethod
    def backward(ctx, g):
        shape, dtype, device = ctx.spec
        return None, torch.zeros(shape, dtype=dtype, device=device)


def zero_grad(out: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    """``out`` detached from autograd but linked to ``src`` with a zero gradient."""
    out = out.detach()
    if src.requires_grad and src.is_floating_point() and out.is_floating_point():
        return _ZeroGrad.apply(out, src)
    return out


class _NoGrad(torch.autograd.Function):
    """Forward unchanged; backward raises (an operator MXNet gives no FGradient)."""

    @staticmethod
    def forward(ctx, out, opname):
        ctx.opname = opname
        return out.view_as(out)

    @staticmethod
    def backward(ctx, g):
        from ..base import MXNetError

        raise MXNetError(f"Operator {ctx.opname} is non-differentiable because it didn't "
                         "register FGradient attribute.")


def no_grad(out: torch.Tensor, opname: str) -> torch.Tensor:
    """``out``, whose backward raises MXNet's non-differentiable error for ``opname``."""
    if torch.is_grad_enabled() and out.requires_grad:
        return _NoGrad.apply(out, opname)
    return out


def _atleast(nd: int):
    def compute(a: dict, *xs: torch.Tensor):
        outs = []
        for x in xs:
            if x.dim() >= nd:
                outs.append(fresh(x))
            elif nd == 1:
                outs.append(fresh(x.reshape(1)))
            elif nd == 2:
                outs.append(fresh(x.reshape((1, -1) if x.dim() == 1 else (1, 1))))
            else:
                shape = {0: (1, 1, 1), 1: (1, -1, 1), 2: (*x.shape, 1)}[x.dim()]
                outs.append(fresh(x.reshape(shape)))
        # MXNet 1.9.1 gives these operators no gradient: the inputs get zeros
        return tuple(zero_grad(o, x) for o, x in zip(outs, xs))

    return compute


for _nd in (1, 2, 3):
    register(OpDef(f"_np_atleast_{_nd}d", _atleast(_nd), variadic="num_args",
                   inputs=("arys",),
                   outputs=lambda a: [f"output{i}" for i in range(a["num_args"])],
                   params=[Param("num_args", "int", doc="Number of input arrays.")],
                   doc=_doc(f"View inputs as arrays with at least {_nd} dimensions "
                            f"(``mx.np.atleast_{_nd}d``).",
                            f"mx.nd._internal._np_atleast_{_nd}d(x, y, num_args=2)")))

# ---------------------------------------------------------------------------------------
# flip, roll, rot90, tile, repeat, copy


def _flip(a: dict, x: torch.Tensor) -> torch.Tensor:
    if a["axis"] is None:  # every axis
        return x.flip(list(range(x.dim()))) if x.dim() else fresh(x)
    for d in a["axis"]:  # MXNet 1.9.1's flip takes no negative axes
        if not 0 <= d < x.dim():
            raise op_error("_npi_flip", f"index = {d} must be in range [0, {x.dim()})")
    axes = list(a["axis"])
    return x.flip(axes) if axes else fresh(x)


register(OpDef("_npi_flip", _flip,
               params=[Param("axis", "shape_or_none", None,
                             doc="The axes along which to flip (None: all).")],
               doc=_doc("Reverse the order of elements along axes (``mx.np.flip``).",
                        "mx.nd._internal._npi_flip(x, axis=(0,))")))


def _roll(a: dict, x: torch.Tensor) -> torch.Tensor:
    shift, axis = a["shift"], a["axis"]
    if shift is None:
        raise op_error("_np_roll", "shift must be given")
    if axis is None:
        if len(shift) != 1:
            raise op_error("_np_roll", "shift must be an int when axis is None")
        return x.reshape(-1).roll(shift[0]).reshape(x.shape)
    axes = [norm_axis("_np_roll", d, x.dim()) for d in axis]
    if len(shift) == 1:
        shift = tuple(shift) * len(axes)
    if len(shift) != len(axes):
        raise op_error("_np_roll", "shift and axis must have the same length")
    return x.roll(tuple(shift), tuple(axes))


register(OpDef("_np_roll", _roll,
               params=[Param("shift", "shape_or_none", None, doc="The number of places by "
                             "which elements are shifted."),
                       Param("axis", "shape_or_none", None, doc="Axes along which elements "
                             "are shifted (flattened input by default).")],
               doc=_doc("Roll array elements along axes (``mx.np.roll``).",
                        "mx.nd._internal._np_roll(x, shift=1)")))


def _rot90(a: dict, x: torch.Tensor) -> torch.Tensor:
    axes = a["axes"] if a["axes"] is not None else (0, 1)
    if len(axes) != 2:
        raise op_error("_npi_rot90", "len(axes) must be 2.")
    nd = x.dim()
    if nd < 2:
        raise op_error("_npi_rot90", f"the input must have at least 2 dimensions (got {nd})")
    a0, a1 = (norm_axis("_npi_rot90", d, nd, "axes") for d in axes)
    if a0 == a1:
        raise op_error("_npi_rot90", "Axes must be different.")
    return _Rot90.apply(x, a["k"], (a0, a1))


class _Rot90(torch.autograd.Function):
    """rot90 whose backward rotates the gradient by ``k`` again, as MXNet 1.9.1's does."""

    @staticmethod
    def forward(ctx, x, k, axes):
        ctx.k, ctx.axes = k, axes
        return fresh(torch.rot90(x, k, axes))

    @staticmethod
    def backward(ctx, g):
        return torch.rot90(g, ctx.k, ctx.axes), None, None


register(OpDef("_npi_rot90", _rot90,
               params=[Param("k", "int", 1, doc="Number of times the array is rotated by 90 "
                             "degrees."),
                       Param("axes", "shape_or_none", None, doc="The plane of rotation.")],
               doc=_doc("Rotate an array by 90 degrees in a plane (``mx.np.rot90``).",
                        "mx.nd._internal._npi_rot90(x, k=1, axes=(0, 1))")))


def _tile(a: dict, x: torch.Tensor) -> torch.Tensor:
    reps = tuple(a["reps"])
    if any(r < 0 for r in reps):
        raise op_error("_npi_tile", f"reps {reps} must be non-negative")
    if not reps:
        return fresh(x)
    return fresh(x.tile(reps))


register(OpDef("_npi_tile", _tile,
               params=[Param("reps", "shape", doc="The number of repetitions along each axis.")],
               doc=_doc("Construct an array by repeating the input (``mx.np.tile``).",
                        "mx.nd._internal._npi_tile(x, reps=(2, 1))")))


def _repeat(a: dict, x: torch.Tensor) -> torch.Tensor:
    n = a["repeats"]
    if n < 0:
        raise op_error("_np_repeat", f"repeats cannot be a negative number ({n})")
    if a["axis"] is None or n == 0:  # MXNet 1.9.1: zero repeats give a (0,) array
        return x.reshape(-1).repeat_interleave(n)
    return x.repeat_interleave(n, dim=norm_axis("_np_repeat", a["axis"], x.dim()))


register(OpDef("_np_repeat", _repeat,
               params=[Param("repeats", "int", doc="The number of repetitions for each "
                             "element."),
                       Param("axis", "int_or_none", None, doc="The axis along which to "
                             "repeat (flattened input by default).")],
               doc=_doc("Repeat each element of an array (``mx.np.repeat``).",
                        "mx.nd._internal._np_repeat(x, repeats=2, axis=0)")))

register(OpDef("_np_copy", lambda a, x: fresh(x), inputs=("a",),
               doc=_doc("A copy of the array (``mx.np.copy``).", "mx.nd._internal._np_copy(x)")))
