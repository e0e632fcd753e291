"""``mx.np.ndarray`` indexing and assignment against NumPy (errors as MXNet 1.9.1 raises)."""

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, np
from mxnet.base import MXNetError

BASE = onp.arange(4 * 5 * 6, dtype=onp.int32).reshape(4, 5, 6)

KEYS = [
    (), 0, -1, onp.int64(2), slice(1, 3), slice(None, None, -1), slice(3, 0, -2),
    (1, 2, 3), (slice(None), 2), (1, Ellipsis, -1), None, (None, 1, None),
    (slice(0, 2), slice(4, 1, -1), 3), [1, 2], [[0], [3]], (1, [0, 2]),
    ([1, 2], slice(1, 3), [3, 4]), (slice(None), [0, 1], None, [2, 3]),
    ([2], onp.array([[3]]), slice(None, None, -1)), range(3), (range(2), [1]),
    onp.array([3, 0]), (slice(0, 0), 1), ([0, 1], (2, 3)),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_matches_numpy(key):
    a = np.array(BASE, dtype="int32")
    got = a[key]
    assert type(got) is np.ndarray
    onp.testing.assert_array_equal(got.asnumpy(), BASE[key])


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_setitem_matches_numpy(key):
    ref = BASE.copy()
    a = np.array(BASE, dtype="int32")
    shape = ref[key].shape
    val = -onp.arange(int(onp.prod(shape)), dtype=onp.int32).reshape(shape) - 1
    ref[key] = val
    a[key] = np.array(val, dtype="int32")
    onp.testing.assert_array_equal(a.asnumpy(), ref)
    ref[key] = 7
    a[key] = 7
    onp.testing.assert_array_equal(a.asnumpy(), ref)
    if shape:  # a broadcast row, as a list and with extra leading size-1 axes
        row = list(range(shape[-1]))
        ref[key] = row
        a[key] = row
        onp.testing.assert_array_equal(a.asnumpy(), ref)
        a[key] = onp.array(row).reshape((1, 1) + (len(row),))
        onp.testing.assert_array_equal(a.asnumpy(), ref)


def test_integer_index_gives_0d_and_views():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert a[0, 1].shape == () and a[0, 1].item() == 2.0
    row = a[1]
    row[:] = 0
    assert a.tolist() == [[1.0, 2.0], [0.0, 0.0]]
    # float index arrays (np.array's default dtype) select by their integer values
    assert a[np.array([1, 0])].tolist() == [[0.0, 0.0], [1.0, 2.0]]


def test_boolean_masks():
    a = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype="int32")
    m = np.array([[True, False, True], [False, True, False], [True, False, True]],
                 dtype="bool")
    assert a[m].tolist() == [1, 3, 5, 7, 9]
    assert a[m[1]].tolist() == [[4, 5, 6]]
    assert a[np.array(True, dtype="bool")].shape == (1, 3, 3)
    assert a[np.array(False, dtype="bool")].shape == (0, 3, 3)
    assert a[[True, False, True]].tolist() == [[1, 2, 3], [7, 8, 9]]
    b = np.ones((2, 3))
    b[b > 0] = 5
    assert b.tolist() == [[5.0] * 3] * 2
    with pytest.raises(IndexError):
        np.ones((5, 4, 3))[np.array([True], dtype="bool")]


def test_index_errors():
    a = np.ones((3,))
    with pytest.raises(IndexError):
        a[5]
    with pytest.raises(IndexError):
        a[0, 0]
    with pytest.raises(ValueError):
        a[1.0]
    with pytest.raises(IndexError):
        np.array(5.0)[None]
    z = np.array(5.0)
    with pytest.raises(IndexError):
        z[...] = 2
    z[()] = 2
    assert z.item() == 2.0
    with pytest.raises(TypeError):
        a[0] = mx.nd.ones((1,))  # classic NDArray values are refused
    with pytest.raises(ValueError):
        np.zeros((2, 2))[:] = np.ones((3,))


def test_getitem_autograd_float_and_int():
    x = np.array(onp.arange(12, dtype=onp.float32).reshape(3, 4))
    x.attach_grad()
    with autograd.record():
        y = x[1:, [0, 2]]
    y.backward()
    want = onp.zeros((3, 4), dtype=onp.float32)
    want[1:, [0, 2]] = 1
    onp.testing.assert_array_equal(x.grad.asnumpy(), want)
    xi = np.array(BASE, dtype="int32")
    xi.attach_grad()
    with autograd.record():
        yi = xi[(1, slice(None, None, -1))]
    yi.backward()
    want = onp.zeros(BASE.shape, dtype=onp.int32)
    want[1] = 1
    onp.testing.assert_array_equal(xi.grad.asnumpy(), want)
    mask_src = np.array(onp.random.RandomState(0).uniform(size=(3, 4)))
    mask_src.attach_grad()
    with autograd.record():
        out = mask_src[mask_src < 0.5]
    out.backward()
    onp.testing.assert_array_equal(mask_src.grad.asnumpy(),
                                   (mask_src.asnumpy() < 0.5).astype(onp.float32))


def test_setitem_while_recording():
    x = np.zeros((2, 3))
    y = np.ones((3,))
    y.attach_grad()
    with pytest.raises(MXNetError, match="Inplace operations"):
        with autograd.record():
            x[0] = y
