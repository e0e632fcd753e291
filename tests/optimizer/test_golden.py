"""Ten steps of every optimizer equal MXNet 1.9.1's (golden files from
tests/compat/make_golden_optimizer.py), and real ``.states`` files load and continue."""

import json
import logging
import os
import pickle

import numpy as np
import pytest

import mxnet as mx
from mxnet import lr_scheduler
from mxnet import optimizer as opt

GOLD = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "optimizer")
SHAPES = [(3, 4), (5,)]
NAMES = {0: "fc_weight", 1: "fc_bias"}
with open(os.path.join(GOLD, "optimizers.json")) as _f:
    CASES = json.load(_f)
DATA = dict(np.load(os.path.join(GOLD, "optimizers.npz")))


def case_inputs(n, dtype):
    rng = np.random.RandomState(1000 + n)
    w0 = [rng.uniform(-1, 1, s).astype(dtype) for s in SHAPES]
    grads = [[rng.uniform(-1, 1, s).astype(dtype) for s in SHAPES] for _ in range(10)]
    return w0, grads


def _kwargs(kw):
    kw = dict(kw)
    if "lr_scheduler" in kw:
        cls, args = kw["lr_scheduler"]
        kw["lr_scheduler"] = getattr(lr_scheduler, cls)(**args)
    return kw


@pytest.fixture
def quiet_logging():
    """Silence the optimizers' warnings for one test, then restore logging."""
    logging.disable(logging.CRITICAL)
    yield
    logging.disable(logging.NOTSET)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_ten_steps_match_mxnet(case, quiet_logging):
    opts = case["opts"]
    dtype = opts.get("dtype", "float32")
    w0, grads = case_inputs(case["n"], dtype)
    extra = {"param_idx2name": NAMES} if opts.get("names") else {}
    o = opt.create(case["name"], **_kwargs(case["kwargs"]), **extra)
    weights = [mx.nd.array(w, dtype=dtype) for w in w0]
    upd = opt.get_updater(o)
    states = {}
    tol = 2e-3 if dtype == "float16" else 1e-6
    for step in range(10):
        g = [mx.nd.array(x, dtype=dtype) for x in grads[step]]
        if opts.get("direct"):
            for i in range(2):
                if i not in states:
                    states[i] = o.create_state_multi_precision(i, weights[i])
                o.update_multi_precision(i, weights[i], g[i], states[i])
        else:
            upd([0, 1], g, weights)
        for i in range(2):
            np.testing.assert_allclose(
                weights[i].asnumpy().astype(np.float64),
                DATA[f"{case['id']}/w{step + 1}_{i}"].astype(np.float64), rtol=tol, atol=tol,
                err_msg=f"{case['id']}: step {step + 1}, param {i}")
    assert o.num_update == case["num_update"]


def _states_data():
    return dict(np.load(os.path.join(GOLD, "states.npz")))


@pytest.mark.parametrize("cid", ["adam", "sgd_mom"])
@pytest.mark.parametrize("with_opt", [False, True])
def test_load_mxnet_states_and_continue(cid, with_opt):
    d = _states_data()
    kw = {"adam": dict(learning_rate=0.01, wd=0.01),
          "sgd_mom": dict(learning_rate=0.1, momentum=0.9)}[cid]
    o = opt.create("adam" if cid == "adam" else "sgd", param_idx2name=NAMES, **kw)
    upd = opt.get_updater(o)
    fname = f"{cid}_opt.states" if with_opt else f"{cid}.states"
    with open(os.path.join(GOLD, fname), "rb") as f:
        upd.set_states(f.read())
    if with_opt:
        assert type(upd.optimizer).__name__ == ("Adam" if cid == "adam" else "SGD")
        assert upd.optimizer.num_update == 3
    else:
        # the count lives in the optimizer: a states-only file restarts it, as in MXNet
        upd.optimizer.begin_num_update = 3
        upd.optimizer.num_update = 3
        upd.optimizer._index_update_count.update({0: 3, 1: 3})
    weights = [mx.nd.array(d[f"{cid}/w3_{i}"]) for i in range(2)]
    for step in range(3, 6):
        upd([0, 1], [mx.nd.array(d[f"{cid}/g{step}_{i}"]) for i in range(2)], weights)
    for i in range(2):
        np.testing.assert_allclose(weights[i].asnumpy(), d[f"{cid}/w6_{i}"], rtol=1e-6,
                                   atol=1e-6)


def test_states_roundtrip_and_pickle_paths():
    o = opt.Adam(learning_rate=0.01)
    upd = opt.get_updater(o)
    w = mx.nd.ones((2, 3))
    upd(0, mx.nd.ones((2, 3)), w)
    blob = upd.get_states(dump_optimizer=True)
    assert b"mxnet.optimizer.optimizer" in blob and b"Adam" in blob
    states, o2 = pickle.loads(blob)
    assert type(o2) is opt.Adam and o2.num_update == 1 and o2.param_dict == {}
    upd2 = opt.get_updater(opt.Adam(learning_rate=0.01))
    upd2.set_states(upd.get_states())
    np.testing.assert_allclose(upd2.states[0][0].asnumpy(), upd.states[0][0].asnumpy())
    assert upd2.states_synced == {0: False}


ORACLE = "/root/.cache/mxnet-oracle/bin/python"

_ORACLE_SCRIPT = """
import pickle, sys, numpy as np, mxnet as mx
d = dict(np.load(sys.argv[1]))
upd = mx.optimizer.get_updater(mx.optimizer.create('adam'))
upd.set_states(open(sys.argv[2], 'rb').read())
assert type(upd.optimizer).__name__ == 'Adam', type(upd.optimizer)
w = [mx.nd.array(d['w%d' % i]) for i in range(2)]
upd([0, 1], [mx.nd.array(d['g%d' % i]) for i in range(2)], w)
np.savez(sys.argv[3], w0=w[0].asnumpy(), w1=w[1].asnumpy())
"""


@pytest.mark.skipif(not os.path.exists(ORACLE), reason="needs the MXNet 1.9.1 oracle")
def test_oracle_loads_our_states(tmp_path):
    import subprocess

    rng = np.random.RandomState(0)
    upd = opt.get_updater(opt.Adam(learning_rate=0.01, wd=0.01, param_idx2name=NAMES))
    w = [mx.nd.array(rng.uniform(-1, 1, s)) for s in SHAPES]
    for _ in range(2):
        upd([0, 1], [mx.nd.array(rng.uniform(-1, 1, s)) for s in SHAPES], w)
    (tmp_path / "ours.states").write_bytes(upd.get_states(dump_optimizer=True))
    g = [rng.uniform(-1, 1, s).astype(np.float32) for s in SHAPES]
    np.savez(tmp_path / "in.npz", w0=w[0].asnumpy(), w1=w[1].asnumpy(), g0=g[0], g1=g[1])
    script = tmp_path / "load.py"
    script.write_text(_ORACLE_SCRIPT)
    subprocess.run([ORACLE, str(script), str(tmp_path / "in.npz"), str(tmp_path / "ours.states"),
                    str(tmp_path / "out.npz")], check=True, capture_output=True, timeout=120)
    upd([0, 1], [mx.nd.array(x) for x in g], w)
    res = np.load(tmp_path / "out.npz")
    for i in range(2):
        np.testing.assert_allclose(res[f"w{i}"], w[i].asnumpy(), rtol=1e-6, atol=1e-6)
