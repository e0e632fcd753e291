"""``mx.onnx`` export of whole networks: files written by MXNet 1.9.1 (golden, made by
``tests/compat/make_golden_onnx.py``) and Gluon model-zoo nets built here, run through ONNX
and compared with MXNet's numbers and names; plus the ``mx.contrib.onnx`` entry points."""

import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet.contrib import onnx as contrib_onnx
from mxnet.contrib.onnx import _export, _import
from tests.contrib._onnx_util import onnx, run_onnx, sym_forward

GOLDEN = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compat", "golden", "onnx"
)


def _meta():
    with open(os.path.join(GOLDEN, "meta.json")) as f:
        return json.load(f)


@pytest.mark.parametrize("name", ["mlp", "cnn", "module"])
def test_export_oracle_files(tmp_path, name):
    meta = _meta()[name]
    prefix = os.path.join(GOLDEN, name)
    path = str(tmp_path / f"{name}.onnx")
    out = _export.export_model(
        prefix + "-symbol.json", prefix + "-0000.params", [tuple(meta["shape"])], np.float32, path
    )
    assert out == path
    x = np.array(meta["x"], dtype=np.float32)
    (y,) = run_onnx(path, {"data": x})
    np.testing.assert_allclose(y, np.array(meta["y"], dtype=np.float32), rtol=1e-4, atol=1e-5)
    g = onnx.load(path).graph
    assert g.name == meta["graph_name"]
    assert [i.name for i in g.input] == meta["inputs"]
    assert [o.name for o in g.output] == meta["outputs"]
    params = set(meta["param_initializers"])
    assert [i.name for i in g.initializer if i.name in params] == meta["param_initializers"]
    with open(prefix + "-symbol.json") as f:
        op_names = {n["name"] for n in json.load(f)["nodes"] if n["op"] != "null"}
    ours = {o for n in g.node for o in n.output}
    assert {t for t in meta["node_outputs"] if t in op_names} <= ours


def test_model_zoo_resnet_mobilenet(tmp_path):
    from mxnet.gluon.model_zoo import vision

    for make in (vision.resnet18_v1, vision.mobilenet0_25):
        net = make()
        net.initialize(mx.init.Xavier())
        net.hybridize()
        x = np.random.RandomState(1).uniform(-1, 1, (1, 3, 32, 32)).astype(np.float32)
        y = net(mx.nd.array(x)).asnumpy()
        prefix = str(tmp_path / "zoo")
        net.export(prefix)
        path = _export.export_model(
            prefix + "-symbol.json",
            prefix + "-0000.params",
            [x.shape],
            np.float32,
            str(tmp_path / "zoo.onnx"),
        )
        (got,) = run_onnx(path, {"data": x})
        np.testing.assert_allclose(got, y, rtol=1e-4, atol=1e-4)


def _small_net(tmp_path):
    from mxnet.gluon import nn

    net = nn.HybridSequential(prefix="net_")
    with net.name_scope():
        net.add(nn.Conv2D(3, 3), nn.BatchNorm(), nn.Activation("relu"), nn.Flatten(), nn.Dense(4))
    net.initialize()
    net.hybridize()
    x = np.random.RandomState(2).uniform(size=(2, 1, 5, 5)).astype(np.float32)
    y = net(mx.nd.array(x)).asnumpy()
    net.export(str(tmp_path / "net"))
    sym_file, par_file = f"{tmp_path / 'net'}-symbol.json", f"{tmp_path / 'net'}-0000.params"
    return net, x, y, sym_file, par_file


def test_symbol_and_dict_params_and_list(tmp_path):
    _, x, y, sym_file, par_file = _small_net(tmp_path)
    sym = mx.sym.load(sym_file)
    loaded = mx.nd.load(par_file)
    arg = {k[4:]: v for k, v in loaded.items() if k.startswith("arg:")}
    aux = {k[4:]: v for k, v in loaded.items() if k.startswith("aux:")}
    for i, params in enumerate([{**arg, **aux}, [arg, aux]]):
        path = _export.export_model(
            sym,
            params,
            input_shape=[x.shape],
            input_type=np.float32,
            onnx_file_path=str(tmp_path / f"p{i}.onnx"),
        )
        np.testing.assert_allclose(run_onnx(path, {"data": x})[0], y, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError):
        _export.export_model(sym, 3, [x.shape])
    with pytest.raises(TypeError):  # as MXNet 1.9.1: in_shapes is required
        contrib_onnx.export_model(None, None)


