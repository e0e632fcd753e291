"""The fused RNN operator and ``_rnn_param_concat`` (MXNet's flat parameter layout).
Gluon's RNN layers check it further against MXNet 1.9.1 (tests/gluon/test_rnn.py)."""

from __future__ import annotations

import numpy as np
import pytest

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
