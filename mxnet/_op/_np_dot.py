"""NumPy-interface (``mx.np``) products: ``_np_dot``, ``_npi_matmul``, ``_npi_tensordot``,
``_npi_tensordot_int_axes`` and ``_npi_einsum``.

As in MXNet 1.9.1 they need floating-point inputs of one dtype (integer inputs raise);
``dot`` follows NumPy's rules (0-d multiplies, 1-D with 1-D is an inner product, N-D with
M-D sums the last axis of ``a`` with the second-to-last of ``b``); ``matmul`` broadcasts the
batch axes and refuses 0-d inputs.
"""

from __future__ import annotations

import torch

from .._dtype import dtype_name
from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, get_op, register

__all__: list[str] = []


def _fmt(shape) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _check_float(op: str, *ts: torch.Tensor, ints: bool = False) -> None:
    for t in ts:
        if t.dtype in (torch.float16, torch.bfloat16) and t.device.type == "cpu":
            raise MXNetError(f"Error in operator {op}: float16 is only supported on GPU, "
                             f"not on cpu")
        if not ints and not t.is_floating_point():
            raise MXNetError(f"Error in operator {op}: This operation only support floating "
                             f"point types, not {dtype_name(t.dtype)}")
    for t in ts[1:]:
        if t.dtype != ts[0].dtype:
            raise MXNetError(f"Error in operator {op}: Incompatible attr at 1-th input: "
                             f"expected {dtype_name(ts[0].dtype)}, got {dtype_name(t.dtype)}")


def _dot(attrs, a, b):
    op = "_np_dot"
    _check_float(op, a, b)
    if a.dim() == 0 or b.dim() == 0:
        return a * b
    if b.dim() == 1:
        if a.shape[-1] != b.shape[0]:
            raise MXNetError(f"Error in operator {op}: shapes {_fmt(a.shape)} and "
                             f"{_fmt(b.shape)} not aligned")
        return torch.tensordot(a, b, dims=([a.dim() - 1], [0]))
    if a.shape[-1] != b.shape[-2]:
        raise MXNetError(f"Error in operator {op}: shapes {_fmt(a.shape)} and "
                         f"{_fmt(b.shape)} not aligned")
    return torch.tensordot(a, b, dims=([a.dim() - 1], [b.dim() - 2]))


def _known(shape) -> bool:
    return shape is not None and all(int(d) > 0 for d in shape)


def _fill_dim(shapes: list, i: int, axis: int, value: int) -> None:
    shp = shapes[i]
    if shp is None or not len(shp):
        return
    shp = list(shp)
    if int(shp[axis]) <= 0:  # unknown (0 in deferred initialization, -1 in NumPy shapes)
        shp[axis] = value
        shapes[i] = tuple(shp)


def _dot_shape(attrs, shapes):
    """Fill the contracted dimension of a partially known operand (a Gluon parameter whose
    input size is deferred) from the other operand, as MXNet's np dot shape rule does.
    Shapes still partial come back as None (unknown)."""
    shapes = list(shapes)
    a, b = shapes[0], shapes[1]
    if a is not None and b is not None and len(a) and len(b):
        b_axis = 0 if len(b) == 1 else -2
        if _known(a) and not _known(b):
            _fill_dim(shapes, 1, b_axis, int(a[-1]))
        elif _known(b) and not _known(a):
            _fill_dim(shapes, 0, -1, int(b[b_axis]))
    return [s if s is None or _known(s) or not len(s) else None for s in shapes]


register(OpDef("_np_dot", _dot, inputs=("a", "b"), infer_shape=_dot_shape,
               doc="Dot product of two arrays with NumPy's rules (``mx.np.dot``).\n\n"
                   "Example: ``mx.np.dot(mx.np.ones((2, 3)), mx.np.ones((3,)))``"))


def _matmul(attrs, a, b):
    op = "_npi_matmul"
    if a.dim() == 0 or b.dim() == 0:
        raise MXNetError(f"Error in operator {op}: Multiplication by scalars is not allowed.")
    if not a.is_floating_point() or not b.is_floating_point():
        raise MXNetError(f"Error in operator {op}: Matmul only supports float32, float64 "
                         f"(got {dtype_name(a.dtype)} and {dtype_name(b.dtype)})")
    _check_float(op, a, b)
    ka = a.shape[-1]
    kb = b.shape[0] if b.dim() == 1 else b.shape[-2]
    if ka != kb:
        raise MXNetError(f"Error in operator {op}: shapes {_fmt(a.shape)} and "
                         f"{_fmt(b.shape)} are not aligned ({ka} vs. {kb})")
    try:
        return torch.matmul(a, b)
    except RuntimeError:
        raise MXNetError(f"Error in operator {op}: shapes {_fmt(a.shape)} and "
                         f"{_fmt(b.shape)} Could not be broadcast.") from None


register(OpDef("_npi_matmul", _matmul, inputs=("a", "b"),
               doc="Matrix product with broadcast batch axes (``mx.np.matmul``, ``@``).\n\n"
                   "Example: ``mx.np.matmul(mx.np.ones((2, 3)), mx.np.ones((3, 4)))``"))


def _tensordot_axes(op: str, a, b, aa, ba):
    if len(aa) != len(ba):
        raise MXNetError(f"Error in operator {op}: shape-mismatch for sum ({len(aa)} axes "
                         f"vs. {len(ba)} axes)")
    aa = [x % a.dim() if a.dim() else x for x in aa]
    ba = [x % b.dim() if b.dim() else x for x in ba]
    for i, j in zip(aa, ba):
        if a.shape[i] != b.shape[j]:
            raise MXNetError(f"Error in operator {op}: shape-mismatch for sum: "
                             f"{_fmt(a.shape)} axis {i} vs. {_fmt(b.shape)} axis {j}")
    return aa, ba


