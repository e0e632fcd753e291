"""Optimizer update operators against golden outputs of MXNet 1.9.1.

Golden file: tests/compat/golden/optimizer/ops.{json,npz} (tests/compat/make_golden_optimizer.py).
Each case checks the returned weight and every input after the call (states are updated in
place, as MXNet's update operators do).
"""

import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet.ndarray._namespace import function_for
from tests._op.harness import Record, run_record

GOLD = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "optimizer")
with open(os.path.join(GOLD, "ops.json")) as _f:
    CASES = json.load(_f)
DATA = dict(np.load(os.path.join(GOLD, "ops.npz")))


def _params(c):
    return {k: tuple(v) if isinstance(v, list) else v for k, v in c["params"].items()}


def _tol(c):
    return 2e-3 if any(k.endswith("16") for k in c["inputs"]) else 1e-6


def _skip_out(c):
    # MXNet leaves the output unwritten when AdamW skips the update (rescale_grad == 0)
    return "zero1" in c["inputs"]


def _ref(n, c):
    if _skip_out(c):
        return None

    def ref(*args, **kw):
        outs = [DATA[f"{n}/out{j}"] for j in range(c["num_out"])]
        return outs[0] if len(outs) == 1 else outs
    return ref


RECORDS = [Record(c["op"], [DATA["in/" + k] for k in c["inputs"]], _params(c), ref=_ref(n, c),
                  name=f"{c['op']}-{n}", symbolic=False, rtol=_tol(c), atol=_tol(c))
           for n, c in enumerate(CASES)]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("n", range(len(CASES)), ids=lambda n: f"{CASES[n]['op']}-{n}")
def test_states_updated_in_place(n):
    c = CASES[n]
    nds = [mx.nd.array(DATA["in/" + k], dtype=DATA["in/" + k].dtype) for k in c["inputs"]]
    fn = function_for(c["op"])
    out = fn(*nds, **_params(c))
    outs = out if isinstance(out, list) else [out]
    tol = _tol(c)
    stol = 1e-5 if c["op"] == "ftml_update" else tol  # d is float32 of a double expression
    for j, o in enumerate(outs):
        if _skip_out(c):
            np.testing.assert_array_equal(o.asnumpy(), DATA["in/weight"])
            continue
        np.testing.assert_allclose(o.asnumpy().astype(np.float64), DATA[f"{n}/out{j}"],
                                   rtol=tol, atol=tol, err_msg=f"output {j}")
    for j, a in enumerate(nds):
        np.testing.assert_allclose(a.asnumpy().astype(np.float64), DATA[f"{n}/in{j}"],
                                   rtol=stol, atol=stol, err_msg=f"input {c['inputs'][j]}")


def test_out_is_weight():
    w = mx.nd.array([1.0, 2.0])
    g = mx.nd.array([0.5, -0.5])
    res = mx.nd.sgd_update(w, g, lr=0.1, out=w)
    assert res is w
    np.testing.assert_allclose(w.asnumpy(), [0.95, 2.05], rtol=1e-6)


def test_errors():
    w = mx.nd.ones((2,))
    with pytest.raises(mx.base.MXNetError, match="lr"):
        mx.nd.sgd_update(w, w)
    with pytest.raises(mx.base.MXNetError, match="multi_sgd_update"):
        mx.nd.multi_sgd_update(w, w, w, lrs=(0.1,), wds=(0.0,), num_weights=1)


def _group_adagrad_ref(w, g, h, lr, rescale_grad, clip_gradient):
    g = np.clip(g * rescale_grad, -clip_gradient, clip_gradient)
    h = h + (g * g).mean(axis=1, keepdims=True)
    return w - g / np.sqrt(h + 1e-5) * lr


# MXNet 1.9.1 implements this operator for row_sparse gradients only; dense is checked
# against NumPy
RECORDS.append(Record("_contrib_group_adagrad_update",
                      [DATA["in/weight"], DATA["in/grad"], DATA["in/pos"][:, :1]],
                      {"lr": 0.1, "rescale_grad": 2.0, "clip_gradient": 1.5},
                      ref=_group_adagrad_ref, symbolic=False, rtol=1e-5, atol=1e-6))


def test_group_adagrad_optimizer_matches_operator():
    from mxnet.optimizer.contrib import GroupAdaGrad

    o = GroupAdaGrad(learning_rate=0.1, rescale_grad=2.0, clip_gradient=1.5)
    w = mx.nd.array(DATA["in/weight"])
    st = o.create_state(0, w)
    assert st.shape == (4, 1)
    o.update(0, w, mx.nd.array(DATA["in/grad"]), st)
    ref = _group_adagrad_ref(DATA["in/weight"], DATA["in/grad"], np.zeros((4, 1), "float32"),
                             0.1, 2.0, 1.5)
    np.testing.assert_allclose(w.asnumpy(), ref, rtol=1e-5, atol=1e-6)
