"""``npx`` front ends: signatures, symbol dispatch, save/load, random, errors."""

import inspect
import json

import numpy as onp
import pytest

import mxnet as mx
from mxnet import numpy as np
from mxnet import numpy_extension as npx
from mxnet.base import MXNetError
from mxnet.symbol.numpy import _as_np_sym, _Symbol


def test_signatures_follow_mxnet():
    sig = inspect.signature(npx.fully_connected)
    assert list(sig.parameters)[:6] == ["data", "weight", "bias", "num_hidden", "no_bias",
                                        "flatten"]
    assert list(inspect.signature(npx.softmax).parameters)[:3] == ["data", "length", "axis"]
    assert list(inspect.signature(npx.reshape).parameters) == ["a", "newshape", "reverse",
                                                               "order"]


def test_results_are_np_arrays_with_mxnet_dtypes():
    x = np.array([[-1.0, 2.0], [3.0, -4.0]])
    assert type(npx.relu(x)) is np.ndarray
    assert npx.shape_array(x).dtype == onp.int64
    assert npx.nonzero(x).dtype == onp.int64
    assert npx.one_hot(np.array([1, 0], dtype="int32"), 3).dtype == onp.float32
    assert npx.sigmoid(np.array([-1, 2], dtype="int32")).dtype == onp.int32
    assert npx.topk(x, k=1).dtype == onp.float32


def test_symbol_inputs_build_np_graphs():
    x, w = _as_np_sym(mx.sym.var("x")), _as_np_sym(mx.sym.var("w"))
    y = npx.relu(npx.fully_connected(x, w, num_hidden=3, no_bias=True))
    z = npx.reshape(y, (-1,))
    assert isinstance(z, _Symbol)
    ops = [n["op"] for n in json.loads(z.tojson())["nodes"] if n["op"] != "null"]
    assert ops == ["FullyConnected", "_npx_relu", "_npx_reshape"]
    from mxnet.symbol import numpy_extension as sym_npx

    assert sym_npx.relu is npx.relu


def test_reshape_codes_and_errors():
    a = np.ones((2, 3, 4))
    assert npx.reshape(a, (-2, -1)).shape == (2, 12)
    assert npx.reshape(a, (-6, -1, 1, -2, -2)).shape == (2, 1, 3, 4)
    assert npx.reshape(np.ones((3, 4)), (-1, 6), reverse=True).shape == (2, 6)
    assert npx.reshape(np.ones((1, 3, 1)), (-3, -2, -3)).shape == (3,)
    with pytest.raises(MXNetError):
        npx.reshape(np.ones((2, 3)), (-3, -2))


def test_save_and_load(tmp_path):
    f = str(tmp_path / "a.npx")
    npx.save(f, np.array([1, 2]))
    (a,) = npx.load(f)
    assert type(a) is np.ndarray and a.tolist() == [1.0, 2.0]
    npx.save(f, {"w": np.ones((2, 2), dtype="int32")})
    d = npx.load(f)
    assert list(d) == ["w"] and d["w"].dtype == onp.int32
    npx.save(f, [np.zeros(3)])
    assert npx.load(f)[0].shape == (3,)
    with pytest.raises(ValueError):
        npx.save(f, mx.nd.ones((2,)))
    mx.nd.save(f, mx.nd.array([3.0]))
    assert type(npx.load(f)[0]) is np.ndarray
    npx.waitall()


def test_random_samplers():
    npx.random.seed(3)
    a = npx.random.uniform_n(0, 1, batch_shape=(4,))
    npx.random.seed(3)
    b = npx.random.uniform_n(0, 1, batch_shape=(4,))
    assert type(a) is np.ndarray and a.shape == (4,)
    onp.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    n = npx.random.normal_n(np.zeros(3), 1, batch_shape=(2,))
    assert n.shape == (2, 3)
    u = npx.random.uniform_n(2.0, 3.0, batch_shape=(100,)).asnumpy()
    assert (u >= 2).all() and (u < 3).all()
    bern = npx.random.bernoulli(0.5, size=(2, 3))
    assert bern.dtype == onp.float32 and set(onp.unique(bern.asnumpy())) <= {0.0, 1.0}
    assert npx.random.bernoulli(logit=np.array([-100.0, 100.0])).tolist() == [0.0, 1.0]
    with pytest.raises(ValueError):
        npx.random.bernoulli()


def test_mode_helpers():
    npx.set_np()
    try:
        assert npx.is_np_array() and npx.is_np_shape()
    finally:
        npx.reset_np()
    assert not npx.is_np_array()
    assert npx.cpu() == mx.cpu() and npx.num_gpus() >= 0


def test_constraint_check_and_multibox():
    ok = npx.constraint_check(np.array([True, True], dtype=bool), "must hold")
    assert ok.dtype == onp.bool_ and ok.shape == () and bool(ok)
    with pytest.raises(ValueError, match="must hold"):
        npx.constraint_check(np.array([True, False], dtype=bool), "must hold")
    with pytest.raises(MXNetError):
        npx.constraint_check(np.array([1.0, 1.0]), "float input")
    anchors = npx.multibox_prior(np.zeros((1, 3, 4, 4)), sizes=(0.75, 0.5), ratios=(1, 2))
    assert type(anchors) is np.ndarray and anchors.shape == (1, 48, 4)


def test_image_operators():
    rng = onp.random.RandomState(0)
    raw = rng.randint(0, 255, (6, 8, 3)).astype("uint8")
    img = np.array(raw, dtype="uint8")
    t = npx.image.to_tensor(img)
    assert type(t) is np.ndarray and t.dtype == onp.float32 and t.shape == (3, 6, 8)
    onp.testing.assert_allclose(t.asnumpy(), raw.transpose(2, 0, 1) / 255.0, rtol=1e-6)
    n = npx.image.normalize(t, mean=(0.5, 0.4, 0.3), std=(0.2, 0.2, 0.2))
    ref = (raw.transpose(2, 0, 1) / 255.0 - onp.array([0.5, 0.4, 0.3])[:, None, None]) / 0.2
    onp.testing.assert_allclose(n.asnumpy(), ref, rtol=1e-5, atol=1e-5)
    c = npx.image.crop(img, x=1, y=2, width=3, height=2)
    onp.testing.assert_array_equal(c.asnumpy(), raw[2:4, 1:4])
    onp.testing.assert_array_equal(npx.image.flip_left_right(img).asnumpy(), raw[:, ::-1])
    assert npx.image.resize(img, size=(4, 3)).shape == (3, 4, 3)
    assert callable(npx.image.imresize)
