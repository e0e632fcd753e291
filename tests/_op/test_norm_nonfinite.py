"""Training BatchNorm with a NaN or Inf in its input, on the native kernel route (float32
arrays large enough for it, both layouts): MXNet 1.9.1 gives that channel a NaN batch
variance, so its moving variance turns NaN and (Inf input) its whole output is NaN."""

import numpy as np
import pytest

import mxnet as mx


def _bn(x, axis):
    c = x.shape[axis]
    mm, mv = mx.nd.zeros(c), mx.nd.ones(c)
    data = mx.nd.array(x)
    data.attach_grad()
    with mx.autograd.record(train_mode=True):
        y = mx.nd.BatchNorm(data, mx.nd.ones(c), mx.nd.zeros(c), mm, mv, fix_gamma=False, axis=axis)
    y.backward()  # MXNet 1.9.1 folds the batch statistics into the moving ones here
    return y.asnumpy(), mm.asnumpy(), mv.asnumpy()


@pytest.mark.parametrize("axis", [1, 3])
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_batchnorm_nonfinite_input_gives_nan_variance(axis, bad):
    x = np.random.RandomState(0).randn(4, 8, 64, 64).astype(np.float32)
    x[1, 2, 5, 5] = bad
    if axis == 3:
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    y, mm, mv = _bn(x, axis)
    assert np.isnan(mv[2])
    assert np.isfinite(np.delete(mv, 2)).all() and np.isfinite(np.delete(mm, 2)).all()
    ych = np.take(y, 2, axis=axis)
    if np.isinf(bad):
        assert np.isinf(mm[2]) and np.isnan(ych).all()
    else:
        assert np.isnan(mm[2]) and np.isnan(ych).all()
    assert np.isfinite(np.delete(y, 2, axis=axis)).all()
