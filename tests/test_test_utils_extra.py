"""The sparse/matrix/data helpers of mx.test_utils that MXNet's unit tests import."""

import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import test_utils as tu
from mxnet.gluon import nn


def test_names_exported():
    for name in (
        "create_sparse_array",
        "create_sparse_array_zd",
        "shuffle_csr_column_indices",
        "check_gluon_hybridize_consistency",
        "get_identity_mat",
        "get_identity_mat_batch",
        "new_matrix_with_real_eigvals_2d",
        "new_matrix_with_real_eigvals_nd",
        "new_orthonormal_matrix_2d",
        "new_sym_matrix_with_real_eigvals_2d",
        "new_sym_matrix_with_real_eigvals_nd",
        "get_mnist",
        "get_mnist_pkl",
        "get_mnist_iterator",
        "get_zip_data",
        "download_model",
        "get_im2rec_path",
        "is_aarch64_run",
        "has_tvm_ops",
        "get_cuda_compute_capability",
        "gzip",
        "struct",
        "zipfile",
        "platform",
        "contextmanager",
        "ss",
    ):
        assert name in tu.__all__ and hasattr(tu, name), name


def test_sparse_builders():
    csr = tu.create_sparse_array((4, 6), "csr", density=0.5)
    assert csr.stype == "csr" and csr.shape == (4, 6)
    rsp = tu.create_sparse_array_zd((6, 2), "row_sparse", 0.9, rsp_indices=[4, 1], data_init=2.0)
    assert rsp.indices.asnumpy().tolist() == [1, 4]
    assert (rsp.data.asnumpy() == 2.0).all()
    with pytest.raises(AssertionError, match="Unknown storage type: default"):
        tu.create_sparse_array((2, 2), "default")


def test_shuffle_csr_column_indices_keeps_row_sets():
    dense = np.arange(1, 25, dtype=np.float32).reshape(3, 8)
    csr = mx.nd.sparse.csr_matrix(dense)
    before = csr.indices.asnumpy().copy()
    np.random.seed(0)
    tu.shuffle_csr_column_indices(csr)
    after = csr.indices.asnumpy()
    for r in range(3):
        assert sorted(after[r * 8 : (r + 1) * 8]) == sorted(before[r * 8 : (r + 1) * 8])
    assert not (after == before).all()


def test_matrices():
    eye = tu.get_identity_mat(3)
    assert eye.dtype == np.float32 and (eye.asnumpy() == np.eye(3)).all()
    assert tu.get_identity_mat_batch(2).shape == (2, 2, 2)
    m = tu.new_matrix_with_real_eigvals_nd((2, 3, 3))
    assert m.shape == (2, 3, 3) and m.dtype == np.float64
    assert np.allclose(np.linalg.eigvals(m[0]).imag, 0)
    s = tu.new_sym_matrix_with_real_eigvals_nd((2, 3, 3))
    assert np.allclose(s, np.swapaxes(s, -1, -2))
    q = tu.new_orthonormal_matrix_2d(4)
    assert np.allclose(q @ q.T, np.eye(4))


def test_hybridize_consistency():
    x = mx.nd.array(np.random.uniform(size=(2, 3)))

    def ref(a):
        return np.tanh(a)

    class Net(nn.HybridBlock):
        def hybrid_forward(self, F, a):
            return F.tanh(a)

    tu.check_gluon_hybridize_consistency(lambda prefix: Net(prefix=prefix), [x], numpy_func=ref)
    tu.check_gluon_hybridize_consistency(lambda prefix: nn.Dense(2, prefix=prefix), [x])
    with pytest.raises(AssertionError):
        tu.check_gluon_hybridize_consistency(
            lambda prefix: Net(prefix=prefix), [x], numpy_func=lambda a: a + 1
        )


def test_environment_helpers(monkeypatch, tmp_path):
    assert tu.has_tvm_ops() is False
    assert isinstance(tu.is_aarch64_run(), bool)
    assert tu.get_im2rec_path().endswith("im2rec.py")
    monkeypatch.setenv("MXNET_HOME", str(tmp_path))
    with pytest.raises(OSError, match="im2rec"):
        tu.get_im2rec_path()
    with pytest.raises(ValueError, match="gpu context"):
        tu.get_cuda_compute_capability(mx.cpu())
    assert tu.download_model("no-such-model") == (None, 0)


