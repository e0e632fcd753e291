"""adam_update / adamw_update round like MXNet 1.9.1's CPU kernels: every product rounded
(no fused multiply-adds), a correctly rounded sqrt, ``lr * mean / (sqrt(var) + eps)``."""

import numpy as np

import mxnet as mx

f = np.float32


def _data(n=20000, seed=0):
    rng = np.random.RandomState(seed)
    w, g = rng.randn(n).astype(f), rng.randn(n).astype(f)
    m, v = (rng.randn(n) * 0.1).astype(f), (rng.rand(n) * 0.1).astype(f)
    return w, g, m, v


def test_adam_update_bit_exact():
    w, g, m0, v0 = _data()
    W, M, V = mx.nd.array(w), mx.nd.array(m0), mx.nd.array(v0)
    mx.nd.adam_update(W, mx.nd.array(g), M, V, lr=0.01, wd=0.001, rescale_grad=0.5, out=W)
    gr = g * f(0.5) + w * f(0.001)
    m = f(0.9) * m0 + (f(1) - f(0.9)) * gr
    v = f(0.999) * v0 + (f(1) - f(0.999)) * gr * gr
    np.testing.assert_array_equal(M.asnumpy(), m)
    np.testing.assert_array_equal(V.asnumpy(), v)
    np.testing.assert_array_equal(W.asnumpy(), w - f(0.01) * m / (np.sqrt(v) + f(1e-8)))


def test_adamw_update_bit_exact():
    w, g, m0, v0 = _data(seed=1)
    W, M, V = mx.nd.array(w), mx.nd.array(m0), mx.nd.array(v0)
    mx.nd.contrib.adamw_update(
        W, mx.nd.array(g), M, V, mx.nd.array([1.0]), lr=1.0, wd=0.01, eta=0.1, epsilon=1e-6, out=W
    )
    m = f(0.9) * m0 + (f(1) - f(0.9)) * g
    v = f(0.999) * v0 + (f(1) - f(0.999)) * np.square(g)
    ref = w - f(0.1) * (f(1.0) * m / (np.sqrt(v) + f(1e-6)) + f(0.01) * w)
    np.testing.assert_array_equal(W.asnumpy(), ref)


def test_adam_optimizer_steps_bit_exact():
    # mx.optimizer.Adam (through adam_update with the bias-corrected lr) over three steps
    w, _, _, _ = _data(3000, seed=2)
    opt = mx.optimizer.Adam(learning_rate=0.01)
    W = mx.nd.array(w)
    state = opt.create_state(0, W)
    m, v, ref = np.zeros_like(w), np.zeros_like(w), w.copy()
    for t in range(1, 4):
        g = np.random.RandomState(10 + t).randn(w.size).astype(f)
        opt.update(0, W, mx.nd.array(g), state)
        lr = f(0.01 * np.sqrt(1.0 - 0.999**t) / (1.0 - 0.9**t))
        m = f(0.9) * m + (f(1) - f(0.9)) * g
        v = f(0.999) * v + (f(1) - f(0.999)) * g * g
        ref = ref - lr * m / (np.sqrt(v) + f(1e-8))
    np.testing.assert_array_equal(W.asnumpy(), ref)


def test_sgd_mom_update_products_rounded():
    # MXNet: mom = momentum * mom - (lr * wd) * w - lr * (rescale * g); w += mom
    rng = np.random.RandomState(0)
    n = 20000
    w, g, m0 = (rng.randn(n).astype(f) for _ in range(3))
    W, M = mx.nd.array(w), mx.nd.array(m0)
    mx.nd.sgd_mom_update(
        W, mx.nd.array(g), M, lr=0.1, momentum=0.9, wd=1e-4, rescale_grad=0.5, out=W
    )
    m = f(0.9) * m0 - f(f(0.1) * f(1e-4)) * w - f(0.1) * (f(0.5) * g)
    np.testing.assert_array_equal(M.asnumpy(), m)
    np.testing.assert_array_equal(W.asnumpy(), w + m)


