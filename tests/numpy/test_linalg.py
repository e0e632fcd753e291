"""mx.np.linalg front ends, checked against MXNet 1.9.1's outputs."""

import numpy as onp
import pytest

from mxnet import autograd
from mxnet import numpy as np
from mxnet.base import MXNetError

L = np.linalg
A = [[4.0, 1, 2], [1, 3, 0], [2, 0, 5]]


def test_svd_convention():
    ut, s, v = L.svd(np.array([[1.0, 2, 3], [4, 5, 6]]))
    onp.testing.assert_allclose(ut.asnumpy(), [[0.3863178, -0.9223658], [0.9223658, 0.3863178]],
                                rtol=1e-5)
    onp.testing.assert_allclose(s.asnumpy(), [9.508031, 0.7728696], rtol=1e-5)
    onp.testing.assert_allclose(v.asnumpy()[1], [0.8059639, 0.11238255, -0.5811991], rtol=1e-4)
    with pytest.raises(MXNetError):
        L.svd(np.ones((3, 2)))


def test_basic_values_and_dtypes():
    a = np.array(A)
    d = L.det(a)
    assert d.shape == () and abs(float(d) - 43) < 1e-4
    sign, logdet = L.slogdet(-a)
    assert float(sign) == -1 and abs(float(logdet) - 3.7612002) < 1e-5
    assert L.det(a.astype("float64")).dtype == onp.float64
    onp.testing.assert_allclose(L.inv(a).asnumpy() @ onp.array(A), onp.eye(3), atol=1e-5)
    onp.testing.assert_allclose(L.cholesky(a).asnumpy(), onp.linalg.cholesky(A), rtol=1e-5)
    x = L.solve(a, np.array([1.0, 2, 3]))
    onp.testing.assert_allclose(x.asnumpy(), [-0.30232555, 0.7674418, 0.7209302], rtol=1e-5)
    w, v = L.eigh(a)
    onp.testing.assert_allclose(v.asnumpy()[:, 0], [0.67931306, -0.5932333, -0.4319814],
                                rtol=1e-4)
    w = L.eigvals(a)
    onp.testing.assert_allclose(w.asnumpy(), [6.669077, 1.8548969, 3.4760234], rtol=1e-5)
    assert L.tensorinv(np.eye(4).reshape(4, 2, 2), ind=1).shape == (2, 2, 4)
    assert L.tensorsolve(np.eye(6).reshape(2, 3, 6), np.ones((2, 3))).shape == (6,)


def test_errors():
    a = np.array(A)
    for fn in (L.cholesky, L.inv, L.det):
        with pytest.raises(MXNetError, match="32-bit and 64-bit"):
            fn(a.astype("int32"))
    with pytest.raises(MXNetError, match="non-convertible"):
        L.inv(np.zeros((2, 2)))
    with pytest.raises(MXNetError, match="not positive"):
        L.cholesky(-a)
    with pytest.raises(MXNetError, match="Complex eigvals"):
        L.eig(np.array([[0.0, -1], [1, 0]]))
    with pytest.raises(NotImplementedError):
        L.pinv(a, hermitian=True)


def test_norm_orders():
    a = np.array(A)
    cases = [({}, 7.745967), ({"ord": 1}, 7.0), ({"ord": 2}, 6.669079), ({"ord": "fro"},
             7.745967), ({"ord": "nuc"}, 12.0), ({"ord": "inf"}, 5.0),
             ({"ord": float("inf")}, 7.0), ({"ord": -2, "axis": (0, 1)}, 1.8548974)]
    for kw, want in cases:
        assert abs(float(L.norm(a, **kw)) - want) < 1e-4, kw
    onp.testing.assert_allclose(L.norm(a, axis=1).asnumpy(), [4.582576, 3.1622777, 5.3851647],
                                rtol=1e-6)
    assert L.norm(a, ord=1, axis=0).tolist() == [7, 4, 7]
    assert L.norm(a, axis=(0, 1), keepdims=True).shape == (1, 1)
    assert float(L.norm(np.array([1.0, 0, 2]), ord=0)) == 2


def test_gradients_like_mxnet():
    a0 = onp.array(A)
    x = np.array(a0)
    x.attach_grad()
    with autograd.record():
        y = L.det(x)
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), 43 * onp.linalg.inv(a0).T, rtol=1e-4)
    for fn in (lambda t: L.eigvalsh(t).sum(), lambda t: L.pinv(t).sum(),
               lambda t: L.eigvals(t).sum()):
        x = np.array(a0)
        x.attach_grad()
        with autograd.record():
            y = fn(x)
        y.backward()
        assert (x.grad.asnumpy() == 0).all()  # MXNet 1.9.1 passes back zeros here


def test_fallbacks():
    a = np.array(A)
    q, r = L.qr(a)
    onp.testing.assert_allclose((q.asnumpy() @ r.asnumpy()), A, atol=1e-5)
    assert int(L.matrix_rank(a)) == 3
    assert L.matrix_power(a, 2).asnumpy()[0, 0] == 21
