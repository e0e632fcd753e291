"""Records for the softmax family."""

import numpy as np
import pytest

import mxnet as mx
from tests._op.harness import Record, run_record

rng = np.random.RandomState(2)
X = rng.uniform(-2, 2, (2, 3, 4)).astype(np.float32)
X2 = np.array([[1, 2, 3, 4], [2, 0, -1, 5]], np.float32)
L = np.array([2, 3], np.int32)


def _softmax(x, axis=-1, temperature=None, dtype=None, use_length=False):
    z = x.astype(np.float64) / (temperature or 1.0)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _masked_softmax(x, length, axis=-1, temperature=None, use_length=True, dtype=None):
    pos = np.arange(x.shape[axis]).reshape(1, -1)
    mask = pos < length[:, None]
    z = np.where(mask, x.astype(np.float64) / (temperature or 1.0), -np.inf)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return np.where(mask, e / e.sum(axis=-1, keepdims=True), 0)


def _dtype(expected):
    def check(outs, ins):
        assert outs[0].dtype == np.dtype(expected), f"dtype {outs[0].dtype} != {expected}"

    return check


RECORDS = [
    Record("softmax", [X], ref=_softmax, grad=True),
    Record("softmax", [X], {"axis": 1, "temperature": 2.0}, name="softmax_axis_temp",
           ref=_softmax, grad=True),
    Record("softmax", [X], {"dtype": "float64"}, name="softmax_dtype", ref=_softmax,
           check=_dtype(np.float64)),
    Record("softmax", [X2, L], {"use_length": True}, name="softmax_length",
           ref=_masked_softmax, grad=True),
    Record("softmax", [X2, L], {"use_length": True, "temperature": 2.0},
           name="softmax_length_temp", ref=_masked_softmax),
    Record("log_softmax", [X], ref=lambda x, **k: np.log(_softmax(x, **k)), grad=True),
    Record("log_softmax", [X], {"axis": 0}, name="log_softmax_axis0",
           ref=lambda x, **k: np.log(_softmax(x, **k))),
    Record("softmin", [X], {"temperature": 0.5}, ref=lambda x, **k: _softmax(-x, **k),
           grad=True),
    Record("SoftmaxActivation", [X2], ref=lambda x: _softmax(x, axis=-1), grad=True),
    Record("SoftmaxActivation", [X], {"mode": "channel"}, name="SoftmaxActivation_channel",
           ref=lambda x, mode: _softmax(x, axis=1), grad=True),
    Record("softmax_cross_entropy", [X2, np.array([3, 1], np.float32)], grad=True,
           grad_inputs=(0,),
           ref=lambda x, y: -np.log(_softmax(x))[np.arange(2), y.astype(int)].sum().reshape(1)),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


def test_oracle_values():
    # values printed by MXNet 1.9.1
    x = mx.nd.array(X2)
    out = mx.nd.softmax(x, mx.nd.array(L, dtype="int32"), use_length=True).asnumpy()
    np.testing.assert_allclose(out, [[0.26894143, 0.7310586, 0, 0],
                                     [0.8437947, 0.11419520, 0.04201007, 0]], rtol=1e-5)
    ce = mx.nd.softmax_cross_entropy(x, mx.nd.array([3, 1])).asnumpy()
    np.testing.assert_allclose(ce, [5.4975185], rtol=1e-5)
    y = mx.nd.array(np.arange(12).reshape(1, 3, 2, 2) / 5)
    inst = mx.nd.SoftmaxActivation(y).asnumpy().reshape(-1)[:3]
    np.testing.assert_allclose(inst, [0.45016599, 0.54983395, 0.45016599], rtol=1e-5)


def test_dtypes_and_errors():
    assert mx.nd.softmax(mx.nd.array(X).astype("float16")).dtype == np.float16
    with pytest.raises(mx.base.MXNetError, match="floating point"):
        mx.nd.softmax(mx.nd.array(X2, dtype="int32"))
    with pytest.raises(mx.base.MXNetError, match="integer"):
        mx.nd.softmax(mx.nd.array(X2), mx.nd.array([2.0, 3.0]), use_length=True)
    assert mx.nd.array(X2).softmax(axis=0).shape == (2, 4)


def test_length_needs_use_length():
    x, length = mx.nd.array(X2), mx.nd.array(L, dtype="int32")
    with pytest.raises(mx.base.MXNetError, match="expects 1 inputs"):
        mx.nd.softmax(x, length)
    with pytest.raises(mx.base.MXNetError, match="expects 2 inputs"):
        mx.nd.softmax(x, use_length=True)


def test_softmax_length_with_asnumpy_dtype_helpers():
    # MXNet's check_symbolic_* accept dtype="asnumpy": each array keeps its own dtype
    from mxnet.test_utils import (
        check_numeric_gradient,
        check_symbolic_backward,
        check_symbolic_forward,
    )

    x = np.random.RandomState(0).uniform(-1, 1, (2, 4, 3)).astype(np.float64)
    length = np.array([[4, 2, 1], [3, 4, 2]], np.int32)
    sym = mx.sym.softmax(mx.sym.var("data"), mx.sym.var("length"), use_length=True, axis=1)
    want = np.zeros_like(x)
    for i in range(2):
        for j in range(3):
            e = np.exp(x[i, :length[i, j], j] - x[i, :length[i, j], j].max())
            want[i, :length[i, j], j] = e / e.sum()
    loc = {"data": x, "length": length}
    check_symbolic_forward(sym, loc, [want], rtol=1e-6, atol=1e-8, dtype="asnumpy")
    check_symbolic_backward(sym, loc, [np.ones(x.shape)], [np.zeros(x.shape),
                            np.zeros(length.shape, np.int32)], dtype="asnumpy")
    check_numeric_gradient(mx.sym.softmax(mx.sym.var("data"), axis=1), [x], dtype=np.float64)
