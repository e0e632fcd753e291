"""Shape operators: reshape family, transpose, broadcast, tile/repeat/reverse, space/depth.

Outputs are fresh arrays (as in MXNet), except ``Reshape``, which returns a view when the input
is contiguous so that ``NDArray.reshape`` shares memory with its source.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch

from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register

Shape = tuple[int, ...]

__all__ = ["infer_reshape", "fmt_shape", "op_error", "norm_axis", "fresh"]


def fmt_shape(shape: Sequence[int | None]) -> str:
    """MXNet's shape spelling in messages: ``[2,3,4]``."""
    return "[" + ",".join("None" if d is None else str(d) for d in shape) + "]"


def op_error(op: str, msg: str) -> MXNetError:
    """An :class:`MXNetError` naming the operator."""
    return MXNetError(f"Error in operator {op}: {msg}")


def norm_axis(op: str, axis: int, ndim: int, arg: str = "axis") -> int:
    """Normalise a possibly negative axis into ``[0, ndim)``; out of range raises."""
    if not -ndim <= axis < ndim:
        raise op_error(op, f"{arg}={axis} is out of bounds for an array of ndim {ndim} "
                           f"(valid range [{-ndim}, {ndim - 1}])")
    return axis + ndim if axis < 0 else axis


def fresh(t: torch.Tensor) -> torch.Tensor:
    """A contiguous copy that shares no memory with its source (MXNet outputs are new arrays)."""
    return t.clone(memory_format=torch.contiguous_format)


# ---------------------------------------------------------------------------------------
# Reshape


def _infer_special(op: str, dshape: Shape, spec: Sequence[int]) -> list[int]:
    out: list[int] = []
    src = 0
    inf_at = -1
    i = 0
    nd = len(dshape)
    while i < len(spec):
        code = spec[i]
        if code == 0:
            if src >= nd:
                raise op_error(op, f"shape code 0 at position {i} has no matching input "
                                   f"dimension (input shape {fmt_shape(dshape)})")
            out.append(dshape[src])
            src += 1
        elif code == -1:
            if inf_at >= 0:
                raise op_error(op, "One and only one dim can be inferred")
            inf_at = len(out)
            out.append(1)
            src += 1
        elif code == -2:
            out.extend(dshape[src:])
            src = nd
        elif code == -3:
            if src + 1 >= nd:
                raise op_error(op, f"shape code -3 needs two input dimensions at position {src} "
                                   f"(input shape {fmt_shape(dshape)})")
            out.append(dshape[src] * dshape[src + 1])
            src += 2
        elif code == -4:
            if i + 2 >= len(spec):
                raise op_error(op, "shape code -4 must be followed by two dimensions")
            if src >= nd:
                raise op_error(op, f"shape code -4 has no input dimension to split "
                                   f"(input shape {fmt_shape(dshape)})")
            d0 = dshape[src]
            src += 1
            d1, d2 = spec[i + 1], spec[i + 2]
            i += 2
            if d1 == -1 and d2 == -1:
                raise op_error(op, "Split dims cannot both be -1.")
            if d1 == -1:
                d1 = d0 // d2 if d2 else 0
            elif d2 == -1:
                d2 = d0 // d1 if d1 else 0
            if d1 * d2 != d0 or d1 < 0 or d2 < 0:
                raise op_error(op, f"Split dims {d1}, {d2} do not divide original dim {d0}")
            out += [d1, d2]
        elif code > 0:
            out.append(code)
            src += 1
        else:
            raise op_error(op, f"invalid shape code {code} in {tuple(spec)}")
        i += 1
    if inf_at >= 0:
        known = math.prod(out)
        total = math.prod(dshape)
        if known == 0:
            raise op_error(op, f"cannot infer the -1 dimension of {tuple(spec)} from input "
                               f"shape {fmt_shape(dshape)}")
        out[inf_at] = total // known
    return out


def infer_reshape(dshape: Shape, shape: Sequence[int], reverse: bool = False,
                  op: str = "Reshape") -> Shape:
    """Target shape of MXNet's ``Reshape`` with special codes 0, -1, -2, -3, -4.

    Examples
    --------
    >>> infer_reshape((2, 3, 4), (0, -1))
    (2, 12)
    >>> infer_reshape((10, 5, 4), (-1, 0), reverse=True)
    (50, 4)
    """
    if reverse:
        out = _infer_special(op, tuple(dshape)[::-1], list(shape)[::-1])[::-1]
    else:
        out = _infer_special(op, tuple(dshape), list(shape))
    out_t = tuple(out)
    if math.prod(out_t) != math.prod(dshape):
        raise op_error(op, f"Target shape size is different to source. Target: "
                           f"{fmt_shape(out_t)} Source: {fmt_shape(dshape)}")
    return out_t


