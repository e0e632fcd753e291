"""``mx.np`` shape manipulation, joining/splitting and selection: values against NumPy,
dtypes, gradients (MXNet 1.9.1's, quirks included) and error types."""

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, np
from mxnet.base import MXNetError

A = onp.arange(24, dtype=onp.float32).reshape(2, 3, 4)


def _same(res, expected, dtype="float32"):
    if isinstance(expected, (list, tuple)):
        assert len(res) == len(expected)
        for r, e in zip(res, expected):
            _same(r, e, dtype)
        return
    assert isinstance(res, np.ndarray)
    assert res.dtype == onp.dtype(dtype)
    onp.testing.assert_allclose(res.asnumpy(), onp.asarray(expected))


def _grad(f, *arrays):
    xs = [np.array(a, dtype="float64") for a in arrays]
    for x in xs:
        x.attach_grad()
    with autograd.record():
        y = f(*xs)
    y.backward()
    return [x.grad.asnumpy() for x in xs]


@pytest.mark.parametrize("name, args, kwargs", [
    ("reshape", [(4, -1)], {}), ("transpose", [(1, 0, 2)], {}), ("transpose", [], {}),
    ("swapaxes", [0, 2], {}), ("moveaxis", [[0, 1], [-1, -2]], {}), ("rollaxis", [2], {}),
    ("rollaxis", [1, 3], {}), ("expand_dims", [-1], {}), ("flip", [], {}), ("flip", [1], {}),
    ("roll", [2], {}), ("roll", [(1, 1)], {"axis": (0, 2)}), ("rot90", [1, (1, 2)], {}),
    ("tile", [(2, 1, 1)], {}), ("repeat", [2], {"axis": -1}), ("repeat", [2], {}),
    ("ravel", [], {}), ("copy", [], {}), ("fliplr", [], {}), ("flipud", [], {}),
    ("atleast_3d", [], {}), ("diff", [], {"n": 2, "axis": 1}), ("take", [[0, 2]], {"axis": 1}),
])
def test_matches_numpy(name, args, kwargs):
    conv = [np.array(a, dtype="int64") if name == "take" else a for a in args]
    res = getattr(np, name)(np.array(A), *conv, **kwargs)
    _same(res, getattr(onp, name)(A, *args, **kwargs))


def test_squeeze_broadcast():
    _same(np.squeeze(np.ones((1, 3, 1)), axis=(0, 2)), onp.ones(3))
    _same(np.squeeze(np.ones((1,))), onp.ones(()))
    _same(np.broadcast_to(np.ones((2, 1), dtype="int32"), (2, 2)), onp.ones((2, 2)), "int32")
    _same(np.broadcast_arrays(np.ones((2, 1)), np.arange(3)),
          onp.broadcast_arrays(onp.ones((2, 1)), onp.arange(3)))
    _same(np.atleast_1d(np.array(1.0), np.ones((2, 2))), [onp.ones(1), onp.ones((2, 2))])
    assert np.shape(np.ones((2, 3))) == (2, 3) and np.size(np.ones((2, 3)), 1) == 3
    assert np.ndim(np.ones((2, 3))) == 2


def test_outputs_are_copies():
    a = np.arange(6)
    b = np.reshape(a, (2, 3))
    b[0, 0] = 100
    assert a[0] == 0


def test_join():
    x, y = onp.ones((2, 3), onp.float32), onp.zeros((1, 3), onp.float32)
    _same(np.concatenate([np.array(x), np.array(y)]), onp.concatenate([x, y]))
    _same(np.concatenate([np.array(x), np.array(y)], axis=None),
          onp.concatenate([x, y], axis=None))
    v = onp.arange(3, dtype=onp.float32)
    for fn in ("vstack", "hstack", "dstack", "column_stack"):
        _same(getattr(np, fn)([np.array(v), np.array(v)]), getattr(onp, fn)([v, v]))
    _same(np.stack([np.array(v), np.array(v)], axis=-1), onp.stack([v, v], axis=-1))
    _same(np.append(np.ones(2), np.zeros((2, 2))), onp.append(onp.ones(2), onp.zeros((2, 2))))
    i32 = np.arange(2, dtype="int32")
    _same(np.concatenate((i32, i32)), [0, 1, 0, 1], "int32")
    with pytest.raises(MXNetError):
        np.concatenate([np.ones((2, 3)), np.ones((3, 2))])
    with pytest.raises(MXNetError):
        np.concatenate([np.ones(2), np.ones(2, dtype="int32")])
    with pytest.raises(MXNetError):
        np.stack([np.ones(2), np.ones(3)])


