"""NDArray behaviours found by running MXNet 1.9.1's own unit tests (values from the oracle)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.ndarray.ndarray import NDArray, py_slice


def test_py_slice_is_builtin_slice():
    assert py_slice is slice


@pytest.mark.parametrize(
    "method, kwargs, shape",
    [
        ("flatten", {}, (2, 15)),
        ("expand_dims", {"axis": 1}, (2, 1, 3, 5)),
        ("squeeze", {}, (2, 3, 5)),
    ],
)
def test_inplace_reshaping_methods_share_memory(method, kwargs, shape):
    x = mx.nd.arange(30).reshape((2, 3, 5))
    if method == "squeeze":
        x = x.reshape((2, 1, 3, 5))
    copy = getattr(x, method)(**kwargs)
    view = getattr(x, method)(inplace=True, **kwargs)
    assert copy.shape == view.shape == shape
    x[0] = -1
    assert view.asnumpy().min() == -1 and copy.asnumpy().min() == 0


def test_squeeze_inplace_all_ones_keeps_one_dim():
    assert mx.nd.ones((1, 1, 1)).squeeze(inplace=True).shape == (1,)


def test_moveaxis_numpy_rules():
    x = mx.nd.zeros((4, 1, 2, 3))
    assert mx.nd.moveaxis(x, [3, 0], [1, 0]).shape == (4, 3, 1, 2)
    assert mx.nd.moveaxis(x, range(4), range(4)).shape == (4, 1, 2, 3)
    for src, dst in [(4, 0), (-5, 0), ([0, 0], [0, 1]), (0, [0, 1])]:
        with pytest.raises(ValueError):
            mx.nd.moveaxis(x, src, dst)


def test_creation_out_argument():
    out = mx.nd.zeros((2, 2))
    assert mx.nd.ones((2, 2), out=out) is out
    assert out.asnumpy().sum() == 4


def test_cached_op_runs_symbol():
    sym = mx.sym.Convolution(kernel=(3, 3), num_filter=2) + 2
    op = mx.nd.CachedOp(sym)
    data, weight, bias = mx.nd.ones((1, 1, 4, 4)), mx.nd.ones((2, 1, 3, 3)), mx.nd.ones((2,))
    o = op(data, weight, bias)
    assert o.shape == (1, 2, 2, 2) and float(o[0, 0, 0, 0].asscalar()) == 12
    weight.attach_grad()
    with mx.autograd.record():
        (op(data, weight, bias) * 2).backward()
    assert float(weight.grad[0, 0, 0, 0].asscalar()) == 8
    out = mx.nd.zeros((1, 2, 2, 2))
    op(data, weight, bias, out=out)
    assert float(out.sum().asscalar()) == 96


def test_basic_indexing_slice_is_contiguous():
    f = NDArray._basic_indexing_slice_is_contiguous
    assert f((slice(None), slice(1, 2)), (3, 4)) is False
    assert f((slice(1, 2), slice(None)), (3, 4)) is True
    assert f((slice(None, None, -1),), (3,)) is False
    assert f((slice(0, 0),), (3, 4)) is True


def test_setitem_value_with_extra_leading_ones():
    b = mx.nd.zeros(1)
    b[0] = np.array([47.844944], dtype=np.float32)
    assert b.asnumpy()[0] == np.float32(47.844944)
    x = mx.nd.zeros((2, 3))
    x[0] = np.arange(3).reshape((1, 1, 3))
    assert x.asnumpy()[0].tolist() == [0, 1, 2]


def test_from_numpy_shares_and_locks_source():
    a = np.ones((2, 2), dtype=np.float32)
    m = mx.nd.from_numpy(a)
    with pytest.raises(ValueError):
        a[0, 0] = 5
    m[0, 0] = 7
    assert a[0, 0] == 7
    m2 = mx.nd.from_numpy(a)  # a read-only array is still shared
    m2[1, 1] = 3
    assert a[1, 1] == 3


def test_shape_params_accept_numpy_arrays():
    y = mx.nd.ones((1, 3)).broadcast_to(shape=np.array([2, 3]))
    assert y.shape == (2, 3)


def test_broadcast_like_empty_axes_raise():
    with pytest.raises(MXNetError, match="Empty axes tuple"):
        mx.nd.broadcast_like(mx.nd.ones((1, 2)), mx.nd.ones((3, 2)), lhs_axes=(), rhs_axes=())


def test_base_type_names():
    from mxnet import base

    assert base.mx_real_t is np.float32
    assert base.data_dir_default().endswith("mxnet")


def test_sparse_scalar_comparisons_keep_storage_when_zero_stays_zero():
    for stype in ("csr", "row_sparse"):
        y = mx.nd.ones((2, 3)).tostype(stype)
        assert (y > 0).stype == stype and (y >= 0).stype == "default"
        assert (1 == y).stype == stype and (0 == y).stype == "default"
        assert (y >= 1).asnumpy().all()


def test_sparse_binary_broadcasts_and_rsp_scalar_fill():
    a = mx.nd.array([[2.0]]).tostype("csr")
    b = mx.nd.ones((2, 3)).tostype("csr")
    assert (a + b).asnumpy().tolist() == [[3.0] * 3] * 2
    r = mx.nd.sparse.zeros("row_sparse", (2, 2))
    r[:] = 2
    assert r.asnumpy().tolist() == [[2.0, 2.0], [2.0, 2.0]]
    assert r._num_aux == 1 and b._num_aux == 2


@pytest.mark.parametrize("stype", ["csr", "row_sparse"])
def test_sparse_autograd(stype):
    x = mx.nd.array([[1.0, 0.0], [0.0, 3.0]]).tostype(stype)
    x.attach_grad()
    assert x.grad.stype == stype
    with mx.autograd.record():
        y = x * 2 + x / 2
    y.backward()
    assert x.grad.stype == stype
    assert x.grad.asnumpy().tolist() == [[2.5, 2.5], [2.5, 2.5]]
    assert x.detach().stype == stype
    d = mx.nd.ones((2, 2))
    d.attach_grad(stype="row_sparse")
    with mx.autograd.record():
        z = mx.nd.dot(mx.nd.array([[1.0, 2.0]]).tostype("csr"), d)
    z.backward()
    assert d.grad.stype == "row_sparse"
    assert d.grad.asnumpy().tolist() == [[1.0, 1.0], [2.0, 2.0]]


def test_default_ctx_is_a_class_property():
    assert mx.Context.default_ctx == mx.cpu(0)
    with mx.cpu(1):
        assert mx.Context.default_ctx == mx.cpu(1)


def test_sparse_creation_checks_like_mxnet():
    sp = mx.nd.sparse
    for make in (
        lambda: sp.csr_matrix((2, 2), shape=(3, 2)),
        lambda: sp.row_sparse_array((2, 2), shape=(3, 2)),
        lambda: sp.csr_matrix(mx.nd.ones((2, 2)), shape=(3, 2)),
        lambda: sp.csr_matrix(([], [], [0, 0, 0])),
        lambda: sp.zeros("invalid_stype", (2, 2)),
    ):
        with pytest.raises(ValueError):
            make()
    with pytest.raises(MXNetError):
        sp.retain(mx.nd.ones((2, 2)), invalid_arg="garbage_value")
    assert mx.nd.empty((2, 2), stype="csr").stype == "csr"


def test_take_and_slice_keep_csr_storage():
    c = mx.nd.array([[1, 0, 2], [0, 0, 3], [4, 0, 0]]).tostype("csr")
    idx = mx.nd.array([2, 0])
    t = mx.nd.take(c, idx)
    assert t.stype == "csr" and t.asnumpy().tolist() == [[4, 0, 0], [1, 0, 2]]
    assert mx.nd.take(c, idx, axis=1).stype == "default"
    assert mx.nd.slice(c, begin=(0, 0), end=(2, 2)).stype == "csr"
    assert mx.nd.slice(c, begin=(0,), end=(3,), step=(2,)).stype == "default"


def test_broadcast_to_method_pads_leading_axes_and_raises_value_error():
    x = mx.nd.array([1, 2, 3])
    y = x.broadcast_to((2, 3))  # the method pads (3,) to (1, 3); the operator would refuse
    np.testing.assert_array_equal(y.asnumpy(), [[1, 2, 3], [1, 2, 3]])
    with pytest.raises(MXNetError):
        mx.nd.broadcast_to(x, shape=(2, 3))
    for bad in [(4, 3), (3,), (2, 1, 3)]:
        with pytest.raises(ValueError, match=r"remapped shapes\[original->remapped\]"):
            mx.nd.ones((2, 3)).broadcast_to(bad)
    with pytest.raises(ValueError):  # 0 keeps a dimension only in the operator
        mx.nd.ones((1, 3)).broadcast_to((2, 0))
    assert mx.nd.broadcast_to(mx.nd.ones((1, 3)), shape=(2, 0)).shape == (2, 3)


def test_broadcast_like_method_follows_broadcast_to():
    # the method pads leading axes (GluonTS's AffineTransformation: scale (1,) like x (4, 5));
    # the operator and Symbol.broadcast_like need equal ranks
    s = mx.nd.array([2.0])
    y = s.broadcast_like(mx.nd.ones((4, 5)))
    np.testing.assert_array_equal(y.asnumpy(), np.full((4, 5), 2.0))
    assert mx.nd.ones((4, 5)).broadcast_like(mx.nd.ones((3, 4, 5))).shape == (3, 4, 5)
    with pytest.raises(MXNetError):
        mx.nd.broadcast_like(s, mx.nd.ones((4, 5)))
    with pytest.raises(ValueError, match=r"remapped shapes\[original->remapped\]"):
        mx.nd.ones((4, 5)).broadcast_like(mx.nd.ones((4, 5, 2)))


def test_histogram_without_range_has_numpy_1_edges():
    # MXNet returns numpy's histogram; NumPy 1.x computes float32 data's edges in float64
    data = np.array([1, 2, 2, 3], dtype=np.float32)
    counts, edges = mx.nd.histogram(mx.nd.array(data), bins=3)
    want = np.linspace(1.0, 3.0, 4).astype(np.float32)
    np.testing.assert_array_equal(edges.asnumpy(), want)
    np.testing.assert_array_equal(counts.asnumpy(), [1, 2, 1])
    assert edges.dtype == np.float32


def test_array_of_out_of_range_python_ints_wraps_like_numpy_1():
    # MXNet 1.9.1 (NumPy 1.x) wraps; NumPy 2 alone would raise OverflowError
    got = mx.nd.array([-1, 256, 3.9], dtype="uint8").asnumpy()
    assert got.dtype == np.uint8 and got.tolist() == [255, 0, 3]
    assert mx.nd.array([[-1, 300]], dtype="int8").asnumpy().tolist() == [[-1, 44]]


def test_dtype_code_tables_are_importable_where_mxnet_has_them():
    from mxnet.ndarray.ndarray import _DTYPE_MX_TO_NP, _DTYPE_NP_TO_MX

    assert mx.nd._DTYPE_NP_TO_MX is _DTYPE_NP_TO_MX
    assert _DTYPE_NP_TO_MX[np.float32] == 0 and _DTYPE_NP_TO_MX[np.int64] == 6
    assert _DTYPE_NP_TO_MX[None] == -1 and _DTYPE_MX_TO_NP[3] is np.uint8
    arr = mx.nd.zeros(2, dtype="float16")
    assert _DTYPE_MX_TO_NP[_DTYPE_NP_TO_MX[arr.dtype]] is arr.dtype


def test_ndarray_utils_module_has_the_creation_functions():
    from mxnet.ndarray import utils

    assert utils.zeros((2, 2), stype="csr").stype == "csr"
    assert utils.empty((3,)).shape == (3,)
    assert utils.array([1, 2]).asnumpy().tolist() == [1.0, 2.0]
