"""Indexing and sequence operators: records against NumPy, MXNet goldens, errors."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from tests._op.golden_shape import cases_for, check_golden
from tests._op.harness import Record, run_record

rng = np.random.RandomState(1)


def U(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


def IX(values, dtype=np.float32):
    return np.asarray(values, dtype=dtype)


A = U(3, 4)


def _take(a, idx, axis=0, mode="clip"):
    i = idx.astype(np.int64)
    n = a.shape[axis]
    i = np.clip(i, 0, n - 1) if mode == "clip" else np.mod(i, n)
    return np.take(a, i, axis=axis)


def _pick(x, idx, axis=-1, keepdims=False, mode="clip"):
    i = np.clip(idx.astype(np.int64), 0, x.shape[axis] - 1)
    if i.ndim < x.ndim:
        i = np.expand_dims(i, axis)
    out = np.take_along_axis(x, i, axis)
    return out if keepdims else np.squeeze(out, axis)


def _one_hot(idx, depth, on_value=1.0, off_value=0.0, dtype="float32"):
    i = idx.astype(np.int64)[..., None]
    return np.where(i == np.arange(depth), on_value, off_value).astype(dtype)


def _gather_nd(data, idx):
    return data[tuple(idx.astype(np.int64))]


def _scatter_nd(data, idx, shape):
    out = np.zeros(shape, data.dtype)
    out[tuple(idx.astype(np.int64))] = data
    return out


def _backward_gather_nd(data, idx, shape):
    out = np.zeros(shape, data.dtype)
    np.add.at(out, tuple(idx.astype(np.int64)), data)
    return out


def _scatter_set_nd(lhs, rhs, idx, shape):
    out = lhs.copy()
    out[tuple(idx.astype(np.int64))] = rhs
    return out


def _batch_take(a, idx):
    return a[np.arange(a.shape[0]), idx.astype(np.int64)]


def _seq_mask(x, ln, use_sequence_length=False, value=0.0, axis=0):
    out = x.copy()
    for b, n in enumerate(ln.astype(np.int64)):
        if axis == 0:
            out[n:, b] = value
        else:
            out[b, n:] = value
    return out


def _seq_last(x, ln, use_sequence_length=False, axis=0):
    i = ln.astype(np.int64) - 1
    return np.stack([x[i[b], b] if axis == 0 else x[b, i[b]] for b in range(len(i))])


def _seq_reverse(x, ln, use_sequence_length=False, axis=0):
    out = x.copy()
    for b, n in enumerate(ln.astype(np.int64)):
        out[:n, b] = x[:n, b][::-1]
    return out


S = U(3, 2, 2)

RECORDS = [
    Record("take", [A, IX([[0, 2], [5, -1]])], ref=_take, grad=True, grad_inputs=(0,)),
    Record("take", [A, IX([1, -1, 6])], {"axis": 1, "mode": "wrap"}, ref=_take, grad=True,
           grad_inputs=(0,), name="take_wrap"),
    Record("pick", [A, IX([1, 0, 3])], {"axis": 1}, ref=_pick, grad=True, grad_inputs=(0,)),
    Record("pick", [A, IX([[1, 2, 0, 2]])], {"axis": 0, "keepdims": True}, ref=_pick,
           name="pick_keepdims"),
    Record("one_hot", [IX([1, 0, 3, -1])], {"depth": 3, "on_value": 2.0, "dtype": "int32"},
           ref=_one_hot),
    Record("gather_nd", [A, IX([[0, 2], [3, 1]])], ref=_gather_nd, grad=True, grad_inputs=(0,)),
    Record("scatter_nd", [U(2), IX([[0, 2], [3, 1]])], {"shape": (3, 4)}, ref=_scatter_nd,
           grad=True, grad_inputs=(0,)),
    Record("_backward_gather_nd", [U(3), IX([[0, 2, 0], [3, 1, 3]])], {"shape": (3, 4)},
           ref=_backward_gather_nd, grad=True, grad_inputs=(0,)),
    Record("_scatter_set_nd", [A, U(2), IX([[0, 2], [3, 1]])], {"shape": (3, 4)},
           ref=_scatter_set_nd, grad=True, grad_inputs=(0, 1)),
    Record("batch_take", [A, IX([3, 0, 2], np.int32)], ref=_batch_take),  # MXNet: no gradient
    Record("SequenceMask", [S, IX([1, 3])], {"use_sequence_length": True, "value": -2.0},
           ref=_seq_mask, grad=True, grad_inputs=(0,)),
    Record("SequenceMask", [U(2, 3), IX([2, 1])], {"use_sequence_length": True, "axis": 1},
           ref=_seq_mask, name="SequenceMask_axis1"),
    Record("SequenceLast", [S, IX([1, 3])], {"use_sequence_length": True}, ref=_seq_last,
           grad=True, grad_inputs=(0,)),
    Record("SequenceLast", [S], ref=lambda x: x[-1], name="SequenceLast_nolen"),
    Record("SequenceReverse", [S, IX([2, 3])], {"use_sequence_length": True},
           ref=_seq_reverse, grad=True, grad_inputs=(0,)),
    Record("SequenceReverse", [S], ref=lambda x: x[::-1], name="SequenceReverse_nolen"),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("name", cases_for("_index"))
def test_golden(name):
    check_golden(name)


def test_fluent_and_aliases():
    a = mx.nd.array(np.arange(12).reshape(3, 4))
    np.testing.assert_array_equal(a.take(mx.nd.array([2])).asnumpy(), [[8, 9, 10, 11]])
    np.testing.assert_array_equal(a.pick(mx.nd.array([0, 1, 2])).asnumpy(), [0, 5, 10])
    assert a.one_hot(3).shape == (3, 4, 3)
    np.testing.assert_array_equal(
        mx.nd.choose_element_0index(a, mx.nd.array([0, 1, 2])).asnumpy(), [0, 5, 10])


def test_sequence_length_argument_names():
    from mxnet._op import get_op

    op = get_op("SequenceMask")
    assert op.input_names(op.parse_attrs({})) == ["data"]
    a = op.parse_attrs({"use_sequence_length": True})
    assert op.input_names(a) == ["data", "sequence_length"]
    assert op.infer_shape(a, [(5, 3, 2), None])[0][1] == (3,)


@pytest.mark.parametrize("call, words", [
    (lambda: mx.nd.take(mx.nd.ones((3, 4)), mx.nd.array([5]), mode="raise"),
     ["take", "out of bound"]),
    (lambda: mx.nd.take(mx.nd.ones((3, 4)), mx.nd.array([0]), axis=2), ["take", "axis=2"]),
    (lambda: mx.nd.pick(mx.nd.ones((3, 4)), mx.nd.array([0]), axis=None), ["pick", "None"]),
    (lambda: mx.nd.pick(mx.nd.ones((3, 4)), mx.nd.array([0, 1]), axis=1), ["pick", "[2]"]),
    (lambda: mx.nd.scatter_nd(mx.nd.ones((2,)), mx.nd.array([[0, 1], [1, 0]]), shape=(2, 2, 3)),
     ["scatter_nd", "[2,2,3]"]),
    (lambda: mx.nd.batch_take(mx.nd.ones((3, 4, 2)), mx.nd.array([1, 0, 2])),
     ["batch_take", "size"]),
    (lambda: mx.nd.SequenceMask(mx.nd.ones((4, 3)), mx.nd.array([1, 2]),
                                use_sequence_length=True), ["SequenceMask", "[2]", "(3,)"]),
    (lambda: mx.nd.SequenceMask(mx.nd.ones((4, 3, 2)), axis=2), ["SequenceMask", "0 or 1"]),
    (lambda: mx.nd.SequenceReverse(mx.nd.ones((4, 3)), axis=1), ["SequenceReverse", "axis"]),
    (lambda: mx.nd.gather_nd(mx.nd.ones((3,)), mx.nd.array([[0], [1]])), ["gather_nd"]),
])
def test_errors(call, words):
    with pytest.raises(MXNetError) as e:
        call()
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_backward_gather_nd_sums_repeated_indices():
    # MXNet 1.9.1's _backward_gather_nd: scatter_nd that accumulates duplicates
    data = mx.nd.array([2, 3, 0])
    idx = mx.nd.array([[1, 1, 0], [1, 1, 0]], dtype="int32")
    out = mx.nd._internal._backward_gather_nd(data, idx, shape=(2, 2))
    assert out.asnumpy().tolist() == [[0, 0], [0, 5]]
    assert mx.nd.scatter_nd(mx.nd.array([2, 3, 0]), mx.nd.array([[1, 1, 0], [0, 1, 0]]),
                            shape=(2, 2)).asnumpy().tolist() == [[0, 0], [2, 3]]


def test_batch_take_needs_int32_indices():
    # MXNet 1.9.1: "Type inconsistent, Provided = float32, inferred type = int32"; a symbol's
    # index variable is inferred int32
    s = mx.sym.batch_take(mx.sym.Variable("x"), mx.sym.Variable("i"))
    assert s.infer_type(x="float32")[0] == [np.float32, np.int32]
    exe = s.simple_bind(mx.cpu(), x=(3, 2), i=(3,), grad_req="null")
    assert exe.arg_dict["i"].dtype == np.int32
    exe.arg_dict["x"][:] = mx.nd.array([[1, 2], [3, 4], [5, 6]])
    exe.arg_dict["i"][:] = mx.nd.array([1, 0, 1])
    assert exe.forward()[0].asnumpy().tolist() == [2.0, 3.0, 6.0]
    x = mx.nd.array([[1, 2], [3, 4], [5, 6]])
    assert mx.nd.batch_take(x, mx.nd.array([0, 1, 0], dtype='int32')).asnumpy().tolist() == [
        1.0, 4.0, 5.0]
    for dt in ('float32', 'int64'):
        with pytest.raises(MXNetError, match=f'Provided = {dt}, inferred type = int32'):
            mx.nd.batch_take(x, mx.nd.array([0, 1, 0], dtype=dt)).wait_to_read()
