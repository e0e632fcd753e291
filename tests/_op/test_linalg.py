"""dot, batch_dot and the _linalg_* family: records against NumPy, MXNet goldens, errors."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from tests._op.golden_shape import cases_for, check_golden
from tests._op.harness import Record, run_record

rng = np.random.RandomState(2)


def U(*shape, dtype=np.float32):
    return rng.uniform(-1, 1, shape).astype(dtype)


def D(*shape):
    return U(*shape, dtype=np.float64)


def spd(n):
    a = rng.uniform(-1, 1, (n, n))
    return a @ a.T + n * np.eye(n)


A3 = spd(3)
L3 = np.linalg.cholesky(A3)
T = np.swapaxes


def _dot(a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = a.reshape(a.shape[0], -1).T.reshape(a.shape[1:] + (a.shape[0],))
    if transpose_b:
        b = b.reshape(-1, b.shape[-1]).T.reshape((b.shape[-1],) + b.shape[:-1])
    out = np.tensordot(a, b, axes=([-1], [0]))
    return out.reshape(1) if out.ndim == 0 else out


def _tri_idx(n, offset, lower):
    if offset > 0 or (offset == 0 and not lower):
        return [(i, j) for j in range(n) for i in range(n) if j - i >= offset]
    return [(i, j) for i in range(n) for j in range(n) if i - j >= -offset]


def _extracttrian(a, offset=0, lower=True):
    return np.array([a[i, j] for i, j in _tri_idx(a.shape[-1], offset, lower)])


def _maketrian(v, offset=0, lower=True):
    m = int((np.sqrt(8 * v.size + 1) - 1) / 2)
    n = m + abs(offset)
    out = np.zeros((n, n))
    for k, (i, j) in enumerate(_tri_idx(n, offset, lower)):
        out[i, j] = v[k]
    return out


def _gelqf(a):
    q, r = np.linalg.qr(a.T)
    return [q.T, r.T]


def _slogdet(a):
    s, l = np.linalg.slogdet(a)
    return [np.array([s]), np.array([l])]


def _trsm(a, b, transpose=False, rightside=False, lower=True, alpha=1.0):
    t = np.tril(a) if lower else np.triu(a)
    t = t.T if transpose else t
    return alpha * (b @ np.linalg.inv(t) if rightside else np.linalg.solve(t, b))


def _trmm(a, b, transpose=False, rightside=False, lower=True, alpha=1.0):
    t = np.tril(a) if lower else np.triu(a)
    t = t.T if transpose else t
    return alpha * (b @ t if rightside else t @ b)


R64 = {"rtol": 1e-7, "atol": 1e-9}

RECORDS = [
    Record("dot", [U(2, 3), U(3, 2)], ref=_dot, grad=True),
    Record("dot", [U(3, 2, 2), U(3, 2)], {"transpose_a": True}, ref=_dot, grad=True,
           name="dot_ta"),
    Record("dot", [U(2, 3), U(2, 3)], {"transpose_b": True}, ref=_dot, grad=True,
           name="dot_tb"),
    Record("dot", [U(3), U(3)], ref=_dot, grad=True, name="dot_vv"),
    Record("batch_dot", [U(2, 2, 3), U(2, 3, 2)], ref=lambda a, b: a @ b, grad=True),
    Record("batch_dot", [U(2, 3, 2), U(2, 2, 3)], {"transpose_a": True, "transpose_b": True},
           ref=lambda a, b, **k: T(a, -1, -2) @ T(b, -1, -2), grad=True, name="batch_dot_t"),
    Record("_linalg_gemm", [D(2, 3), D(2, 3), D(2, 2)],
           {"transpose_b": True, "alpha": 2.0, "beta": 0.5},
           ref=lambda a, b, c, **k: 2.0 * a @ b.T + 0.5 * c, grad=True, **R64),
    Record("_linalg_gemm2", [D(2, 2, 3), D(2, 3, 2)], {"alpha": 1.5},
           ref=lambda a, b, alpha: alpha * a @ b, grad=True, **R64),
    Record("_linalg_potrf", [A3], ref=np.linalg.cholesky, **R64),
    Record("_linalg_potri", [L3], ref=lambda l: np.linalg.inv(l @ l.T), grad=True, **R64),
    Record("_linalg_trsm", [L3, D(3, 2)], {"alpha": 2.0}, ref=_trsm, grad=True, **R64),
    Record("_linalg_trmm", [D(3, 3), D(2, 3)], {"rightside": True, "lower": False},
           ref=_trmm, grad=True, **R64),
    Record("_linalg_syrk", [D(2, 3)], {"transpose": True, "alpha": 0.5},
           ref=lambda a, transpose, alpha: alpha * a.T @ a, grad=True, **R64),
    Record("_linalg_gelqf", [D(2, 3)], ref=_gelqf, grad=True, **R64),
    Record("_linalg_sumlogdiag", [A3], ref=lambda a: np.log(np.diag(a)).sum(keepdims=True),
           grad=True, **R64),
    Record("_linalg_inverse", [A3], ref=np.linalg.inv, grad=True, **R64),
    Record("_linalg_det", [D(3, 3)], ref=lambda a: np.linalg.det(a).reshape(1), grad=True,
           **R64),
    Record("_linalg_slogdet", [D(3, 3)], ref=_slogdet, **R64),
    Record("_linalg_syevd", [A3], ref=None, **R64,
           check=lambda outs, ins: np.testing.assert_allclose(
               outs[0].T @ np.diag(outs[1]) @ outs[0], ins[0], rtol=1e-7, atol=1e-9)),
    Record("_linalg_extractdiag", [D(3, 3)], {"offset": 1},
           ref=lambda a, offset: np.diag(a, offset), grad=True, **R64),
    Record("_linalg_makediag", [D(3)], {"offset": -1},
           ref=lambda a, offset: np.diag(a, offset), grad=True, **R64),
    Record("_linalg_extracttrian", [D(3, 3)], {"offset": 0, "lower": False},
           ref=_extracttrian, grad=True, **R64),
    Record("_linalg_maketrian", [D(3)], {"offset": 1, "lower": False}, ref=_maketrian,
           grad=True, **R64),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("name", cases_for("_linalg"))
def test_golden(name):
    check_golden(name)


def test_namespaces():
    a = mx.nd.array(A3, dtype="float64")
    np.testing.assert_allclose(mx.nd.linalg.potrf(a).asnumpy(), L3, rtol=1e-10)
    np.testing.assert_allclose(mx.nd.linalg_potrf(a).asnumpy(), L3, rtol=1e-10)
    assert mx.nd.linalg.gemm2.__name__ == "gemm2"
    q, l = mx.nd.linalg.gelqf(mx.nd.array(D(2, 3), dtype="float64"))
    assert q.shape == (2, 3) and l.shape == (2, 2)


@pytest.mark.parametrize("call, words", [
    (lambda: mx.nd.dot(mx.nd.ones((2, 3)), mx.nd.ones((4, 5))), ["dot", "[2,3] X [4,5]"]),
    (lambda: mx.nd.dot(mx.nd.ones((3,)), mx.nd.ones((3,)), transpose_a=True),
     ["dot", "Cannot transpose vectors"]),
    (lambda: mx.nd.dot(mx.nd.ones((2, 3)), mx.nd.ones((3, 2), dtype="float64")),
     ["Incompatible attr in node  at 1-th input: expected float32, got float64"]),
    (lambda: mx.nd.batch_dot(mx.nd.ones((2, 3, 4)), mx.nd.ones((2, 5, 6))),
     ["batch_dot", "[2,3,4] X [2,5,6]"]),
    (lambda: mx.nd.batch_dot(mx.nd.ones((3, 4)), mx.nd.ones((4, 6))), ["batch_dot", "N >= 3"]),
    (lambda: mx.nd.batch_dot(mx.nd.ones((2, 3, 4)), mx.nd.ones((3, 4, 6))),
     ["batch_dot", "leading batch"]),
    (lambda: mx.nd.linalg.gemm2(mx.nd.ones((2, 3)), mx.nd.ones((2, 3))),
     ["_linalg_gemm2", "Incompatible"]),
    (lambda: mx.nd.linalg.gemm2(mx.nd.ones((2, 2), dtype="int32"),
                                mx.nd.ones((2, 2), dtype="int32")), ["floating point"]),
    (lambda: mx.nd.linalg.potrf(mx.nd.array([[1.0, 2], [2, 1]])),
     ["_linalg_potrf", "positive definite"]),
    (lambda: mx.nd.linalg.inverse(mx.nd.ones((2, 2))), ["_linalg_inverse", "non-convertible"]),
    (lambda: mx.nd.linalg.gelqf(mx.nd.ones((3, 2))), ["_linalg_gelqf", "Last dimension"]),
    (lambda: mx.nd.linalg.maketrian(mx.nd.ones((4,))), ["_linalg_maketrian", "triangular"]),
])
def test_errors(call, words):
    with pytest.raises(MXNetError) as e:
        call().wait_to_read()
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_gemm_infers_c_shape():
    from mxnet._op import get_op

    op = get_op("_linalg_gemm")
    attrs = op.parse_attrs({"transpose_b": True})
    assert op.infer_shape(attrs, [(2, 3), (4, 3), None])[0][2] == (2, 4)
    attrs = op.parse_attrs({"axis": 0})
    assert op.infer_shape(attrs, [(3, 2, 4), (4, 2, 5), None])[1] == [(3, 2, 5)]


def test_potrf_potri_upper_factor():
    # MXNet 1.9.1: lower=False factors A = U^T U (upper U); potri inverts from U
    m = np.array([[9.0, 3, -6, 12], [3, 26, -7, -11], [-6, -7, 9, 7], [12, -11, 7, 65]])
    u = mx.nd.linalg.potrf(mx.nd.array(m, dtype="float64"), lower=False).asnumpy()
    np.testing.assert_allclose(u, np.linalg.cholesky(m).T, rtol=1e-10)
    inv = mx.nd.linalg.potri(mx.nd.array(u, dtype="float64"), lower=False).asnumpy()
    np.testing.assert_allclose(inv, np.linalg.inv(m), rtol=1e-8, atol=1e-10)
    s = mx.sym.linalg.potrf(mx.sym.var("a"), lower=False)
    assert '"lower": "False"' in s.tojson()