def test_download_error_is_raised(monkeypatch, tmp_path):
    def no_network(url, *args, **kwargs):
        raise RuntimeError(f"Failed downloading url {url}")

    monkeypatch.setattr(tu, "download", no_network, raising=True)
    import mxnet._test_utils_data as data_mod

    monkeypatch.setattr(data_mod, "download", no_network)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeError, match="mnist"):
        tu.get_mnist_pkl()
    with pytest.raises(RuntimeError, match="mnist"):
        tu.get_mnist()
    assert not os.path.exists(tmp_path / "data" / "mnist.pkl.gz")


def test_symbolic_checkers_return_ndarrays():
    x = mx.sym.var("x")
    s = mx.sym.relu(x)
    xv = np.array([[1.0, -1.0], [-2.0, 3.0]])
    outs = tu.check_symbolic_forward(s, [xv], [np.maximum(xv, 0)])
    assert isinstance(outs[0], mx.nd.NDArray)
    grads = tu.check_symbolic_backward(
        s, [xv], [np.ones((2, 2))], [(xv > 0) * 1.0], grad_stypes={"x": "row_sparse"}
    )
    assert grads["x"].stype == "row_sparse"
    assert grads["x"].asnumpy().tolist() == [[1.0, 0.0], [0.0, 1.0]]
    plain = tu.check_symbolic_backward(s, [xv], [np.ones((2, 2))], [(xv > 0) * 1.0])
    assert isinstance(plain["x"], mx.nd.NDArray) and plain["x"].stype == "default"


def test_check_consistency_signature_and_reference():
    s = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc")
    specs = [
        {"ctx": mx.cpu(0), "data": (2, 4), "type_dict": {"data": t}}
        for t in (np.float64, np.float32)
    ]
    gt = tu.check_consistency(s, specs, rtol=1e-3, atol=1e-4)
    assert sorted(gt) == ["data", "fc_bias", "fc_output", "fc_weight"]
    assert gt["fc_output"].dtype == np.float64
    assert sorted(tu.check_consistency(s, specs, grad_req="null", tol=1e-3)) == ["fc_output"]


def test_numeric_grad_and_check_speed():
    s = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc")
    ex = s.simple_bind(mx.cpu(), data=(2, 4))
    loc = {
        "data": np.random.randn(2, 4),
        "fc_weight": np.random.randn(3, 4),
        "fc_bias": np.random.randn(3),
    }
    g = tu.numeric_grad(ex, loc, eps=1e-3, dtype=np.float64)
    np.testing.assert_allclose(g["fc_bias"], [2, 2, 2], atol=1e-3)
    np.testing.assert_allclose(g["data"], np.tile(loc["fc_weight"].sum(0), (2, 1)), atol=1e-3)
    assert tu.check_speed(s, ctx=mx.cpu(), N=2, data=(2, 4)) > 0
    with pytest.raises(ValueError):
        tu.check_speed(s, ctx=mx.cpu(), N=1, typ="backward", data=(2, 4))


@pytest.mark.parametrize(
    "w_stype,g_stype", [("default", "row_sparse"), ("row_sparse", "row_sparse")]
)
def test_compare_optimizer_sparse(w_stype, g_stype):
    o1 = mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, lazy_update=False)
    o2 = mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, lazy_update=False)
    tu.compare_optimizer(o1, o2, (5, 4), np.float32, w_stype, g_stype)


def test_rand_sparse_powerlaw_and_errors():
    np.random.seed(3)
    a, _ = tu.rand_sparse_ndarray((5, 16), "csr", density=0.5, distribution="powerlaw")
    assert a.indptr.asnumpy().tolist() == [0, 2, 6, 14, 30, 40]  # MXNet 1.9.1, seed 3
    with pytest.raises(ValueError, match="density"):
        tu.rand_sparse_ndarray((5, 5), "csr", density=1.5)
    with pytest.raises(ValueError, match="not supported for this density"):
        tu.rand_sparse_ndarray((5, 5), "csr", density=0.1, distribution="powerlaw")
    with pytest.raises(AssertionError, match="row_sparse"):
        tu.rand_sparse_ndarray((5, 5), "row_sparse", distribution="powerlaw")
    with pytest.raises(AssertionError, match="unknown storage type"):
        tu.rand_sparse_ndarray((5, 5), "xx")


