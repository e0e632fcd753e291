"""NDArray behaviour checked against MXNet 1.9.1 (expected values taken from the oracle)."""

import pickle

import numpy as np
import pytest
import torch

import mxnet as mx
from mxnet.base import MXNetError


def test_repr_forms():
    a = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    assert repr(a) == "\n[[1. 2. 3.]\n [4. 5. 6.]]\n<NDArray 2x3 @cpu(0)>"
    assert str(a) == repr(a)
    assert repr(mx.nd.array([1, 2], dtype="int32")) == "\n[1 2]\n<NDArray 2 @cpu(0)>"
    assert repr(mx.nd.array([])) == "\n[]\n<NDArray 0 @cpu(0)>"
    assert repr(mx.nd.array(np.zeros((0, 3)))) == "\n[]\n<NDArray 0x3 @cpu(0)>"
    assert repr(mx.nd.ones((1,), ctx=mx.cpu(1))) == "\n[1.]\n<NDArray 1 @cpu(1)>"
    assert repr(mx.nd.array([1, 0], dtype="bool")) == "\n[ True False]\n<NDArray 2 @cpu(0)>"
    assert repr(mx.nd.array(3)) == "\n3.0\n<NDArray  @cpu(0)>"
    assert repr(mx.nd.array([np.nan, np.inf])) == "\n[nan inf]\n<NDArray 2 @cpu(0)>"
    big = repr(mx.nd.ones((200,)))
    assert big.endswith("1. 1.]\n<NDArray 200 @cpu(0)>") and "..." not in big


@pytest.mark.parametrize("src, dtype, want", [
    ([1, 2], None, np.float32),
    (np.array([1.0, 2.0]), None, np.float32),       # float64 NumPy -> float32
    (np.array([1, 2]), None, np.float32),           # int64 NumPy -> float32
    (np.array([1, 2], dtype=np.uint8), None, np.float32),
    (np.array([True, False]), None, np.float32),
    ((1, 2), None, np.float32),
    ([True, False], None, np.float32),
    ([1.7, 2], "int32", np.int32),
    ([1.7, 2], np.int64, np.int64),
    ([1, 2], "float16", np.float16),
])
def test_array_dtype_defaults(src, dtype, want):
    assert mx.nd.array(src, dtype=dtype).dtype == want


def test_array_from_ndarray_keeps_dtype():
    i = mx.nd.array([1, 2], dtype="int32")
    assert mx.nd.array(i).dtype == np.int32
    assert mx.nd.array(i, dtype="float64").dtype == np.float64
    c = mx.nd.array(i)
    c[:] = 7
    assert i.asnumpy().tolist() == [1, 2]  # a copy
    assert mx.nd.array([1.7, 2], dtype="int32").asnumpy().tolist() == [1, 2]


def test_array_scalar_and_errors():
    assert mx.nd.array(3).shape == ()
    assert mx.nd.array(np.array(5.0)).shape == ()
    for bad in ([[1], [2, 3]], "abc"):
        with pytest.raises(TypeError, match="^source_array must be array like object$"):
            mx.nd.array(bad)


def test_asscalar_astype():
    a = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    s = a[0, 1].asscalar()
    assert s == 2.0 and type(s) is np.float32
    with pytest.raises(ValueError, match="The current array is not a scalar"):
        a.asscalar()
    assert a.astype("float32", copy=False) is a
    b = a.astype("float32")
    assert b is not a
    b[:] = 0
    assert a.asnumpy()[0, 0] == 1
    assert a.astype("int32").asnumpy().tolist() == [[1, 2, 3], [4, 5, 6]]
    assert a.astype(np.float16).dtype == np.float16
    assert mx.nd.array([1.7, -1.7]).astype("int32").asnumpy().tolist() == [1, -1]


def test_copyto_and_context():
    a = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(MXNetError, match="shape"):
        a.copyto(mx.nd.zeros((3,)))
    dst = mx.nd.zeros((2, 3), dtype="int32")
    assert a.copyto(dst) is dst
    assert dst.asnumpy().tolist() == [[1, 2, 3], [4, 5, 6]]
    assert a.copyto(mx.cpu(1)).context == mx.cpu(1)
    with pytest.raises(TypeError, match="copyto does not support type <class 'int'>"):
        a.copyto(3)
    assert a.as_in_context(mx.cpu(0)) is a
    other = a.as_in_context(mx.cpu(1))
    assert other.context == mx.cpu(1) and other is not a
    assert a.copy() is not a
    assert a.ctx == a.context == mx.cpu(0)
    t = a.tostype("default")
    assert t is not a and t.stype == "default"


def test_comparisons_keep_dtype():
    a = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    assert (a == 2).dtype == np.float32
    assert (a < a).dtype == np.float32
    i = mx.nd.array([1, 2], dtype="int32")
    eq = i == 2
    assert eq.dtype == np.int32 and eq.asnumpy().tolist() == [0, 1]


def test_inplace_ops():
    a = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    b = a.copy()
    ref = b
    b += 1
    assert b is ref
    assert b.asnumpy().tolist() == [[2, 3, 4], [5, 6, 7]]
    b *= mx.nd.array([1, 2, 3])
    assert b.asnumpy().tolist() == [[2, 6, 12], [5, 12, 21]]
    i = mx.nd.array([1, 2], dtype="int32")
    i -= 1.5
    assert i.dtype == np.int32 and i.asnumpy().tolist() == [0, 1]
    view = a[1]
    view += 10
    assert a.asnumpy()[1].tolist() == [14, 15, 16]  # in place through a view
    assert not hasattr(mx.nd.NDArray, "__ipow__")


