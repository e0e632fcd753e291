"""LAMB's aggregated (list) multi-precision path: MXNet 1.9.1's multi_mp_lamb_update."""

import numpy as np

import mxnet as mx


def _ref_steps(w16, grads, lr, beta1=0.9, beta2=0.999, eps=1e-6):
    """NumPy LAMB with bias correction; |w| from the float16 weight, fp32 master kept."""
    w32 = w16.astype(np.float32)
    w16 = w16.copy()
    m = np.zeros_like(w32)
    v = np.zeros_like(w32)
    for t, g in enumerate(grads, 1):
        g = g.astype(np.float16).astype(np.float32)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        upd = (m / (1 - beta1**t)) / (np.sqrt(v / (1 - beta2**t)) + eps)
        r1 = np.linalg.norm(w16.astype(np.float32))
        r2 = np.linalg.norm(upd)
        w32 = w32 - lr * (r1 / r2) * upd
        w16 = w32.astype(np.float16)
    return w16, w32


def test_aggregated_multi_precision_lamb_moves_the_fp32_master_weight():
    rng = np.random.RandomState(0)
    w0 = [rng.uniform(-1, 1, (4, 5)).astype(np.float16) for _ in range(2)]
    grads = [[rng.uniform(-1, 1, (4, 5)) for _ in range(3)] for _ in range(2)]
    opt = mx.optimizer.LAMB(learning_rate=0.1, multi_precision=True)
    ws = [mx.nd.array(w, dtype="float16") for w in w0]
    states = [opt.create_state_multi_precision(i, w) for i, w in enumerate(ws)]
    for step in range(3):
        gs = [mx.nd.array(grads[i][step], dtype="float16") for i in range(2)]
        opt.update_multi_precision([0, 1], ws, gs, states)
    for i in range(2):
        ref16, ref32 = _ref_steps(w0[i], grads[i], 0.1)
        np.testing.assert_allclose(states[i][0].asnumpy(), ref32, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(
            ws[i].asnumpy().astype(np.float32), ref16.astype(np.float32), rtol=2e-3, atol=1e-3
        )
