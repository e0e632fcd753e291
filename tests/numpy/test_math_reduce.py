"""Behaviour of ``mx.np`` reductions and products (checked against MXNet 1.9.1)."""

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, np
from mxnet.base import MXNetError

DATA = onp.array([[1.5, -2.0, 3.0], [4.0, 5.5, -6.0]], dtype=onp.float32)


def test_reductions_match_numpy():
    x = np.array(DATA)
    for name in ("sum", "prod", "mean", "std", "var", "max", "min"):
        for axis in (None, 0, 1, (0, 1)):
            got = getattr(np, name)(x, axis=axis)
            want = getattr(onp, name)(DATA, axis=axis)
            assert got.shape == onp.shape(want), (name, axis)
            onp.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, err_msg=name)
    assert np.sum(x).shape == () and np.argmax(x).item() == 4
    assert np.argmin(x, axis=1).tolist() == [1, 2]
    assert np.cumsum(x).tolist() == onp.cumsum(DATA).tolist()
    assert np.all(x).item() is True and np.any(x > 5, axis=0).tolist() == [False, True, False]


def test_methods():
    x = np.array(DATA)
    assert x.sum(axis=0).tolist() == [5.5, 3.5, -3.0]
    assert x.max(axis=1, keepdims=True).shape == (2, 1)
    assert x.mean().item() == pytest.approx(DATA.mean())
    assert x.argmax(axis=0).dtype == onp.int64
    assert x.cumsum(axis=1).shape == (2, 3)
    assert x.std(ddof=1).item() == pytest.approx(DATA.std(ddof=1), rel=1e-6)
    assert x.any() and not (x > 10).all()
    with pytest.raises(AttributeError):
        x.exp()


def test_dtypes():
    i = np.array([[1, -2, 3], [4, 5, -6]], dtype="int32")
    assert np.sum(i).dtype == onp.int32
    assert np.mean(i).dtype == onp.float32
    assert np.sum(np.array([True, True], dtype="bool")).dtype == onp.int64
    assert np.prod(i, dtype="float64").dtype == onp.float64
    assert np.argmax(i).dtype == onp.int64
    assert np.all(i).dtype == onp.bool_
    u = np.array([[1, 254, 3], [4, 5, 250]], dtype="uint8")
    assert np.sum(u).item() == 5  # wraps around like MXNet
    assert np.mean(np.array([[1.7, 2.6], [3.2, 4.9]]), dtype="int32").item() == 3


def test_average():
    a = np.array(DATA)
    w = np.array([1.0, 3.0])
    avg, scl = np.average(a, axis=0, weights=w, returned=True)
    onp.testing.assert_allclose(avg.asnumpy(), onp.average(DATA, axis=0, weights=[1, 3]))
    assert scl.shape == () and scl.item() == 4.0
    assert np.average(a).item() == pytest.approx(DATA.mean())
    with pytest.raises(MXNetError):
        np.average(np.array([1, 2], dtype="int32"), weights=np.array([1.0, 2.0]))


def test_gradients():
    x = np.array([[1.0, 2.0, 2.0], [2.0, 1.0, 1.0]])
    x.attach_grad()
    with autograd.record():
        y = np.mean(x, axis=1)
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), onp.full((2, 3), 1 / 3), rtol=1e-6)
    with autograd.record():
        y = x.max()
    y.backward()
    assert x.grad.tolist() == [[0, 1, 1], [1, 0, 0]]


def test_products():
    a = onp.arange(6, dtype=onp.float32).reshape(2, 3)
    b = onp.arange(12, dtype=onp.float32).reshape(3, 4)
    ma, mb = np.array(a), np.array(b)
    assert np.dot(ma, mb).tolist() == onp.dot(a, b).tolist()
    assert (ma @ mb).tolist() == (a @ b).tolist()
    assert ma.dot(mb).shape == (2, 4)
    assert np.tensordot(ma, mb, axes=1).tolist() == onp.tensordot(a, b, 1).tolist()
    assert np.tensordot(ma, ma, axes=([0, 1], [0, 1])).item() == onp.sum(a * a)
    assert np.inner(ma, ma).tolist() == onp.inner(a, a).tolist()
    assert np.outer(ma, mb).shape == (6, 12)
    assert np.vdot(ma, ma).item() == onp.vdot(a, a)
    assert np.einsum("ij,jk->ik", ma, mb).tolist() == onp.einsum("ij,jk->ik", a, b).tolist()
    assert np.dot(np.array(2.0), ma).tolist() == (2 * a).tolist()


def test_product_errors():
    i = np.array([[1, 2], [3, 4]], dtype="int32")
    with pytest.raises(MXNetError):
        np.dot(i, i)
    with pytest.raises(MXNetError):
        np.matmul(np.array(2.0), np.ones((2, 2)))
    with pytest.raises(MXNetError):
        np.matmul(np.ones((2, 3)), np.ones((2, 3)))
    with pytest.raises(AssertionError):
        np.dot(np.ones((2, 2)), 2)


def test_reduction_errors():
    x = np.array(DATA)
    with pytest.raises(MXNetError):
        np.sum(x, axis=2)
    with pytest.raises(MXNetError):
        np.max(np.zeros((0, 2)))
    with pytest.raises(MXNetError):
        np.argmax(np.zeros((0,)))
    with pytest.raises(AssertionError):
        np.sum([1, 2])


def test_hybridized_block_uses_np_math():
    @mx.util.use_np
    class Net(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, a, b):
            return F.np.sum(F.np.maximum(a, b) @ b.T, axis=1)

    net = Net()
    net.hybridize()
    a, b = np.array(DATA), np.ones((2, 3))
    onp.testing.assert_allclose(net(a, b).asnumpy(),
                                (onp.maximum(DATA, 1) @ onp.ones((3, 2))).sum(axis=1))


def test_prod_gradient_is_out_over_x():
    x = np.array([0.0, 2.0, 3.0])
    x.attach_grad()
    with autograd.record():
        y = np.prod(x)
    y.backward()
    g = x.grad.asnumpy()
    assert onp.isnan(g[0]) and g[1:].tolist() == [0.0, 0.0]


def test_trace_and_polyval():
    x = np.arange(24).reshape(2, 3, 4)
    assert np.trace(x, offset=1, axis1=1, axis2=2).tolist() == [18.0, 54.0]
    assert np.trace(np.arange(9, dtype="int32").reshape(3, 3), offset=-1).item() == 10
    with pytest.raises(MXNetError):
        np.trace(np.arange(3))
    p = np.array([1.0, 2.0, 3.0])
    assert np.polyval(p, np.array([1.0, 2.0])).tolist() == [6.0, 11.0]
    with pytest.raises(TypeError):
        np.polyval(p, 2.0)
