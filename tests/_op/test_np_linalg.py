"""Records for the ``mx.np.linalg`` operators (``_npi_svd``, ``_npi_inv``, ``_npi_norm``...).

Sign conventions of ``svd`` / ``eigh`` (largest-magnitude entry positive) are MXNet 1.9.1's.
"""

import numpy as np
import pytest

import mxnet.numpy.linalg  # noqa: F401  (registers the operators)
from tests._op.harness import Record, run_record

A = np.array([[4.0, 1.0, 2.0], [1.0, 3.0, 0.0], [2.0, 0.0, 5.0]], dtype=np.float32)
R = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]], dtype=np.float32)
B = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=np.float32)
NS = np.array([[2.0, 1.0], [0.5, 3.0]], dtype=np.float32)  # non-symmetric, real eigenvalues


def _svd_ref(a):
    u, s, vt = np.linalg.svd(a.astype(np.float64), full_matrices=False)
    idx = np.abs(vt).argmax(-1)
    sign = np.sign(vt[np.arange(vt.shape[0]), idx])
    return [u * sign, s, vt * sign[:, None]]


def _eigh_ref(a, UPLO="L"):  # noqa: N803
    w, v = np.linalg.eigh(a.astype(np.float64), UPLO=UPLO)
    idx = np.abs(v).argmax(0)
    return [w, v * np.sign(v[idx, np.arange(v.shape[1])])]


def _sorted_eig(outs, ins):
    w = np.sort(outs[0])
    np.testing.assert_allclose(w, np.sort(np.linalg.eigvals(ins[0]).real), rtol=1e-4,
                               atol=1e-5)
    if len(outs) > 1:  # A v = w v
        a, v = ins[0].astype(np.float64), outs[1].astype(np.float64)
        np.testing.assert_allclose(a @ v, v * outs[0], rtol=1e-4, atol=1e-4)


def _tinv_ref(a, ind=2):
    return np.linalg.tensorinv(a, ind=ind)


T4 = (np.eye(4) + 0.1 * np.arange(16).reshape(4, 4) / 16).astype(np.float32)

RECORDS = [
    Record("_npi_svd", [R], ref=_svd_ref, grad=True, rtol=1e-4, atol=1e-5),
    Record("_npi_cholesky", [A], ref=lambda a: np.linalg.cholesky(a), rtol=1e-5),
    Record("_npi_inv", [A], ref=lambda a: np.linalg.inv(a), grad=True, rtol=1e-4),
    Record("_npi_det", [np.stack([A, 2 * A])], ref=lambda a: np.linalg.det(a), grad=True,
           rtol=1e-4),
    Record("_npi_slogdet", [-A], ref=lambda a: list(np.linalg.slogdet(a)), rtol=1e-5),
    Record("_npi_solve", [A, B], ref=lambda a, b: np.linalg.solve(a, b), grad=True, rtol=1e-4),
    Record("_npi_tensorinv", [T4.reshape(4, 2, 2)], {"ind": 1}, ref=_tinv_ref, grad=True,
           rtol=1e-4),
    Record("_npi_tensorsolve", [T4.reshape(2, 2, 4), np.ones((2, 2), np.float32)], {},
           ref=lambda a, b: np.linalg.tensorsolve(a, b), grad=True, rtol=1e-4),
    Record("_npi_pinv_scalar_rcond", [R], {"rcond": 1e-15}, ref=lambda a, rcond:
           np.linalg.pinv(a, rcond=rcond), rtol=1e-4, atol=1e-5),
    Record("_npi_pinv", [R, np.array(0.1, np.float32)], {},
           ref=lambda a, r: np.linalg.pinv(a, rcond=float(r)), rtol=1e-4, atol=1e-5),
    Record("_npi_eig", [A], check=_sorted_eig),
    Record("_npi_eigvals", [NS], check=_sorted_eig),
    Record("_npi_eigh", [A], ref=_eigh_ref, rtol=1e-4, atol=1e-5),
    Record("_npi_eigh", [np.triu(A)], {"UPLO": "U"}, name="eigh_upper", ref=_eigh_ref,
           rtol=1e-4, atol=1e-5),
    Record("_npi_eigvalsh", [A], {"UPLO": "L"},
           ref=lambda a, UPLO: np.linalg.eigvalsh(a), rtol=1e-4),  # noqa: N803
    Record("_npi_norm", [A], {"ord": 2, "flag": -2}, ref=lambda a, ord, flag: np.linalg.norm(a),
           grad=True, rtol=1e-4),
    Record("_npi_norm", [A], {"ord": 3, "axis": (1,), "flag": -1}, name="norm_vector_p",
           ref=lambda a, ord, axis, flag: np.linalg.norm(a, ord=3, axis=1), grad=True,
           rtol=1e-4),
    Record("_npi_norm", [A], {"ord": 2, "axis": (0, 1), "flag": 0, "keepdims": True},
           name="norm_spectral", ref=lambda a, **k: np.linalg.norm(a, 2, (0, 1), True),
           rtol=1e-4),
    Record("_npi_norm", [A], {"ord": 2, "flag": 2}, name="norm_nuclear",
           ref=lambda a, **k: np.linalg.norm(a, "nuc"), rtol=1e-4),
    Record("_npi_norm", [A], {"ord": 1, "flag": -1}, name="norm_matrix_1",
           ref=lambda a, **k: np.linalg.norm(a, 1), rtol=1e-4),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)
