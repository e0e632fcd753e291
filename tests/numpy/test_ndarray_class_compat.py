"""``mx.np.ndarray`` class behaviour checked against MXNet 1.9.1 (truth value, format,
legacy fluent methods it refuses, ``np.full`` with a bool fill)."""

import warnings

import numpy as onp
import pytest

import mxnet as mx
from mxnet import np


def test_bool_of_empty_array_is_false_with_deprecation_warning():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert bool(np.array([])) is False
    assert any(issubclass(x.category, DeprecationWarning) for x in w)
    with pytest.raises(ValueError, match="multiple elements"):
        bool(np.array([1, 2]))
    assert bool(np.array([3])) is True


def test_format_spec_only_for_0d():
    assert "{:.2f}".format(np.array(2.0)) == "2.00"
    assert "{}".format(np.array([1, 2])) == str(np.array([1, 2]))
    with pytest.raises(TypeError):
        "{:.2f}".format(np.array([2.0]))


@pytest.mark.parametrize(
    "name",
    [
        "asscalar",
        "zeros_like",
        "ones_like",
        "expand_dims",
        "tile",
        "flip",
        "split",
        "softmax",
        "relu",
        "topk",
        "pick",
        "diag",
        "slice_axis",
        "reshape_like",
        "broadcast_like",
    ],
)
def test_legacy_fluent_methods_refused(name):
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(AttributeError, match="mxnet.numpy.ndarray object has no attribute"):
        getattr(x, name)()


def test_reshape_without_arguments():
    with pytest.raises(TypeError, match="takes exactly 1 argument"):
        np.ones((2, 2)).reshape()


def test_full_with_python_bool_is_bool():
    assert np.full((2, 2), True).dtype == onp.bool_
    assert np.full((2,), True, dtype="int32").dtype == onp.int32
    assert np.full((2,), 7).dtype == onp.float32


