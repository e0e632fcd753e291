"""Behaviour of ``mx.np`` element-wise math (values and dtypes checked against MXNet 1.9.1)."""

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, np
from mxnet.base import MXNetError


def test_unary_float_matches_numpy():
    data = onp.array([[0.3, -0.6, 0.9], [0.1, -0.2, 0.5]], dtype=onp.float32)
    x = np.array(data)
    for name in ("exp", "expm1", "sin", "cos", "tan", "arcsin", "arctan", "tanh", "cbrt",
                 "sign", "square", "floor", "ceil", "trunc", "rint", "fix", "degrees",
                 "radians", "absolute", "negative", "arcsinh"):
        got = getattr(np, name)(x)
        assert got.dtype == onp.float32 and got.shape == (2, 3)
        onp.testing.assert_allclose(got.asnumpy(), getattr(onp, name)(data), rtol=1e-6,
                                    atol=1e-7, err_msg=name)


def test_unary_integer_and_boolean_rules():
    i = np.array([1, -2, 3, 4], dtype="int32")
    assert np.exp(i).dtype == onp.int32
    assert np.exp(i).tolist() == [2, 0, 20, 54]
    assert np.reciprocal(i).tolist() == [1, 0, 0, 0]
    assert np.square(np.array([1, 2, 3, 200], dtype="uint8")).tolist() == [1, 4, 9, 64]
    assert np.isnan(i).dtype == onp.bool_
    b = np.array([True, False], dtype="bool")
    with pytest.raises(MXNetError):
        np.exp(b)
    assert np.invert(b).tolist() == [False, True]
    assert np.logical_not(np.array([0.0, 2.0])).tolist() == [True, False]
    with pytest.raises(MXNetError):
        np.invert(np.array([1.0]))


def test_scalars_use_numpy_and_lists_are_refused():
    assert isinstance(np.exp(2.0), onp.float64)
    assert np.add(2, 3) == 5
    with pytest.raises(TypeError):
        np.exp([1, 2])
    with pytest.raises(AttributeError):
        np.deg2rad(np.array([1.0]))


def test_ufunc_keywords():
    x = np.array([1.0, 2.0])
    with pytest.raises(NotImplementedError):
        np.exp(x, where=False)
    with pytest.raises(TypeError):
        np.exp(x, dtype="abcdefg")
    with pytest.raises(NotImplementedError):
        np.add(x, x, casting="safe")
    with pytest.raises(TypeError):
        np.add(x, x, bogus=1)


def test_binary_functions():
    a = np.array([[1.0, -2.0], [3.0, 0.5]])
    b = np.array([2.0, 1.0])
    assert np.maximum(a, b).tolist() == [[2.0, 1.0], [3.0, 1.0]]
    assert np.minimum(a, 1).tolist() == [[1.0, -2.0], [1.0, 0.5]]
    onp.testing.assert_allclose(np.hypot(a, b).asnumpy(), onp.hypot(a.asnumpy(), b.asnumpy()))
    onp.testing.assert_allclose(np.arctan2(1.0, a).asnumpy(), onp.arctan2(1.0, a.asnumpy()),
                                rtol=1e-6)
    assert np.copysign(a, -1).tolist() == [[-1.0, -2.0], [-3.0, -0.5]]
    assert np.ldexp(a, 2).tolist() == [[4.0, -8.0], [12.0, 2.0]]
    i = np.array([12, 8], dtype="int32")
    assert np.lcm(i, 6).tolist() == [12, 24]
    assert (i & 4).tolist() == [4, 0] and (i | 1).tolist() == [13, 9]
    assert (i ^ i).tolist() == [0, 0] and (~i).tolist() == [-13, -9]
    assert np.maximum(i, 2.5).dtype == onp.int32  # the scalar is truncated
    with pytest.raises(MXNetError):
        np.maximum(i, np.array([1.0, 2.0]))


def test_binary_gradients():
    a = np.array([0.3, -0.6, 0.9])
    b = np.array([0.5, 0.2, -0.7])
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        y = np.hypot(a, b)
    y.backward()
    onp.testing.assert_allclose(a.grad.asnumpy(), (a / y).asnumpy(), rtol=1e-6)
    with autograd.record():
        y = np.maximum(a, b)
    y.backward()
    assert a.grad.tolist() == [0.0, 0.0, 1.0]


