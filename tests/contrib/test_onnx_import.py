"""``mx.contrib.onnx.import_model`` on ONNX files written by MXNet 1.9.1's own exporter
(golden, from ``tests/compat/make_golden_onnx.py``): numbers and parameter names."""

import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.contrib.onnx import _import
from tests.contrib._onnx_util import onnx, sym_forward

GOLDEN = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compat", "golden", "onnx"
)


def _meta(name):
    with open(os.path.join(GOLDEN, "meta.json")) as f:
        return json.load(f)[name]


@pytest.mark.parametrize("name", ["mlp", "cnn", "module"])
def test_import_oracle_onnx(name):
    meta = _meta(name)
    path = os.path.join(GOLDEN, f"{name}.onnx")
    sym, arg, aux = _import.import_model(path)
    assert sorted({**arg, **aux}) == sorted(meta["param_initializers"])
    assert sym.list_outputs() == [o + "_output" for o in meta["outputs"]]
    x = np.array(meta["x"], dtype=np.float32)
    params = {k: v.asnumpy() for k, v in {**arg, **aux}.items()}
    (y,) = sym_forward(sym, params, {"data": x})
    np.testing.assert_allclose(y, np.array(meta["y"], dtype=np.float32), rtol=1e-4, atol=1e-5)
    md = _import.get_model_metadata(path)
    assert md["input_tensor_data"] == [("data", tuple(meta["shape"]), 1)]


def test_import_to_gluon_oracle_cnn():
    meta = _meta("cnn")
    net = _import.import_to_gluon(os.path.join(GOLDEN, "cnn.onnx"), mx.cpu())
    y = net(mx.nd.array(np.array(meta["x"], dtype=np.float32))).asnumpy()
    np.testing.assert_allclose(y, np.array(meta["y"], dtype=np.float32), rtol=1e-4, atol=1e-5)


def test_shape_without_static_input_shape_raises(tmp_path):
    from onnx import TensorProto, helper

    # a Shape feeding a shape argument is evaluated at import time
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Shape", ["r"], ["s"]),
        helper.make_node("Reshape", ["x", "s"], ["y"]),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 3])],
    )
    path = str(tmp_path / "s.onnx")
    onnx.save(helper.make_model(g), path)
    with pytest.raises(MXNetError, match="Shape"):
        _import.import_model(path)
