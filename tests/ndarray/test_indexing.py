"""NDArray indexing: values vs NumPy; view/copy rules and errors as in MXNet 1.9.1."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError


def _a():
    return mx.nd.array(np.arange(24).reshape(2, 3, 4))


REF = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

BASIC = [
    slice(1, 2),
    1,
    -1,
    (slice(None), slice(1, None)),
    (1, slice(1, 3)),
    (1, 2),
    (Ellipsis, 1),
    None,
    (slice(None), None),
    (slice(None), slice(None, None, 2)),
    (slice(None), slice(None, None, -1), 0),
    (slice(None, None, -2),),
    (1, Ellipsis),
    (slice(0, 2, 1), 0),
    (0, slice(None), slice(1, 3)),
    (1, None),
    (slice(3, 1, -1),),
    (slice(None), slice(2, 0, -1), slice(None, None, -3)),
    (slice(5, 7),),
]


@pytest.mark.parametrize("key", BASIC, ids=repr)
def test_basic_values_match_numpy(key):
    got = _a()[key].asnumpy()
    want = REF[key]
    if want.ndim == 0:
        want = want.reshape(1)
    np.testing.assert_array_equal(got, want)


def test_int_index_gives_shape_1():
    v = mx.nd.array([1, 2, 3])
    assert v[1].shape == (1,) and v[1].asnumpy().tolist() == [2.0]
    assert v[-1].asnumpy().tolist() == [3.0]
    assert _a()[0, 1, 2].shape == (1,)


# (key, shares memory?) as observed with MXNet 1.9.1
VIEW_RULES = [
    (slice(1, 2), True),
    (1, True),
    ((slice(None), slice(1, None)), False),
    ((1, slice(1, 3)), True),
    ((1, 2), True),
    ((0, 1, 2), True),
    ((Ellipsis, 1), False),
    (None, True),
    (slice(None, None, 1), True),
    ((1, slice(None)), True),
    ((1, 2, slice(None)), True),
    ((slice(1, 2), 0), True),
    ((1, slice(2, 3), slice(1, 2)), True),
    ((1, Ellipsis), True),
    (slice(None), True),
    ((slice(0, 2, 1), 0), False),
    ((0, slice(0, 1)), True),
    ((0, slice(None), slice(1, 3)), False),
    ((1, None), True),
    (slice(None, None, 2), True),
    (slice(None, None, -1), False),
    ([0, 1], False),
    ((slice(1, 0, -1),), True),
    ((slice(None), slice(None, None, 2)), False),
    ((0, slice(0, 3, 5)), True),
]


@pytest.mark.parametrize("key, view", VIEW_RULES, ids=repr)
def test_view_or_copy_like_mxnet(key, view):
    x = _a()
    y = x[key]
    y[:] = -1
    assert bool((x.asnumpy() == -1).any()) is view


def test_1d_view_and_step_copy():
    x = mx.nd.array([1, 2, 3])
    x[1][:] = 9
    assert x.asnumpy().tolist() == [1, 9, 3]
    x = mx.nd.array([1, 2, 3])
    x[::2][:] = 9
    assert x.asnumpy().tolist() == [1, 2, 3]


ADVANCED = [
    [0, 1, 0],
    (np.array([1, 0]),),
    ([0, 1], [1, 2]),
    (slice(None), [0, 2]),
    (0, [0, 2], slice(1, 3)),
    ([[0, 1]],),
    (slice(None, None, -1), [0, 2]),
    (Ellipsis, [3, 0]),
]


@pytest.mark.parametrize("key", ADVANCED, ids=repr)
def test_advanced_values_match_numpy(key):
    np.testing.assert_array_equal(_a()[key].asnumpy(), REF[key])


def test_advanced_with_ndarray_index():
    v = mx.nd.array([1, 2, 3])
    assert v[mx.nd.array([0, 2])].asnumpy().tolist() == [1, 3]
    assert _a()[mx.nd.array([[0, 1]])].shape == (1, 2, 3, 4)
    assert v[np.array([0, 2])].asnumpy().tolist() == [1, 3]


def test_numpy_bool_is_integer_index_in_legacy_mode():
    v = mx.nd.array([1, 2, 3])
    assert v[np.array([True, False, True])].asnumpy().tolist() == [2, 1, 2]
    x = mx.nd.array(np.arange(12).reshape(3, 4))
    x[np.array([True, False, True])] = 0
    assert x.asnumpy()[:, 0].tolist() == [0, 0, 8]


def test_index_errors():
    v = mx.nd.array([1, 2, 3])
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        v[3]
    with pytest.raises(IndexError, match="out of bounds"):
        v[-4]
    with pytest.raises(IndexError, match=r"too many indices \(4\) for array with 3 dimensions"):
        _a()[0, 0, 0, 0]
    with pytest.raises(ValueError, match="Cannot perform boolean indexing in legacy mode"):
        v[mx.nd.array([1, 0, 1], dtype="bool")]
    with pytest.raises(
        ValueError,
        match=r"NDArray does not support slicing with key 1.0 of "
        r"type <class 'float'>\.",
    ):
        v[1.0]
    with pytest.raises(ValueError, match="NDArray does not support slicing with key a"):
        v["a"]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        v[0:3:0]
    with pytest.raises(IndexError, match="index 5 is out of bounds"):
        v[[0, 5]]


def _s(key, val, base=None):
    x = mx.nd.array(np.arange(12).reshape(3, 4)) if base is None else base
    x[key] = val
    return x.asnumpy()


def _n(key, val):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    x[key] = val
    return x


SETS = [
    (slice(None), 5),
    (1, 5),
    ((1, 2), 100),
    ((slice(0, 2), slice(1, 3)), np.ones((2, 2))),
    ((slice(None), slice(0, 2)), np.array([[1], [2], [3]])),
    (slice(None), np.ones(4)),
    ([0, 2], 7),
    (([0, 1], [1, 2]), 7),
    (Ellipsis, 3),
    (None, 3),
    ((slice(None), slice(None, None, 2)), 0),
    ((0, slice(None, None, -1)), np.arange(4)),
    (0, np.array([1.5, 2, 3, 4])),
    (0, [1, 2, 3, 4]),
    ((slice(None, None, -1), 1), [7, 8, 9]),
    # negative-step slices mixed with advanced indices (MXNet 1.9.1 accepts them)
    ((slice(None, None, -1), [1, 3]), np.arange(6).reshape(3, 2)),
    (([0, 2], slice(3, 0, -2)), np.arange(4).reshape(2, 2)),
    (([2, 0], slice(None, None, -1)), np.arange(4)),
    ((slice(None, None, -1), [1, 3]), 9),
    # a tuple inside the key is an index list
    ((0, (1, 3)), np.array([5, 6])),
]


@pytest.mark.parametrize("key, val", SETS, ids=repr)
def test_setitem_matches_numpy(key, val):
    np.testing.assert_array_equal(_s(key, val), _n(key, val))


@pytest.mark.parametrize(
    "key",
    [(0, slice(None), [1, 2]), (1, None, [1, 2]), (2, slice(2, None, 2), [1])],
    ids=repr,
)
def test_integers_count_as_advanced_indices(key):
    # NumPy's (and MXNet's) placement: an int separated from an index list by a slice or
    # a new axis moves the indexed dimension first; torch alone would apply the int first
    ref = np.arange(60, dtype=np.float32).reshape(4, 5, 3)
    x = mx.nd.array(ref)
    np.testing.assert_array_equal(x[key].asnumpy(), ref[key])
    val = np.arange(ref[key].size, dtype=np.float32).reshape(ref[key].shape) + 100
    x[key] = val
    ref[key] = val
    np.testing.assert_array_equal(x.asnumpy(), ref)


@pytest.mark.parametrize(
    "key, shape",
    [
        (([1, 2], None), (1, 2, 5, 3, 2)),
        ((slice(None), [[1, 2], [0, 1], [2, 2]], slice(None), None), (4, 3, 1, 2, 3, 2)),
        ((None, slice(None), [1, 2], None, slice(None), None), (1, 4, 1, 2, 1, 3, 2)),
        (([1, 2], slice(None), [1, 0], None), (2, 5, 1, 2)),  # not adjacent: NumPy's layout
    ],
    ids=repr,
)
def test_new_axes_after_adjacent_advanced_indices_as_mxnet(key, shape):
    # values checked against MXNet 1.9.1: a new axis lands at its key position minus the
    # number of advanced indices before it; only size-1 axes differ from NumPy's layout
    ref = np.arange(120, dtype=np.float32).reshape(4, 5, 3, 2)
    x = mx.nd.array(ref)
    got = x[key]
    assert got.shape == shape
    np.testing.assert_array_equal(got.asnumpy().ravel(), ref[key].ravel())
    val = np.arange(got.size, dtype=np.float32).reshape(shape) + 1000
    x[key] = val
    ref[key] = val.reshape(ref[key].shape)
    np.testing.assert_array_equal(x.asnumpy(), ref)


def test_index_lists_that_do_not_broadcast_raise_value_error():
    with pytest.raises(ValueError, match="not broadcastable"):
        _a()[[0, 1], [0, 1, 2]]
    with pytest.raises(ValueError, match="not broadcastable"):  # before the bounds check
        _a()[[5, 0, 1], [1, 2]]


def test_tuple_inside_key_is_an_index_list():
    got = _a()[[0, 1], (2, 1), (3, 0)].asnumpy()
    np.testing.assert_array_equal(got, REF[[0, 1], [2, 1], [3, 0]])


def test_setitem_with_ndarrays():
    np.testing.assert_array_equal(_s(1, mx.nd.array([1, 2, 3, 4])), _n(1, [1, 2, 3, 4]))
    np.testing.assert_array_equal(_s(1, mx.nd.array([7])), _n(1, 7))
    np.testing.assert_array_equal(_s(mx.nd.array([0, 2]), mx.nd.ones((2, 4))), _n([0, 2], 1))
    got = _s(0, mx.nd.array([1, 2, 3, 4], dtype="int32"))
    np.testing.assert_array_equal(got, _n(0, [1, 2, 3, 4]))
    ints = _s(0, 2.7, mx.nd.array([[1, 2]], dtype="int32"))
    assert ints.tolist() == [[2, 2]]


def test_setitem_shape_errors():
    with pytest.raises(
        ValueError,
        match=r"could not be broadcast together with remapped "
        r"shapes\[original->remapped\]: \(3,\) and requested "
        r"shape \(4,\)",
    ):
        _s(0, mx.nd.ones((3,)))
    with pytest.raises(ValueError, match=r"\(4, 3\) and requested shape \(3, 4\)"):
        _s(slice(None), mx.nd.ones((4, 3)))
    with pytest.raises(IndexError):
        _s(5, 1)
    with pytest.raises(TypeError):
        _s(0, object())


def test_setitem_through_view_changes_parent():
    x = mx.nd.array(np.arange(12).reshape(3, 4))
    row = x[1]
    row[1:3] = 0
    assert x.asnumpy()[1].tolist() == [4, 0, 0, 7]


def test_setitem_in_record_raises_on_graph_arrays():
    x = mx.nd.array([1.0, 2.0])
    x.attach_grad()
    with mx.autograd.record():
        y = x * 2
        with pytest.raises(
            MXNetError, match="Assigning to NDArrays that are already in a computational graph"
        ):
            y[:] = 5
        with pytest.raises(MXNetError, match="computational graph"):
            x[0] = 1


def test_setitem_in_record_records_assignment():
    x = mx.nd.array([1.0, 2.0])
    x.attach_grad()
    buf = mx.nd.zeros((2,))
    with mx.autograd.record():
        buf[:] = x * 3  # whole-array assignment is recorded (a copy)
        z = buf * buf
    z.backward()
    assert x.grad.asnumpy().tolist() == [18.0, 36.0]
    part = mx.nd.zeros((3,))
    with mx.autograd.record():
        with pytest.raises(
            MXNetError,
            match=r"Inplace operations \(\+=, -=, x\[:\]=, etc\) "
            "are not supported when recording with autograd",
        ):
            part[1:] = x * 3
        with pytest.raises(MXNetError, match="Inplace operations"):
            part[[0]] = x[0:1] * 3
        part[0] = 7  # constants are fine
        part += 1
    assert part.asnumpy().tolist() == [8.0, 1.0, 1.0]