def test_around_clip_nan_to_num():
    x = np.array([0.5, 1.5, 2.5, -0.25])
    assert np.around(x).tolist() == [0.0, 2.0, 2.0, -0.0]
    onp.testing.assert_allclose(np.round(x, 1).asnumpy(), [0.5, 1.5, 2.5, -0.2])
    assert round(np.array([1.6])).tolist() == [2.0]
    assert np.around(np.array([15, 25, -6], dtype="int32"), -1).tolist() == [10, 20, 0]
    assert np.clip(x, None, 1).tolist() == [0.5, 1.0, 1.0, -0.25]
    assert x.clip(0, 2).tolist() == [0.5, 1.5, 2.0, 0.0]
    assert np.clip(np.array([0.5, 1.5, 4.0]), 3, 1).tolist() == [3.0, 1.0, 1.0]  # a_max first
    with pytest.raises(ValueError):
        np.clip(x, None, None)
    n = np.nan_to_num(np.array([float("nan"), float("inf"), -1.0]), posinf=9.0)
    assert n.tolist() == [0.0, 9.0, -1.0]


def test_out_argument():
    x = np.array([1.0, 2.0])
    out = np.zeros(2)
    assert np.exp(x, out=out) is out
    with pytest.raises(TypeError):
        np.isnan(x, out=np.zeros(2))
    with pytest.raises(MXNetError):
        np.exp(x, out=np.zeros(3))


def test_symbol_inputs_build_np_symbols():
    from mxnet.symbol.numpy import _Symbol

    s = mx.sym.var("x")
    s.__class__ = _Symbol
    y = np.exp(np.maximum(s, 0))
    assert isinstance(y, _Symbol)
    ex = y.bind(mx.cpu(), {"x": mx.nd.array([-1.0, 1.0])})
    onp.testing.assert_allclose(ex.forward()[0].asnumpy(), [1.0, onp.e], rtol=1e-6)


def test_numpy_fallbacks():
    a = np.array([1.0, 2.0, float("nan")])
    assert np.isclose(a, np.array([1.0, 2.0000001, 3.0])).tolist() == [True, True, False]
    assert np.allclose(np.array([1.0, 2.0]), [1, 2]) is True
    assert np.nanmax(a).item() == 2.0
    assert np.float_power(np.array([1, 2], dtype="int32"), 2).dtype == onp.float64
    frac, whole = np.modf(np.array([1.5, -2.25]))
    assert isinstance(frac, np.ndarray) and whole.tolist() == [1.0, -2.0]


def test_boolean_output_backward_gives_zero_gradient():
    x = np.array([0.3, float("nan")])
    x.attach_grad()
    with autograd.record():
        y = np.isnan(x)
    y.backward()
    assert x.grad.tolist() == [0.0, 0.0]


def test_legacy_ndarrays_are_refused():
    with pytest.raises(TypeError):
        np.exp(mx.nd.array([1.0]))
    with pytest.raises(TypeError):
        np.sum(mx.nd.array([1.0]))
    with pytest.raises(TypeError):
        np.add(mx.nd.array([1.0]), np.array([1.0]))


def _grads(fn, *xs):
    for x in xs:
        x.attach_grad()
    with autograd.record():
        y = fn(*xs)
    y.backward()
    return [x.grad.asnumpy() for x in xs]


def test_mxnet_specific_gradients():
    # ties go to the left input; cbrt and arctan2 use MXNet's closed forms
    ga, gb = _grads(np.maximum, np.array([1.0, 2.0]), np.array([1.0, 3.0]))
    assert ga.tolist() == [1.0, 0.0] and gb.tolist() == [0.0, 1.0]
    (g,) = _grads(lambda x: np.minimum(x, 1.0), np.array([1.0, 0.0]))
    assert g.tolist() == [1.0, 1.0]
    (g,) = _grads(np.cbrt, np.array([0.0, 8.0]))
    assert g[0] == onp.inf and g[1] == pytest.approx(1 / 12)
    ga, gb = _grads(np.arctan2, np.array([0.0, 1.0]), np.array([0.0, 1.0]))
    assert onp.isnan(ga[0]) and ga[1] == pytest.approx(0.5)
    assert np.maximum(np.array([float("nan"), 1.0]), 2).asnumpy()[0] != 2.0
