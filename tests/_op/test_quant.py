"""quantize_v2 / requantize: records and MXNet 1.9.1 (oracle) outputs."""

import numpy as np
import pytest

import mxnet as mx
from tests._op.harness import Record, run_record

X = np.array([[-0.5, -0.1, 0.0, 0.1, 0.3, 0.5, 0.8, 1.0]], np.float32)
Q = np.array([[100, -20000, 300, 5000]], np.int32)
LO, HI = np.array([-1.0], np.float32), np.array([1.0], np.float32)

# (params, quantized, min, max) produced by MXNet 1.9.1 on X
V2 = [
    ({"out_type": "uint8"}, [0, 0, 0, 26, 77, 128, 204, 255], -0.5, 1.0),
    (
        {"out_type": "uint8", "min_calib_range": -0.2, "max_calib_range": 0.8},
        [0, 0, 0, 32, 96, 160, 255, 255],
        -0.2,
        0.8,
    ),
    ({"out_type": "int8"}, [-64, -13, 0, 13, 38, 64, 102, 127], -1.0, 1.0),
    (
        {"out_type": "int8", "min_calib_range": -0.2, "max_calib_range": 0.8},
        [-80, -16, 0, 16, 48, 80, 127, 127],
        -0.8,
        0.8,
    ),
    (
        {"out_type": "auto", "min_calib_range": 0.0, "max_calib_range": 0.8},
        [0, 0, 0, 32, 96, 160, 255, 255],
        0.0,
        0.8,
    ),
]
# (params, quantized, min, max) produced by MXNet 1.9.1 on Q with range (-1, 1)
REQ = [
    ({}, [1, -127, 2, 32], -9.313225746154785e-06, 9.313225746154785e-06),
    (
        {"out_type": "auto", "min_calib_range": 0.0, "max_calib_range": 5e-6},
        [2, 0, 7, 119],
        0.0,
        5e-6,
    ),
    ({"out_type": "uint8"}, [1, 0, 4, 64], 0.0, 9.313225746154785e-06),
]


@pytest.mark.parametrize("params,want,lo,hi", V2)
def test_quantize_v2_matches_mxnet(params, want, lo, hi):
    q, mn, mx_ = mx.nd.contrib.quantize_v2(mx.nd.array(X), **params)
    assert q.asnumpy().ravel().tolist() == want
    np.testing.assert_allclose([mn.asscalar(), mx_.asscalar()], [lo, hi], rtol=1e-6)
    assert mn.dtype == np.float32


@pytest.mark.parametrize("params,want,lo,hi", REQ)
def test_requantize_matches_mxnet(params, want, lo, hi):
    q, mn, mx_ = mx.nd.contrib.requantize(
        mx.nd.array(Q, dtype="int32"), mx.nd.array(LO), mx.nd.array(HI), **params
    )
    assert q.asnumpy().ravel().tolist() == want
    np.testing.assert_allclose([mn.asscalar(), mx_.asscalar()], [lo, hi], rtol=1e-6)


def test_quant_symbols():
    s = mx.sym.contrib.requantize(mx.sym.var("x"), mx.sym.var("a"), mx.sym.var("b"), name="r")
    assert s.list_outputs() == ["r_output0", "r_output1", "r_output2"]
    _, out_types, _ = s.infer_type(x="int32")
    assert out_types == [np.int8, np.float32, np.float32]
    s = mx.sym.contrib.quantize_v2(mx.sym.var("x"), out_type="uint8", name="q")
    assert s.infer_type(x="float32")[1] == [np.uint8, np.float32, np.float32]
    out = s.eval(x=mx.nd.array(X))
    assert out[0].asnumpy().ravel().tolist() == V2[0][1]


RECORDS = [
    Record(
        "_contrib_quantize_v2",
        [X],
        {"out_type": "int8"},
        ref=lambda x, **k: [np.array([V2[2][1]], np.int8), np.array([-1.0]), np.array([1.0])],
        symbolic=False,
    ),
    Record(
        "_contrib_requantize",
        [Q, LO, HI],
        {},
        ref=lambda q, lo, hi, **k: [np.array([REQ[0][1]], np.int8), [REQ[0][2]], [REQ[0][3]]],
        symbolic=False,
    ),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


def test_requantize_rounds_half_to_even_and_saturates_like_onednn():
    """MXNet 1.9.1's CPU requantize is a oneDNN reorder: ties go to even, int8 reaches -128."""
    d = mx.nd.array(np.arange(-12, 12) * 100000000, dtype="int32")
    lo, hi = mx.nd.array([-1.0]), mx.nd.array([1.0])
    q, _, mx_ = mx.nd.contrib.requantize(d, lo, hi, out_type="uint8")
    assert q.asnumpy().tolist()[12:] == [0, 21, 42, 64, 85, 106, 128, 149, 170, 191, 212, 234]
    np.testing.assert_allclose(mx_.asnumpy(), [0.55879354], rtol=1e-7)
    q, mn, _ = mx.nd.contrib.requantize(d, lo, hi, min_calib_range=-0.3, max_calib_range=0.3)
    assert q.asnumpy().tolist()[:8] == [-128, -128, -128, -128, -128, -128, -118, -99]
    assert mn.asnumpy().tolist() == [np.float32(-0.3)]
