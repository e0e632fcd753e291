"""Records for the ``mx.nd.contrib`` operators of ``mxnet/_op/_contrib.py`` (NumPy
references; the interleaved attention matmuls against MXNet 1.9.1 golden values).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import mxnet as mx
from tests._op.harness import Record, run_record
from tests._op.test_detection import check_golden_grad, golden_record, load

rng = np.random.RandomState(3)
X = rng.uniform(-2, 2, (3, 4)).astype(np.float32)
MASK = np.array([1, 0, 2], np.float32)


def _arange_like(x, start=0.0, step=1.0, repeat=1, axis=None, **k):
    shape = x.shape if axis is None else (x.shape[axis],)
    n = int(np.prod(shape))
    return (start + np.floor(np.arange(n) / repeat) * step).reshape(shape).astype(x.dtype)


def _index_array(x, axes=None):
    idx = np.stack(np.meshgrid(*[np.arange(n) for n in x.shape], indexing="ij"), -1)
    return idx if axes is None else idx[..., list(axes)]


def _index_copy(old, idx, new):
    out = old.copy()
    out[idx.astype(int)] = new
    return out


def _round_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _fft(x, **k):
    c = np.fft.fft(x.astype(np.float64), axis=-1)
    return np.stack([c.real, c.imag], -1).reshape(x.shape[:-1] + (2 * x.shape[-1],))


def _ifft(x, **k):
    n = x.shape[-1] // 2
    p = x.reshape(x.shape[:-1] + (n, 2)).astype(np.float64)
    return (np.fft.ifft(p[..., 0] + 1j * p[..., 1], axis=-1) * n).real


RECORDS = [
    Record("_contrib_boolean_mask", [X, MASK], ref=lambda x, m, **k: x[m != 0], grad=True,
           grad_inputs=(0,), symbolic=False),
    Record("_contrib_index_copy", [X, np.array([2, 0], np.float32), X[:2] * 3],
           ref=lambda o, i, n: _index_copy(o, i, n), grad=True, grad_inputs=(0, 2)),
    Record("_contrib_index_array", [X], ref=lambda x: _index_array(x)),
    Record("_contrib_index_array", [np.zeros((2, 3, 2), np.float32)], {"axes": (-1, 0)},
           ref=lambda x, axes: _index_array(x, axes), name="index_array_axes"),
    Record("_contrib_arange_like", [X], {"start": 1.0, "step": 0.5, "repeat": 2},
           ref=_arange_like),
    Record("_contrib_arange_like", [X], {"axis": -1}, ref=_arange_like, name="arange_like_axis"),
    Record("_contrib_div_sqrt_dim", [X], ref=lambda x: x / math.sqrt(x.shape[-1]), grad=True),
    Record("_contrib_quadratic", [X], {"a": 1.5, "b": -2.0, "c": 0.5},
           ref=lambda x, a, b, c: a * x * x + b * x + c, grad=True, rtol=1e-4),
    Record("_contrib_allclose", [X, X + 1e-7], ref=lambda a, b: np.array(1, np.uint8)),
    Record("_contrib_allclose", [X, X + 1e-3], {"rtol": 0.0, "atol": 1e-4},
           ref=lambda a, b, **k: np.array(0, np.uint8), name="allclose_false"),
    Record("_contrib_round_ste", [X], ref=lambda x: _round_away(x)),
    Record("_contrib_sign_ste", [X], ref=lambda x: np.sign(x)),
    Record("_contrib_gradientmultiplier", [X], {"scalar": -0.5}, ref=lambda x, **k: x),
    Record("_contrib_fft", [X], ref=_fft, rtol=1e-4, atol=1e-4),
    Record("_contrib_ifft", [np.concatenate([X, X], 1)], ref=_ifft, rtol=1e-4, atol=1e-4),
    Record("_contrib_SparseEmbedding", [np.array([[0, 2], [1, 1]], np.float32),
                                        X[:, :2].copy()], {"input_dim": 3, "output_dim": 2},
           ref=lambda d, w, **k: w[d.astype(int)], grad=True, grad_inputs=(1,)),
]
QX = np.array([[0.1392, -0.5928], [0.6027, 0.8579]], np.float32)
LO, HI = np.array([-2.0], np.float32), np.array([1.0], np.float32)
RECORDS += [  # quantize values from MXNet 1.9.1 (range = max(|lo|, |hi|) = 2)
    Record("_contrib_quantize", [QX, LO, HI], {"out_type": "int8"},
           ref=lambda x, lo, hi, **k: [np.array([[9, -38], [38, 54]], np.int8),
                                       np.array([-2.0], np.float32), np.array([2.0], np.float32)]),
    Record("_contrib_quantize", [QX, LO, HI], name="quantize_uint8",
           ref=lambda x, lo, hi: [np.array([[18, 0], [77, 109]], np.uint8), lo, hi]),
    Record("_contrib_dequantize", [np.array([[9, -38], [38, 54]], np.int8), LO, HI],
           ref=lambda q, lo, hi: q.astype(np.float32) * (2.0 / 127.5)),
    Record("_contrib_dequantize", [np.array([[18, 0], [77, 109]], np.uint8), LO, HI],
           ref=lambda q, lo, hi: q.astype(np.float32) * (2.0 / 255.5), name="dequantize_uint8"),
]
RECORDS += [golden_record(n, rtol=1e-4, grad=False) for n in
            ("selfatt_qk", "selfatt_valatt", "encdec_qk", "encdec_valatt")]
RECORDS += [golden_record(n, rtol=1e-4) for n in ("dcn", "dcn_stride_dg", "mdcn", "psroi",
                                                  "psroi_group", "rroi", "rroi_scale", "dpsroi",
                                                  "dpsroi_notrans")]
RECORDS.append(Record("_contrib_PSROIPooling",
                      [rng.uniform(-1, 1, (1, 8, 4, 4)), np.array([[0, 0.6, 0, 2.4, 3]])],
                      {"spatial_scale": 1.0, "output_dim": 2, "pooled_size": 2}, grad=True,
                      grad_inputs=(0,), name="psroi_numeric"))


def _count_sketch(x, h, s, out_dim, **k):
    out = np.zeros((x.shape[0], out_dim))
    for i in range(x.shape[1]):
        out[:, int(h[0, i])] += s[0, i] * x[:, i]
    return out


RECORDS.append(Record("_contrib_count_sketch",
                      [X, np.array([[0, 2, 0, 1]], np.float32),
                       np.array([[1, -1, 1, -1]], np.float32)], {"out_dim": 3},
                      ref=_count_sketch, grad=True, grad_inputs=(0,)))
RECORDS.append(Record("_contrib_ModulatedDeformableConvolution",
                      [rng.uniform(-1, 1, (1, 1, 3, 3)), rng.uniform(-0.4, 0.4, (1, 8, 2, 2)),
                       rng.uniform(0, 1, (1, 4, 2, 2)), rng.uniform(-1, 1, (2, 1, 2, 2))],
                      {"kernel": (2, 2), "num_filter": 2, "no_bias": True}, grad=True,
                      name="mdcn_numeric", rtol=1e-4, atol=1e-5))
HAWKES = load("hawkes")
RECORDS.append(Record("_contrib_hawkesll", [HAWKES[f"in{i}"] for i in range(8)],
                      ref=lambda *a: [HAWKES["out0"], HAWKES["out1"]], rtol=1e-4, atol=1e-5))
RECORDS.append(Record("_contrib_interleaved_matmul_selfatt_qk",
                      [rng.uniform(-1, 1, (2, 1, 6)).astype(np.float32)], {"heads": 1},
                      grad=True, name="selfatt_qk_numeric"))


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("name", ["selfatt_qk", "selfatt_valatt", "encdec_qk", "encdec_valatt",
                                  "dcn", "dcn_stride_dg", "dpsroi", "dpsroi_notrans"])
def test_interleaved_grad(name):
    check_golden_grad(name)


def _grad_of(fn, x):
    a = mx.nd.array(x)
    a.attach_grad()
    with mx.autograd.record():
        y = fn(a)
    y.backward(mx.nd.ones(y.shape))
    return a.grad.asnumpy()


def test_straight_through_and_multiplier_gradients():
    np.testing.assert_array_equal(_grad_of(lambda a: mx.nd.contrib.round_ste(a * 2), X), 2)
    np.testing.assert_array_equal(_grad_of(lambda a: mx.nd.contrib.sign_ste(a), X), 1)
    g = _grad_of(lambda a: mx.nd.contrib.gradientmultiplier(a, scalar=3.0), X)
    np.testing.assert_array_equal(g, 3)


def test_boolean_mask_errors_and_empty():
    with pytest.raises(mx.base.MXNetError, match="Not supported"):
        mx.nd.contrib.boolean_mask(mx.nd.array(X), mx.nd.ones(4), axis=1)
    out = mx.nd.contrib.boolean_mask(mx.nd.array(X), mx.nd.zeros(3))
    assert out.shape == (0, 4)


def test_output_dtypes():
    assert mx.nd.contrib.allclose(mx.nd.ones(2), mx.nd.ones(2)).dtype == np.uint8
    assert mx.nd.contrib.index_array(mx.nd.ones((2, 2))).dtype == np.int64
    assert mx.nd.contrib.arange_like(mx.nd.ones(3, dtype="int32")).dtype == np.int32


def test_hawkesll_gradients():
    nds = [mx.nd.array(HAWKES[f"in{i}"], dtype=HAWKES[f"in{i}"].dtype) for i in range(8)]
    for a in nds[:3]:
        a.attach_grad()
    with mx.autograd.record():
        ll, _ = mx.nd.contrib.hawkesll(*nds)
    ll.backward()
    for i in range(3):
        np.testing.assert_allclose(nds[i].grad.asnumpy(), HAWKES[f"grad{i}"], rtol=1e-4,
                                   atol=1e-5, err_msg=f"hawkesll gradient of input {i}")


def test_rand_zipfian():
    true = mx.nd.array([3, 1, 0])
    samples, c_true, c_samp = mx.nd.contrib.rand_zipfian(true, 5, 10)
    assert samples.shape == (5,) and samples.dtype == np.int64
    assert ((samples.asnumpy() >= 0) & (samples.asnumpy() < 10)).all()
    want = np.log((true.asnumpy() + 2.0) / (true.asnumpy() + 1.0)) / np.log(11) * 5
    np.testing.assert_allclose(c_true.asnumpy(), want)  # MXNet 1.9.1: [0.4653 0.8455 1.4453]
    s = samples.asnumpy().astype(np.float64)
    np.testing.assert_allclose(c_samp.asnumpy(), np.log((s + 2) / (s + 1)) / np.log(11) * 5)
    sym = mx.sym.contrib.rand_zipfian(mx.sym.var("t"), 5, 10)
    outs = mx.sym.Group(list(sym)).bind(mx.cpu(), {"t": true}).forward()
    assert [o.dtype for o in outs] == [np.int64, np.float64, np.float64]
    np.testing.assert_allclose(outs[1].asnumpy(), want)
