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
from ._registry import OpDef, register

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


register(OpDef("_np_dot", _dot, inputs=("a", "b"),
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
    _check_float(op, *xs, ints=True)
    try:
        return torch.einsum(attrs["subscripts"], *xs)
    except RuntimeError as e:
        raise MXNetError(f"Error in operator {op}: {e}") from None


register(OpDef("_npi_einsum", _einsum, inputs=("data",), variadic="num_args",
               params=[Param("num_args", "int", doc="Number of input arrays"),
                       Param("subscripts", "str", "", doc="Einstein summation subscripts"),
                       Param("optimize", "int", 0, doc="Contraction order optimisation")],
               doc="Einstein summation (``mx.np.einsum``).\n\n"
                   "Example: ``mx.np.einsum('ij,jk->ik', a, b)``"))
