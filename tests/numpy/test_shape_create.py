"""``mx.np`` creation functions: values, dtypes and errors as in MXNet 1.9.1."""

import numpy as onp
import pytest

import mxnet as mx
from mxnet import np
from mxnet.base import MXNetError


def _check(res, expected, dtype):
    assert isinstance(res, np.ndarray)
    assert res.dtype == onp.dtype(dtype)
    onp.testing.assert_allclose(res.asnumpy(), expected, rtol=1e-6, atol=1e-6)


def test_eye_identity():
    _check(np.eye(3, 4, k=1), onp.eye(3, 4, 1), "float32")
    _check(np.eye(3, k=-1, dtype="int32"), onp.eye(3, k=-1), "int32")
    _check(np.eye(2, dtype=None), onp.eye(2), "float32")
    assert np.eye(0).shape == (0, 0)
    _check(np.identity(2, dtype="int64"), onp.eye(2), "int64")
    _check(np.eye(2, ctx=mx.cpu()), onp.eye(2), "float32")
    with pytest.raises(MXNetError):
        np.eye(-1)


def test_linspace_logspace():
    _check(np.linspace(0, 1, 5), onp.linspace(0, 1, 5), "float32")
    _check(np.linspace(0, 1, 5, dtype="int32"), [0, 0, 0, 0, 1], "int32")
    _check(np.linspace(2, 3, 5, dtype="float64"), onp.linspace(2, 3, 5), "float64")
    assert np.linspace(0, 1, 0).shape == (0,)
    res, step = np.linspace(0, 10, 4, endpoint=False, retstep=True)
    _check(res, [0, 2.5, 5, 7.5], "float32")
    assert step == pytest.approx(10 / 3)  # MXNet 1.9.1 divides by num - 1 regardless
    with pytest.raises(NotImplementedError):
        np.linspace(0, 1, 3, axis=1)
    with pytest.raises(NotImplementedError):
        np.linspace(np.array(0.0), 1, 3)
    with pytest.raises(MXNetError):
        np.linspace(0, 1, -1)
    _check(np.logspace(0, 2, 3), [1, 10, 100], "float32")
    _check(np.logspace(0, 2, 4, base=2.0, endpoint=False),
           onp.logspace(0, 2, 4, base=2.0, endpoint=False), "float32")


def test_arange_float32_stepping():
    # MXNet evaluates start + i * step in float32: the last value is 0.90000004
    from mxnet.ndarray._namespace import function_for

    res = function_for("_npi_arange")(start=0, stop=1, step=0.3)
    assert res.dtype == onp.float32
    assert res.asnumpy()[-1] == onp.float32(0.3) * onp.float32(3)


def test_indices_windows():
    _check(np.indices((2, 3)), onp.indices((2, 3)), "int32")
    _check(np.indices((2,), dtype="float32"), [[0, 1]], "float32")
    assert np.indices(()).shape == (0,)
    _check(np.hanning(4), onp.hanning(4), "float32")
    _check(np.hamming(5), onp.hamming(5), "float32")
    _check(np.blackman(5, dtype="float64"), onp.blackman(5), "float64")
    assert np.hanning(0).shape == (0,)
    _check(np.hanning(1), [1.0], "float32")


def test_tril_diag():
    x = np.arange(9).reshape(3, 3)
    _check(np.tril(x, k=1), onp.tril(onp.arange(9).reshape(3, 3), 1), "float32")
    # a 1-D input is treated as rows repeated (as NumPy does)
    _check(np.tril(np.arange(3)), onp.tril(onp.arange(3)), "float32")
    _check(np.diag(np.arange(3), k=-1), onp.diag(onp.arange(3), -1), "float32")
    _check(np.diag(x, 1), [1, 5], "float32")
    _check(np.diagflat(np.arange(4).reshape(2, 2)), onp.diagflat(onp.arange(4)), "float32")
    _check(np.diagonal(np.arange(8).reshape(2, 2, 2), 1, 1, 2),
           onp.diagonal(onp.arange(8).reshape(2, 2, 2), 1, 1, 2), "float32")
    rows, cols = np.diag_indices_from(np.ones((3, 3)))
    _check(rows, [0, 1, 2], "int64")
    with pytest.raises(MXNetError):
        np.diag(np.ones((2, 2, 2)))
    with pytest.raises(MXNetError):
        np.tril(np.array(1.0))
    assert not hasattr(np, "triu") and not hasattr(np, "tri")


def test_meshgrid():
    xs, ys = np.meshgrid(np.arange(2), np.arange(3))
    ex, ey = onp.meshgrid(onp.arange(2), onp.arange(3))
    _check(xs, ex, "float32")
    _check(ys, ey, "float32")
    xs, ys = np.meshgrid(np.arange(2), np.arange(3), indexing="ij")
    assert xs.shape == (2, 3)


def test_creation_gradients():
    x = np.ones((3, 3), dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        y = np.tril(x) * 2
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), onp.tril(onp.ones((3, 3))) * 2)
    x = np.ones((3, 2), dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        y = np.diagonal(x)
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), [[1, 0], [0, 1], [0, 0]])


def test_symbol_creation_front_ends():
    import mxnet.symbol.numpy as S

    a = S._as_np_sym(mx.sym.var("a"))
    out = S.zeros((2, 3)) + S.ones((2, 3), dtype="float32") + S.full((2, 3), 2) + a
    assert isinstance(out, S._Symbol)
    res = out.bind(mx.cpu(), {"a": mx.nd.ones((2, 3))}).forward()[0]
    onp.testing.assert_allclose(res.asnumpy(), onp.full((2, 3), 4.0))
    onp.testing.assert_allclose(S.arange(3).eval()[0].asnumpy(), [0, 1, 2])
    onp.testing.assert_allclose(S.eye(2).eval()[0].asnumpy(), onp.eye(2))
    onp.testing.assert_allclose(S.linspace(0, 1, 3).eval()[0].asnumpy(), [0, 0.5, 1])
    like = S.full_like(a, 5).bind(mx.cpu(), {"a": mx.nd.ones((2,))}).forward()[0]
    onp.testing.assert_allclose(like.asnumpy(), [5, 5])
    js = S.zeros((2,), dtype="int32").tojson()
    assert '"_npi_zeros"' in js and '"int32"' in js
    loaded = mx.sym.load_json(S.identity(2).tojson())
    onp.testing.assert_allclose(loaded.eval()[0].asnumpy(), onp.eye(2))