def _tensordot(attrs, a, b):
    op = "_npi_tensordot"
    _check_float(op, a, b)
    if a.dim() == 0 or b.dim() == 0:
        return a * b
    aa, ba = _tensordot_axes(op, a, b, attrs["a_axes_summed"], attrs["b_axes_summed"])
    return torch.tensordot(a, b, dims=(aa, ba))


def _tensordot_int(attrs, a, b):
    op = "_npi_tensordot_int_axes"
    _check_float(op, a, b)
    if a.dim() == 0 or b.dim() == 0:
        return a * b
    n = attrs["axes"]
    if n < 0 or n > a.dim() or n > b.dim():
        raise MXNetError(f"Error in operator {op}: axes={n} is out of range for shapes "
                         f"{_fmt(a.shape)} and {_fmt(b.shape)}")
    aa, ba = _tensordot_axes(op, a, b, list(range(a.dim() - n, a.dim())), list(range(n)))
    return torch.tensordot(a, b, dims=(aa, ba))


register(OpDef("_npi_tensordot", _tensordot, inputs=("a", "b"),
               params=[Param("a_axes_summed", "shape", doc="Axes of a to sum over"),
                       Param("b_axes_summed", "shape", doc="Axes of b to sum over")],
               doc="Sum of products over the given axes (``mx.np.tensordot``).\n\n"
                   "Example: ``mx.np.tensordot(a, b, axes=([1], [0]))``"))
register(OpDef("_npi_tensordot_int_axes", _tensordot_int, inputs=("a", "b"),
               params=[Param("axes", "int", doc="Sum over the last N axes of a and the first "
                                                "N axes of b")],
               doc="Sum of products over the last/first ``axes`` axes "
                   "(``mx.np.tensordot(a, b, 2)``).\n\nExample: ``mx.np.tensordot(a, b, 1)``"))


def _einsum(attrs, *xs):
    op = "_npi_einsum"
    dts = {x.dtype for x in xs}
    if len(dts) > 1:
        raise MXNetError(f"Error in operator {op}: all operands must have one dtype, got "
                         f"{sorted(dtype_name(d) for d in dts)}")
    subscripts = attrs["subscripts"].replace(" ", "")
    try:
        if xs and xs[0].dtype in (torch.float16, torch.bfloat16):  # float32 accumulation
            return torch.einsum(subscripts, *[x.to(torch.float32) for x in xs]).to(xs[0].dtype)
        return torch.einsum(subscripts, *xs)
    except RuntimeError as e:
        raise MXNetError(f"Error in operator {op}: {e}") from None


register(OpDef("_npi_einsum", _einsum, inputs=("data",), variadic="num_args",
               params=[Param("num_args", "int", doc="Number of input arrays"),
                       Param("subscripts", "str", "", doc="Einstein summation subscripts"),
                       Param("optimize", "int", 0, doc="Contraction order optimisation")],
               doc="Einstein summation (``mx.np.einsum``).\n\n"
                   "Example: ``mx.np.einsum('ij,jk->ik', a, b)``"))


def _trace(attrs, x):
    op = "_np_trace"
    nd = x.dim()
    if nd < 2:
        raise MXNetError(f"Error in operator {op}: trace needs an array of at least 2 "
                         f"dimensions, got shape {_fmt(x.shape)}")
    a1, a2 = attrs["axis1"], attrs["axis2"]
    for a in (a1, a2):
        if not -nd <= a < nd:
            raise MXNetError(f"Error in operator {op}: axis {a} is out of range for shape "
                             f"{_fmt(x.shape)}")
    a1, a2 = a1 % nd, a2 % nd
    if a1 == a2:
        raise MXNetError(f"Error in operator {op}: axis1 and axis2 cannot refer to the same "
                         "axis")
    d = torch.diagonal(x, offset=attrs["offset"], dim1=a1, dim2=a2)
    return torch.sum(d, dim=-1, dtype=x.dtype)


register(OpDef("_np_trace", _trace,
               params=[Param("offset", "int", 0, doc="Offset of the diagonal from the main one"),
                       Param("axis1", "int", 0, doc="First axis of the 2-D sub-arrays"),
                       Param("axis2", "int", 1, doc="Second axis of the 2-D sub-arrays")],
               doc="Sum along a diagonal (``mx.np.trace``).\n\n"
                   "Example: ``mx.np.trace(mx.np.eye(3))``"))


def _polyval(attrs, p, x):
    op = "_npi_polyval"
    if p.dtype != x.dtype:
        raise MXNetError(f"Error in operator {op}: Incompatible attr at 1-th input: expected "
                         f"{dtype_name(p.dtype)}, got {dtype_name(x.dtype)}")
    if p.dim() != 1:
        raise MXNetError(f"Error in operator {op}: p must be 1-D, got shape {_fmt(p.shape)}")
    r = torch.zeros_like(x)
    for i in range(p.shape[0]):  # Horner's rule
        r = r * x + p[i]
    return r


register(OpDef("_npi_polyval", _polyval, inputs=("p", "x"),
               doc="A polynomial with coefficients ``p`` (highest power first) evaluated at "
                   "``x`` (``mx.np.polyval``).\n\nExample: ``mx.np.polyval(p, x)``"))

get_op("_np_dot").partial_shapes = True