def test_same_symbol_structure_compares_ops_over_common_nodes():
    # MXNet 1.9.1 compares only the op of each node, over the nodes both graphs have
    x, y = mx.sym.var("x"), mx.sym.var("y")
    fc = mx.sym.FullyConnected(x, y, num_hidden=4, no_bias=True)
    with_cast = mx.sym.amp_cast(fc, dtype="float32")
    assert mx.test_utils.same_symbol_structure(with_cast, fc)
    assert mx.test_utils.same_symbol_structure(x + y, y + x)
    assert not mx.test_utils.same_symbol_structure(mx.sym.sin(x), mx.sym.cos(x))


def test_rand_csr_draws_exact_nnz_like_scipy_sparse_rand():
    # MXNet samples csr arrays with scipy.sparse.rand (exactly int(r*c*density) non-zeros
    # from NumPy's global RNG) and rand_ndarray(stype=...) delegates to rand_sparse_ndarray.
    spsp = pytest.importorskip("scipy.sparse")
    np.random.seed(3)
    a = tu.rand_ndarray((6, 9), "csr", density=0.2)
    np.random.seed(3)
    ref = spsp.rand(6, 9, 0.2, dtype=np.float32, format="csr")
    assert a.stype == "csr" and a.dtype == np.float32
    np.testing.assert_array_equal(a.indptr.asnumpy(), ref.indptr)
    np.testing.assert_array_equal(a.indices.asnumpy(), ref.indices)
    np.testing.assert_array_equal(a.data.asnumpy(), ref.data)
    # a huge, very sparse shape never builds the dense matrix
    big = tu.rand_ndarray((100, 10**7), "csr", density=1e-6)
    assert big.shape == (100, 10**7) and big.data.shape == (1000,)


def test_rand_ndarray_row_sparse_matches_rand_sparse_ndarray():
    np.random.seed(5)
    a = tu.rand_ndarray((6, 3), "row_sparse", density=0.5)
    np.random.seed(5)
    b, (vals, idx) = tu.rand_sparse_ndarray((6, 3), "row_sparse", density=0.5)
    np.testing.assert_array_equal(a.indices.asnumpy(), idx)
    np.testing.assert_array_equal(a.data.asnumpy(), vals)


def test_download_existing_file_logs_on_root_logger(tmp_path, caplog):
    # MXNet's test_utils.download reports through logging.info on the root logger (which
    # configures it implicitly: a later logging.basicConfig(level=DEBUG) in a notebook is
    # then a no-op) and keeps an existing file
    import logging

    import mxnet as mx

    (tmp_path / "a.gz").write_bytes(b"x")
    with caplog.at_level(logging.INFO):
        out = mx.test_utils.download("http://invalid.invalid/a.gz", dirname=str(tmp_path))
    assert out == str(tmp_path / "a.gz")
    assert any(
        r.name == "root" and "exists, skipping download" in r.getMessage() for r in caplog.records
    )


def test_check_consistency_takes_numpy_array_of_symbols():
    # test_operator_gpu.py's check_consistency_NxM passes np.repeat(sym_list, n)
    import numpy as np

    from mxnet.test_utils import check_consistency

    syms = [mx.sym.Convolution(num_filter=2, kernel=(3,), name="conv"),
            mx.sym.Convolution(num_filter=2, kernel=(3,), cudnn_off=True, name="conv")]
    ctx_list = [{"ctx": mx.cpu(0), "conv_data": (2, 2, 7), "type_dict": {"conv_data": dt}}
                for dt in (np.float64, np.float32)]
    check_consistency(np.repeat(syms, len(ctx_list)), ctx_list * len(syms), scale=0.5)
