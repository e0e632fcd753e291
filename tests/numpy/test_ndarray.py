"""``mx.np.ndarray`` as a class: printing, dtype rules of its operators, in-place operators,
conversions, mixing with ``mx.nd``, autograd and pickling (expected values from MXNet 1.9.1).
"""

import pickle

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, np
from mxnet.base import MXNetError


def test_repr_and_str():
    assert repr(np.array([[1, 2, 3], [4, 5, 6]])) == ("array([[1., 2., 3.],\n"
                                                      "       [4., 5., 6.]])")
    assert repr(np.array([1, 2], dtype="int32")) == "array([1, 2], dtype=int32)"
    assert repr(np.array([1.5, 2], dtype="float64")) == "array([1.5, 2. ], dtype=float64)"
    assert repr(np.array([True, False], dtype="bool")) == "array([ True, False])"
    assert repr(np.array(3.5)) == "array(3.5)"
    assert str(np.array([[1, 2], [3, 4]])) == "[[1. 2.]\n [3. 4.]]"
    assert str(np.array(3.5)) == "3.5"
    assert repr(np.zeros((2, 0), dtype="int32")) == "array([], shape=(2, 0), dtype=int32)"
    assert repr(np.zeros((0,))) == "array([])"
    # long arrays are summarised like NumPy's
    assert repr(np.arange(2000)) == ("array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, "
                                     "1.998e+03,\n       1.999e+03])")


def test_attributes():
    a = np.array([[1, 2, 3], [4, 5, 6]])
    assert a.dtype == onp.float32 and isinstance(a.dtype, onp.dtype)
    assert (a.shape, a.size, a.ndim) == ((2, 3), 6, 2)
    assert a.ctx == mx.cpu() and a.context == mx.cpu()
    assert a.T.shape == (3, 2) and type(a.T) is np.ndarray
    assert np.bool is bool and np.NINF == -onp.inf and np.PINF == onp.inf


def test_conversions():
    a = np.array([[1, 2, 3], [4, 5, 6]])
    assert a[0, 1].item() == 2.0 and a.item(3) == 4.0
    with pytest.raises(ValueError):
        a.item()
    assert a.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert int(np.array([2.7])) == 2 and float(np.array(2.5)) == 2.5
    assert onp.asarray(a, dtype="int32").dtype == onp.int32
    nd = a.as_nd_ndarray()
    assert type(nd) is mx.nd.NDArray and nd.shape == (2, 3)
    assert type(nd.as_np_ndarray()) is np.ndarray
    b = a.astype("float32", copy=False)
    assert b is a and a.astype("float32") is not a
    assert a.astype(None).dtype == onp.float32
    with pytest.raises(NotImplementedError):
        a.copy(order="F")
    with pytest.raises(NotImplementedError):
        np.zeros((2,), order="F")
    with pytest.raises(ValueError):
        np.array(mx.nd.ones((2,)))


def test_len_iter_bool():
    with pytest.raises(TypeError):
        len(np.array(1.0))
    assert list(np.array(1.0)) == []
    assert [x.shape for x in np.ones((2, 3))] == [(3,), (3,)]
    assert bool(np.ones((1, 1)))
    with pytest.raises(ValueError):
        bool(np.ones((2,)))


@pytest.mark.parametrize("expr, dtype, values", [
    (lambda: np.array([1, 2], dtype="int32") + 2.5, "int32", [3, 4]),
    (lambda: np.array([1, 2], dtype="int32") / 2, "float32", [0.5, 1.0]),
    (lambda: 2 / np.array([1, 2], dtype="int32"), "float32", [2.0, 1.0]),
    (lambda: np.array([1, 4], dtype="int32") ** 0.5, "int32", [1, 1]),
    (lambda: 2.5 - np.array([1, 2], dtype="int32"), "int32", [1, 0]),
    (lambda: np.array([1, 2], dtype="int32") < 1.5, "bool", [False, False]),
    (lambda: np.array([1.0]) % 0, "float32", [0.0]),
    (lambda: np.array([1], dtype="int32") % 0, "int32", [0]),
    (lambda: np.array([1], dtype="uint8") + 300, "uint8", [45]),
    (lambda: np.array([1], dtype="int32") + np.array([1], dtype="float16"), "float16", [2.0]),
    (lambda: np.array([1], dtype="int64") + np.array([1], dtype="float32"), "float32", [2.0]),
    (lambda: -np.array([True]), "float32", [-1.0]),  # lists of bools default to float32
])
def test_operator_dtypes(expr, dtype, values):
    r = expr()
    assert type(r) is np.ndarray
    assert r.dtype == onp.dtype(dtype) and r.tolist() == values


