"""``mx.npx`` operators and d2l.ai-style training under ``npx.set_np()`` against MXNet 1.9.1
(golden files from tests/compat/make_golden_npx.py)."""

import os

import numpy as onp
import pytest

import mxnet as mx
from tests.compat import make_golden_npx as cases

GOLDEN = os.path.join(os.path.dirname(cases.__file__), "golden", "npx")


@pytest.fixture(autouse=True)
def np_mode():
    mx.npx.set_np()
    yield
    mx.npx.reset_np()


def _load(name):
    with onp.load(os.path.join(GOLDEN, name)) as z:
        return {k: z[k] for k in z.files}


def test_npx_operators_match_mxnet():
    want = _load("ops.npz")
    got = cases.npx_cases(mx)
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        g = got[k]
        assert g.dtype == w.dtype, f"{k}: dtype {g.dtype} != {w.dtype}"
        assert g.shape == w.shape, f"{k}: shape {g.shape} != {w.shape}"
        onp.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=k)


@pytest.mark.parametrize("name", sorted(cases.D2L))
def test_d2l_training_matches_mxnet(name):
    want = {k.split("/", 1)[1]: v for k, v in _load("d2l.npz").items()
            if k.startswith(name + "/")}
    got = cases.D2L[name](mx)
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        onp.testing.assert_allclose(onp.asarray(got[k], dtype="float64"), w, rtol=2e-4,
                                    atol=2e-5, err_msg=f"{name}: {k}")


def test_load_and_run_a_model_exported_by_mxnet_in_np_mode():
    import warnings

    from mxnet import gluon

    prefix = os.path.join(GOLDEN, "np_model")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb = gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"], prefix + "-0000.params")
    want = onp.load(os.path.join(GOLDEN, "np_model_out.npy"))
    out = sb(mx.np.array(cases.NP_MODEL_X))
    assert type(out) is mx.np.ndarray
    onp.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("hybridize", [False, True])
def test_same_model_built_here_matches_mxnet(hybridize, tmp_path):
    net = cases._NpModel.build(mx)
    if hybridize:
        net.hybridize()
    out = net(mx.np.array(cases.NP_MODEL_X))
    want = onp.load(os.path.join(GOLDEN, "np_model_out.npy"))
    onp.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-6)
    if hybridize:
        net.export(str(tmp_path / "m"))
        ops = [n["op"] for n in json_nodes(str(tmp_path / "m-symbol.json"))]
        assert {"_npx_relu", "FullyConnected", "BatchNorm", "softmax"} <= set(ops)


def json_nodes(path):
    import json

    with open(path) as f:
        return [n for n in json.load(f)["nodes"] if n["op"] != "null"]
