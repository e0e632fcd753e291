"""mx.np sort/search/statistics front ends, checked against MXNet 1.9.1's outputs."""

import numpy as onp
import pytest

from mxnet import autograd
from mxnet import numpy as np
from mxnet.base import MXNetError

A = [[3, 1, 2], [0, 5, 4]]


def test_sort_argsort_dtypes():
    a = np.array(A)
    assert np.sort(a).tolist() == [[1, 2, 3], [0, 4, 5]]
    assert np.sort(a, axis=None).tolist() == [0, 1, 2, 3, 4, 5]
    ai = a.astype("int32")
    assert np.sort(ai, axis=0).dtype == onp.int32
    idx = np.argsort(a)
    assert idx.dtype == onp.int64 and idx.tolist() == [[1, 2, 0], [0, 2, 1]]
    assert a.argsort(axis=None).tolist() == [3, 1, 2, 0, 5, 4]
    with pytest.raises(TypeError):  # MXNet 1.9.1's ndarray.sort raises TypeError
        a.sort()
    with pytest.raises(NotImplementedError):
        np.sort(a, order="x")


def test_sort_gradient():
    x = np.array([[3.0, 1, 2], [0, 5, 4]])
    x.attach_grad()
    with autograd.record():
        y = np.sort(x) * np.array([1.0, 2, 3])
    y.backward()
    assert x.grad.tolist() == [[3, 1, 2], [1, 3, 2]]


def test_unique():
    v, i, inv, c = np.unique(np.array([3, 1, 3, 2]), return_index=True, return_inverse=True,
                             return_counts=True)
    assert v.dtype == onp.float32 and v.tolist() == [1, 2, 3]
    assert i.dtype == onp.int64 and i.tolist() == [1, 3, 0]
    assert inv.tolist() == [2, 0, 2, 1] and c.tolist() == [1, 1, 2]
    assert np.unique(np.array([[1, 2], [1, 2], [0, 1]]), axis=0).tolist() == [[0, 1], [1, 2]]


def test_bincount():
    x = np.array([0, 1, 1, 3], dtype="int32")
    r = np.bincount(x)
    assert r.dtype == onp.int32 and r.tolist() == [1, 2, 0, 1]
    assert np.bincount(x, minlength=6).tolist() == [1, 2, 0, 1, 0, 0]
    w = np.bincount(x, np.array([0.5, 1, 1, 2]))
    assert w.dtype == onp.float32 and w.tolist() == [0.5, 2, 0, 2]
    with pytest.raises(MXNetError):
        np.bincount(np.array([1.0, 2.0]))
    with pytest.raises(MXNetError):
        np.bincount(np.array([1, -2], dtype="int32"))
    with pytest.raises(TypeError):
        np.bincount([1, 2])


def test_histogram():
    h, e = np.histogram(np.array([1, 2, 2, 3, 9.0]), bins=4, range=(0, 8))
    assert h.dtype == onp.int64 and h.tolist() == [1, 3, 0, 0]
    assert e.tolist() == [0, 2, 4, 6, 8]
    h, e = np.histogram(np.array([1, 2, 2, 3, 9.0]), bins=np.array([0, 2, 5, 10.0]))
    assert h.tolist() == [1, 3, 1]
    _, e = np.histogram(np.array([1, 2], dtype="int32"), bins=4, range=(0, 8))
    assert e.dtype == onp.int32
    with pytest.raises(NotImplementedError):
        np.histogram(np.array([1.0]), bins=3)


def test_percentile_quantile():
    a = np.array(A)
    p = np.percentile(a, 50)
    assert p.shape == () and float(p) == 2.5 and p.dtype == onp.float32
    assert np.percentile(a.astype("int32"), 50).dtype == onp.float32
    assert np.percentile(a.astype("float64"), 40).dtype == onp.float64
    assert np.quantile(a, 0.5, axis=0, keepdims=True).tolist() == [[1.5, 3, 3]]
    # 'nearest' rounds a halfway position up (MXNet), unlike NumPy
    assert np.percentile(a, np.array([10.0, 90]), interpolation="nearest").tolist() == [1, 5]
    assert float(np.percentile(a.astype("int32"), 40, interpolation="lower")) == 2
    with pytest.raises(AssertionError):
        np.percentile(a, [25, 75])


def test_fallbacks():
    a = np.array(A)
    c = np.cov(a)
    assert isinstance(c, np.ndarray) and c.dtype == onp.float64
    onp.testing.assert_allclose(c.asnumpy(), [[1, -2.5], [-2.5, 7]])
    assert np.count_nonzero(a) == 5
    assert int(np.searchsorted(np.array([1.0, 2, 3]), 2.5)) == 2
    assert np.msort(a).tolist() == [[0, 1, 2], [3, 5, 4]]
    x = np.array([1.0])
    x.attach_grad()
    with autograd.record(), pytest.raises(ValueError):
        np.cov(x)