def test_operator_errors():
    with pytest.raises(MXNetError):
        np.array([1], dtype="int8") + np.array([1], dtype="uint8")
    with pytest.raises(MXNetError):
        _ = np.array([1], dtype="int32") == np.array([1], dtype="float32")
    a = np.ones((2, 3))
    for other in (mx.nd.ones((2, 3)), onp.ones((2, 3)), [1, 2, 3], None):
        with pytest.raises(TypeError):
            a + other
    with pytest.raises(TypeError):
        mx.nd.ones((2, 3)) + a
    with pytest.raises(TypeError):
        _ = a == None  # noqa: E711


def test_inplace_operators():
    x = np.array([1, 2], dtype="int32")
    y = x
    x += 1
    x += 2.5
    assert y is x and x.tolist() == [4, 5]
    with pytest.raises(MXNetError):
        x /= 2  # the result would be float32
    with pytest.raises(MXNetError):
        x *= np.array([1.5, 2.5])
    f = np.array([1.0, 3.0])
    with pytest.raises(MXNetError):
        f += np.array([1.5, 2.5], dtype="float64")
    with pytest.raises(MXNetError):
        f += np.ones((2, 2))  # cannot broadcast the target
    f %= 2
    assert f.tolist() == [1.0, 1.0]


def test_autograd():
    x = np.array([1.0, 2.0])
    x.attach_grad()
    assert type(x.grad) is np.ndarray
    with autograd.record():
        y = x * x
        z = x.detach() * 3
    y.backward()
    assert x.grad.tolist() == [2.0, 4.0] and type(z) is np.ndarray
    # comparisons are not differentiable: the inputs get zero gradients
    a = np.array([1.0, 2.0])
    a.attach_grad()
    with autograd.record():
        c = a > 1.5
    c.backward()
    assert c.dtype == onp.bool_ and a.grad.tolist() == [0.0, 0.0]


def test_pickle_keeps_class():
    a = np.array([[1, 2], [3, 4]], dtype="int32")
    b = pickle.loads(pickle.dumps(a))
    assert type(b) is np.ndarray and b.dtype == onp.int32 and b.tolist() == a.tolist()


def test_numpy_dispatch_and_format():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    e = onp.exp(a)  # NumPy ufuncs and functions run mx.np's counterparts
    assert type(e) is np.ndarray and e.dtype == onp.float32
    c = onp.concatenate([a, a])
    assert type(c) is np.ndarray and c.shape == (4, 2)
    assert type(onp.float32(2.0) * a) is np.ndarray
    assert (onp.float32(2.0) < a).dtype == onp.bool_
    with pytest.raises(TypeError):
        onp.ones((2, 2)) + a
    assert type(onp.linalg.norm(a)) is np.ndarray  # numpy.linalg -> mx.np.linalg
    assert type(onp.split(a, 2)[0]) is np.ndarray
    assert onp.asarray(a).dtype == onp.float32  # conversion stays a NumPy array
    assert f"{np.array(2.5):.2f}" == "2.50"
    with pytest.raises(TypeError):
        float(a)
    assert a.reshape_view(4).shape == (4,)


def test_reshape_and_copyto_errors():
    a = np.arange(6)
    assert a.reshape(2, -1).shape == (2, 3) and a.reshape((3, 2)).shape == (3, 2)
    for bad in ((4, 2), (-1, -1), (-2,)):
        with pytest.raises(MXNetError):
            a.reshape(bad)
    with pytest.raises(TypeError):
        a.copyto(mx.nd.zeros((6,)))
    b = np.zeros((6,))
    assert a.copyto(b) is b and b.tolist() == a.tolist()
