"""``mx.contrib.onnx.import_model`` of the ONNX operators MXNet 1.9.1's importer reads beyond
the basic layers (ONNX backend node-test cases): variadic Max/Min/Mean, Hardmax, composite
reductions, ArgMax(select_last_index), PReLU slopes, Shape/Size, trigonometry, parameters
that carry their shape."""

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import mxnet as mx
from mxnet.contrib.onnx import _import
from tests.contrib._onnx_util import onnx

F = TensorProto.FLOAT
RNG = np.random.RandomState(3)


def _run(tmp_path, nodes, inputs, outputs, inits=()):
    """Import a one-graph model and run it through Module with the given input arrays."""
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info(n, F, list(a.shape)) for n, a in inputs.items()],
        [helper.make_tensor_value_info(o, F, None) for o in outputs],
        [numpy_helper.from_array(v, k) for k, v in dict(inits).items()],
    )
    path = str(tmp_path / "m.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)
    sym, arg, aux = _import.import_model(path)
    names = list(inputs)
    mod = mx.mod.Module(sym, data_names=names, label_names=None)
    mod.bind(for_training=False, data_shapes=[(n, a.shape) for n, a in inputs.items()])
    mod.set_params(arg, aux)
    mod.forward(mx.io.DataBatch([mx.nd.array(inputs[n]) for n in names]), is_train=False)
    return [o.asnumpy() for o in mod.get_outputs()]


def test_variadic_max_min_mean_broadcast(tmp_path):
    a, b, c = RNG.randn(2, 1, 3), RNG.randn(2, 3, 1), RNG.randn(2, 1, 1)
    ins = {"a": a.astype("f"), "b": b.astype("f"), "c": c.astype("f")}
    nodes = [
        helper.make_node("Max", ["a", "b", "c"], ["mx"]),
        helper.make_node("Min", ["a"], ["mn"]),
        helper.make_node("Mean", ["a", "b", "c"], ["me"]),
    ]
    mx_, mn, me = _run(tmp_path, nodes, ins, ["mx", "mn", "me"])
    np.testing.assert_allclose(mx_, np.maximum(np.maximum(a, b), c), rtol=1e-6)
    np.testing.assert_allclose(mn, a, rtol=1e-6)
    np.testing.assert_allclose(me, (a + b + c) / 3, rtol=1e-5)


def test_hardmax_and_argmax_last_index(tmp_path):
    x = np.array([[[1, 3, 3], [2, 2, 0]], [[0, 0, 0], [5, 1, 5]]], "f")
    nodes = [
        helper.make_node("Hardmax", ["x"], ["h"], axis=1),
        helper.make_node("ArgMax", ["x"], ["am"], axis=-1, select_last_index=1),
        helper.make_node("ArgMin", ["x"], ["an"], axis=2, keepdims=0, select_last_index=1),
    ]
    h, am, an = _run(tmp_path, nodes, {"x": x}, ["h", "am", "an"])
    want_h = np.zeros_like(x)
    idx = x.argmax(axis=1)
    for i in range(2):
        for k in range(3):
            want_h[i, idx[i, k], k] = 1
    np.testing.assert_array_equal(h, want_h)
    np.testing.assert_array_equal(am[..., 0], 2 - x[..., ::-1].argmax(-1))
    np.testing.assert_array_equal(an, 2 - x[..., ::-1].argmin(-1))


def test_composite_reductions(tmp_path):
    x = RNG.uniform(0.5, 2, (2, 3, 4)).astype("f")
    nodes = [
        helper.make_node("ReduceSumSquare", ["x"], ["ss"], axes=[1], keepdims=0),
        helper.make_node("ReduceLogSumExp", ["x"], ["lse"], axes=[2]),
        helper.make_node("ReduceLogSum", ["x"], ["ls"]),
        helper.make_node("ReduceL2", ["x"], ["l2"], axes=[0, 2], keepdims=0),
    ]
    ss, lse, ls, l2 = _run(tmp_path, nodes, {"x": x}, ["ss", "lse", "ls", "l2"])
    np.testing.assert_allclose(ss, (x**2).sum(1), rtol=1e-5)
    np.testing.assert_allclose(lse, np.log(np.exp(x).sum(2, keepdims=True)), rtol=1e-5)
    np.testing.assert_allclose(ls, np.log(x.sum(keepdims=True)), rtol=1e-5)
    np.testing.assert_allclose(l2, np.sqrt((x**2).sum((0, 2))), rtol=1e-5)


@pytest.mark.parametrize("slope_shape", [(3,), (3, 1), (1,), (4,)])
def test_prelu_slopes(tmp_path, slope_shape):
    x = RNG.randn(2, 3, 4).astype("f")
    s = RNG.uniform(0.1, 0.5, slope_shape).astype("f")
    (y,) = _run(tmp_path, [helper.make_node("PRelu", ["x", "s"], ["y"])], {"x": x}, ["y"], {"s": s})
    slope = s.reshape(3, 1) if s.size == 3 else s
    np.testing.assert_allclose(y, np.where(x > 0, x, x * slope), rtol=1e-6)


def test_shape_size_trig_selu_and_param_shapes(tmp_path):
    x = RNG.uniform(-0.9, 0.9, (2, 3)).astype("f")
    w = RNG.randn(2, 3).astype("f")
    nodes = [
        helper.make_node("Shape", ["x"], ["sh"], start=-1),
        helper.make_node("Size", ["x"], ["sz"]),
        helper.make_node("Asin", ["x"], ["as"]),
        helper.make_node("Tan", ["x"], ["tn"]),
        helper.make_node("Selu", ["x"], ["se"]),
        helper.make_node("Add", ["x", "w"], ["ad"]),  # shape of w comes from the initializer
    ]
    sh, sz, as_, tn, se, ad = _run(
        tmp_path, nodes, {"x": x}, ["sh", "sz", "as", "tn", "se", "ad"], {"w": w}
    )
    assert sh.tolist() == [3] and sz.tolist() == [6]
    np.testing.assert_allclose(as_, np.arcsin(x), rtol=1e-5)
    np.testing.assert_allclose(tn, np.tan(x), rtol=1e-5)
    a, g = 1.6732632423543772, 1.0507009873554805
    np.testing.assert_allclose(se, g * np.where(x > 0, x, a * (np.exp(x) - 1)), rtol=1e-5)
    np.testing.assert_allclose(ad, x + w, rtol=1e-6)


def test_space_depth_pow_pad_and_folded_constants(tmp_path):
    x = RNG.randn(1, 8, 2, 3).astype("f")
    nodes = [
        helper.make_node("DepthToSpace", ["x"], ["d2s"], blocksize=2, mode="DCR"),
        helper.make_node("SpaceToDepth", ["d2s"], ["s2d"], blocksize=2),
        helper.make_node("Pow", ["x", "two"], ["sq"]),
        helper.make_node("Pad", ["x", "pads", "pv"], ["pd"]),
        helper.make_node("Range", ["r0", "r1", "r2"], ["rng"]),
        helper.make_node(
            "ConstantOfShape", ["cs"], ["fill"], value=numpy_helper.from_array(np.array([2.5], "f"))
        ),
        helper.make_node("Mul", ["rng", "fill"], ["rf"]),
        helper.make_node("Add", ["sq", "rf"], ["out"]),
    ]
    inits = {
        "two": np.array([2], "int64"),
        "pads": np.array([0, 0, 1, 0, 0, 0, 0, 1], "int64"),
        "pv": np.array([-1.0], "f"),
        "r0": np.array(0.0, "f"),
        "r1": np.array(3.0, "f"),
        "r2": np.array(1.0, "f"),
        "cs": np.array([3], "int64"),
    }
    d2s, s2d, pd, out = _run(tmp_path, nodes, {"x": x}, ["d2s", "s2d", "pd", "out"], inits)
    b = 2
    want = x.reshape(1, b, b, 2, 2, 3).transpose(0, 3, 4, 1, 5, 2).reshape(1, 2, 4, 6)
    np.testing.assert_allclose(d2s, want)
    np.testing.assert_allclose(s2d, x)
    np.testing.assert_allclose(pd, np.pad(x, [(0, 0), (0, 0), (1, 0), (0, 1)], constant_values=-1))
    np.testing.assert_allclose(out, x**2 + np.arange(3) * 2.5, rtol=1e-6)


def test_logical_mod_topk_onehot_gathernd(tmp_path):
    a = np.array([[0, 1, 2], [3, 0, -1]], "f")
    b = np.array([[1, 1, 0], [2, -2, 0]], "f")
    idx = np.array([[0, 2], [1, 0]], "f")
    nodes = [
        helper.make_node("And", ["a", "b"], ["and"]),
        helper.make_node("Xor", ["a", "b"], ["xor"]),
        helper.make_node("Mod", ["a", "m"], ["mod"]),
        helper.make_node("TopK", ["a", "k"], ["tv", "ti"], axis=1, largest=1),
        helper.make_node("OneHot", ["oh", "depth", "vals"], ["onehot"]),
        helper.make_node("GatherND", ["a", "idx"], ["gnd"]),
    ]
    inits = {
        "m": np.array([2.0, -2.0, 3.0], "f"),
        "k": np.array([2], "int64"),
        "oh": np.array([0, 2, 5], "int64"),
        "depth": np.array([3], "int64"),
        "vals": np.array([-1.0, 4.0], "f"),
    }
    ins = {"a": a, "b": b, "idx": idx}
    and_, xor, md, tv, ti, onehot, gnd = _run(
        tmp_path, nodes, ins, ["and", "xor", "mod", "tv", "ti", "onehot", "gnd"], inits
    )
    np.testing.assert_array_equal(and_, np.logical_and(a, b))
    np.testing.assert_array_equal(xor, np.logical_xor(a, b))
    np.testing.assert_allclose(md, np.mod(a, inits["m"]))
    np.testing.assert_array_equal(tv, -np.sort(-a, axis=1)[:, :2])
    np.testing.assert_array_equal(ti, np.argsort(-a, axis=1, kind="stable")[:, :2])
    np.testing.assert_array_equal(onehot, [[4, -1, -1], [-1, -1, 4], [-1, -1, -1]])
    np.testing.assert_array_equal(gnd, [a[0, 2], a[1, 0]])


def test_mxnet_1x_module_paths():
    from mxnet.contrib.onnx.onnx2mx.import_model import get_model_metadata, import_model
    from mxnet.contrib.onnx.onnx2mx.import_to_gluon import import_to_gluon
    from mxnet.onnx.mx2onnx import export_model, get_operator_support

    assert import_model is _import.import_model and import_to_gluon is _import.import_to_gluon
    assert get_model_metadata is _import.get_model_metadata
    assert export_model is mx.onnx.export_model and "RNN" in get_operator_support()


@pytest.mark.parametrize("ctm", ["align_corners", "half_pixel"])
def test_resize_linear(tmp_path, ctm):
    from tests.contrib._onnx_util import run_onnx

    x = RNG.randn(1, 2, 4, 5).astype("f")
    node = helper.make_node(
        "Resize", ["x", "", "", "sizes"], ["y"], mode="linear", coordinate_transformation_mode=ctm
    )
    sizes = {"sizes": np.array([1, 2, 7, 3], "int64")}
    (y,) = _run(tmp_path, [node], {"x": x}, ["y"], sizes)
    path = str(tmp_path / "m.onnx")  # the file _run wrote: the runtime's own answer
    np.testing.assert_allclose(y, run_onnx(path, {"x": x})[0], rtol=1e-5, atol=1e-6)
