"""``mx.onnx`` export of the operators and dtypes MXNet 1.9.1's exporter covers beyond the
basic layers (creation ops, integer/float16 data, sorting, gathers, sequence ops, fused RNN,
attention helpers): each exported file is run and compared with our forward pass."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.contrib.onnx import _export
from tests.contrib._onnx_util import ort, run_onnx, sym_forward

S = mx.sym
D = S.var("data")
RNG = np.random.RandomState(1)


def _check(tmp_path, sym, feeds, params=None, rtol=1e-5, atol=1e-6):
    params = params or {}
    names = [n for n in sym.list_inputs() if n not in params]
    path = str(tmp_path / "m.onnx")
    _export.export_model(
        sym, params, [feeds[n].shape for n in names], [feeds[n].dtype for n in names], path
    )
    got = run_onnx(path, {n: feeds[n] for n in names})
    want = sym_forward(sym, params, feeds)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


def _f(*shape, dtype="float32", lo=-1.0, hi=1.0):
    return RNG.uniform(lo, hi, shape).astype(dtype)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float16", "float64"])
def test_scalar_and_compare_keep_the_data_dtype(tmp_path, dtype):
    x = (np.arange(12).reshape(3, 4) - 5).astype(dtype)
    sym = S.Group([D + 3, 7 - D, D * 2, S.clip(D, -2, 4), D > 1, D <= 2, S.ones_like(D)])
    _check(tmp_path, sym, {"data": x})


def test_creation_ops_are_constants(tmp_path):
    sym = S.Group(
        [
            S.arange(-5, 5, 0.5),
            S.zeros((2, 3), dtype="int32"),
            S.ones((4,)),
            S.contrib.arange_like(D, axis=1),
            D,
        ]
    )
    _check(tmp_path, sym, {"data": _f(2, 5)})


def test_logical_mod_and_math(tmp_path):
    b = _f(3, 4, lo=-3, hi=3)
    b[0, :2] = 0
    feeds = {"data": _f(3, 4, lo=-9, hi=9), "b": b}
    B = S.var("b")
    sym = S.Group(
        [
            S.broadcast_mod(D, B),
            S.broadcast_logical_and(D, B),
            S.broadcast_logical_xor(D, B),
            S.logical_not(B),
            S.broadcast_not_equal(D, B),
            S.log2(S.abs(D) + 1),
            S.arctan(D),
        ]
    )
    _check(tmp_path, sym, feeds)


def test_int_mod_with_zero_divisor(tmp_path):
    feeds = {"data": np.array([[7, -7, 5, 3]], "int32"), "b": np.array([[3, 3, 0, -2]], "int32")}
    _check(tmp_path, S.broadcast_mod(D, S.var("b")), feeds)


def test_topk_argsort_and_multiple_outputs(tmp_path):
    x = RNG.permutation(60).reshape(3, 4, 5).astype("float32")
    v, i = S.topk(D, k=2, axis=1, ret_typ="both")
    sym = S.Group(
        [
            v * 2,
            i,
            S.topk(D, k=3, is_ascend=True),
            S.argsort(D, axis=0, dtype="int32"),
            S.argsort(D, axis=None),
        ]
    )
    _check(tmp_path, sym, {"data": x})


def test_gathers_and_shape_ops(tmp_path):
    feeds = {
        "data": _f(4, 5, 6),
        "idx": np.array([[0, 3, -1], [1, 4, 2]], "float32"),
        "like": _f(2, 3, 7),
        "oh": np.array([[0, 5, 2]], "int64"),
        "like2": _f(6, 20),
    }
    idx = S.var("idx")
    sym = S.Group(
        [
            S.gather_nd(D, idx),
            S.slice_like(D, S.var("like"), axes=(0, 1)),
            S.reshape_like(D, S.var("like2")),
            S.one_hot(S.var("oh"), depth=4, on_value=2, off_value=-1),
            S.repeat(D, repeats=2, axis=1),
            S.repeat(D, repeats=2),
            S.reverse(D, axis=(0, 2)),
            S.take(D, idx, axis=1, mode="wrap"),
            S.shape_array(D),
            S.size_array(D),
        ]
    )
    _check(tmp_path, sym, feeds)


def test_sequence_ops(tmp_path):
    x = _f(5, 3, 2)
    lens = np.array([1, 5, 3], "float32")
    L = S.var("len")
    sym = S.Group(
        [
            S.SequenceMask(D, L, use_sequence_length=True, value=-2.0),
            S.SequenceMask(S.swapaxes(D, 0, 1), L, use_sequence_length=True, axis=1),
            S.SequenceReverse(D, L, use_sequence_length=True),
            S.SequenceReverse(D),
        ]
    )
    _check(tmp_path, sym, {"data": x, "len": lens})


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_softmax_use_length(tmp_path, axis):
    x = _f(3, 4, 5)
    shp = [3, 4, 5]
    del shp[axis]
    lens = RNG.randint(0, 4, shp).astype("int32")
    sym = S.softmax(D, S.var("len"), axis=axis, use_length=True, temperature=2.0)
    _check(tmp_path, sym, {"data": x, "len": lens})


@pytest.mark.parametrize("mode", ["lstm", "gru", "rnn_tanh"])
def test_fused_rnn(tmp_path, mode):
    g = {"lstm": 4, "gru": 3, "rnn_tanh": 1}[mode]
    hs, isz, nl = 4, 3, 2
    n = g * hs * (isz + hs) + (nl - 1) * g * hs * (hs + hs) + nl * 2 * g * hs
    feeds = {"data": _f(6, 2, isz), "p": _f(n, lo=-0.5, hi=0.5), "h": _f(nl, 2, hs)}
    args = [D, S.var("p"), S.var("h")]
    if mode == "lstm":
        feeds["c"] = _f(nl, 2, hs)
        args.append(S.var("c"))
    sym = S.RNN(*args, mode=mode, state_size=hs, num_layers=nl, state_outputs=True)
    _check(tmp_path, sym, feeds, rtol=1e-4, atol=1e-5)


def test_attention_and_resize_helpers(tmp_path):
    feeds = {"data": _f(3, 2, 3 * 2 * 4), "att": _f(4, 3, 3), "img": _f(1, 8, 4, 6)}
    I = S.var("img")
    sym = S.Group(
        [
            S.contrib.interleaved_matmul_selfatt_qk(D, heads=2),
            S.contrib.interleaved_matmul_selfatt_valatt(D, S.var("att"), heads=2),
            S.contrib.div_sqrt_dim(D),
            S.contrib.BilinearResize2D(I, height=7, width=9),
            S.contrib.BilinearResize2D(I, height=3, width=8, align_corners=False),
            S.contrib.AdaptiveAvgPooling2D(I, output_size=1),
            S.depth_to_space(I, block_size=2),
            S.space_to_depth(I, block_size=2),
            S.L2Normalization(I, mode="channel"),
            S.Pooling(I, global_pool=True, pool_type="lp", p_value=2, kernel=(1, 1)),
        ]
    )
    _check(tmp_path, sym, feeds, rtol=1e-4, atol=1e-5)


def test_box_decode(tmp_path):
    mul = np.array([-1, -1, 1, 1], "float32")
    feeds = {"data": _f(2, 3, 4), "anc": np.abs(_f(1, 3, 4)) * mul}
    anc = S.var("anc")
    sym = S.Group(
        [
            S.contrib.box_decode(D, anc, format="corner", clip=0.5),
            S.contrib.box_decode(D, anc, format="center", std0=0.3, std3=1.6),
        ]
    )
    _check(tmp_path, sym, feeds)


def test_parameter_free_gluon_export_from_files(tmp_path):
    # the .params file of a block without parameters loads as [] (MXNet: empty dicts)
    class Net(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.abs(x) * 2

    net = Net()
    net.hybridize()
    x = mx.nd.array(_f(2, 3))
    want = net(x).asnumpy()
    net.export(str(tmp_path / "net"), 0)
    path = str(tmp_path / "net.onnx")
    mx.onnx.export_model(
        str(tmp_path / "net-symbol.json"),
        str(tmp_path / "net-0000.params"),
        [(2, 3)],
        np.float32,
        path,
    )
    np.testing.assert_allclose(run_onnx(path, {"data": x.asnumpy()})[0], want)


@pytest.mark.parametrize("fmt,topk", [("corner", -1), ("corner", 3), ("center", 4)])
def test_box_nms(tmp_path, fmt, topk):
    # rows: [score, x1, y1, x2, y2] (or center boxes); kept rows first by score, then -1 rows
    rs = np.random.RandomState(5)
    xy = rs.uniform(0, 0.6, (2, 8, 2))
    wh = rs.uniform(0.2, 0.4, (2, 8, 2))
    coords = np.concatenate([xy, xy + wh], -1) if fmt == "corner" else np.concatenate([xy, wh], -1)
    score = rs.permutation(16).reshape(2, 8, 1) / 16.0
    data = np.concatenate([score, coords], -1).astype("float32")
    sym = S.contrib.box_nms(
        D,
        overlap_thresh=0.3,
        valid_thresh=0.2,
        topk=topk,
        coord_start=1,
        score_index=0,
        id_index=-1,
        force_suppress=True,
        in_format=fmt,
        out_format=fmt,
    )
    _check(tmp_path, sym, {"data": data})


@pytest.mark.parametrize("layer", ["lstm", "gru"])
def test_gluon_rnn_layer_export(tmp_path, layer):
    # a hybridized Gluon RNN layer: _rnn_param_concat of its weights, zeros((L, 0, H))
    # begin states whose batch dim the RNN node determines
    net = mx.gluon.nn.HybridSequential()
    cell = mx.gluon.rnn.LSTM if layer == "lstm" else mx.gluon.rnn.GRU
    net.add(cell(6, num_layers=2, layout="NTC"), mx.gluon.nn.Dense(3, flatten=False))
    net.initialize(mx.init.Uniform(0.5))
    net.hybridize()
    x = mx.nd.array(_f(2, 5, 4))
    want = net(x).asnumpy()
    net.export(str(tmp_path / "rnn"), 0)
    path = str(tmp_path / "rnn.onnx")
    mx.onnx.export_model(
        str(tmp_path / "rnn-symbol.json"),
        str(tmp_path / "rnn-0000.params"),
        [(2, 5, 4)],
        np.float32,
        path,
    )
    np.testing.assert_allclose(run_onnx(path, {"data": x.asnumpy()})[0], want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("pool_type", ["max", "avg"])
def test_full_pooling_window_in_end_padding(tmp_path, pool_type):
    # MXNet's 'full' convention keeps a last window lying wholly in the end padding (max:
    # lowest float, avg: 0); exported with floor mode and explicit pads on every runtime
    x = _f(1, 2, 5, 7)
    sym = S.Pooling(
        D,
        kernel=(2, 2),
        stride=(3, 3),
        pad=(1, 1),
        pool_type=pool_type,
        pooling_convention="full",
        count_include_pad=False,
    )
    _check(tmp_path, sym, {"data": x})
    assert sym_forward(sym, {}, {"data": x})[0].shape == (1, 2, 3, 4)


def test_crop(tmp_path):
    like = S.var("like")
    sym = S.Group([S.Crop(D, offset=(2, 1), h_w=(5, 6)), S.Crop(D, like, center_crop=True)])
    _check(tmp_path, sym, {"data": _f(2, 3, 12, 10), "like": _f(1, 1, 7, 4)})


@pytest.mark.skipif(ort is None, reason="onnx's reference runner has no MaxRoiPool")
def test_roi_pooling(tmp_path):
    rois = np.array([[0, 0, 0, 7, 7], [1, 2, 3, 9, 11], [0, 4.4, 1.6, 6.2, 8.5]], "float32")
    sym = S.ROIPooling(D, S.var("rois"), pooled_size=(3, 2), spatial_scale=0.5)
    _check(tmp_path, sym, {"data": _f(2, 3, 12, 10), "rois": rois})


def test_random_ops_export_distribution(tmp_path):
    sym = S.Group(
        [S.random.uniform(-2, -1, shape=(50, 40)), S.random.normal(3, 0.1, shape=(50, 40)), D]
    )
    path = str(tmp_path / "r.onnx")
    _export.export_model(sym, {}, [(2,)], np.float32, path)
    u, n, _ = run_onnx(path, {"data": _f(2)})
    assert u.shape == n.shape == (50, 40) and u.dtype == np.float32
    assert -2 <= u.min() and u.max() < -1 and abs(n.mean() - 3) < 0.05
