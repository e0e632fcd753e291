"""NaN/Inf handling as in MXNet 1.9.1 (expected values taken from the real MXNet)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon

NAN, INF = float("nan"), float("inf")
X = [1.0, NAN, INF, -INF, 0.0, -2.5]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_isnan_isinf_isfinite(dtype):
    x = mx.nd.array(X, dtype=dtype)
    for name, want in (("isnan", [0, 1, 0, 0, 0, 0]), ("isinf", [0, 0, 1, 1, 0, 0]),
                       ("isfinite", [1, 0, 0, 0, 1, 1])):
        out = getattr(mx.nd.contrib, name)(x)
        assert out.dtype == np.dtype(dtype), name
        assert out.asnumpy().tolist() == want, name


def test_integer_inputs_keep_dtype():
    x = mx.nd.array([1, 2, 0], dtype="int32")
    assert mx.nd.contrib.isnan(x).asnumpy().tolist() == [0, 0, 0]
    assert mx.nd.contrib.isinf(x).asnumpy().tolist() == [0, 0, 0]
    assert mx.nd.contrib.isfinite(x).asnumpy().tolist() == [1, 1, 1]
    assert mx.nd.contrib.isfinite(x).dtype == np.int32


def test_minimum_maximum_propagate_nan():
    a, b = mx.nd.array([NAN, 1.0, NAN]), mx.nd.array([1.0, NAN, NAN])
    for out in (mx.nd.broadcast_minimum(a, b), mx.nd.broadcast_maximum(a, b)):
        assert np.isnan(out.asnumpy()).all()


def _clip(values, check):
    arrs = [mx.nd.array(v) for v in values]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        norm = gluon.utils.clip_global_norm(arrs, 1.0, check_isfinite=check)
    msgs = [str(w.message) for w in caught]
    return norm, [a.asnumpy().tolist() for a in arrs], msgs


def test_clip_global_norm_finite():
    norm, arrs, msgs = _clip([[3.0, 4.0], [0.0]], True)
    assert isinstance(norm, np.float32) and norm == 5.0 and not msgs
    np.testing.assert_allclose(arrs[0], [0.6, 0.8], rtol=1e-6)
    norm, _, _ = _clip([[3.0, 4.0], [0.0]], False)
    assert isinstance(norm, mx.nd.NDArray) and norm.asnumpy().tolist() == [5.0]


@pytest.mark.parametrize("bad", [NAN, INF])
def test_clip_global_norm_nonfinite(bad):
    norm, arrs, msgs = _clip([[bad, 1.0] if bad != INF else [bad]], True)
    assert not np.isfinite(norm)
    assert msgs == ["nan or inf is detected. Clipping results will be undefined."]
    assert all(np.isnan(v) for v in arrs[0])  # MXNet scales by nan (or 0 * inf)
    norm, arrs, msgs = _clip([[bad, 1.0] if bad != INF else [bad]], False)
    assert isinstance(norm, mx.nd.NDArray) and not msgs
    assert all(np.isnan(v) for v in arrs[0])
