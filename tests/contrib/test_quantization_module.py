"""mx.contrib.quantization entry points: the oneDNN-fusion ones raise named MXNetErrors;
quantize_graph + calib_graph and quantize_model work (details in test_quantization_golden)."""

import json

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError


def _net():
    d = mx.sym.var("data")
    c = mx.sym.Convolution(d, num_filter=4, kernel=(3, 3), name="conv0")
    p = mx.sym.Pooling(c, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool0")
    f = mx.sym.FullyConnected(p, num_hidden=3, name="fc0")
    arg = {"conv0_weight": mx.nd.ones((4, 3, 3, 3)) * 0.1, "conv0_bias": mx.nd.zeros(4),
           "fc0_weight": mx.nd.ones((3, 36)) * 0.01, "fc0_bias": mx.nd.zeros(3)}  # fmt: skip
    return f, arg


def test_onednn_fusion_entry_points_raise_named_errors():
    from mxnet.contrib import quantization

    sym, arg = _net()
    for name in ("quantize_net", "quantize_net_v2", "quantize_model_mkldnn"):
        with pytest.raises(MXNetError, match=f"quantization.{name}: .*oneDNN"):
            getattr(quantization, name)(sym, arg, {})
    with pytest.raises(MXNetError, match="channel-wise"):
        quantization.quantize_model(sym, arg, {}, calib_mode="none",
                                    quantize_granularity="channel-wise")  # fmt: skip


def test_quantize_graph_then_calib_graph():
    from mxnet.contrib import quantization

    sym, arg = _net()
    qsym, qarg, _, collector = quantization.quantize_graph(
        sym, arg, {}, calib_mode="naive", quantized_dtype="auto", quantize_mode="smart"
    )
    assert [n for n in qsym.get_internals().list_outputs() if n.startswith("quantized_")] == [
        "quantized_conv0_output", "quantized_conv0_min_output", "quantized_conv0_max_output",
        "quantized_pool0_output", "quantized_pool0_min_output", "quantized_pool0_max_output",
        "quantized_fc0_output", "quantized_fc0_min_output", "quantized_fc0_max_output",
    ]  # fmt: skip
    assert qarg["conv0_weight_quantize"].dtype == np.int8
    collector.collect("data", mx.nd.array([[0.25, 0.5]]))
    collector.collect("data", mx.nd.array([[0.125, 0.75]]))
    collector.collect("other", mx.nd.array([9.0]))
    assert collector.min_max_dict == {"data": (np.float32(0.125), np.float32(0.75))}
    csym, _, _ = quantization.calib_graph(qsym, arg, {}, collector, calib_mode="naive")
    node = [n for n in json.loads(csym.tojson())["nodes"] if n["name"] == "data_quantize"][0]
    assert node["attrs"]["min_calib_range"] == "0.125000"
    assert node["attrs"]["max_calib_range"] == "0.750000"


def test_combine_histogram_widens_by_whole_steps():
    from mxnet.contrib.quantization import combine_histogram

    hist, edges = np.histogram([0.5], bins=5, range=(-1, 1))
    new = combine_histogram((hist, edges, 0.5, 0.5, 1.0), np.array([1.3]), 1.3, 1.3, 1.3)
    assert len(new[0]) == 7 and new[4] == pytest.approx(1.4)
    assert new[0].sum() == 2 and (new[2], new[3]) == (0.5, 1.3)


def test_quantization_reachable_as_attribute():
    assert mx.contrib.quantization.quantize_net.__name__ == "quantize_net"


def _calibrated(post, fc):
    from mxnet.contrib import quantization

    s = mx.sym
    d = s.var("data")
    base = (s.FullyConnected(d, num_hidden=8, name="fc0") if fc else
            s.Convolution(d, num_filter=4, kernel=(3, 3), pad=(1, 1), name="c0"))  # fmt: skip
    y = post(base)
    x = (s.FullyConnected(y, num_hidden=4, name="fc1") if fc else
         s.Convolution(y, num_filter=4, kernel=(3, 3), pad=(1, 1), name="c1"))  # fmt: skip
    net = s.FullyConnected(x, num_hidden=3, name="head")
    rs = np.random.RandomState(0)
    shapes, _, _ = net.infer_shape(data=(2, 3, 6, 6))
    arg = {k: mx.nd.array(rs.uniform(-0.5, 0.5, size=v))
           for k, v in zip(net.list_arguments(), shapes) if k != "data"}  # fmt: skip
    it = mx.io.NDArrayIter(rs.uniform(0, 1, size=(4, 3, 6, 6)).astype("f"), batch_size=2)
    qsym, _, _ = quantization.quantize_model(
        net, arg, {}, calib_mode="naive", calib_data=it, quantized_dtype="auto",
        quantize_mode="full", label_names=None,
    )  # fmt: skip
    return sorted(k for k, v in qsym.attr_dict().items() if "min_calib_range" in v)


@pytest.mark.parametrize(
    "post,fc,want",
    [  # MXNet 1.9.1 (oneDNN fusion in its calibration forward hides fused layers' outputs)
        (lambda x: mx.sym.LeakyReLU(x, act_type="elu", name="p0"), False,
         ["data_quantize", "p0_output_quantize"]),
        (lambda x: mx.sym.LeakyReLU(x, act_type="elu", name="p0"), True, ["data_quantize"]),
        (lambda x: mx.sym.clip(x, 0, 6, name="p0"), False, ["data_quantize"]),
        (lambda x: mx.sym.Activation(x, act_type="softsign", name="p0"), True,
         ["data_quantize", "p0_output_quantize"]),
        (lambda x: mx.sym.relu(x, name="p0"), True, ["data_quantize", "p0_0_quantize"]),
        (lambda x: mx.sym.Dropout(x, name="p0"), True, ["data_quantize"]),
        (lambda x: mx.sym.sigmoid(mx.sym.Activation(mx.sym.Dropout(x, name="d0"),
                                                    act_type="sigmoid", name="s0"), name="p0"),
         False, ["data_quantize", "p0_0_quantize"]),  # the dropout goes, the act fuses
        (lambda x: mx.sym.Dropout(x, mode="always", name="p0"), True,
         ["data_quantize", "p0_output_quantize"]),
    ],
)  # fmt: skip
def test_calibration_misses_layers_that_onednn_fuses(post, fc, want):
    assert _calibrated(post, fc) == want


def test_sum_pooling_between_quantized_layers_is_refused_by_name():
    from mxnet.contrib import quantization

    d = mx.sym.var("data")
    c = mx.sym.Convolution(d, kernel=(1, 1), num_filter=4, name="c0")
    p = mx.sym.Pooling(c, kernel=(2, 2), pool_type="sum", name="p0")
    net = mx.sym.FullyConnected(p, num_hidden=3, name="fc")
    arg = {k: mx.nd.ones(s) for k, s in zip(net.list_arguments(),
                                            net.infer_shape(data=(1, 3, 4, 4))[0])}  # fmt: skip
    with pytest.raises(MXNetError, match="Pooling 'p0' with pool_type='sum'"):
        quantization.quantize_model(net, arg, {}, calib_mode="none", label_names=None)
    qsym, _, _ = quantization.quantize_model(
        net, arg, {}, calib_mode="none", label_names=None, excluded_sym_names=["p0"]
    )
    assert "p0_output_quantize_output0" in qsym.get_internals().list_outputs()


def test_entropy_calib_graph_with_a_debug_logger(caplog):
    import logging

    from mxnet.contrib import quantization

    sym, arg = _net()
    log = logging.getLogger("quant-test")
    qsym, _, _, col = quantization.quantize_graph(
        sym, arg, {}, calib_mode="entropy", quantized_dtype="auto", logger=log
    )
    rs = np.random.RandomState(0)
    col.collect("data", mx.nd.array(rs.uniform(0, 1, size=(2, 3, 8, 8))))
    with caplog.at_level(logging.DEBUG, logger="quant-test"):
        csym, _, _ = quantization.calib_graph(qsym, arg, {}, col, calib_mode="entropy",
                                              quantized_dtype="auto", logger=log)  # fmt: skip
    assert "layer=data, min_val=" in caplog.text
    attrs = csym.attr_dict()["data_quantize"]
    assert float(attrs["min_calib_range"]) == 0.0 and float(attrs["max_calib_range"]) > 0.9
