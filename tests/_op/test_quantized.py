"""``_contrib_quantized_*`` operators: records with NumPy references of MXNet 1.9.1's CPU
arithmetic (the oracle comparison itself is ``tests/contrib/test_quantization_golden.py``)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from tests._op.harness import Record, run_record

F = np.float32
LO, HI = np.array([-1.0], F), np.array([2.0], F)
WLO, WHI = np.array([-0.5], F), np.array([0.25], F)
BLO, BHI = np.array([-0.7], F), np.array([0.5], F)
XU = np.arange(2 * 2 * 4 * 4).reshape(2, 2, 4, 4).astype(np.uint8) * 3
X8 = (np.arange(2 * 2 * 4 * 4).reshape(2, 2, 4, 4) - 32).astype(np.int8)
W = (np.arange(3 * 2 * 2 * 2).reshape(3, 2, 2, 2) - 12).astype(np.int8)
B = np.array([5, -7, 100], np.int8)
FW = (np.arange(3 * 32).reshape(3, 32) % 17 - 8).astype(np.int8)
RANGE_8 = F(F(F(2.0) / F(127)) * F(F(0.5) / F(127))) * F(2147483648.0)  # int8 data, int8 w


def _conv_ref(x, w, b, *r, **k):
    x, w = x.astype(np.int64), w.astype(np.int64)
    n, _, h, wd = x.shape
    out = np.zeros((n, w.shape[0], h - 1, wd - 1), np.int64)
    for i in range(h - 1):
        for j in range(wd - 1):
            out[:, :, i, j] = np.einsum("ncij,fcij->nf", x[:, :, i : i + 2, j : j + 2], w)
    out += b.astype(np.int64)[None, :, None, None]  # oneDNN adds the int8 bias unscaled
    return [out.astype(np.int32), [-RANGE_8], [RANGE_8]]


def _fc_ref(x, w, b, lo_d, hi_d, lo_w, hi_w, lo_b, hi_b, **k):
    acc = x.reshape(x.shape[0], -1).astype(np.int64) @ w.astype(np.int64).T
    rescale = F(F(F(127.5) / F(2.0)) * F(F(127.5) / F(0.5))) * F(0.7)
    acc += np.trunc(b.astype(F) * F(rescale / F(127.5))).astype(np.int64)
    return [acc.astype(np.int32), [-RANGE_8], [RANGE_8]]


def _pool_ref(x, lo, hi, **k):
    n, c, h, w = x.shape
    return [x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5)), lo, hi]


def _add_ref(a, b, la, ha, lb, hb, **k):
    out = np.rint(a.astype(F) * F(F(2.0 * F(2147483648.0)) / F(F(3.0) * F(127.5)))
                  + b.astype(F) * F(F(1.0 * F(2147483648.0)) / F(F(3.0) * F(127.5))))  # fmt: skip
    return [out.astype(np.int32), [-3.0], [3.0]]


def _concat_ref(a, b, la, ha, lb, hb, **k):
    scaled = np.clip(np.rint(a.astype(F) * F(F(127.5 / F(2.0)) / F(127.5 / F(1.0)))), -128, 127)
    return [np.concatenate([scaled.astype(np.int8), b], axis=1), [-1.0], [2.0]]


RECORDS = [
    Record(
        "_contrib_quantized_conv",
        [XU, W, B, LO, HI, WLO, WHI, BLO, BHI],
        {"kernel": (2, 2), "num_filter": 3},
        ref=_conv_ref,
        symbolic=False,
    ),  # fmt: skip
    Record(
        "_contrib_quantized_fully_connected",
        [X8, FW, B, LO, HI, WLO, WHI, BLO, BHI],
        {"num_hidden": 3},
        ref=_fc_ref,
        symbolic=False,
    ),  # fmt: skip
    Record(
        "_contrib_quantized_pooling",
        [X8, LO, HI],
        {"kernel": (2, 2), "stride": (2, 2), "pool_type": "max"},
        ref=_pool_ref,
        symbolic=False,
    ),  # fmt: skip
    Record(
        "_contrib_quantized_act",
        [X8, LO, HI],
        {"act_type": "relu"},
        ref=lambda x, lo, hi, **k: [np.maximum(x, 0), lo, hi],
        symbolic=False,
    ),  # fmt: skip
    Record(
        "_contrib_quantized_flatten",
        [X8, LO, HI],
        {},
        ref=lambda x, lo, hi, **k: [x.reshape(2, -1), lo, hi],
        symbolic=False,
    ),  # fmt: skip
    Record(
        "_contrib_quantized_elemwise_add",
        [X8, X8[::-1].copy(), LO, HI, LO / 2, HI / 2],
        {},
        ref=_add_ref,
        symbolic=False,
    ),  # fmt: skip
    Record(
        "_contrib_quantized_concat",
        [X8, X8[:, :1].copy(), LO / 2, HI / 2, LO, HI],
        {"num_args": 2, "dim": 1},
        ref=_concat_ref,
        symbolic=False,
    ),  # fmt: skip
    Record(
        "_contrib_quantized_embedding",
        [np.array([[0, 2], [1, 1]], F), FW[:, :4].copy(), WLO, WHI],
        {"input_dim": 3, "output_dim": 4},
        ref=lambda d, w, lo, hi, **k: [w[d.astype(int)], lo, hi],
        symbolic=False,
    ),  # fmt: skip
]
RANGE_MUL = F(F(F(2.0) / F(127)) * F(F(2.0) / F(127))) * F(2147483648.0)


def _bn_check(outs, ins):
    assert outs[0].dtype == np.int8 and outs[0].shape == ins[0].shape
    assert outs[1].tolist() == [-3.0] and outs[2].tolist() == [2.5]


RECORDS += [
    Record(
        "_contrib_quantized_elemwise_mul",
        [X8, X8[::-1].copy(), LO, HI, LO, HI],
        {},
        ref=lambda a, b, *r, **k: [a.astype(np.int32) * b, [-RANGE_MUL], [RANGE_MUL]],
        symbolic=False,
    ),  # fmt: skip
    Record(
        "_contrib_quantized_batch_norm",
        [X8, np.ones(2, F), np.zeros(2, F), np.zeros(2, F), np.ones(2, F), LO, HI],
        {"min_calib_range": -3.0, "max_calib_range": 2.5},
        check=_bn_check,
        symbolic=False,
    ),  # fmt: skip
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


def test_quantized_batch_norm_needs_a_calibration_range():
    ins = [mx.nd.array(x, dtype=x.dtype) for x in RECORDS[-1].inputs]
    out = mx.nd.contrib.quantized_batch_norm(*ins)
    with pytest.raises(MXNetError, match="calib_mode=None"):
        out[0].asnumpy()


def test_quantized_symbols_infer_like_mxnet():
    d = mx.sym.var("data")
    s = mx.sym.contrib.quantized_conv(data=d, kernel=(3, 3), num_filter=4, name="qc")
    assert s.list_arguments() == ["data", "qc_weight", "qc_bias", "qc_min_data", "qc_max_data",
                                  "qc_min_weight", "qc_max_weight", "qc_min_bias",
                                  "qc_max_bias"]  # fmt: skip
    args, outs, _ = s.infer_shape(data=(2, 3, 6, 6))
    assert args[1:3] == [(4, 3, 3, 3), (4,)] and outs == [(2, 4, 4, 4), (1,), (1,)]
    _, types, _ = s.infer_type(data="uint8")
    assert types == [np.int32, np.float32, np.float32]
    c = mx.sym.contrib.quantized_concat(d, mx.sym.var("b"), dim=1, name="qcat")
    assert c.list_arguments() == ["data", "b", "qcat_arg0_min", "qcat_arg0_max",
                                  "qcat_arg1_min", "qcat_arg1_max"]  # fmt: skip
    a = mx.sym.contrib.quantized_act(data=d, act_type="relu")
    assert a.infer_type(data="uint8")[1][0] == np.int8  # MXNet 1.9.1: always int8
    bn = mx.sym.contrib.quantized_batch_norm(data=d, name="qbn")
    assert bn.list_auxiliary_states() == ["qbn_moving_mean", "qbn_moving_var"]
    assert bn.infer_shape(data=(2, 3, 4, 4))[0][1] == (3,)


def test_quantized_conv_refuses_int8_data():
    out = mx.nd.contrib.quantized_conv(
        *[mx.nd.array(x, dtype=x.dtype) for x in (X8, W, B, LO, HI, WLO, WHI, BLO, BHI)],
        kernel=(2, 2), num_filter=3,
    )  # fmt: skip
    assert out[0].shape == (2, 3, 3, 3)  # as MXNet, the failure is reported on read
    with pytest.raises(MXNetError, match="only supports uint8"):
        out[0].asnumpy()


def test_quantized_concat_nd_requires_the_count():
    ins = [mx.nd.array(x, dtype=x.dtype) for x in (X8, X8, LO, HI, LO, HI)]
    with pytest.raises(MXNetError):
        mx.nd.contrib.quantized_concat(*ins, dim=1)


def test_quantized_conv_refuses_grouped_and_channel_last():
    ins = [mx.nd.array(x, dtype=x.dtype) for x in (XU, W, B, LO, HI, WLO, WHI, BLO, BHI)]
    with pytest.raises(MXNetError, match="num_group=1"):
        mx.nd.contrib.quantized_conv(*ins, kernel=(2, 2), num_filter=3, num_group=2)
    s = mx.sym.contrib.quantized_conv(mx.sym.var("d"), kernel=(3, 3), num_filter=4,
                                      layout="NHWC")  # fmt: skip
    with pytest.raises(MXNetError, match="NCHW or NCDHW"):
        s.infer_shape(d=(2, 6, 6, 3))


def test_quantized_avg_pooling_divides_by_the_kernel_size():
    """oneDNN (MXNet 1.9.1) counts the 'full' convention's overhang in the divisor."""
    x = np.arange(36, dtype=np.int8).reshape(1, 1, 6, 6)
    out = mx.nd.contrib.quantized_pooling(
        mx.nd.array(x, dtype="int8"), mx.nd.array([-1.0]), mx.nd.array([1.0]),
        kernel=(3, 3), stride=(2, 2), pool_type="avg", pooling_convention="full",
    )[0].asnumpy()  # fmt: skip
    assert out[0, 0, 2, 2] == np.rint(x[0, 0, 4:, 4:].sum() / 9)
    assert out[0, 0, 0, 0] == np.rint(x[0, 0, :3, :3].sum() / 9)
    with pytest.raises(MXNetError, match="4D/5D"):
        mx.nd.contrib.quantized_pooling(
            mx.nd.array(x[0], dtype="int8"), mx.nd.array([-1.0]), mx.nd.array([1.0]),
            kernel=(2,), pool_type="max",
        )  # fmt: skip


