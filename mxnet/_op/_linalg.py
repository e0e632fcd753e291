"""Linear algebra: ``dot``, ``batch_dot``, ``diag`` and the ``_linalg_*`` family (``mx.nd.linalg``).

The ``_linalg_*`` operators work on the last two axes (batches over the leading ones), accept
float types only, and read only the referenced triangle of triangular inputs, as LAPACK does.
"""

from __future__ import annotations

import math

import torch

from .._deferred import DeferredOpError
from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, fresh, norm_axis, op_error

__all__: list[str] = []

# ---------------------------------------------------------------------------------------
# dot / batch_dot


def _same_dtype(op: str, a: torch.Tensor, b: torch.Tensor) -> None:
    if a.dtype != b.dtype:
        from ..base import MXNetError
        from ._elemwise import incompatible_dtype_message

        raise MXNetError(incompatible_dtype_message(a.dtype, b.dtype, op=op))


def _dot(a: dict, lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
    ta, tb = a["transpose_a"], a["transpose_b"]
    _same_dtype("dot", lhs, rhs)
    ls, rs = tuple(lhs.shape), tuple(rhs.shape)
    if lhs.dim() == 0 or rhs.dim() == 0:
        raise op_error(
            "dot", f"inputs must have at least one dimension: {fmt_shape(ls)} X {fmt_shape(rs)}"
        )
    if lhs.dim() == 1 and rhs.dim() == 1:
        if ta or tb:
            raise op_error("dot", "Cannot transpose vectors")
        if ls != rs:
            raise op_error("dot", f"dot shape error: {fmt_shape(ls)} X {fmt_shape(rs)}")
        return (lhs * rhs).sum().reshape(1)
    if lhs.dim() == 2 and rhs.dim() == 2:  # fast path: plain matrix product
        x = lhs.t() if ta else lhs
        y = rhs.t() if tb else rhs
        if x.shape[1] != y.shape[0]:
            raise op_error(
                "dot",
                f"dot shape error: {fmt_shape(ls)} X {fmt_shape(rs)} "
                f"(transpose_a={ta}, transpose_b={tb})",
            )
        return torch.mm(x, y)
    # lhs as a matrix (K on its last axis, or first when transposed), same for rhs
    if ta:
        k_l, left = ls[0], ls[1:]
        lmat = lhs.reshape(k_l, -1).t()
    else:
        k_l, left = ls[-1], ls[:-1]
        lmat = lhs.reshape(-1, k_l)
    if tb:
        k_r, right = rs[-1], rs[:-1]
        rmat = rhs.reshape(-1, k_r).t()
    else:
        k_r, right = rs[0], rs[1:]
        rmat = rhs.reshape(k_r, -1)
    if k_l != k_r:
        raise op_error(
            "dot",
            f"dot shape error: {fmt_shape(ls)} X {fmt_shape(rs)} "
            f"(transpose_a={ta}, transpose_b={tb})",
        )
    return torch.mm(lmat, rmat).reshape(tuple(left) + tuple(right))


def _batch_dot(a: dict, lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
    ta, tb = a["transpose_a"], a["transpose_b"]
    _same_dtype("batch_dot", lhs, rhs)
    ls, rs = tuple(lhs.shape), tuple(rhs.shape)
    if lhs.dim() < 3 or lhs.dim() != rhs.dim():
        raise op_error(
            "batch_dot",
            f"batch_dot currently only support N-D*N-D array "
            f"(N >= 3){fmt_shape(ls)} v.s. {fmt_shape(rs)}",
        )
    if ls[:-2] != rs[:-2]:
        raise op_error(
            "batch_dot",
            f"batch_dot shape error (the leading batch dimensions "
            f"must be equal): {fmt_shape(ls)} X {fmt_shape(rs)} "
            f"trans_a={int(ta)} trans_b={int(tb)}",
        )
    k_l = ls[-2] if ta else ls[-1]
    k_r = rs[-1] if tb else rs[-2]
    if k_l != k_r:
        raise op_error(
            "batch_dot",
            f"batch_dot shape error (shape mismatch): "
            f"{fmt_shape(ls)} X {fmt_shape(rs)} trans_a={int(ta)} "
            f"trans_b={int(tb)}",
        )
    x = lhs.transpose(-1, -2) if ta else lhs
    y = rhs.transpose(-1, -2) if tb else rhs
    return torch.matmul(x, y)


_DOT_PARAMS = [
    Param("transpose_a", "bool", False, doc="If true then transpose the first input before dot."),
    Param("transpose_b", "bool", False, doc="If true then transpose the second input before dot."),
    Param(
        "forward_stype",
        "enum",
        None,
        choices=("csr", "default", "row_sparse"),
        doc="The desired storage type of the forward output given by user.",
    ),
]

register(
    OpDef(
        "dot",
        _dot,
        inputs=("lhs", "rhs"),
        params=_DOT_PARAMS,
        doc="Dot product of two arrays: the last axis of lhs against the first axis "
        "of rhs (after the optional transposes).",
    )
)
register(
    OpDef(
        "batch_dot",
        _batch_dot,
        inputs=("lhs", "rhs"),
        params=_DOT_PARAMS,
        doc="Batchwise matrix product of two N-D arrays (N >= 3) over their last two axes.",
    )
)

# ---------------------------------------------------------------------------------------
# _linalg_* helpers


def _check_float(op: str, *ts: torch.Tensor) -> None:
    for t in ts:
        if not t.is_floating_point():
            raise op_error(
                op,
                f"This operation only supports 32-bit and 64-bit floating "
                f"point (got {str(t.dtype)[6:]})",
            )
    for t in ts[1:]:
        if t.dtype != ts[0].dtype:
            raise op_error(
                op,
                f"all inputs must have the same dtype, got "
                f"{str(ts[0].dtype)[6:]} and {str(t.dtype)[6:]}",
            )


def _check_matrix(op: str, *ts: torch.Tensor, square: bool = False) -> None:
    _check_float(op, *ts)
    for t in ts:
        if t.dim() < 2:
            raise op_error(op, f"inputs must have at least 2 dimensions, got {fmt_shape(t.shape)}")
        if square and t.shape[-1] != t.shape[-2]:
            raise op_error(op, f"the input must be square matrices, got {fmt_shape(t.shape)}")


def _batch_out(t: torch.Tensor) -> torch.Tensor:
    """Per-matrix scalars: legacy MXNet has no 0-d arrays, so one matrix gives shape (1,)."""
    return t.reshape(1) if t.dim() == 0 else t


def _op_mat(t: torch.Tensor, transpose: bool) -> torch.Tensor:
    return t.transpose(-1, -2) if transpose else t


def _gemm_axes(op: str, a: dict, *ts: torch.Tensor) -> tuple[int, list[torch.Tensor]]:
    nd = ts[0].dim()
    _check_matrix(op, *ts)
    for t in ts[1:]:
        if t.dim() != nd:
            raise op_error(
                op,
                f"all inputs must have the same ndim, got "
                f"{', '.join(fmt_shape(x.shape) for x in ts)}",
            )
    axis = a["axis"]
    if not -nd <= axis < nd - 1 and axis != -2:
        raise op_error(op, f"axis={axis} is out of range for inputs of ndim {nd}")
    axis = axis + nd if axis < 0 else axis
    if axis == nd - 1:
        raise op_error(op, "axis cannot be the last axis (it holds the matrix columns)")
    if axis != nd - 2:
        ts = tuple(t.movedim(axis, -2) for t in ts)
    for t in ts[1:]:
        if t.shape[:-2] != ts[0].shape[:-2]:
            raise op_error(
                op,
                f"Shapes of inputs must be the same, except on row/col axis: "
                f"{', '.join(fmt_shape(x.shape) for x in ts)}",
            )
    return axis, list(ts)


def _gemm_product(op: str, a: dict, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    x, y = _op_mat(A, a["transpose_a"]), _op_mat(B, a["transpose_b"])
    if x.shape[-1] != y.shape[-2]:
        raise op_error(
            op,
            f"Incompatible matrix dimensions for multiplication: "
            f"{fmt_shape(A.shape)} X {fmt_shape(B.shape)} (transpose_a="
            f"{a['transpose_a']}, transpose_b={a['transpose_b']})",
        )
    return torch.matmul(x, y)


def _gemm(a: dict, A: torch.Tensor, B: torch.Tensor, C: torch.Tensor) -> torch.Tensor:
    axis, (A2, B2, C2) = _gemm_axes("_linalg_gemm", a, A, B, C)
    prod = _gemm_product("_linalg_gemm", a, A2, B2)
    if prod.shape != C2.shape:
        raise op_error(
            "_linalg_gemm",
            f"C has shape {fmt_shape(C.shape)}, the product has "
            f"{fmt_shape(prod.shape)} (after moving axis)",
        )
    out = a["alpha"] * prod + a["beta"] * C2
    return out if axis == A.dim() - 2 else out.movedim(-2, axis)


def _gemm2(a: dict, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    axis, (A2, B2) = _gemm_axes("_linalg_gemm2", a, A, B)
    out = a["alpha"] * _gemm_product("_linalg_gemm2", a, A2, B2)
    return out if axis == A.dim() - 2 else out.movedim(-2, axis)


def _gemm_infer(a: dict, shapes: list) -> list:
    """C has the shape of op(A) * op(B): fill it when only A and B are known."""
    if shapes[0] is not None and shapes[1] is not None and shapes[2] is None:
        metas = [torch.empty(s, device="meta") for s in shapes[:2]]
        shapes[2] = tuple(_gemm2(a, *metas).shape)
    return shapes


_TA = Param("transpose_a", "bool", False, doc="Multiply with transposed of first input (A).")
_TB = Param("transpose_b", "bool", False, doc="Multiply with transposed of second input (B).")
_ALPHA = Param("alpha", "float", 1.0, doc="Scalar factor multiplied with A*B.")
_AXIS = Param("axis", "int", -2, doc="Axis corresponding to the matrix rows.")

register(
    OpDef(
        "_linalg_gemm",
        _gemm,
        inputs=("A", "B", "C"),
        aliases=("linalg_gemm",),
        infer_shape=_gemm_infer,
        params=[
            _TA,
            _TB,
            _ALPHA,
            Param("beta", "float", 1.0, doc="Scalar factor multiplied with C."),
            _AXIS,
        ],
        doc="General matrix multiplication and accumulation: alpha * op(A) * op(B) + beta * C.",
    )
)
register(
    OpDef(
        "_linalg_gemm2",
        _gemm2,
        inputs=("A", "B"),
        aliases=("linalg_gemm2",),
        params=[_TA, _TB, _ALPHA, _AXIS],
        doc="General matrix multiplication: alpha * op(A) * op(B).",
    )
)

# ---------------------------------------------------------------------------------------
# factorizations and inverses


def _lapack_check(
    op: str, info: torch.Tensor, A: torch.Tensor, out: torch.Tensor, text: str
) -> None:
    """MXNet checks LAPACK's return code while the operator runs: a failure is reported
    when a result is read (see ``mxnet._deferred``), with the first failing ``info``."""
    if A.device.type == "meta" or not bool((info != 0).any()):
        return
    ret = int(info.reshape(-1)[(info.reshape(-1) != 0).nonzero()[0, 0]])
    prefix = "d" if A.dtype == torch.float64 else "s"
    raise DeferredOpError(
        f"Error in operator {op}: Check failed: ret == 0 ({ret} vs. 0) : " + text.format(p=prefix),
        (out,),
    )


def _potrf(a: dict, A: torch.Tensor) -> torch.Tensor:
    _check_matrix("_linalg_potrf", A, square=True)
    L, info = torch.linalg.cholesky_ex(A, upper=not a["lower"])
    _lapack_check(
        "_linalg_potrf",
        info,
        A,
        L,
        "{p}potrf failed in lapack on cpu. This may happen when the input matrix is "
        "either not symmetric or not positive definite.",
    )
    return L


def _potri(a: dict, A: torch.Tensor) -> torch.Tensor:
    _check_matrix("_linalg_potri", A, square=True)
    L = _tri(A, a["lower"])
    if A.device.type != "meta":
        # LAPACK ?potri fails at the first zero diagonal element of the factor (1-based)
        zero = torch.diagonal(L, dim1=-2, dim2=-1) == 0
        info = torch.where(zero.any(-1), zero.to(torch.int64).argmax(-1) + 1, 0)
        _lapack_check(
            "_linalg_potri",
            info,
            A,
            torch.zeros_like(A),
            "{p}potri failed in lapack on cpu. This may happen when the input matrix "
            "is not a Cholesky factorization obtained by a prior call of the "
            "potrf-operator.",
        )
    return torch.cholesky_inverse(L, upper=not a["lower"])


def _inverse(a: dict, A: torch.Tensor) -> torch.Tensor:
    _check_matrix("_linalg_inverse", A, square=True)
    inv, info = torch.linalg.inv_ex(A)
    _lapack_check("_linalg_inverse", info, A, inv, "the input matrix is non-convertible")
    return inv


def _det(a: dict, A: torch.Tensor) -> torch.Tensor:
    _check_matrix("_linalg_det", A, square=True)
    return _batch_out(torch.linalg.det(A))


def _slogdet(a: dict, A: torch.Tensor):
    _check_matrix("_linalg_slogdet", A, square=True)
    sign, logabs = torch.linalg.slogdet(A)
    return _batch_out(sign), _batch_out(logabs)


def _sumlogdiag(a: dict, A: torch.Tensor) -> torch.Tensor:
    _check_matrix("_linalg_sumlogdiag", A, square=True)
    return _batch_out(torch.log(torch.diagonal(A, 0, -2, -1)).sum(-1))


def _gelqf(a: dict, A: torch.Tensor):
    _check_matrix("_linalg_gelqf", A)
    m, n = A.shape[-2], A.shape[-1]
    if m > n:
        raise op_error(
            "_linalg_gelqf",
            f"Input A shape wrong: Last dimension must be >= than "
            f"second to last (shape {fmt_shape(A.shape)})",
        )
    q, r = torch.linalg.qr(A.transpose(-1, -2), mode="reduced")
    return q.transpose(-1, -2).contiguous(), r.transpose(-1, -2).contiguous()


def _syevd(a: dict, A: torch.Tensor):
    _check_matrix("_linalg_syevd", A, square=True)
    lam, vec = torch.linalg.eigh(A)  # reads the lower triangle, eigenvectors as columns
    U = vec.transpose(-1, -2)
    # sign convention: the entry of largest magnitude in each eigenvector is positive
    pos = U.detach().abs().argmax(-1, keepdim=True)
    sign = torch.sign(torch.gather(U.detach(), -1, pos))
    sign = torch.where(sign == 0, torch.ones_like(sign), sign)
    return (U * sign).contiguous(), lam


def _syrk(a: dict, A: torch.Tensor) -> torch.Tensor:
    _check_matrix("_linalg_syrk", A)
    At = A.transpose(-1, -2)
    prod = torch.matmul(At, A) if a["transpose"] else torch.matmul(A, At)
    return a["alpha"] * prod


def _tri(A: torch.Tensor, lower: bool) -> torch.Tensor:
    return torch.tril(A) if lower else torch.triu(A)


def _trmm(a: dict, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    _check_matrix("_linalg_trmm", A, B, square=False)
    T = _op_mat(_tri(A, a["lower"]), a["transpose"])
    if a["rightside"]:
        if B.shape[-1] != T.shape[-2]:
            raise op_error(
                "_linalg_trmm",
                f"shape mismatch: B {fmt_shape(B.shape)} * op(A) {fmt_shape(A.shape)}",
            )
        return a["alpha"] * torch.matmul(B, T)
    if T.shape[-1] != B.shape[-2]:
        raise op_error(
            "_linalg_trmm", f"shape mismatch: op(A) {fmt_shape(A.shape)} * B {fmt_shape(B.shape)}"
        )
    return a["alpha"] * torch.matmul(T, B)


def _trsm(a: dict, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    _check_matrix("_linalg_trsm", A, B)
    if A.shape[-1] != A.shape[-2]:
        raise op_error("_linalg_trsm", f"A must be square, got {fmt_shape(A.shape)}")
    k = B.shape[-1] if a["rightside"] else B.shape[-2]
    if k != A.shape[-1] or A.shape[:-2] != B.shape[:-2]:
        raise op_error(
            "_linalg_trsm",
            f"shape mismatch between A {fmt_shape(A.shape)} and B "
            f"{fmt_shape(B.shape)} (rightside={a['rightside']})",
        )
    upper = not a["lower"]
    T = _tri(A, a["lower"])
    if a["transpose"]:
        T, upper = T.transpose(-1, -2), not upper
    return torch.linalg.solve_triangular(T, a["alpha"] * B, upper=upper, left=not a["rightside"])


_POT_LOWER = Param(
    "lower",
    "bool",
    True,
    doc="True if the triangular matrix is lower triangular, false if it is upper triangular.",
)
register(
    OpDef(
        "_linalg_potrf",
        _potrf,
        inputs=("A",),
        aliases=("linalg_potrf",),
        params=[_POT_LOWER],
        doc="Cholesky factorization A = L * L^T of symmetric positive-definite "
        "matrices (L lower triangular; A = U^T * U with lower=False).",
    )
)
register(
    OpDef(
        "_linalg_potri",
        _potri,
        inputs=("A",),
        aliases=("linalg_potri",),
        params=[_POT_LOWER],
        doc="Inverse of A = L * L^T from its Cholesky factor L (upper factor U of "
        "A = U^T * U with lower=False).",
    )
)
register(
    OpDef(
        "_linalg_inverse",
        _inverse,
        inputs=("A",),
        aliases=("linalg_inverse",),
        doc="Inverse of square matrices.",
    )
)
register(
    OpDef(
        "_linalg_det",
        _det,
        inputs=("A",),
        aliases=("linalg_det",),
        doc="Determinant of square matrices.",
    )
)
register(
    OpDef(
        "_linalg_slogdet",
        _slogdet,
        inputs=("A",),
        aliases=("linalg_slogdet",),
        outputs=("output0", "output1"),
        doc="Sign and natural log of the absolute determinant of square matrices.",
    )
)
register(
    OpDef(
        "_linalg_sumlogdiag",
        _sumlogdiag,
        inputs=("A",),
        aliases=("linalg_sumlogdiag",),
        doc="Sum of the natural logarithms of the diagonal elements of square matrices.",
    )
)
register(
    OpDef(
        "_linalg_gelqf",
        _gelqf,
        inputs=("A",),
        aliases=("linalg_gelqf",),
        outputs=("output0", "output1"),
        doc="LQ factorization A = L * Q of m x n matrices (m <= n); returns (Q, L).",
    )
)
register(
    OpDef(
        "_linalg_syevd",
        _syevd,
        inputs=("A",),
        outputs=("output0", "output1"),
        doc="Eigendecomposition A = U^T * diag(L) * U of symmetric matrices; returns "
        "(U, L) with eigenvalues ascending.",
    )
)

_TRANSPOSE = Param("transpose", "bool", False, doc="Use transpose of the triangular matrix")
_RIGHT = Param(
    "rightside",
    "bool",
    False,
    doc="Multiply triangular matrix from the right to non-triangular one.",
)
_LOWER = Param(
    "lower",
    "bool",
    True,
    doc="True if the triangular matrix is lower triangular, false if it is upper triangular.",
)
_ALPHA_T = Param("alpha", "float", 1.0, doc="Scalar factor to be applied to the result.")

register(
    OpDef(
        "_linalg_syrk",
        _syrk,
        inputs=("A",),
        aliases=("linalg_syrk",),
        params=[
            Param("transpose", "bool", False, doc="Use transpose of input matrix."),
            Param("alpha", "float", 1.0, doc="Scalar factor to be applied to the result."),
        ],
        doc="alpha * A * A^T (or alpha * A^T * A when transpose is set).",
    )
)
register(
    OpDef(
        "_linalg_trmm",
        _trmm,
        inputs=("A", "B"),
        aliases=("linalg_trmm",),
        params=[_TRANSPOSE, _RIGHT, _LOWER, _ALPHA_T],
        doc="Triangular matrix multiplication: alpha * op(A) * B (or B * op(A)).",
    )
)
register(
    OpDef(
        "_linalg_trsm",
        _trsm,
        inputs=("A", "B"),
        aliases=("linalg_trsm",),
        params=[
            _TRANSPOSE,
            _RIGHT,
            _LOWER,
            Param("alpha", "float", 1.0, doc="Scale factor applied to B."),
        ],
        doc="Solve op(A) * X = alpha * B (or X * op(A) = alpha * B) with triangular A.",
    )
)

# ---------------------------------------------------------------------------------------
# diagonals and triangles


def _extractdiag(a: dict, A: torch.Tensor) -> torch.Tensor:
    _check_matrix("_linalg_extractdiag", A, square=True)
    k = a["offset"]
    if (k >= 0 and k >= A.shape[-1]) or (k < 0 and -k >= A.shape[-2]):
        raise op_error(
            "_linalg_extractdiag",
            f"offset {k} is out of range for matrices of shape {fmt_shape(A.shape)}",
        )
    return torch.diagonal(A, k, -2, -1).contiguous()


def _makediag(a: dict, A: torch.Tensor) -> torch.Tensor:
    _check_float("_linalg_makediag", A)
    if A.dim() < 1:
        raise op_error("_linalg_makediag", "the input must have at least one dimension")
    return torch.diag_embed(A, a["offset"])


def _trian_index(n: int, offset: int, lower: bool, device) -> tuple[torch.Tensor, torch.Tensor]:
    """(row, col) positions of the referenced triangle of an n x n matrix, in MXNet's order.

    A lower triangle is read row by row; an upper one column by column (the lower triangle of
    the transpose, read row by row).
    """
    if offset > 0 or (offset == 0 and not lower):
        cols, rows = torch.tril_indices(n, n, -offset, device=device)
    else:
        rows, cols = torch.tril_indices(n, n, offset, device=device)
    return rows, cols


def _extracttrian(a: dict, A: torch.Tensor) -> torch.Tensor:
    _check_matrix("_linalg_extracttrian", A, square=True)
    n, k = A.shape[-1], a["offset"]
    if abs(k) >= n:
        raise op_error(
            "_linalg_extracttrian",
            f"offset {k} is out of range for matrices of shape {fmt_shape(A.shape)}",
        )
    rows, cols = _trian_index(n, k, a["lower"], A.device)
    return A[..., rows, cols]


def _maketrian(a: dict, A: torch.Tensor) -> torch.Tensor:
    _check_float("_linalg_maketrian", A)
    if A.dim() < 1:
        raise op_error("_linalg_maketrian", "the input must have at least one dimension")
    size, k = A.shape[-1], a["offset"]
    m = int((math.isqrt(8 * size + 1) - 1) // 2)
    if m * (m + 1) // 2 != size:
        raise op_error(
            "_linalg_maketrian", f"the last dimension {size} is not a triangular number m*(m+1)/2"
        )
    n = m + abs(k)
    rows, cols = _trian_index(n, k, a["lower"], A.device)
    out = A.new_zeros((math.prod(A.shape[:-1]), n, n))
    vals = A.reshape(-1, size)
    batch = torch.arange(out.shape[0], device=A.device)[:, None]
    out = out.index_put((batch, rows[None, :], cols[None, :]), vals)
    return out.reshape(tuple(A.shape[:-1]) + (n, n))


_OFFSET = Param(
    "offset",
    "int",
    0,
    doc="Offset of the diagonal versus the main diagonal. 0 "
    "corresponds to the main diagonal, a negative/positive value to diagonals "
    "below/above the main diagonal.",
)
_TRI_LOWER = Param(
    "lower",
    "bool",
    True,
    doc="Refer to the lower triangular matrix if "
    "lower=true, refer to the upper otherwise. Only relevant when offset=0",
)

register(
    OpDef(
        "_linalg_extractdiag",
        _extractdiag,
        inputs=("A",),
        aliases=("linalg_extractdiag",),
        params=[_OFFSET],
        doc="Extract a diagonal of square matrices as a vector.",
    )
)
register(
    OpDef(
        "_linalg_makediag",
        _makediag,
        inputs=("A",),
        aliases=("linalg_makediag",),
        params=[_OFFSET],
        doc="Construct square matrices with a given diagonal.",
    )
)
register(
    OpDef(
        "_linalg_extracttrian",
        _extracttrian,
        inputs=("A",),
        aliases=("linalg_extracttrian",),
        params=[_OFFSET, _TRI_LOWER],
        doc="Extract a triangle of square matrices as a row-major vector.",
    )
)
register(
    OpDef(
        "_linalg_maketrian",
        _maketrian,
        inputs=("A",),
        aliases=("linalg_maketrian",),
        params=[_OFFSET, _TRI_LOWER],
        doc="Construct square matrices from a row-major vector of triangle elements.",
    )
)

# ---------------------------------------------------------------------------------------
# diag (the generic, axis-selecting form)


def _diag(a: dict, x: torch.Tensor) -> torch.Tensor:
    k = a["k"]
    if x.dim() == 0:
        raise op_error("diag", "the input must have at least one dimension")
    if x.dim() == 1:
        return torch.diag(x, k)
    nd = x.dim()
    a1 = norm_axis("diag", a["axis1"], nd, "axis1")
    a2 = norm_axis("diag", a["axis2"], nd, "axis2")
    if a1 == a2:
        raise op_error("diag", f"axis1 and axis2 cannot refer to the same axis {a1}")
    n1, n2 = x.shape[a1], x.shape[a2]
    if (k >= 0 and k >= n2) or (k < 0 and -k >= n1):
        raise op_error("diag", f"Diagonal does not exist (k={k}, input shape {fmt_shape(x.shape)})")
    return fresh(torch.diagonal(x, k, a1, a2))


register(
    OpDef(
        "diag",
        _diag,
        fluent=True,
        params=[
            Param("k", "int", 0, doc="Diagonal in question."),
            Param("axis1", "int", 0, doc="The first axis of the sub-arrays of interest."),
            Param("axis2", "int", 1, doc="The second axis of the sub-arrays of interest."),
        ],
        doc="Extract a diagonal (or a 2-D array with a given diagonal from a 1-D input).",
    )
)