def test_sgd_optimizer_step_uses_the_multi_sgd_kernel_form():
    # MXNet's SGD optimizer aggregates through multi_sgd_update, which writes the step as
    # w + ((0 - lr * wd * w) - lr * rescale_grad * g): not sgd_update's (1 - lr * wd) * w - ...
    rng = np.random.RandomState(1)
    w, g = rng.randn(5000).astype(f), rng.randn(5000).astype(f)
    opt = mx.optimizer.SGD(learning_rate=0.1, wd=1e-3, rescale_grad=0.3)
    W = mx.nd.array(w)
    opt.update(0, W, mx.nd.array(g), opt.create_state(0, W))
    lw, lr_r = f(f(0.1) * f(1e-3)), f(f(0.1) * f(0.3))
    np.testing.assert_array_equal(W.asnumpy(), w + ((f(0) - lw * w) - lr_r * g))
    W2 = mx.nd.array(w)
    mx.nd.sgd_update(W2, mx.nd.array(g), lr=0.1, wd=1e-3, rescale_grad=0.3, out=W2)
    np.testing.assert_array_equal(W2.asnumpy(), f(f(1) - lw) * w - lr_r * g)


def _nag_data():
    rng = np.random.RandomState(0)
    return (rng.randn(20000).astype(f) for _ in range(3))


def test_nag_mom_update_kernel_form():
    # mom1 = m*mom; w' = (w - mom1) + (m + 1) * (mom1 - lr*(r*g + wd*w)); mom = mom1 - step
    w, g, m0 = _nag_data()
    for wd in (0.0, 1e-3):
        W, M = mx.nd.array(w), mx.nd.array(m0)
        out = mx.nd.nag_mom_update(
            W, mx.nd.array(g), M, lr=0.1, momentum=0.9, wd=wd, rescale_grad=0.3
        )
        step = f(0.1) * (f(0.3) * g + f(wd) * w)
        m1 = f(0.9) * m0
        np.testing.assert_array_equal(out.asnumpy(), (w - m1) + (f(0.9) + f(1)) * (m1 - step))
        np.testing.assert_array_equal(M.asnumpy(), m1 - step)


def test_rmsprop_ftrl_rmspropalex_kernel_forms():
    w, g, m0 = _nag_data()
    n0 = np.abs(m0)
    W = mx.nd.array(w)
    mx.nd.rmsprop_update(
        W, mx.nd.array(g), mx.nd.array(n0), lr=0.01, wd=1e-3, rescale_grad=0.3, out=W
    )
    gr = f(0.3) * g + f(1e-3) * w
    n = (f(1) - f(0.95)) * (gr * gr) + f(0.95) * n0
    np.testing.assert_array_equal(W.asnumpy(), w - f(0.01) * (gr / np.sqrt(n + f(1e-8))))

    W = mx.nd.array(w)
    mx.nd.rmspropalex_update(
        W,
        mx.nd.array(g),
        mx.nd.array(n0),
        mx.nd.array(m0 * f(0.1)),
        mx.nd.zeros(w.size),
        lr=0.01,
        rescale_grad=0.3,
        out=W,
    )
    gr = f(0.3) * g
    n = (f(1) - f(0.95)) * gr * gr + f(0.95) * n0
    gm = (f(1) - f(0.95)) * gr + f(0.95) * (m0 * f(0.1))
    delta = f(0.9) * f(0) - (f(0.01) * gr / np.sqrt(n - gm * gm + f(1e-8)))
    np.testing.assert_array_equal(W.asnumpy(), w + delta)

    W, Z, N = mx.nd.array(w), mx.nd.array(m0), mx.nd.array(n0)
    mx.nd.ftrl_update(W, mx.nd.array(g), Z, N, lr=0.1, wd=1e-3, rescale_grad=0.3, out=W)
    gr = f(0.3) * g
    z = m0 + (gr - (np.sqrt(n0 + gr * gr) - np.sqrt(n0)) * w / f(0.1))
    n = n0 + gr * gr
    ref = (np.sign(z) * f(0.01) - z) / ((f(1) + np.sqrt(n)) / f(0.1) + f(1e-3))
    ref = ref * (np.abs(z) > f(0.01))
    np.testing.assert_array_equal(Z.asnumpy(), z)
    np.testing.assert_array_equal(W.asnumpy(), ref)


