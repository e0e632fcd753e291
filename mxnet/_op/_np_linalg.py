"""NumPy-interface (``mx.np.linalg``) operators: ``_npi_norm``, ``_npi_svd``, ``_npi_cholesky``,
``_npi_inv``, ``_npi_det``, ``_npi_slogdet``, ``_npi_solve``, ``_npi_tensorinv``,
``_npi_tensorsolve``, ``_npi_pinv`` / ``_npi_pinv_scalar_rcond``, ``_npi_eig``,
``_npi_eigvals``, ``_npi_eigh``, ``_npi_eigvalsh``.

MXNet 1.9.1's conventions, checked against it: the matrix operators take float32/float64
only and batch over leading axes; ``svd`` returns ``(ut, s, v)`` with ``a = ut @ diag(s) @ v``
for ``M <= N`` and makes the largest-magnitude entry of each row of ``v`` positive; ``eigh``
makes the largest-magnitude entry of each eigenvector positive; ``eig``/``eigvals`` return
real values and fail on complex eigenvalues. Gradients come from torch, except that
``pinv``, ``eig``, ``eigvals``, ``eigh`` and ``eigvalsh`` pass back zeros, as MXNet 1.9.1
does.
"""

from __future__ import annotations

import math

import torch

from ..base import MXNetError
from ._np_sort import _zero_grad
from ._params import Param
from ._registry import OpDef, register

__all__: list[str] = []

_FLOAT_ONLY = "This operation only supports 32-bit and 64-bit floating point"


def _err(op: str, msg: str) -> MXNetError:
    return MXNetError(f"Error in operator {op}: {msg}")


def _check(op: str, A: torch.Tensor, square: bool = True, min_dim: int = 2) -> None:
    if A.dtype not in (torch.float32, torch.float64):
        raise _err(op, _FLOAT_ONLY)
    if A.dim() < min_dim:
        raise _err(op, f"Input A's dimension must be >= {min_dim}, got shape {tuple(A.shape)}")
    if square and A.shape[-1] != A.shape[-2]:
        raise _err(op, f"Input A's last two dimension must be equal ({A.shape[-2]} vs. "
                       f"{A.shape[-1]})")


def _largest_positive(vecs: torch.Tensor, dim: int) -> torch.Tensor:
    """The signs (+1/-1) making the largest-magnitude entry along ``dim`` positive."""
    d = vecs.detach()
    pos = d.abs().argmax(dim, keepdim=True)
    sign = torch.sign(torch.gather(d, dim, pos))
    return torch.where(sign == 0, torch.ones_like(sign), sign)


def _live(A: torch.Tensor) -> bool:
    return A.device.type != "meta"


# ---------------------------------------------------------------------------------------
# decompositions


def _svd(attrs, A):
    _check("_npi_svd", A, square=False)
    if A.shape[-2] > A.shape[-1]:
        raise _err("_npi_svd", f"Input A shape wrong: The second to last dimension must be "
                               f"less than or equal to the last dimension ({A.shape[-2]} vs. "
                               f"{A.shape[-1]})")
    u, s, vt = torch.linalg.svd(A, full_matrices=False)
    if A.shape[-1] == 0:  # empty matrices: nothing to normalise
        return u.contiguous(), s, vt.contiguous()
    sign = _largest_positive(vt, -1)  # (..., M, 1)
    return (u * sign.transpose(-1, -2)).contiguous(), s, (vt * sign).contiguous()


def _cholesky(attrs, A):
    _check("_npi_cholesky", A)
    L, info = torch.linalg.cholesky_ex(A)
    if _live(A) and bool((info != 0).any()):
        raise _err("_npi_cholesky", "potrf failed in lapack on cpu. This may happen when the "
                                    "input matrix is either not symmetric or not positive "
                                    "definite.")
    return L


def _inv(attrs, A):
    _check("_npi_inv", A)
    res, info = torch.linalg.inv_ex(A)
    if _live(A) and bool((info != 0).any()):
        raise _err("_npi_inv", "the input matrix is non-convertible")
    return res


def _det(attrs, A):
    _check("_npi_det", A)
    return torch.linalg.det(A)