def test_split():
    a = onp.arange(12, dtype=onp.float32).reshape(3, 4)
    _same(np.split(np.array(a), 2, axis=1), onp.split(a, 2, axis=1))
    _same(np.split(np.arange(6), [1, 4]), onp.split(onp.arange(6), [1, 4]))
    _same(np.array_split(np.arange(7), 3), onp.array_split(onp.arange(7), 3))
    _same(np.hsplit(np.array(a), [1, 3]), onp.hsplit(a, [1, 3]))
    _same(np.vsplit(np.array(a), 3), onp.vsplit(a, 3))
    b = onp.arange(16, dtype=onp.float32).reshape(2, 2, 4)
    _same(np.dsplit(np.array(b), 2), onp.dsplit(b, 2))
    with pytest.raises(ValueError):
        np.split(np.ones(5), 2)
    with pytest.raises(MXNetError):
        np.split(np.ones(5), [7])
    with pytest.raises(ValueError):
        np.vsplit(np.ones(4), 2)


def test_delete_insert():
    a = onp.arange(6, dtype=onp.float32).reshape(2, 3)
    _same(np.delete(np.array(a), 1, axis=1), onp.delete(a, 1, axis=1))
    _same(np.delete(np.array(a), 1), onp.delete(a, 1))
    _same(np.delete(np.arange(6), slice(None, None, 2)), [1, 3, 5])
    _same(np.delete(np.arange(6), np.array([0, 2, 2])), [1, 3, 4, 5])
    with pytest.raises(TypeError):
        np.delete(np.arange(6), [0, 2])
    _same(np.insert(np.arange(3), 1, 5.0), [0, 5, 1, 2])
    _same(np.insert(np.arange(3), -1, 5.0), [0, 1, 5, 2])
    _same(np.insert(np.array(a), 1, np.array([[5.0], [6.0]]), axis=1),
          onp.insert(a, 1, [[5.0], [6.0]], axis=1))
    _same(np.insert(np.arange(4), np.array([3, 1], dtype="int64"), np.array([7.0, 8.0])),
          [0, 8, 1, 2, 7, 3])
    _same(np.insert(np.arange(4), slice(0, 4, 2), np.array([9.0, 8.0])), [9, 0, 1, 8, 2, 3])
    _same(np.insert(np.arange(4, dtype="int32"), 1, 9), [0, 9, 1, 2, 3], "int32")
    with pytest.raises(MXNetError):  # float index arrays are rejected
        np.insert(np.arange(4), np.array([1.0]), 9.0)


def test_take_where_nonzero():
    a = np.arange(6).reshape(2, 3)
    _same(np.take(a, np.array([0, 4])), [0, 4])
    _same(np.take(a, np.array([-1, 4]), axis=1, mode="wrap"), [[2, 1], [5, 4]])
    _same(np.take(a, np.array([0, 5]), axis=1, mode="clip"), [[0, 2], [3, 5]])
    _same(a.take(np.array([1, 2])), [1, 2])
    with pytest.raises(MXNetError):
        np.take(np.arange(3), np.array([-1]))  # mode='raise' rejects negative indices
    with pytest.raises(AssertionError):
        np.take(a, [0, 1])
    c = np.array([1.0, 0.0, 2.0])
    _same(np.where(c, np.ones(3), np.zeros(3)), [1, 0, 1])
    _same(np.where(c, 5.0, np.zeros(3)), [5, 0, 5])
    _same(np.where(c, np.ones(3, dtype="int32"), 2.5), [1, 2, 1], "int32")
    _same(np.where(c, 5, 7), [5, 7, 5])
    with pytest.raises(MXNetError):
        np.where(c, np.ones(3, dtype="int32"), np.zeros(3))
    _same(np.nonzero(np.array([[0.0, 1.0], [2.0, 0.0]])), [[0, 1], [1, 0]], "int64")
    _same(np.nonzero(np.array(3.0)), [[0]], "int64")
    _same(np.array([0.0, 1.0]).nonzero(), [[1]], "int64")
    _same(np.where(np.array([0.0, 2.0, 3.0])), [[1, 2]], "int64")
    _same(np.argwhere(np.array([[0.0, 1.0]])), [[0, 1]], "int64")
    _same(np.flatnonzero(np.array([[0.0, 1.0], [2.0, 0.0]])), [1, 2], "int64")


