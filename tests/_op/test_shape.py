"""Shape, join, split and slice operators: records against NumPy, MXNet goldens, errors."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from tests._op.golden_shape import cases_for, check_golden
from tests._op.harness import Record, run_record

rng = np.random.RandomState(0)


def U(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


X = U(2, 3, 2)
X4 = U(1, 4, 2, 2)


def _slices(shape, begin, end, step):
    idx = []
    for i in range(len(shape)):
        if i < len(begin):
            s = step[i] if step and step[i] is not None else None
            idx.append(slice(begin[i], end[i], s))
        else:
            idx.append(slice(None))
    return tuple(idx)


def _d2s(x, block_size):
    n, c, h, w = x.shape
    b = block_size
    t = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return t.reshape(n, c // (b * b), h * b, w * b)


def _s2d(x, block_size):
    n, c, h, w = x.shape
    b = block_size
    t = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return t.reshape(n, c * b * b, h // b, w // b)


def _assign(x, y, begin, end, step=()):
    out = x.copy()
    out[_slices(x.shape, begin, end, step)] = y
    return out


def _assign_scalar(x, scalar, begin, end, step=()):
    out = x.copy()
    out[_slices(x.shape, begin, end, step)] = scalar
    return out


def _pad(x, mode, pad_width, constant_value=0.0):
    pw = list(zip(pad_width[::2], pad_width[1::2]))
    if mode == "constant":
        return np.pad(x, pw, mode="constant", constant_values=constant_value)
    return np.pad(x, pw, mode={"edge": "edge", "reflect": "reflect"}[mode])


RECORDS = [
    Record("Reshape", [X], {"shape": (0, -1)}, ref=lambda x, shape: x.reshape(2, 6), grad=True),
    Record("Reshape", [X], {"shape": (-4, 1, 2, -3)}, name="Reshape_codes",
           ref=lambda x, shape: x.reshape(1, 2, 6)),
    Record("Reshape", [X], {"shape": (-1, 0), "reverse": True}, name="Reshape_reverse",
           ref=lambda x, shape, reverse: x.reshape(6, 2)),
    Record("reshape_like", [U(6, 2), U(3, 4)], ref=lambda a, b: a.reshape(3, 4), grad=True,
           grad_inputs=(0,)),
    Record("Flatten", [X], ref=lambda x: x.reshape(2, 6), grad=True),
    Record("expand_dims", [X], {"axis": -1}, ref=lambda x, axis: x[..., None], grad=True),
    Record("squeeze", [U(1, 3, 1)], {"axis": (0,)}, ref=lambda x, axis: x[0], grad=True),
    Record("transpose", [X], {"axes": (1, 2, 0)}, ref=lambda x, axes: x.transpose(axes),
           grad=True),
    Record("SwapAxis", [X], {"dim1": 0, "dim2": 2}, ref=lambda x, dim1, dim2: x.swapaxes(0, 2),
           grad=True),
    Record("broadcast_to", [U(1, 3)], {"shape": (2, 0)},
           ref=lambda x, shape: np.broadcast_to(x, (2, 3)), grad=True),
    Record("broadcast_like", [U(1, 3), U(2, 3)], ref=lambda a, b: np.broadcast_to(a, b.shape),
           grad=True, grad_inputs=(0,)),
    Record("broadcast_axis", [U(2, 1)], {"axis": (1,), "size": (3,)},
           ref=lambda x, axis, size: np.broadcast_to(x, (2, 3)), grad=True),
    Record("tile", [U(2, 2)], {"reps": (2, 1, 2)}, ref=lambda x, reps: np.tile(x, reps),
           grad=True),
    Record("repeat", [U(2, 2)], {"repeats": 2, "axis": 0},
           ref=lambda x, repeats, axis: np.repeat(x, repeats, axis), grad=True),
    Record("reverse", [X], {"axis": (0, 2)}, ref=lambda x, axis: np.flip(x, axis), grad=True),
    Record("depth_to_space", [X4], {"block_size": 2}, ref=_d2s, grad=True),
    Record("space_to_depth", [U(1, 1, 4, 2)], {"block_size": 2}, ref=_s2d, grad=True),
    Record("shape_array", [X], ref=lambda x: np.array(x.shape, dtype=np.int64)),
    Record("size_array", [X], ref=lambda x: np.array([x.size], dtype=np.int64)),
    Record("diag", [U(3, 4)], {"k": 1}, ref=lambda x, k: np.diag(x, k), grad=True),
    Record("diag", [U(3)], {"k": -1}, ref=lambda x, k: np.diag(x, k), grad=True, name="diag_1d"),
    Record("Concat", [U(2, 1), U(2, 2)], {"dim": 1},
           ref=lambda *xs, dim: np.concatenate(xs, dim), grad=True),
    Record("stack", [U(2, 2), U(2, 2)], {"axis": 1}, ref=lambda *xs, axis: np.stack(xs, axis),
           grad=True),
    Record("SliceChannel", [X], {"num_outputs": 3, "axis": 1, "squeeze_axis": True},
           ref=lambda x, **k: [x[:, i] for i in range(3)], grad=True),
    Record("_split_v2", [X], {"indices": (0, 1), "axis": 1},
           ref=lambda x, **k: [x[:, :1], x[:, 1:]], grad=True),
    Record("slice", [X], {"begin": (None, 2), "end": (1, 0), "step": (None, -1)},
           ref=lambda x, begin, end, step: x[_slices(x.shape, begin, end, step)], grad=True),
    Record("slice_axis", [X], {"axis": 1, "begin": 1, "end": None},
           ref=lambda x, axis, begin, end: x[:, 1:], grad=True),
    Record("slice_like", [X, U(1, 2, 2)], {"axes": (0, 1)},
           ref=lambda x, y, axes: x[:1, :2], grad=True, grad_inputs=(0,)),
    Record("_slice_assign", [U(3, 4), U(2, 2)],
           {"begin": (None, 3), "end": (2, None), "step": (None, -2)},
           ref=lambda x, y, begin, end, step: _assign(x, y, begin, end, step), grad=True),
    Record("_slice_assign_scalar", [U(3, 4)], {"scalar": 2.5, "begin": (1,), "end": (None,)},
           ref=_assign_scalar, grad=True),
    Record("Pad", [U(1, 1, 2, 3)], {"mode": "reflect", "pad_width": (0, 0, 0, 0, 1, 1, 2, 1)},
           ref=_pad, grad=True),
    Record("Pad", [U(1, 1, 2, 3)], {"mode": "constant", "pad_width": (0, 0, 0, 0, 1, 0, 0, 2),
                                    "constant_value": 3.0}, ref=_pad, name="Pad_constant"),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("name", cases_for("_shape") + cases_for("_slice"))
def test_golden(name):
    check_golden(name)


def test_ndarray_paths():
    a = mx.nd.ones((2, 3, 4))
    assert a.reshape((0, -1)).shape == (2, 12)
    assert a.reshape(-1).shape == (24,)
    assert a.reshape(4, -1).shape == (4, 6)
    assert a.reshape(shape=(-3, 0)).shape == (6, 4)
    assert a.flatten().shape == (2, 12)
    b = mx.nd.array(np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(b.T.asnumpy(), np.arange(6).reshape(2, 3).T)
    assert b.transpose().shape == (3, 2)
    assert b.expand_dims(0).shape == (1, 2, 3)
    assert b.swapaxes(0, 1).shape == (3, 2)
    assert len(a.split(num_outputs=2, axis=-1)) == 2
    # NDArray.reshape shares memory with its source (a view, as in MXNet)
    v = b.reshape(-1)
    v[:] = 7
    assert (b.asnumpy() == 7).all()


def test_outputs_do_not_alias_inputs():
    a = mx.nd.array(np.arange(6).reshape(2, 3))
    outs = [mx.nd.transpose(a, axes=(0, 1)), mx.nd.expand_dims(a, 0),
            mx.nd.broadcast_to(a, shape=(2, 3)), mx.nd.slice_axis(a, 0, 0, 2),
            mx.nd.split(a, num_outputs=1, axis=0)]
    a += 1
    for o in outs:
        np.testing.assert_array_equal(o.asnumpy().reshape(2, 3), np.arange(6).reshape(2, 3))


def _flatten_scalar():
    with mx.np_shape(True):  # a 0-d array exists only under NumPy-shape semantics
        return mx.nd.Flatten(mx.nd.ones(()))


def test_zero_size_creation_needs_np_shape():
    for make in (lambda: mx.nd.ones(()), lambda: mx.nd.zeros((2, 0))):
        with pytest.raises(MXNetError, match="unknown"):
            make()
    with mx.np_shape(True):
        assert mx.nd.ones(()).shape == () and mx.nd.zeros((2, 0)).shape == (2, 0)
    assert mx.nd.full((0,), 3).shape == (0,) and mx.nd.empty((2, 0)).shape == (2, 0)


def test_gather_nd_out_of_range_is_an_index_error():
    with pytest.raises(IndexError):  # raised when the result is read, as in MXNet
        mx.nd.gather_nd(mx.nd.array([1, 2, 3]), mx.nd.array([[5]])).asnumpy()


def test_unravel_index_leading_unknown_dim():
    out = mx.nd.unravel_index(mx.nd.array([3, 5]), shape=(-1, 4))
    assert out.asnumpy().tolist() == [[0, 1], [3, 1]]


@pytest.mark.parametrize("call, words", [
    (lambda a: mx.nd.reshape(a, shape=(5, 5)), ["Reshape", "[2,3,4]", "[5,5]"]),
    (lambda a: mx.nd.reshape(a, shape=(-1, -1)), ["Reshape", "One and only one dim"]),
    (lambda a: mx.nd.reshape(a, shape=(0, 0, 0, 0)), ["Reshape", "code 0"]),
    (lambda a: mx.nd.transpose(a, axes=(0, 1)), ["transpose", "[2,3,4]"]),
    (lambda a: mx.nd.expand_dims(a, axis=4), ["expand_dims", "[-3, 3]"]),
    (lambda a: mx.nd.squeeze(a, axis=0), ["squeeze", "size=2"]),
    (lambda a: mx.nd.broadcast_to(a, shape=(3, 3, 4)), ["broadcast_to", "[2,3,4]", "[3,3,4]"]),
    (lambda a: mx.nd.split(a, num_outputs=4, axis=1), ["SliceChannel", "does not evenly"]),
    (lambda a: mx.nd.concat(a, mx.nd.ones((3, 3, 4)), dim=1), ["Concat", "[3,3,4]"]),
    (lambda a: mx.nd.stack(a, mx.nd.ones((3, 2))), ["stack", "[3,2]"]),
    (lambda a: mx.nd.slice(a, begin=(0, 0), end=(1,)), ["slice", "same length"]),
    (lambda a: mx.nd.slice(a, begin=(0,), end=(1,), step=(0,)), ["slice", "cannot be 0"]),
    (lambda a: mx.nd.slice_axis(a, axis=2, begin=3, end=1), ["slice_axis", "begin=3"]),
    (lambda a: mx.nd.slice_like(a, mx.nd.ones((1, 5, 3))),
     ["slice_like", "size 5"]),
    (lambda a: mx.nd.pad(a, mode="constant", pad_width=(0, 0, 1, 1, 2, 2)), ["Pad", "4-D"]),
    (lambda a: mx.nd.depth_to_space(a, 2), ["depth_to_space", "4D"]),
    (lambda a: mx.nd.diag(a, k=5), ["diag", "Diagonal does not exist"]),
    (lambda a: _flatten_scalar(), ["Flatten"]),
    (lambda a: mx.nd.reshape_like(a, mx.nd.ones((5,))), ["reshape_like", "different size"]),
])
def test_errors(call, words):
    with pytest.raises(MXNetError) as e:
        call(mx.nd.ones((2, 3, 4)))
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_meta_shapes():
    from mxnet._op import get_op

    op = get_op("Reshape")
    assert op.infer_shape(op.parse_attrs({"shape": (0, -1)}), [(2, 3, 4)])[1] == [(2, 12)]
    op = get_op("SliceChannel")
    a = op.parse_attrs({"num_outputs": 2, "axis": 2})
    assert op.infer_shape(a, [(2, 3, 4)])[1] == [(2, 3, 2), (2, 3, 2)]
    op = get_op("shape_array")
    assert op.infer_shape(op.parse_attrs({}), [(2, 3)])[1] == [(2,)]


def test_names_and_signatures():
    import inspect

    assert str(inspect.signature(mx.nd.Reshape)).startswith(
        "(data=None, shape=_Null, reverse=_Null, target_shape=_Null, keep_highest=_Null")
    assert mx.nd.flip is not None and mx.nd.crop is not None and mx.nd.swapaxes is not None
    assert mx.nd.op.concat is not None and mx.nd.split is not None
    for m in ("reshape_like", "flatten", "swapaxes", "broadcast_axes", "flip", "split", "pad",
              "slice", "slice_axis", "tile", "depth_to_space", "diag"):
        assert hasattr(mx.nd.NDArray, m), m


def test_split_v2_indices():
    from mxnet._op._slice import split_v2_indices

    assert split_v2_indices((2, 6), 3, axis=1) == (0, 2, 4)
    assert split_v2_indices((5,), [2, 3]) == (0, 2, 3)
    with pytest.raises(ValueError):
        split_v2_indices((5,), 2)
    with pytest.raises(ValueError):
        split_v2_indices((5,), "x")
    a = mx.nd.ones((2, 3, 4))
    outs = mx.nd._internal._split_v2(a, split_v2_indices(a.shape, [1, 3], 2), 2)
    assert [o.shape for o in outs] == [(2, 3, 1), (2, 3, 2), (2, 3, 1)]


def test_reshape_transpose_flatten_infer_input_from_output():
    # MXNet's symbolic shape inference runs Reshape/transpose/Flatten backwards: an unknown
    # (0) input dim is recovered from the known output shape
    import mxnet as mx

    d = mx.sym.var("data")
    net = mx.sym.elemwise_add(d.reshape((0, -1)), mx.sym.ones(shape=(2, 75)))
    args, outs, _ = net.infer_shape(data=(2, 0, 5, 5))
    assert args[0] == (2, 3, 5, 5) and outs[0] == (2, 75)
    net = mx.sym.transpose(d, axes=(1, 0, 2)) + mx.sym.zeros((3, 2, 4))
    assert net.infer_shape(data=(0, 3, 0))[0][0] == (2, 3, 4)
    net = mx.sym.Flatten(d) + mx.sym.zeros((2, 12))
    assert net.infer_shape(data=(0, 3, 4))[0][0] == (2, 3, 4)


def test_tile_zero_reps_needs_np_shape():
    import mxnet as mx
    from mxnet.base import MXNetError

    data = mx.nd.arange(16).reshape((4, 4))
    with pytest.raises(MXNetError):
        mx.nd.tile(data, (1, 0, 3))
    with pytest.raises(MXNetError):
        mx.nd.tile(data, (1, 2, -3))
    with mx.util.np_shape():
        assert mx.nd.tile(data, (1, 0, 3)).shape == (1, 0, 12)