def _slogdet(attrs, A):
    _check("_npi_slogdet", A)
    sign, logabs = torch.linalg.slogdet(A)
    return sign, logabs


def _solve(attrs, A, B):
    if not A.is_floating_point() or not B.is_floating_point():
        A, B = A.to(torch.float64), B.to(torch.float64)
    elif A.dtype != B.dtype:
        dt = torch.promote_types(A.dtype, B.dtype)
        A, B = A.to(dt), B.to(dt)
    _check("_npi_solve", A)
    n = A.shape[-1]
    vector = B.dim() == A.dim() - 1
    if vector:
        if tuple(B.shape) != tuple(A.shape[:-1]):
            raise _err("_npi_solve", f"shape mismatch: A {tuple(A.shape)}, B {tuple(B.shape)}")
        B = B.unsqueeze(-1)
    elif B.dim() != A.dim() or B.shape[-2] != n or tuple(B.shape[:-2]) != tuple(A.shape[:-2]):
        raise _err("_npi_solve", f"shape mismatch: A {tuple(A.shape)}, B {tuple(B.shape)}")
    if _live(A):
        _, info = torch.linalg.inv_ex(A.detach())
        if bool((info != 0).any()):
            raise _err("_npi_solve", "LAPACK gesv failed: the matrix A is singular")
    x = torch.linalg.solve(A, B)
    return x.squeeze(-1) if vector else x


def _tensorinv(attrs, a):
    ind = attrs["ind"]
    if a.dtype not in (torch.float32, torch.float64):
        raise _err("_npi_tensorinv", _FLOAT_ONLY)
    if ind <= 0:
        raise _err("_npi_tensorinv", f"ind must be > 0, got {ind}")
    left, right = a.shape[:ind], a.shape[ind:]
    if math.prod(left) != math.prod(right):
        raise _err("_npi_tensorinv", f"the product of the first ind dimensions must equal the "
                                     f"product of the rest (shape {tuple(a.shape)}, ind {ind})")
    n = math.prod(left)
    inv = _inv({}, a.reshape(n, n))
    return inv.reshape(*right, *left)


def _tensorsolve(attrs, a, b):
    if not a.is_floating_point() or not b.is_floating_point():
        a, b = a.to(torch.float64), b.to(torch.float64)
    axes = attrs["a_axes"]
    if axes:
        nd = a.dim()
        axes = [ax % nd for ax in axes]
        order = [d for d in range(nd) if d not in axes] + axes
        a = a.permute(*order)
    # MXNet: x takes a's trailing a.ndim - b.ndim dimensions (Python slicing, so equal
    # ranks give all of a's, a lower-rank a gives a scalar); only the sizes must agree
    k = a.dim() - b.dim()
    rest = tuple(a.shape)[-k:]
    n = math.prod(rest)
    if n * n != a.numel() or n != b.numel():
        raise _err("_npi_tensorsolve", f"shape mismatch: a {tuple(a.shape)}, b "
                                       f"{tuple(b.shape)}")
    x = _solve({}, a.reshape(n, n), b.reshape(n))
    return x.reshape(rest)


def _pinv_core(A, rcond, hermitian):
    _check("_npi_pinv", A, square=False)
    if hermitian:
        raise _err("_npi_pinv", "hermitian is not supported yet")
    u, s, vt = torch.linalg.svd(A, full_matrices=False)
    cut = rcond.unsqueeze(-1) * s.amax(-1, keepdim=True) if isinstance(
        rcond, torch.Tensor) else rcond * s.amax(-1, keepdim=True)
    keep = s > cut
    sinv = torch.where(keep, 1 / torch.where(keep, s, torch.ones_like(s)), torch.zeros_like(s))
    return torch.matmul(vt.transpose(-1, -2) * sinv.unsqueeze(-2), u.transpose(-1, -2))


def _pinv(attrs, A, rcond):
    return _zero_grad(_pinv_core(A, rcond.to(A.dtype), attrs["hermitian"]), A)


def _pinv_scalar(attrs, A):
    return _zero_grad(_pinv_core(A, float(attrs["rcond"]), attrs["hermitian"]), A)


def _eig_input(A: torch.Tensor) -> torch.Tensor:
    """Integer matrices are decomposed in float64, as MXNet's eig family does."""
    if not A.is_floating_point() and not A.is_complex():
        return A.to(torch.float64)
    return A