def test_python_protocol():
    a = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    assert len(a) == 2
    assert [x.shape for x in a] == [(3,), (3,)]
    assert [x.shape for x in mx.nd.array([1, 2])] == [(1,), (1,)]
    assert bool(mx.nd.array([0])) is False
    assert bool(mx.nd.array([])) is False
    assert bool(mx.nd.array([3])) is True
    with pytest.raises(ValueError, match="ambiguous"):
        bool(mx.nd.array([1, 2]))
    with pytest.raises(IndexError):
        len(mx.nd.array(3))
    assert bool(mx.nd.array(3)) is True
    assert 2 in mx.nd.array([1, 2])
    with pytest.raises(AttributeError):
        a.shape = (3, 2)
    assert isinstance(hash(a), int)
    assert (a.size, a.ndim, a.shape, a.stype, a.writable) == (6, 2, (2, 3), "default", True)
    assert a.grad is None


def test_numpy_interop():
    a = mx.nd.ones((2,))
    with pytest.raises(TypeError):
        a + np.ones(2)
    with pytest.raises(TypeError):
        np.ones(2) + a
    r = np.float32(2) * a
    assert isinstance(r, mx.nd.NDArray) and r.asnumpy().tolist() == [2, 2]


def test_pickle_roundtrip_keeps_values_and_dtype():
    for dt in ("float32", "float64", "float16", "uint8", "int8", "int32", "int64", "bool"):
        a = mx.nd.array(np.arange(6).reshape(2, 3) % 2, dtype=dt)
        b = pickle.loads(pickle.dumps(a))
        assert b.dtype == a.dtype and b.shape == a.shape
        np.testing.assert_array_equal(b.asnumpy(), a.asnumpy())
    st = mx.nd.ones((1,)).__getstate__()
    assert isinstance(st["handle"], bytearray)
    empty = mx.nd.NDArray(None)
    empty.__setstate__({"handle": None})
    assert empty.size == 0


def test_from_numpy_and_dlpack():
    n = np.zeros(2, dtype=np.float32)
    a = mx.nd.from_numpy(n)
    a[:] = 5
    assert n.tolist() == [5.0, 5.0]
    assert mx.nd.from_numpy(np.ones((2, 2))).dtype == np.float64
    with pytest.raises(ValueError, match="Only c-contiguous arrays are supported for zero-copy"):
        mx.nd.from_numpy(np.ones((4, 4))[:, ::2])
    n2 = np.zeros(2, dtype=np.float32)
    c = mx.nd.from_numpy(n2, zero_copy=False)
    c[:] = 5
    assert n2.tolist() == [0.0, 0.0]
    b = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    d = mx.nd.from_dlpack(b.to_dlpack_for_read())
    assert d.asnumpy().tolist() == b.asnumpy().tolist() and d.context == mx.cpu(0)
    w = mx.nd.from_dlpack(b.to_dlpack_for_write())
    w[0, 0] = 100
    assert b.asnumpy()[0, 0] == 100  # shares memory


def test_waitall_wait_to_read():
    a = mx.nd.ones((2,))
    assert mx.nd.waitall() is None
    assert a.wait_to_read() is None


def test_slice_assign():
    a = mx.nd.zeros((2, 3))
    out = a.slice_assign(mx.nd.ones((1, 2)), (0, 1), (1, 3), (None, None))
    assert out is a
    assert a.asnumpy().tolist() == [[0, 1, 1], [0, 0, 0]]
    a.slice_assign_scalar(7, (1, 0), (2, 3), (None, 2))
    assert a.asnumpy().tolist() == [[0, 1, 1], [7, 0, 7]]


def test_creation_helpers():
    assert mx.nd.empty((2, 3)).shape == (2, 3)
    assert mx.nd.empty(3).shape == (3,)
    assert mx.nd.zeros((2,), dtype="int64").dtype == np.int64
    assert mx.nd.full((2,), 3.7, dtype="int32").asnumpy().tolist() == [3, 3]
    assert mx.nd.full((2,), 3).dtype == np.float32


def test_fresh_grad_flag():
    x = mx.nd.array([1.0, 2.0])
    x.attach_grad()
    assert x._fresh_grad == 0
    with mx.autograd.record():
        y = x * 2
    y.backward()
    assert x._fresh_grad == 1
    x._fresh_grad = False
    assert x._fresh_grad == 0


def test_handle_is_tensor_sharing_memory():
    a = mx.nd.zeros((2,))
    assert isinstance(a.handle, torch.Tensor)
    a.handle[0] = 3
    assert a.asnumpy()[0] == 3


def test_T_property():
    v = mx.nd.ones((3,))
    assert v.T is v
    assert mx.nd.ones((2, 3, 4)).T.shape == (4, 3, 2)
    a = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    t = a.T
    assert t.asnumpy().tolist() == [[1, 4], [2, 5], [3, 6]]
    t[:] = 0
    assert a.asnumpy()[0, 0] == 1  # a copy, not a view


def test_ndarray_from_tensor_handle():
    t = torch.ones(2)
    a = mx.nd.NDArray(t)
    assert a.context == mx.cpu(0) and a.handle is t