def _legacy_target(dshape: Shape, target: Shape, keep_highest: bool) -> Shape:
    out = list(target)
    start = 1 if keep_highest else 0
    if keep_highest:
        out[0] = dshape[0]
    zeros = [i for i in range(start, len(out)) if out[i] == 0]
    if len(zeros) == 1:
        out[zeros[0]] = 1
        known = math.prod(out)
        out[zeros[0]] = math.prod(dshape) // known if known else 0
    if math.prod(out) != math.prod(dshape):
        raise op_error("Reshape", f"Target shape size is different to source. Target: "
                                  f"{fmt_shape(out)} Source: {fmt_shape(dshape)}")
    return tuple(out)


def _reshape_target(a: dict, dshape: Shape) -> Shape:
    if a["shape"]:
        return infer_reshape(dshape, a["shape"], a["reverse"])
    if a["target_shape"]:
        return _legacy_target(dshape, a["target_shape"], a["keep_highest"])
    if math.prod(dshape) == 1:
        from ..util import is_np_shape

        if is_np_shape():  # shape=() is a 0-d target under NumPy-shape semantics
            return ()
    raise op_error("Reshape", "the target shape must be given (shape=() is not a valid "
                              f"target for input shape {fmt_shape(dshape)})")


def _reshape(a: dict, x: torch.Tensor) -> torch.Tensor:
    return x.reshape(_reshape_target(a, tuple(x.shape)))