def _real_eig(op: str, A, vectors: bool):
    A = _eig_input(A)
    _check(op, A)
    if vectors:
        w, v = torch.linalg.eig(A)
    else:
        w, v = torch.linalg.eigvals(A), None
    if _live(A) and bool((w.imag.abs() > 1e-15).any()):
        raise _err(op, "Complex eigvals is unsupported in linalg temporary.")
    if vectors:
        return _zero_grad(w.real, A), _zero_grad(v.real, A)
    return _zero_grad(w.real, A)


def _eig(attrs, A):
    return _real_eig("_npi_eig", A, True)


def _eigvals(attrs, A):
    return _real_eig("_npi_eigvals", A, False)


def _eigh(attrs, A):
    A = _eig_input(A)
    _check("_npi_eigh", A)
    w, v = torch.linalg.eigh(A, UPLO=attrs["UPLO"])
    if A.shape[-1] == 0:  # empty matrices: no sign to normalise
        return _zero_grad(w, A), _zero_grad(v, A)
    return _zero_grad(w, A), _zero_grad(v * _largest_positive(v, -2), A)


def _eigvalsh(attrs, A):
    A = _eig_input(A)
    _check("_npi_eigvalsh", A)
    return _zero_grad(torch.linalg.eigvalsh(A, UPLO=attrs["UPLO"]), A)


_A = ("A",)
_UPLO = Param("UPLO", "enum", "L", choices=("L", "U"), doc="Use the lower ('L') or upper "
                                                             "('U') triangle.")


def _doc(what: str, call: str) -> str:
    return f"{what} (``mx.np.linalg``).\n\nExample: ``{call}``"


register(OpDef("_npi_svd", _svd, inputs=_A, outputs=("ut", "L", "v"),
               doc=_doc("Singular value decomposition a = ut @ diag(L) @ v",
                        "mx.np.linalg.svd(a)")))
register(OpDef("_npi_cholesky", _cholesky, inputs=_A,
               doc=_doc("Lower Cholesky factor", "mx.np.linalg.cholesky(a)")))
register(OpDef("_npi_inv", _inv, inputs=_A, doc=_doc("Matrix inverse", "mx.np.linalg.inv(a)")))
register(OpDef("_npi_det", _det, inputs=_A, doc=_doc("Determinant", "mx.np.linalg.det(a)")))
register(OpDef("_npi_slogdet", _slogdet, inputs=_A, outputs=("sign", "logdet"),
               doc=_doc("Sign and log of the absolute determinant",
                        "mx.np.linalg.slogdet(a)")))
register(OpDef("_npi_solve", _solve, inputs=("A", "B"),
               doc=_doc("Solution x of A @ x = B", "mx.np.linalg.solve(a, b)")))
register(OpDef("_npi_tensorinv", _tensorinv, inputs=("a",),
               params=[Param("ind", "int", 2, doc="Number of leading indices of the "
                                                  "inverse product.")],
               doc=_doc("Tensor inverse for tensordot", "mx.np.linalg.tensorinv(a, ind=2)")))
register(OpDef("_npi_tensorsolve", _tensorsolve, inputs=("a", "b"),
               params=[Param("a_axes", "shape", (), doc="Axes of a moved to the end "
                                                        "before solving.")],
               doc=_doc("Solution x of tensordot(a, x) = b",
                        "mx.np.linalg.tensorsolve(a, b)")))
_HERM = Param("hermitian", "bool", False, doc="Whether a is Hermitian (unsupported).")
register(OpDef("_npi_pinv", _pinv, inputs=("A", "rcond"), params=[_HERM],
               doc=_doc("Moore-Penrose pseudo-inverse with an array cutoff",
                        "mx.np.linalg.pinv(a, np.array(1e-15))")))
register(OpDef("_npi_pinv_scalar_rcond", _pinv_scalar, inputs=_A,
               params=[Param("rcond", "float", 1e-15, doc="Relative singular value cutoff."),
                       _HERM],
               doc=_doc("Moore-Penrose pseudo-inverse", "mx.np.linalg.pinv(a)")))