def test_dynamic_batch(tmp_path):
    _, x, y, sym_file, par_file = _small_net(tmp_path)
    path = _export.export_model(
        sym_file,
        par_file,
        [x.shape],
        np.float32,
        str(tmp_path / "d.onnx"),
        dynamic=True,
        dynamic_input_shapes=[(None, 1, 5, 5)],
        run_shape_inference=True,
    )
    g = onnx.load(path).graph
    dims = g.input[0].type.tensor_type.shape.dim
    assert not dims[0].HasField("dim_value") and dims[1].dim_value == 1
    meta = _import.get_model_metadata(path)["input_tensor_data"]
    assert meta == [("data", (0, 1, 5, 5), 1)]
    x3 = np.concatenate([x, x[:1]])
    sym = mx.sym.load(sym_file)
    params = {k[4:]: v.asnumpy() for k, v in mx.nd.load(par_file).items()}
    (ref,) = sym_forward(sym, params, {"data": x3})
    np.testing.assert_allclose(run_onnx(path, {"data": x3})[0], ref, rtol=1e-4, atol=1e-5)
    with pytest.raises(AssertionError):  # as MXNet 1.9.1
        _export.export_model(sym_file, par_file, [x.shape], dynamic_input_shapes=[(None, 1)])


def test_contrib_entry_points(tmp_path, capsys):
    _, x, y, sym_file, par_file = _small_net(tmp_path)
    path = str(tmp_path / "c.onnx")
    assert contrib_onnx.export_model(sym_file, par_file, [x.shape], np.float32, path) == path
    assert "mxnet.onnx.export_model is the preferred path" in capsys.readouterr().out
    meta = contrib_onnx.get_model_metadata(path)
    assert meta == {
        "input_tensor_data": [("data", (2, 1, 5, 5), 1)],
        "output_tensor_data": [("net_dense0_fwd", (2, 4))],
    }
    sym, arg, aux = contrib_onnx.import_model(path)
    assert "deprecated" in capsys.readouterr().out
    assert sorted(aux) == ["net_batchnorm0_running_mean", "net_batchnorm0_running_var"]
    assert "net_conv0_weight" in arg and "data" not in arg
    params = {k: v.asnumpy() for k, v in {**arg, **aux}.items()}
    np.testing.assert_allclose(sym_forward(sym, params, {"data": x})[0], y, rtol=1e-4, atol=1e-5)
    net = contrib_onnx.import_to_gluon(path, mx.cpu())
    np.testing.assert_allclose(net(mx.nd.array(x)).asnumpy(), y, rtol=1e-4, atol=1e-5)
    assert "Convolution" in contrib_onnx.get_operator_support()
    assert _import.import_model is not None


def test_two_inputs_and_int_types(tmp_path):
    from mxnet.gluon import nn

    class Net(nn.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.emb = nn.Embedding(10, 4)
                self.fc = nn.Dense(3, flatten=False)

        def hybrid_forward(self, F, tokens, extra):
            return self.fc(self.emb(tokens)) + extra

    net = Net(prefix="two_")
    net.initialize()
    net.hybridize()
    tok = np.array([[1, 2, 9], [0, 4, 4]], dtype=np.int32)
    extra = np.random.RandomState(3).uniform(size=(2, 3, 3)).astype(np.float32)
    y = net(mx.nd.array(tok, dtype="int32"), mx.nd.array(extra)).asnumpy()
    net.export(str(tmp_path / "two"))
    sym_file, par_file = f"{tmp_path / 'two'}-symbol.json", f"{tmp_path / 'two'}-0000.params"
    path = _export.export_model(
        sym_file,
        par_file,
        [tok.shape, extra.shape],
        [np.int32, np.float32],
        str(tmp_path / "two.onnx"),
    )
    g = onnx.load(path).graph
    assert [i.name for i in g.input[:2]] == ["data0", "data1"]
    assert g.input[0].type.tensor_type.elem_type == onnx.TensorProto.INT32
    (got,) = run_onnx(path, {"data0": tok, "data1": extra})
    np.testing.assert_allclose(got, y, rtol=1e-4, atol=1e-5)