def test_full_with_python_bool_hybridized():
    class Net(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return x, F.np.full((2,), True)

    net = Net()
    net.hybridize()
    mx.npx.set_np()
    try:
        out = net(np.ones((1,)))[1]
    finally:
        mx.npx.reset_np()
    assert out.dtype == onp.bool_


def test_numpy_dispatch_listed_functions_run_mx_np():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    out = onp.sum(a, axis=0)
    assert isinstance(out, np.ndarray)
    assert out.tolist() == [4.0, 6.0]
    assert isinstance(onp.exp(a), np.ndarray)
    assert isinstance(onp.concatenate([a, a]), np.ndarray)


def test_numpy_dispatch_other_functions_fall_back_to_numpy():
    b = np.array([1, 2, 3], dtype="int32")
    counts, edges = onp.histogram(b, bins=2)  # not in MXNet's list: NumPy on a copy
    assert isinstance(counts, np.ndarray) and isinstance(edges, np.ndarray)
    assert counts.tolist() == [1, 2]
    # numpy.divide is not dispatched by MXNet 1.9.1 either: NumPy's float64 result
    assert onp.divide(b, 2).dtype == onp.float64
    assert isinstance(onp.log1p(np.array([0.0])), np.ndarray)


def test_numpy_dispatch_fallback_refused_while_recording():
    x = np.array([1.0, 2.0])
    x.attach_grad()
    with mx.autograd.record():
        with pytest.raises(ValueError, match="Falling back to NumPy operator"):
            onp.log1p(x)
        y = onp.exp(x)  # dispatched to mx.np.exp: recorded
    y.backward()
    assert onp.allclose(x.grad.asnumpy(), onp.exp([1.0, 2.0]))


def test_numpy_dispatch_protocol_module():
    from mxnet.numpy_dispatch_protocol import (
        _NUMPY_ARRAY_FUNCTION_LIST,
        _NUMPY_ARRAY_UFUNC_LIST,
        with_array_function_protocol,
    )

    assert (
        "concatenate" in _NUMPY_ARRAY_FUNCTION_LIST and "linalg.norm" in _NUMPY_ARRAY_FUNCTION_LIST
    )
    assert "add" in _NUMPY_ARRAY_UFUNC_LIST

    @with_array_function_protocol
    def bad():
        raise ValueError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        bad()


def test_zero_dim_arrays_index_as_integers():
    a = np.arange(24).reshape(2, 3, 4)  # float32, as mx.np's default
    assert a[np.array(1.7)].shape == (3, 4)  # truncated, as MXNet 1.9.1
    assert a[0, np.array(2.0)].tolist() == a[0, 2].tolist()
    assert a[np.array(1, dtype="int32"), 1].tolist() == [16.0, 17.0, 18.0, 19.0]
    b = np.zeros((3, 4))
    b[np.array(1.0)] = 5
    assert b.asnumpy()[1].tolist() == [5.0] * 4
    with pytest.raises(IndexError):
        a[np.array(5.0)]


@pytest.mark.parametrize("key", ["a", {}, (0, "a")])
def test_unsupported_index_types_raise_value_error(key):
    with pytest.raises(ValueError, match="does not support slicing with key"):
        np.ones((2, 3))[key]


def test_numpy_dispatch_refuses_numpy_arrays_mixed_in():
    m = np.ones((3, 1))
    with pytest.raises(TypeError):
        onp.may_share_memory(onp.ones((3, 1), dtype="float32"), m)
    assert onp.shares_memory(m[1:], m)
    assert not onp.may_share_memory(m, m.copy())


def test_classic_ndarray_integer_indexing_under_np_shape_is_0d():
    x = mx.nd.ones((2, 3))
    assert x[0, 1].shape == (1,)
    with mx.util.np_shape(True):
        assert x[0, 1].shape == ()
        assert x[0][1].shape == ()
        assert mx.nd.ones((3,))[-1].shape == ()
        assert x[0, 1:2].shape == (1,)
        assert mx.nd.ones((1,)).reshape(()).shape == ()
    with pytest.raises(mx.base.MXNetError):
        mx.nd.ones((1,)).reshape(())


def test_nd_array_of_np_array_is_classic():
    a = mx.nd.array(np.array([1, 2], dtype="int32"))
    assert type(a) is mx.nd.NDArray
    assert a.dtype == onp.int32


def test_image_functions_return_np_arrays_in_np_mode():
    img = np.ones((6, 8, 3), dtype="uint8")
    mx.npx.set_np()
    try:
        assert type(mx.image.imresize(img, 4, 3)) is np.ndarray
        assert type(mx.image.fixed_crop(img, 0, 0, 4, 4)) is np.ndarray
        assert type(mx.image.center_crop(img, (4, 4))[0]) is np.ndarray
        assert type(mx.image.resize_short(img, 4)) is np.ndarray
        crop = mx.gluon.data.vision.transforms.CenterCrop(2)
        assert crop(img).shape == (2, 2, 3)
    finally:
        mx.npx.reset_np()
    assert type(mx.image.imresize(mx.nd.ones((6, 8, 3), dtype="uint8"), 4, 3)) is mx.nd.NDArray


def test_npx_random_in_hybridized_block_draws_each_run():
    class Net(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.npx.random.bernoulli(prob=0.5, size=(1000,)) + x

    mx.npx.set_np()
    try:
        net = Net()
        net.hybridize()
        a, b = net(np.zeros(1000)), net(np.zeros(1000))
    finally:
        mx.npx.reset_np()
    assert type(a) is np.ndarray
    assert 0.4 < float(a.mean()) < 0.6
    assert float((a != b).sum()) > 100
    assert callable(mx.sym.npx.random.bernoulli) and callable(mx.sym.npx.image.to_tensor)


def test_integer_arrays_index_python_sequences():
    assert [1, 2, 3][np.array(1, dtype="int32")] == 2
    assert range(5)[np.array([2], dtype="int64")] == 2
    with pytest.raises(TypeError):
        [1, 2, 3][np.array(1.0)]


def test_array_of_numpy_scalar_keeps_its_dtype():
    assert np.array(onp.float64(1.5)).dtype == onp.float64
    assert np.array(onp.int32(1)).dtype == onp.int32
    assert np.array(onp.bool_(True)).dtype == onp.bool_
    assert np.array(1.5).dtype == onp.float32  # Python scalars: float32


def test_array_of_big_endian_numpy_array():
    a = np.array(onp.array([1.0, 2.0], dtype=">f4"))
    assert a.dtype == onp.float32
    assert a.tolist() == [1.0, 2.0]


def test_negative_dimension_is_mxnet_error():
    with pytest.raises(mx.base.MXNetError):
        np.zeros((2, -1))


def test_as_np_ndarray_shares_the_gradient_buffer():
    n = mx.nd.array([1.0, 2.0])
    n.attach_grad()
    m = n.as_np_ndarray()
    assert type(m.grad) is np.ndarray
    with mx.autograd.record():
        z = (m * 3).sum()
    z.backward()
    assert m.grad.tolist() == [3.0, 3.0]
    assert type(n.grad) is mx.nd.NDArray and n.grad.asnumpy().tolist() == [3.0, 3.0]
    x = np.array([1.0])
    x.attach_grad()
    assert type(x.as_nd_ndarray().grad) is mx.nd.NDArray


def test_autograd_function_with_np_arrays():
    class Exp(mx.autograd.Function):
        def forward(self, x):
            y = np.exp(x)
            self.save_for_backward(y)
            return y

        def backward(self, dy):
            (y,) = self.saved_tensors
            return dy * y

    x = np.array([0.0, 1.0])
    x.attach_grad()
    with mx.autograd.record():
        y = Exp()(x)
    assert type(y) is np.ndarray
    y.backward()
    assert onp.allclose(x.grad.asnumpy(), onp.exp([0.0, 1.0]))


@pytest.mark.parametrize("obj", [[[1, 2], [3]], "abc"])
def test_array_conversion_errors_are_type_errors(obj):
    with pytest.raises(TypeError):
        np.array(obj)


def test_np_mode_F_gives_classic_operators_classic_arrays():
    from mxnet.gluon._np_mode import np_F, to_legacy

    x = np.array([[1.0, 2.0]])
    assert type(to_legacy([x])[0]) is mx.nd.NDArray
    F = np_F(mx.nd, False)
    out = F.log_softmax(x)  # a classic operator: classic input, mx.np output
    assert type(out) is np.ndarray
    parts = mx.gluon.utils.split_data(np.ones((2, 4)), 2, batch_axis=1)
    assert [type(p) for p in parts] == [np.ndarray, np.ndarray]
