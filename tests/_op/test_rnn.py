"""The fused RNN operator and ``_rnn_param_concat`` (MXNet's flat parameter layout).
Gluon's RNN layers check it further against MXNet 1.9.1 (tests/gluon/test_rnn.py)."""

from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx
from tests._op.harness import Record, run_record

rng = np.random.RandomState(3)
T, N, C, H = 3, 2, 4, 5


def _tanh_rnn_ref(x, params, h0, state_size, num_layers, mode, **_):
    w_ih = params[:H * C].reshape(H, C)
    w_hh = params[H * C:H * C + H * H].reshape(H, H)
    b_ih = params[H * C + H * H:H * C + H * H + H]
    b_hh = params[H * C + H * H + H:]
    h = h0[0]
    outs = []
    for t in range(x.shape[0]):
        h = np.tanh(x[t] @ w_ih.T + b_ih + h @ w_hh.T + b_hh)
        outs.append(h)
    return np.stack(outs)


RECORDS = [
    Record("RNN", [rng.uniform(-1, 1, (T, N, C)), rng.uniform(-0.5, 0.5, H * C + H * H + 2 * H),
                   rng.uniform(-1, 1, (1, N, H))],
           dict(state_size=H, num_layers=1, mode="rnn_tanh"), ref=_tanh_rnn_ref, grad=True,
           rtol=1e-4, atol=1e-5, symbolic=False),
    Record("_rnn_param_concat", [rng.uniform(-1, 1, (2, 3)), rng.uniform(-1, 1, (4,))],
           dict(dim=0), ref=lambda a, b, **_: np.concatenate([a.ravel(), b]), grad=True),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


def test_rnn_lstm_projection_and_cpu_state_clip():
    # MXNet 1.9.1: LSTMP layout (every weight incl. h2r (P, H), then every bias); the CPU
    # kernel ignores lstm_state_clip_min/max
    rng = np.random.RandomState(0)
    T, N, I, H, P = 2, 1, 2, 3, 2
    w_ih, w_hh = rng.uniform(-1, 1, (4 * H, I)), rng.uniform(-1, 1, (4 * H, P))
    w_hr = rng.uniform(-1, 1, (P, H))
    b_ih, b_hh = rng.uniform(-1, 1, 4 * H), rng.uniform(-1, 1, 4 * H)
    x = rng.uniform(-1, 1, (T, N, I))
    flat = np.concatenate([w_ih.ravel(), w_hh.ravel(), w_hr.ravel(), b_ih, b_hh])
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    r, c, outs = np.zeros((N, P)), np.zeros((N, H)), []
    for t in range(T):
        g = x[t] @ w_ih.T + b_ih + r @ w_hh.T + b_hh
        i, f, gg, o = np.split(g, 4, axis=1)
        c = sig(f) * c + sig(i) * np.tanh(gg)
        r = (sig(o) * np.tanh(c)) @ w_hr.T
        outs.append(r)
    args = [mx.nd.array(a) for a in (x, flat, np.zeros((1, N, P)), np.zeros((1, N, H)))]
    for clip in ({}, {"lstm_state_clip_min": -0.01, "lstm_state_clip_max": 0.01}):
        out, h, cell = mx.nd.RNN(*args, state_size=H, num_layers=1, mode="lstm",
                                 projection_size=P, state_outputs=True, **clip)
        np.testing.assert_allclose(out.asnumpy(), np.stack(outs), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(h.asnumpy()[0], r, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(cell.asnumpy()[0], c, rtol=1e-5, atol=1e-6)
    s = mx.sym.RNN(mx.sym.var("d"), mx.sym.var("p"), mx.sym.var("s"), mx.sym.var("c"),
                   state_size=H, num_layers=1, mode="lstm", projection_size=P, state_outputs=True)
    arg, out_shapes, _ = s.infer_shape(d=(T, N, I))
    assert arg[1] == (flat.size,) and arg[2] == (1, N, P) and out_shapes[0] == (T, N, P)


def test_rnn_sequence_length_ignored_on_cpu_as_mxnet():
    # MXNet 1.9.1's CPU kernel runs every step whatever sequence_length says (cuDNN masks)
    r = np.random.RandomState(1)
    x = mx.nd.array(r.uniform(-1, 1, (3, 2, 4)))
    p = mx.nd.array(r.uniform(-0.5, 0.5, 4 * 5 * 4 + 4 * 5 * 5 + 2 * 4 * 5))
    z = mx.nd.zeros((1, 2, 5))
    a = mx.nd.RNN(x, p, z, z, state_size=5, num_layers=1, mode="lstm", state_outputs=True)
    b = mx.nd.RNN(x, p, z, z, mx.nd.array([2, 3]), state_size=5, num_layers=1, mode="lstm",
                  use_sequence_length=True, state_outputs=True)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u.asnumpy(), v.asnumpy())
    s = mx.sym.RNN(mx.sym.var("d"), mx.sym.var("p"), mx.sym.var("s"), mx.sym.var("c"),
                   mx.sym.var("l"), state_size=5, num_layers=1, mode="lstm",
                   use_sequence_length=True)
    assert s.infer_shape(d=(3, 2, 4))[0][-1] == (2,)