def test_pad_diff_ediff1d():
    a = onp.arange(6, dtype=onp.float32).reshape(2, 3)
    for mode in ("edge", "reflect", "symmetric", "minimum"):
        _same(np.pad(np.array(a), ((1, 1), (2, 2)), mode=mode),
              onp.pad(a, ((1, 1), (2, 2)), mode=mode))
    # MXNet 1.9.1's front end pads with zeros whatever constant_values says
    _same(np.pad(np.array(a), ((1, 0), (0, 1)), constant_values=3), onp.pad(a, ((1, 0), (0, 1))))
    with pytest.raises(TypeError):
        np.pad(np.array(a), 1)
    with pytest.raises(ValueError):
        np.pad(np.array(a), ((1, 1), (1, 1)), mode="wrap")
    _same(np.diff(np.array([1.0, 4.0, 9.0, 16.0]), n=2), [2, 2])
    _same(np.diff(np.arange(6, dtype="int32").reshape(2, 3)), [[1, 1], [1, 1]], "int32")
    _same(np.ediff1d(np.array([1.0, 4.0, 9.0]), to_begin=-1.0), [-1, 3, 5])
    _same(np.ediff1d(np.array([1.0, 4.0, 9.0]), to_end=np.array([7.0, 8.0]),
                     to_begin=np.array([0.0])), [0, 3, 5, 7, 8])


def test_gradients():
    w = onp.arange(6, dtype=onp.float64).reshape(3, 2)
    onp.testing.assert_allclose(_grad(lambda x: np.transpose(x) * np.array(w), onp.ones((2, 3)))[0],
                                w.T)
    onp.testing.assert_allclose(_grad(lambda x: np.broadcast_to(x, (4, 3)), onp.ones(3))[0],
                                [4, 4, 4])
    onp.testing.assert_allclose(_grad(lambda x: np.repeat(x, 3), onp.ones(2))[0], [3, 3])
    gx, gy = _grad(lambda x, y: np.stack([x, y]) * np.arange(4).reshape(2, 2), onp.ones(2),
                   onp.ones(2))
    onp.testing.assert_allclose(gx, [0, 1])
    onp.testing.assert_allclose(gy, [2, 3])
    onp.testing.assert_allclose(_grad(lambda x: np.split(x, 2)[1] * 3, onp.ones(4))[0],
                                [0, 0, 3, 3])
    onp.testing.assert_allclose(_grad(lambda x: np.take(x, np.array([0, 0, 2])), onp.ones(3))[0],
                                [2, 0, 1])
    onp.testing.assert_allclose(_grad(lambda x: np.diff(x) * np.arange(2), onp.ones(3))[0],
                                [0, -1, 1])


def test_gradient_quirks_of_mxnet():
    # rot90: MXNet 1.9.1 rotates the head gradient by k again (not by -k)
    w = onp.arange(4, dtype=onp.float64).reshape(2, 2)
    onp.testing.assert_allclose(_grad(lambda x: np.rot90(x) * np.array(w), onp.ones((2, 2)))[0],
                                [[1, 3], [0, 2]])
    # atleast_Nd: no gradient (zeros)
    onp.testing.assert_allclose(_grad(lambda x: np.atleast_2d(x) * 3, onp.ones(3))[0], [0, 0, 0])
    # delete / insert: no gradient at all
    for f in (lambda x: np.delete(x, 1), lambda x: np.insert(x, 1, 5.0)):
        with pytest.raises(MXNetError):
            _grad(f, onp.ones(3))
    # pad: only mode 'constant' has a backward
    onp.testing.assert_allclose(_grad(lambda x: np.pad(x, ((1, 1), (0, 1))), onp.ones((2, 2)))[0],
                                onp.ones((2, 2)))
    with pytest.raises(MXNetError):
        _grad(lambda x: np.pad(x, ((1, 1), (0, 1)), mode="edge"), onp.ones((2, 2)))
    # where with one scalar side: the masks of the two sides are swapped
    c = np.array([1.0, 0.0, 1.0])
    onp.testing.assert_allclose(_grad(lambda x: np.where(c, 2.0, x), onp.ones(3))[0], [1, 0, 1])
    onp.testing.assert_allclose(_grad(lambda x: np.where(c, x, 2.0), onp.ones(3))[0], [0, 1, 0])