def test_adagrad_dense_and_sparse_use_a_correctly_rounded_sqrt():
    rng = np.random.RandomState(0)
    w, g = rng.randn(200, 100).astype(f), rng.randn(200, 100).astype(f)
    h0 = np.abs(rng.randn(200, 100)).astype(f)
    opt = mx.optimizer.AdaGrad(learning_rate=0.1, wd=1e-3)
    W = mx.nd.array(w)
    st = opt.create_state(0, W)
    st[:] = h0
    opt.update(0, W, mx.nd.array(g), st)
    h = h0 + g * g
    ref = w + (g / np.sqrt(h + f(1e-7)) + w * f(1e-3)) * -f(0.1)
    np.testing.assert_array_equal(W.asnumpy(), ref)
    # the row_sparse kernel: w - (g / sqrt(h + eps)) * lr
    W, H = mx.nd.array(w), mx.nd.array(h0)
    mx.nd.sparse.adagrad_update(
        W, mx.nd.array(g).tostype("row_sparse"), H, lr=0.1, epsilon=1e-7, out=W
    )
    np.testing.assert_array_equal(W.asnumpy(), w - (g / np.sqrt(h + f(1e-7))) * f(0.1))


def test_group_adagrad_row_sums_sequential():
    # MXNet: history += (sequential float32 sum of the row's squares) / row_length;
    # w -= lr * g / sqrt(history + eps)
    rng = np.random.RandomState(0)
    w, g = rng.randn(200, 100).astype(f), rng.randn(200, 100).astype(f)
    h0 = np.abs(rng.randn(200, 1)).astype(f)
    W, H = mx.nd.array(w), mx.nd.array(h0)
    mx.nd.contrib.group_adagrad_update(W, mx.nd.array(g).tostype("row_sparse"), H, lr=0.1, out=W)
    h = h0 + np.cumsum(g * g, axis=1, dtype=f)[:, -1:] / f(100)
    np.testing.assert_array_equal(H.asnumpy(), h)
    np.testing.assert_array_equal(W.asnumpy(), w - f(0.1) * g / np.sqrt(h + f(1e-5)))


def test_adam_numpy_fast_path_matches_torch_path(monkeypatch):
    # CPU float32/float64 Adam runs through NumPy views (cheaper per call on small weights);
    # it must give the torch path's values bit for bit: clipping (incl. NaN), weight decay,
    # rescale, in-place mean/var, and the weight's version counter still moves
    import torch

    from mxnet._op import _optim

    rs = np.random.RandomState(1)
    for dt in (np.float32, np.float64):
        for params in (
            dict(lr=1e-3, rescale_grad=0.125, clip_gradient=0.5, wd=0.01),
            dict(lr=0.01, beta1=0.8, epsilon=1e-6),
        ):
            a = _optim.get_op_attrs("adam_update", params)
            w, g, m, v = (torch.from_numpy(rs.randn(40, 7).astype(dt)) for _ in range(4))
            v.abs_()
            g[0, 0], g[0, 1] = 50.0, float("nan")
            w2, m2, v2 = w.clone(), m.clone(), v.clone()
            ver = w._version
            for _ in range(3):
                _optim._adam_core(a, w, g, m, v, out=w)
            assert w._version > ver
            monkeypatch.setattr(_optim, "_NP_ADAM", ())  # the torch path
            for _ in range(3):
                _optim._adam_core(a, w2, g, m2, v2, out=w2)
            monkeypatch.undo()
            for x, y in ((w, w2), (m, m2), (v, v2)):
                np.testing.assert_array_equal(x.numpy(), y.numpy())


def test_float32_scalar_rounding_memo_keeps_signed_zero():
    from mxnet._op._optim import _s

    assert _s(0.1) == float(np.float32(0.1)) and _s(0.1) == float(np.float32(0.1))
    assert np.signbit(_s(-0.0)) and not np.signbit(_s(0.0))
