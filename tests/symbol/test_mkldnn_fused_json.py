"""Models exported by MXNet 1.9.1 after ``optimize_for(backend='MKLDNN')`` hold oneDNN fusion
nodes (``_sg_mkldnn_conv``, ``_sg_mkldnn_fully_connected``) with subgraphs: they load and run."""

import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.gluon import nn

HERE = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "mkldnn_fused")


def test_fused_model_runs_as_mxnet():
    io = mx.nd.load(os.path.join(HERE, "io.params"))
    net = nn.SymbolBlock.imports(
        os.path.join(HERE, "fused-symbol.json"), ["data"], os.path.join(HERE, "fused-0000.params")
    )
    out = net(io["data"])
    np.testing.assert_allclose(out.asnumpy(), io["out"].asnumpy(), rtol=1e-4, atol=1e-5)


def test_fused_symbol_names_and_roundtrip():
    sym = mx.sym.load(os.path.join(HERE, "fused-symbol.json"))
    ops = [n["op"] for n in json.loads(sym.tojson())["nodes"] if n["op"] != "null"]
    assert ops.count("_sg_mkldnn_conv") == 2 and "_sg_mkldnn_fully_connected" in ops
    assert sym.list_outputs() == ["sg_mkldnn_fully_connected_eltwise_0_output"]
    assert "net_batchnorm0_running_mean" in sym.list_auxiliary_states()
    assert mx.sym.load_json(sym.tojson()).tojson() == sym.tojson()


def test_quantized_fused_node_is_refused():
    with open(os.path.join(HERE, "fused-symbol.json")) as f:
        j = json.load(f)
    for n in j["nodes"]:
        if n["op"] == "_sg_mkldnn_fully_connected":
            n["attrs"]["quantized"] = "true"
    with pytest.raises(MXNetError, match="quantized"):
        mx.sym.load_json(json.dumps(j)).infer_shape(data=(2, 2, 5, 5))


def test_optimize_for_backend_must_be_a_string():
    s = mx.sym.var("x") + 1
    for bad in (123, None):
        with pytest.raises(AssertionError):
            s.optimize_for(bad)
    net = nn.Dense(2, in_units=3)
    net.initialize()
    net.hybridize(backend=123)
    with pytest.raises(AssertionError):
        net(mx.nd.ones((1, 3)))