def _size_back(a: dict, ins: list, outs: list) -> list:
    """A size-preserving op: the single unknown input dim is total size / known dims."""
    d = ins[0]
    if d is None or list(d).count(0) != 1:
        return [None]
    known = math.prod(v for v in d if v)
    total = math.prod(outs[0])
    if not known or total % known:
        return [None]
    return [tuple(total // known if v == 0 else v for v in d)]


register(OpDef(
    "Reshape", _reshape, aliases=("reshape",), fluent=True, infer_back=_size_back,
    params=[Param("shape", "shape", (), doc="The target shape"),
            Param("reverse", "bool", False,
                  doc="If true then the special values are inferred from right to left"),
            Param("target_shape", "shape", (),
                  doc="(Deprecated! Use ``shape`` instead.) Target new shape."),
            Param("keep_highest", "bool", False,
                  doc="(Deprecated! Use ``shape`` instead.) Keep the highest dimension.")],
    doc="Reshape the input array; 0 copies a dimension, -1 infers one, -2 copies the rest, "
        "-3 merges two dimensions and -4 splits one into the two values that follow."))


def _span(n: int, begin, end) -> tuple[int, int]:
    b = 0 if begin is None else (begin + n if begin < 0 else begin)
    e = n if end is None else (end + n if end < 0 else end)
    return b, e


def _reshape_like(a: dict, lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
    ls, rs = tuple(lhs.shape), tuple(rhs.shape)
    lb, le = _span(len(ls), a["lhs_begin"], a["lhs_end"])
    rb, re_ = _span(len(rs), a["rhs_begin"], a["rhs_end"])
    if not (0 <= lb <= le <= len(ls)) or not (0 <= rb <= re_ <= len(rs)):
        raise op_error("reshape_like", f"invalid ranges lhs[{lb}:{le}] of {fmt_shape(ls)} or "
                                       f"rhs[{rb}:{re_}] of {fmt_shape(rs)}")
    out = ls[:lb] + rs[rb:re_] + ls[le:]
    if math.prod(out) != math.prod(ls):
        raise op_error("reshape_like", f"Cannot reshape lhs with shape {fmt_shape(ls)} to new "
                                       f"shape {fmt_shape(out)} because they have different "
                                       "size.")
    return fresh(lhs.reshape(out))


register(OpDef(
    "reshape_like", _reshape_like, inputs=("lhs", "rhs"), fluent=True,
    params=[Param(n, "int_or_none", None, doc=d) for n, d in (
        ("lhs_begin", "Defaults to 0. The beginning index along which the lhs dimensions are "
                      "to be reshaped."),
        ("lhs_end", "Defaults to None. The ending index along which the lhs dimensions are "
                    "to be used for reshaping."),
        ("rhs_begin", "Defaults to 0. The beginning index along which the rhs dimensions are "
                      "to be used for reshaping."),
        ("rhs_end", "Defaults to None. The ending index along which the rhs dimensions are "
                    "to be used for reshaping."))],
    doc="Reshape lhs (or a range of its axes) to the shape of rhs (or a range of its axes)."))


def _flatten(a: dict, x: torch.Tensor) -> torch.Tensor:
    if x.dim() == 0:
        raise op_error("Flatten", "the input must have at least one dimension (shape ())")
    # explicit size: reshape(n, -1) is ambiguous for a zero-size batch
    return fresh(x.reshape(x.shape[0], math.prod(x.shape[1:])))


register(OpDef("Flatten", _flatten, aliases=("flatten",), fluent=True, infer_back=_size_back,
               doc="Flatten the input to 2-D: (d1, d2*...*dk)."))


def _expand_dims(a: dict, x: torch.Tensor) -> torch.Tensor:
    nd = x.dim()
    axis = a["axis"]
    if not -nd - 1 <= axis <= nd:
        raise op_error("expand_dims", f"axis must be in the range [{-nd}, {nd}] "
                                      f"({axis} provided)")
    if axis < 0:
        axis += nd + 1
    return fresh(x.unsqueeze(axis))


register(OpDef("expand_dims", _expand_dims, fluent=True,
               params=[Param("axis", "int", doc="Position where the new axis is inserted.")],
               doc="Insert a new axis of size 1 into the array shape."))


def _squeeze(a: dict, x: torch.Tensor) -> torch.Tensor:
    shape = tuple(x.shape)
    if a["axis"] is None:
        keep = [d for d in shape if d != 1]
    else:
        axes = {norm_axis("squeeze", ax, len(shape)) for ax in a["axis"]}
        for ax in axes:
            if shape[ax] != 1:
                raise op_error("squeeze", f"cannot select an axis to squeeze out which has "
                                          f"size={shape[ax]} not equal to one (input "
                                          f"shape {fmt_shape(shape)})")
        keep = [d for i, d in enumerate(shape) if i not in axes]
    return fresh(x.reshape(keep or (1,)))


register(OpDef("squeeze", _squeeze, fluent=True,
               params=[Param("axis", "shape_or_none", None,
                             doc="Selects a subset of the single-dimensional entries.")],
               doc="Remove single-dimensional entries from the shape of an array."))


def _transpose(a: dict, x: torch.Tensor) -> torch.Tensor:
    nd = x.dim()
    axes = a["axes"]
    if not axes:
        axes = tuple(range(nd - 1, -1, -1))
    if len(axes) != nd:
        raise op_error("transpose", f"axes {tuple(axes)} do not match the input dimension "
                                    f"{nd} (input shape {fmt_shape(x.shape)})")
    if sorted(axes) != list(range(nd)):
        raise op_error("transpose", f"axes {tuple(axes)} must be a permutation of "
                                    f"[0, {nd}) (input shape {fmt_shape(x.shape)})")
    return fresh(x.permute(axes))


def _transpose_back(a: dict, ins: list, outs: list) -> list:
    out = outs[0]
    axes = a["axes"] or tuple(range(len(out) - 1, -1, -1))
    if len(axes) != len(out) or sorted(axes) != list(range(len(out))):
        return [None]
    shp = [0] * len(out)
    for i, ax in enumerate(axes):
        shp[ax] = out[i]
    d = ins[0]
    if d is not None and (len(d) != len(shp) or any(v and v != w for v, w in zip(d, shp))):
        return [None]
    return [tuple(shp)]


register(OpDef("transpose", _transpose, fluent=True, infer_back=_transpose_back,
               params=[Param("axes", "shape", (), doc="Target axis order. By default the axes "
                             "will be inverted.")],
               doc="Permute the dimensions of an array."))


def _swapaxes(a: dict, x: torch.Tensor) -> torch.Tensor:
    nd = x.dim()
    d1 = norm_axis("SwapAxis", a["dim1"], nd, "dim1")
    d2 = norm_axis("SwapAxis", a["dim2"], nd, "dim2")
    return fresh(x.transpose(d1, d2))


register(OpDef("SwapAxis", _swapaxes, aliases=("swapaxes",), fluent=True,
               params=[Param("dim1", "int", 0, doc="the first axis to be swapped."),
                       Param("dim2", "int", 0, doc="the second axis to be swapped.")],
               doc="Interchange two axes of an array."))

# ---------------------------------------------------------------------------------------
# broadcast


def _broadcast_error(op: str, ishape, oshape) -> MXNetError:
    return op_error(op, f"Array cannot be broadcasted from {fmt_shape(ishape)} to "
                        f"{fmt_shape(oshape)}")


def _broadcast_to(a: dict, x: torch.Tensor) -> torch.Tensor:
    ishape = tuple(x.shape)
    target = a["shape"]
    if len(target) != len(ishape):
        raise op_error("broadcast_to", f"Operand of shape {fmt_shape(ishape)} cannot be "
                                       f"broadcasted to {fmt_shape(target)}")
    out = tuple(i if t == 0 else t for i, t in zip(ishape, target))
    for i, o in zip(ishape, out):
        if i != o and i != 1:
            raise _broadcast_error("broadcast_to", ishape, out)
    return fresh(x.expand(out))


register(OpDef("broadcast_to", _broadcast_to, fluent=True,
               params=[Param("shape", "shape", (), doc="The shape of the desired array; 0 "
                             "keeps the input dimension.")],
               doc="Broadcast the input array to a new shape."))


def _broadcast_like(a: dict, lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
    ls, rs = tuple(lhs.shape), tuple(rhs.shape)
    la, ra = a["lhs_axes"], a["rhs_axes"]
    if la is None and ra is None:
        if len(ls) != len(rs):
            raise op_error("broadcast_like", f"Operand of shape {fmt_shape(ls)} cannot be "
                                             f"broadcasted to {fmt_shape(rs)}")
        out = rs
    else:
        la, ra = la or (), ra or ()
        if not la or not ra:
            raise op_error("broadcast_like", "Empty axes tuple is not allowed")
        if len(la) != len(ra):
            raise op_error("broadcast_like", f"lhs_axes {la} and rhs_axes {ra} must have the "
                                             "same length")
        out_l = list(ls)
        for i, j in zip(la, ra):
            out_l[norm_axis("broadcast_like", i, len(ls), "lhs_axes")] = \
                rs[norm_axis("broadcast_like", j, len(rs), "rhs_axes")]
        out = tuple(out_l)
    for i, o in zip(ls, out):
        if i != o and i != 1:
            raise _broadcast_error("broadcast_like", ls, out)
    return fresh(lhs.expand(out))


register(OpDef("broadcast_like", _broadcast_like, inputs=("lhs", "rhs"), fluent=True,
               params=[Param("lhs_axes", "shape_or_none", None, doc="Axes to perform "
                             "broadcast on in the first input array"),
                       Param("rhs_axes", "shape_or_none", None, doc="Axes to copy from the "
                             "second input array")],
               doc="Broadcast lhs to the shape of rhs (or to selected axes of it)."))


def _broadcast_axis(a: dict, x: torch.Tensor) -> torch.Tensor:
    shape = list(x.shape)
    axes, sizes = a["axis"], a["size"]
    if len(axes) != len(sizes):
        raise op_error("broadcast_axis", f"axis {axes} and size {sizes} must have the same "
                                         "length")
    for ax, sz in zip(axes, sizes):
        if not 0 <= ax < len(shape):
            raise op_error("broadcast_axis", f"axis {ax} must be in range [0, {len(shape)})")
        if shape[ax] != 1:
            raise op_error("broadcast_axis", f"Broadcasting axis must have size 1 (axis {ax} "
                                             f"of input shape {fmt_shape(x.shape)})")
        shape[ax] = sz
    return fresh(x.expand(shape))


register(OpDef("broadcast_axis", _broadcast_axis, aliases=("broadcast_axes",), fluent=True,
               params=[Param("axis", "shape", (), doc="The axes to perform the "
                             "broadcasting."),
                       Param("size", "shape", (), doc="Target sizes of the broadcasting "
                             "axes.")],
               doc="Broadcast the input array over the given size-1 axes."))

# ---------------------------------------------------------------------------------------
# tile, repeat, reverse


def _tile(a: dict, x: torch.Tensor) -> torch.Tensor:
    reps = a["reps"]
    from ..util import is_np_shape

    for r in reps:
        # a 0 repeat (an empty result) is only valid with NumPy shape semantics on
        if r < 0 or (r == 0 and not is_np_shape()):
            raise op_error("tile", f"reps {tuple(reps)} must be positive (non-negative with "
                                   "np_shape)")
    if not reps:
        return fresh(x)
    return x.tile(tuple(reps))


register(OpDef("tile", _tile, fluent=True,
               params=[Param("reps", "shape", doc="The number of times for repeating the "
                             "tensor a.")],
               doc="Repeat the whole array multiple times (NumPy ``tile``)."))


def _repeat(a: dict, x: torch.Tensor) -> torch.Tensor:
    n = a["repeats"]
    if n < 0:
        raise op_error("repeat", f"repeats cannot be a negative number ({n})")
    if a["axis"] is None:
        return x.reshape(-1).repeat_interleave(n)
    axis = norm_axis("repeat", a["axis"], x.dim())
    return x.repeat_interleave(n, dim=axis)


register(OpDef("repeat", _repeat, fluent=True,
               params=[Param("repeats", "int", doc="The number of repetitions for each "
                             "element."),
                       Param("axis", "int_or_none", None, doc="The axis along which to repeat "
                             "values; by default the flattened input is used.")],
               doc="Repeat each element of an array after themselves."))


def _reverse(a: dict, x: torch.Tensor) -> torch.Tensor:
    nd = x.dim()
    for ax in a["axis"]:
        if not 0 <= ax < nd:
            raise op_error("reverse", f"axis {ax} must be in range [0, {nd})")
    return x.flip(tuple(a["axis"]))


register(OpDef("reverse", _reverse, aliases=("flip",), fluent=True,
               params=[Param("axis", "shape", doc="The axis which to reverse elements.")],
               doc="Reverse the order of elements along the given axes."))

# ---------------------------------------------------------------------------------------
# depth/space, shape/size


def _block_checks(op: str, x: torch.Tensor, b: int) -> None:
    if x.dim() != 4:
        raise op_error(op, f"the operator requires exactly a 4D tensor (input shape "
                           f"{fmt_shape(x.shape)})")
    if b <= 0:
        raise op_error(op, f"block_size must be positive ({b})")


def _depth_to_space(a: dict, x: torch.Tensor) -> torch.Tensor:
    b = a["block_size"]
    _block_checks("depth_to_space", x, b)
    n, c, h, w = x.shape
    if c % (b * b):
        raise op_error("depth_to_space", f"the depth dimension {c} should be a multiple of "
                                         f"block_size^2 = {b * b}")
    t = x.reshape(n, b, b, c // (b * b), h, w).permute(0, 3, 4, 1, 5, 2)
    return fresh(t).reshape(n, c // (b * b), h * b, w * b)


def _space_to_depth(a: dict, x: torch.Tensor) -> torch.Tensor:
    b = a["block_size"]
    _block_checks("space_to_depth", x, b)
    n, c, h, w = x.shape
    if h % b or w % b:
        raise op_error("space_to_depth", f"the spatial dimensions ({h}, {w}) should be "
                                         f"multiples of block_size {b}")
    t = x.reshape(n, c, h // b, b, w // b, b).permute(0, 3, 5, 1, 2, 4)
    return fresh(t).reshape(n, c * b * b, h // b, w // b)


for _n, _f, _d in (("depth_to_space", _depth_to_space,
                    "Rearrange depth (channel) blocks into spatial blocks (NCHW)."),
                   ("space_to_depth", _space_to_depth,
                    "Rearrange spatial blocks into depth (channel) blocks (NCHW).")):
    register(OpDef(_n, _f, fluent=True, doc=_d,
                   params=[Param("block_size", "int", doc="Blocks of [block_size, block_size] "
                                 "are moved")]))

register(OpDef("shape_array",
               lambda a, x: torch.tensor(tuple(x.shape), dtype=torch.int64, device=x.device),
               fluent=True, infer_out=lambda a, s: [(len(s[0]),)],
               infer_type=lambda a, t: (t, ["int64"]),
               doc="Return a 1-D int64 array holding the shape of the input."))
register(OpDef("size_array",
               lambda a, x: torch.tensor((x.numel(),), dtype=torch.int64, device=x.device),
               fluent=True, infer_out=lambda a, s: [(1,)],
               infer_type=lambda a, t: (t, ["int64"]),
               doc="Return a 1-element int64 array holding the size of the input."))
