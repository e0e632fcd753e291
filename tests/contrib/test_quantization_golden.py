"""``mxnet.contrib.quantization`` and the ``_contrib_quantized_*`` operators against golden
files written by MXNet 1.9.1 (``tests/compat/make_golden_quantization.py``): quantized graph
JSON, int8 parameters (bytes), calibrated ranges, the quantized model's outputs and the
operators' outputs."""

import json
import os
import re

import numpy as np
import pytest

import mxnet as mx
from tests.compat import make_golden_quantization as gold

HERE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compat", "golden",
    "quantization",
)  # fmt: skip
with open(os.path.join(HERE, "cases.json")) as _f:
    META = json.load(_f)

_CALIB = re.compile(r'"(min|max)_calib_range": "(-?[0-9.]+)"')


def _split_calib(text):
    """JSON text with the calibrated ranges cut out, and the ranges as floats: the ranges
    come from the FP32 forward pass, whose float rounding (oneDNN vs torch) may move the
    6th decimal."""
    vals = [float(m.group(2)) for m in _CALIB.finditer(text)]
    return _CALIB.sub(r'"\1_calib_range": "?"', text), vals


@pytest.fixture(scope="module")
def results():
    return {}


def _case(name, results):
    if name not in results:
        results[name] = gold.run_case(mx, name)
    return results[name]


@pytest.mark.parametrize("name", [c[0] for c in gold.CASES])
def test_quantized_graph_matches_mxnet(name, results):
    qsym, _, _, calib = _case(name, results)
    with open(os.path.join(HERE, f"{name}-symbol.json")) as f:
        want = f.read()
    got_text, got_vals = _split_calib(qsym.tojson())
    want_text, want_vals = _split_calib(want)
    assert got_text == want_text
    np.testing.assert_allclose(got_vals, want_vals, rtol=2e-6, atol=2e-6)
    assert calib == META[name]["calib_layer"]


@pytest.mark.parametrize("name", [c[0] for c in gold.CASES])
def test_quantized_params_match_mxnet(name, results, tmp_path):
    _, qarg, qaux, _ = _case(name, results)
    want = mx.nd.load(os.path.join(HERE, f"{name}-0000.params"))
    save = {f"arg:{k}": v for k, v in qarg.items()}
    save.update({f"aux:{k}": v for k, v in qaux.items()})
    assert list(save) == list(want)
    for k, v in want.items():
        assert save[k].dtype == v.dtype, k
        assert save[k].asnumpy().tobytes() == v.asnumpy().tobytes(), k
    path = str(tmp_path / "q.params")
    mx.nd.save(path, save)
    with open(path, "rb") as a, open(os.path.join(HERE, f"{name}-0000.params"), "rb") as b:
        assert a.read() == b.read()


@pytest.mark.parametrize("name", [c[0] for c in gold.CASES])
def test_golden_quantized_model_runs_as_mxnet(name):
    """MXNet's own quantized symbol and params, run here: the same outputs (or an error
    where MXNet 1.9.1's CPU kernels refuse the graph)."""
    qsym = mx.sym.load(os.path.join(HERE, f"{name}-symbol.json"))
    params = mx.nd.load(os.path.join(HERE, f"{name}-0000.params"))
    qarg = {k[4:]: v for k, v in params.items() if k.startswith("arg:")}
    qaux = {k[4:]: v for k, v in params.items() if k.startswith("aux:")}
    sign = next(c[3] for c in gold.CASES if c[0] == name)
    x = gold.calib_data(sign)[: gold.SHAPE[0]]
    if META[name]["ran"] is not True:
        with pytest.raises(mx.base.MXNetError):
            gold.forward(mx, qsym, qarg, qaux, x).asnumpy()
        return
    io = mx.nd.load(os.path.join(HERE, f"{name}-io.params"))
    np.testing.assert_array_equal(io["data"].asnumpy(), x)
    out = gold.forward(mx, qsym, qarg, qaux, x).asnumpy()
    np.testing.assert_allclose(out, io["out"].asnumpy(), rtol=1e-5, atol=1e-6)


OPS = mx.nd.load(os.path.join(HERE, "ops.params"))


@pytest.mark.parametrize("case", sorted(gold.op_inputs(mx)))
def test_quantized_operator_matches_mxnet(case):
    fn, ins, params = gold.op_inputs(mx)[case]
    for i, x in enumerate(ins):
        np.testing.assert_array_equal(x.asnumpy(), OPS[f"{case}:in{i}"].asnumpy())
    outs = gold.run_op(mx, fn, ins, params)
    assert len(outs) == (1 if params.get("enable_float_output") else 3)
    for i, o in enumerate(outs):
        want = OPS[f"{case}:out{i}"]
        assert o.dtype == want.dtype, (case, i)
        assert o.shape == want.shape, (case, i)
        np.testing.assert_array_equal(o.asnumpy(), want.asnumpy())


@pytest.mark.parametrize("nq", [255, 511])
def test_calibrate_entropy_matches_mxnet(nq):
    hist, edges = gold.entropy_hist()
    th, div = mx.nd.contrib.calibrate_entropy(
        mx.nd.array(hist), mx.nd.array(edges), num_quantized_bins=nq
    )
    assert th.asnumpy().tobytes() == OPS[f"entropy{nq}:threshold"].asnumpy().tobytes()
    assert div.asnumpy().tobytes() == OPS[f"entropy{nq}:divergence"].asnumpy().tobytes()