def test_quantized_concat_symbol_takes_its_ranges_positionally():
    v = [mx.sym.var(n) for n in "abcdef"]
    s = mx.sym.contrib.quantized_concat(*v, num_args=2, dim=1, name="qc")
    assert s.list_arguments() == list("abcdef")
    with pytest.raises(MXNetError, match="num_args=2 but 3 inputs"):
        mx.sym.contrib.quantized_concat(*v[:3], num_args=2)


def test_quantized_act_on_uint8_keeps_onednn_uint8_memory():
    """MXNet 1.9.1: quantized_act returns uint8 data typed int8; the next oneDNN operators
    read the uint8 memory (flatten saturates it to int8, dequantize reads 0..255, pooling
    cannot run)."""
    s = mx.sym
    q = s.contrib.quantize_v2(s.var("data"), out_type="uint8", min_calib_range=0.0,
                              max_calib_range=0.5)  # fmt: skip
    a = s.contrib.quantized_act(q[0], q[1], q[2], act_type="relu")
    x = mx.nd.array([[[[0.5, 0.25], [0.0, 0.07]]]])  # -> uint8 255, 128, 0, 36

    def run(sym):
        return sym.bind(mx.cpu(), args={"data": x}).forward()[0]

    assert run(a[0]).asnumpy().ravel().tolist() == [-1, -128, 0, 36]
    assert run(s.contrib.quantized_flatten(a[0], a[1], a[2])[0]).asnumpy().tolist() == [
        [127, 127, 0, 36]
    ]
    deq = run(s.contrib.dequantize(a[0], a[1], a[2])).asnumpy().ravel()
    np.testing.assert_allclose(deq, np.array([255, 128, 0, 36]) * (0.5 / 127.5), rtol=1e-6)
    add = run(s.contrib.quantized_elemwise_add(a[0], a[0], a[1], a[2], a[1], a[2])[0])
    assert add.asnumpy().ravel()[[0, 2]].tolist() == [-(2**31), 0]  # 2*255 overflows
    pool = run(s.contrib.quantized_pooling(a[0], a[1], a[2], kernel=(1, 1), pool_type="max")[0])
    with pytest.raises(MXNetError, match="primitive descriptor"):
        pool.asnumpy()
