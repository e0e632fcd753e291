"""Row-sparse gradients and sparse weights in the optimizers (MXNet 1.9.1 semantics)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError


def _data():
    rng = np.random.RandomState(0)
    w = rng.uniform(size=(3, 4)).astype(np.float32)
    g = rng.uniform(size=(3, 4)).astype(np.float32)
    g[1] = 0  # row 1 is absent from the row_sparse gradient
    return w, g


def _run(opt, w_stype, g_stype, steps=2):
    w, g = _data()
    weight = mx.nd.array(w)
    if w_stype != "default":
        weight = weight.tostype(w_stype)
    state = opt.create_state_multi_precision(0, weight)
    for _ in range(steps):
        grad = mx.nd.array(g)
        if g_stype != "default":
            grad = grad.tostype(g_stype)
        opt.update_multi_precision(0, weight, grad, state)
    return w, weight.asnumpy()


@pytest.mark.parametrize("w_stype", ["default", "row_sparse"])
def test_sgd_lazy_update_skips_absent_rows(w_stype):
    w0, w = _run(mx.optimizer.SGD(learning_rate=0.1, wd=0.1, momentum=0.9), w_stype, "row_sparse")
    np.testing.assert_array_equal(w[1], w0[1])
    assert not np.allclose(w[0], w0[0])
    # standard update: weight decay also shrinks the absent row
    w0, w = _run(
        mx.optimizer.SGD(learning_rate=0.1, wd=0.1, lazy_update=False), w_stype, "row_sparse"
    )
    np.testing.assert_allclose(w[1], w0[1] * 0.99 * 0.99, rtol=1e-6)


def test_adam_row_sparse_weight_is_updated():
    w0, w = _run(mx.optimizer.Adam(learning_rate=0.01, wd=0.1), "row_sparse", "row_sparse")
    np.testing.assert_array_equal(w[1], w0[1])
    np.testing.assert_allclose(w[0], w0[0] - 0.02, rtol=1e-3)  # two steps of ~lr each
    _, w = _run(mx.optimizer.Adam(learning_rate=0.01, wd=0.1), "default", "row_sparse")
    np.testing.assert_array_equal(w[1], w0[1])


def test_adagrad_sparse_rejects_weight_decay():
    with pytest.raises(MXNetError, match="_sparse_adagrad_update"):
        _run(mx.optimizer.AdaGrad(wd=0.1), "row_sparse", "row_sparse")
    w0, w = _run(mx.optimizer.AdaGrad(learning_rate=0.1), "row_sparse", "row_sparse")
    np.testing.assert_array_equal(w[1], w0[1])
    assert not np.allclose(w[0], w0[0])


def test_ftrl_lazy_only_for_row_sparse_weight():
    w0, w = _run(mx.optimizer.Ftrl(), "row_sparse", "row_sparse")
    np.testing.assert_array_equal(w[1], w0[1])
    _, w = _run(mx.optimizer.Ftrl(), "default", "row_sparse")
    np.testing.assert_array_equal(w[1], 0.0)  # dense kernel: |z| <= lamda1 gives 0


@pytest.mark.parametrize("name", ["nag", "rmsprop", "adadelta", "signum", "nadam"])
def test_dense_kernels_write_back_sparse_weights(name):
    dense0, dense = _run(
        mx.optimizer.create(name, momentum=0.9)
        if name in ("nag", "signum")
        else mx.optimizer.create(name),
        "default",
        "default",
    )
    _, sparse = _run(
        mx.optimizer.create(name, momentum=0.9)
        if name in ("nag", "signum")
        else mx.optimizer.create(name),
        "row_sparse",
        "default",
    )
    assert not np.allclose(dense, dense0)
    np.testing.assert_allclose(sparse, dense, rtol=1e-6)


def test_sparse_states_follow_weight_storage():
    opt = mx.optimizer.SGD(momentum=0.9)
    state = opt.create_state(0, mx.nd.zeros((2, 2)).tostype("row_sparse"))
    assert state.stype == "row_sparse"
    assert mx.nd.zeros((2, 2), stype="csr").stype == "csr"


def test_group_adagrad_row_sparse_weight_matches_dense():
    _, dense = _run(mx.optimizer.contrib.GroupAdaGrad(learning_rate=0.1), "default", "default")
    w0, sparse = _run(
        mx.optimizer.contrib.GroupAdaGrad(learning_rate=0.1), "row_sparse", "row_sparse"
    )
    np.testing.assert_allclose(sparse, dense, rtol=1e-6)
    assert not np.allclose(sparse[0], w0[0])


@pytest.mark.parametrize("name", ["nag", "lbsgd"])
def test_momentum_free_nag_and_lbsgd_update_only_the_gradient_rows(name):
    # MXNet 1.9.1 runs sgd_update (lazy for a row_sparse gradient) when there is no momentum
    w0, w = _run(mx.optimizer.create(name, learning_rate=0.1, wd=0.1), "default", "row_sparse")
    np.testing.assert_array_equal(w[1], w0[1])
    assert not np.allclose(w[0], w0[0])


def test_nd_sgd_update_with_row_sparse_grad_is_lazy_by_default():
    w0, g = _data()
    grad = mx.nd.array(g).tostype("row_sparse")
    w = mx.nd.array(w0)
    mx.nd.sgd_update(w, grad, lr=0.1, wd=0.5, out=w)
    np.testing.assert_array_equal(w.asnumpy()[1], w0[1])
    np.testing.assert_allclose(w.asnumpy()[0], w0[0] * 0.95 - 0.1 * g[0], rtol=1e-6)
    w = mx.nd.array(w0)
    mx.nd.sgd_update(w, grad, lr=0.1, wd=0.5, lazy_update=False, out=w)
    np.testing.assert_allclose(w.asnumpy()[1], w0[1] * 0.95, rtol=1e-6)


def test_adadelta_rescales_a_row_sparse_gradient_in_place():
    w0, g = _data()
    opt = mx.optimizer.AdaDelta(rescale_grad=0.5, clip_gradient=10.0)
    dense, sparse = mx.nd.array(w0), mx.nd.array(w0)
    sd, ss = opt.create_state(0, dense), opt.create_state(1, sparse)
    gd, gs = mx.nd.array(g), mx.nd.array(g).tostype("row_sparse")
    opt.update(0, dense, gd, sd)
    opt.update(1, sparse, gs, ss)
    np.testing.assert_allclose(sparse.asnumpy(), dense.asnumpy(), rtol=1e-6)
    # like MXNet, the caller's gradient is rescaled in place
    np.testing.assert_allclose(gs.asnumpy(), g * 0.5, rtol=1e-6)
    np.testing.assert_allclose(gd.asnumpy(), g * 0.5, rtol=1e-6)
