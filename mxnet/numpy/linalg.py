"""``mx.np.linalg``: NumPy-style linear algebra on ``mx.np.ndarray`` (MXNet 1.9.1's
``mxnet.numpy.linalg``).

The functions run the ``_npi_*`` registry operators (float32/float64 inputs, batched over
leading axes); ``cond``, ``lstsq``, ``matrix_power``, ``matrix_rank``, ``multi_dot`` and
``qr`` are computed by official NumPy, as in MXNet 1.9.1.

Examples
--------
>>> from mxnet import np
>>> a = np.array([[4., 1.], [1., 3.]])
>>> np.linalg.det(a)
array(11.)
"""

from __future__ import annotations

import numpy as _onp

from .._op import _np_linalg  # noqa: F401  (registers the operators)
from ..base import MXNetNotSupportedError
from ..ndarray.ndarray import NDArray
from ._sort import _fallback
from .multiarray import np_call

__all__ = ["norm", "svd", "cholesky", "inv", "det", "slogdet", "solve", "tensorinv",
           "tensorsolve", "pinv", "eigvals", "eig", "eigvalsh", "eigh", "cond", "lstsq",
           "matrix_power", "matrix_rank", "multi_dot", "qr"]


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002
    """Matrix or vector norm (``ord``: None/'fro', 'nuc', 'inf', '-inf', or a number).

    Examples
    --------
    >>> from mxnet import np
    >>> np.linalg.norm(np.array([3., 4.]))
    array(5.)
    """
    if axis is None and ord is None:
        return _norm(x, 2, None, keepdims, -2)
    if not (axis is None or isinstance(axis, (int, tuple))):
        raise TypeError("'axis' must be None, an integer or a tuple of integers.")
    if isinstance(axis, int):
        axis = (axis,)
    if ord in ("inf", "-inf"):
        ord = _onp.inf if ord == "inf" else -_onp.inf  # noqa: A001
        if axis is None:  # the largest (smallest) magnitude of all elements
            res = _norm(x.reshape(-1), ord, None, False, -1)
            return res.reshape((1,) * x.ndim) if keepdims else res
        return _norm(x, ord, axis, keepdims, -1)
    if axis is not None and len(axis) == 2:
        if ord in (2, -2):
            return _norm(x, ord, axis, keepdims, 0)
        if ord is None:
            return _norm(x, 2, axis, keepdims, 1)
    if ord is None or ord in ("fro", "f"):
        return _norm(x, 2, axis, keepdims, 1)
    if ord == "nuc":
        return _norm(x, 2, axis, keepdims, 2)
    return _norm(x, ord, axis, keepdims, -1)


def _norm(x, ord_, axis, keepdims, flag):
    return np_call("_npi_norm", [x], {"ord": ord_, "axis": axis, "keepdims": keepdims,
                                      "flag": flag})


def svd(a):
    """Singular value decomposition ``a = ut @ diag(s) @ v`` of an (..., M, N) array with
    ``M <= N``; returns ``(ut, s, v)``.

    Examples
    --------
    >>> from mxnet import np
    >>> ut, s, v = np.linalg.svd(np.array([[3., 0.], [0., 2.]]))
    >>> s
    array([3., 2.])
    """
    return tuple(np_call("_npi_svd", [a]))


def cholesky(a):
    """Lower-triangular Cholesky factor ``L`` with ``a = L @ L.T``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.linalg.cholesky(np.array([[4., 2.], [2., 5.]]))
    array([[2., 0.],
           [1., 2.]])
    """
    return np_call("_npi_cholesky", [a])