def test_errors():
    with pytest.raises(AssertionError):
        np.reshape([1, 2], (2,))
    with pytest.raises(MXNetError):
        np.reshape(np.ones(6), (4, -1))
    with pytest.raises(ValueError):
        np.transpose(np.ones((2, 3)), (0, 0))
    for bad in (lambda: np.swapaxes(np.ones((2, 3)), 0, 2),
                lambda: np.expand_dims(np.ones((2, 3)), 4),
                lambda: np.squeeze(np.ones((2, 3)), 0),
                lambda: np.broadcast_to(np.ones((2, 3)), (3, 3)),
                lambda: np.flip(np.ones((2, 3)), 2),
                lambda: np.rot90(np.ones((2, 3)), 1, (0, 0)),
                lambda: np.repeat(np.ones(3), -1),
                lambda: np.repeat(np.ones(3), [1, 2, 3])):
        with pytest.raises(MXNetError):
            bad()
    with pytest.raises(TypeError):
        np.flip([1, 2])


def test_symbols_dispatch():
    import mxnet.symbol.numpy as S

    a = S._as_np_sym(mx.sym.var("a"))
    out = np.concatenate([np.reshape(a, (3, 2)), np.transpose(np.reshape(a, (2, 3)))], axis=1)
    assert isinstance(out, S._Symbol)
    x = onp.arange(6, dtype=onp.float32)
    res = out.bind(mx.cpu(), {"a": mx.nd.array(x)}).forward()[0].asnumpy()
    onp.testing.assert_allclose(res, onp.concatenate([x.reshape(3, 2), x.reshape(2, 3).T], 1))
    parts = S.split(a, 2)
    assert len(parts) == 2
    assert all(isinstance(p, S._Symbol) for p in parts)
    assert len(np.atleast_1d(a, a)) == 2


def test_numpy_fallbacks():
    a = np.arange(6).reshape(2, 3)
    _same(np.resize(a, (3, 3)), onp.resize(onp.arange(6.0), (3, 3)))
    _same(np.take_along_axis(a, np.array([[0], [2]], dtype="int64"), 1), [[0], [5]])
    _same(np.tril_indices_from(np.ones((3, 3))), onp.tril_indices_from(onp.ones((3, 3))),
          "int64")
    _same(np.trim_zeros(np.array([0.0, 1.0, 0.0])), [1.0])
    _same(np.compress([0, 1], a, axis=0), [[3, 4, 5]])


def test_legacy_inputs_rejected():
    with pytest.raises(TypeError, match="legacy ndarray"):
        np.reshape(mx.nd.ones(4), (2, 2))
    with pytest.raises(TypeError, match="known as `concatenate`"):
        np.concatenate([np.ones(2), mx.nd.ones(2)])


def test_unravel_index_memory_vander():
    r = np.unravel_index(np.array([1, 5], dtype="int32"), (2, 3))
    _same(r, [[0, 1], [1, 2]], "int32")
    assert np.unravel_index(4, (2, 3)) == (1, 1)
    with pytest.raises(MXNetError):
        np.unravel_index(np.array([1.0]), (2, 3))  # float32 indices are rejected
    with pytest.raises(NotImplementedError):
        np.unravel_index(5, (2, 3), order="F")
    a = np.arange(6)
    assert np.shares_memory(a, a[1:]) and np.may_share_memory(a, a[:2])
    assert not np.shares_memory(a, np.ones(6))
    assert not np.shares_memory(a[1:3], a[4:])
    assert not np.shares_memory(a, np.reshape(a, (2, 3)))
    _same(np.vander(np.array([1.0, 2.0]), 3), [[1, 1, 1], [4, 2, 1]], "float64")
    _same(np.vander(np.array([1, 2], dtype="int32")), [[1, 1], [2, 1]], "int64")