register(OpDef("_npi_eig", _eig, inputs=_A, outputs=("w", "v"),
               doc=_doc("Eigenvalues and right eigenvectors (real only)",
                        "mx.np.linalg.eig(a)")))
register(OpDef("_npi_eigvals", _eigvals, inputs=_A,
               doc=_doc("Eigenvalues (real only)", "mx.np.linalg.eigvals(a)")))
register(OpDef("_npi_eigh", _eigh, inputs=_A, params=[_UPLO], outputs=("w", "v"),
               doc=_doc("Eigenvalues and eigenvectors of a symmetric matrix",
                        "mx.np.linalg.eigh(a)")))
register(OpDef("_npi_eigvalsh", _eigvalsh, inputs=_A, params=[_UPLO],
               doc=_doc("Eigenvalues of a symmetric matrix", "mx.np.linalg.eigvalsh(a)")))

# ---------------------------------------------------------------------------------------
# norm: flag -2 flattened 2-norm, -1 ord-norm (vector, or matrix for a 2-D input without
# axis), 0 spectral (ord 2 / -2 over two axes), 1 Frobenius / 2-norm over axis, 2 nuclear


def _norm_axes(x, axis):
    if axis is None:
        return tuple(range(x.dim()))
    return tuple(a % max(x.dim(), 1) for a in axis)


def _matrix_norm(x, ord_, axes, keepdims):
    if ord_ in (2.0, -2.0):
        s = torch.linalg.svdvals(x.movedim(axes, (-2, -1)))
        r = s.amax(-1) if ord_ > 0 else s.amin(-1)
        if keepdims:
            r = r.unsqueeze(-1).unsqueeze(-1).movedim((-2, -1), axes)
        return r
    if ord_ in (1.0, -1.0, math.inf, -math.inf):
        return torch.linalg.matrix_norm(x, ord=ord_, dim=axes, keepdim=keepdims)
    raise MXNetError(f"Error in operator _npi_norm: Invalid norm order {ord_} for matrices")


def _norm(attrs, x):
    ord_, axis, keepdims, flag = attrs["ord"], attrs["axis"], attrs["keepdims"], attrs["flag"]
    out_dt = x.dtype
    if not x.is_floating_point():
        x = x.to(torch.float32)
    axes = _norm_axes(x, axis)
    if flag in (-2, 1):
        r = torch.sqrt((x * x).sum(dim=axes, keepdim=keepdims)) if axes else x.abs()
    elif flag == 0:
        if len(axes) != 2:
            raise MXNetError("Error in operator _npi_norm: spectral norm needs two axes")
        r = _matrix_norm(x, ord_, axes, keepdims)
    elif flag == 2:
        if axis is None and x.dim() != 2:
            raise MXNetError("Error in operator _npi_norm: Improper number of dimensions to "
                             "norm.")
        if len(axes) != 2:
            raise MXNetError("Error in operator _npi_norm: nuclear norm needs two axes")
        r = torch.linalg.svdvals(x.movedim(axes, (-2, -1))).sum(-1)
        if keepdims:
            r = r.unsqueeze(-1).unsqueeze(-1).movedim((-2, -1), axes)
    else:
        if len(axes) == 2 and (axis is not None or x.dim() == 2):
            r = _matrix_norm(x, ord_, axes, keepdims)
        elif len(axes) != 1 and not (axis is None and x.dim() == 1):
            raise MXNetError("Error in operator _npi_norm: Improper number of dimensions to "
                             "norm.")
        elif ord_ == 0:
            r = (x != 0).sum(dim=axes, keepdim=keepdims).to(x.dtype)
        else:
            r = torch.linalg.vector_norm(x, ord=ord_, dim=axes, keepdim=keepdims)
    return r.to(out_dt) if not out_dt.is_floating_point else r


register(OpDef("_npi_norm", _norm, inputs=("data",),
               params=[Param("ord", "float", 2.0, doc="Order of the norm."),
                       Param("axis", "shape_or_none", None, doc="Axes to reduce."),
                       Param("keepdims", "bool", False, doc="Keep reduced axes as size 1."),
                       Param("flag", "int", -1, doc="Kind of norm chosen by the front end.")],
               doc=_doc("Matrix or vector norm", "mx.np.linalg.norm(a)")))