def inv(a):
    """Inverse of square matrices (batched over leading axes).

    Examples
    --------
    >>> from mxnet import np
    >>> np.linalg.inv(np.array([[2., 0.], [0., 4.]]))
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    return np_call("_npi_inv", [a])


def det(a):
    """Determinant of square matrices.

    Examples
    --------
    >>> from mxnet import np
    >>> np.linalg.det(np.array([[1., 2.], [3., 4.]]))
    array(-2.)
    """
    return np_call("_npi_det", [a])


def slogdet(a):
    """Sign and natural log of the absolute determinant, as ``(sign, logdet)``.

    Examples
    --------
    >>> from mxnet import np
    >>> sign, logdet = np.linalg.slogdet(np.array([[1., 2.], [3., 4.]]))
    >>> sign
    array(-1.)
    """
    return np_call("_npi_slogdet", [a])


def solve(a, b):
    """Solution ``x`` of ``a @ x = b``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.linalg.solve(np.array([[2., 0.], [0., 4.]]), np.array([2., 8.]))
    array([1., 2.])
    """
    return np_call("_npi_solve", [a, b])


def tensorinv(a, ind=2):
    """Inverse of ``a`` with respect to ``tensordot(., ., ind)``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.linalg.tensorinv(np.eye(4).reshape(4, 2, 2), ind=1).shape
    (2, 2, 4)
    """
    return np_call("_npi_tensorinv", [a], {"ind": ind})


def tensorsolve(a, b, axes=None):
    """Solution ``x`` of ``tensordot(a, x, axes=x.ndim) = b``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.linalg.tensorsolve(np.eye(6).reshape(2, 3, 6), np.ones((2, 3))).shape
    (6,)
    """
    return np_call("_npi_tensorsolve", [a, b], {"a_axes": () if axes is None else axes})


def pinv(a, rcond=1e-15, hermitian=False):
    """Moore-Penrose pseudo-inverse (singular values below ``rcond`` times the largest are
    dropped; ``rcond`` may be an array broadcast over the batch).

    Examples
    --------
    >>> from mxnet import np
    >>> np.linalg.pinv(np.array([[2., 0.], [0., 4.]]))
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    if hermitian is True:
        raise MXNetNotSupportedError("hermitian is not supported yet...")
    if _onp.isscalar(rcond):
        return np_call("_npi_pinv_scalar_rcond", [a], {"rcond": rcond, "hermitian": hermitian})
    return np_call("_npi_pinv", [a, rcond], {"hermitian": hermitian})


def eigvals(a):
    """Eigenvalues of general square matrices (real eigenvalues only).

    Examples
    --------
    >>> from mxnet import np
    >>> np.linalg.eigvals(np.array([[2., 0.], [0., 3.]]))
    array([2., 3.])
    """
    return np_call("_npi_eigvals", [a])


def eigvalsh(a, UPLO="L"):  # noqa: N803  (NumPy's name)
    """Ascending eigenvalues of symmetric matrices (read from the ``UPLO`` triangle).

    Examples
    --------
    >>> from mxnet import np
    >>> np.linalg.eigvalsh(np.array([[2., 1.], [1., 2.]]))
    array([1., 3.])
    """
    return np_call("_npi_eigvalsh", [a], {"UPLO": UPLO})


def eig(a):
    """Eigenvalues and right eigenvectors (columns) of general square matrices.

    Examples
    --------
    >>> from mxnet import np
    >>> w, v = np.linalg.eig(np.array([[2., 0.], [0., 3.]]))
    >>> w
    array([2., 3.])
    """
    w, v = np_call("_npi_eig", [a])
    return (w, v)


def eigh(a, UPLO="L"):  # noqa: N803  (NumPy's name)
    """Ascending eigenvalues and eigenvectors (columns) of symmetric matrices.

    Examples
    --------
    >>> from mxnet import np
    >>> w, v = np.linalg.eigh(np.array([[2., 1.], [1., 2.]]))
    >>> w
    array([1., 3.])
    """
    w, v = np_call("_npi_eigh", [a], {"UPLO": UPLO})
    return (w, v)


cond = _fallback(_onp.linalg.cond, "cond")
lstsq = _fallback(_onp.linalg.lstsq, "lstsq")
matrix_power = _fallback(_onp.linalg.matrix_power, "matrix_power")
matrix_rank = _fallback(_onp.linalg.matrix_rank, "matrix_rank")
multi_dot = _fallback(_onp.linalg.multi_dot, "multi_dot")
qr = _fallback(_onp.linalg.qr, "qr")
_ = NDArray
