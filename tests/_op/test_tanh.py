"""tanh through oneDNN for large float32 arrays (``mxnet._op._tanh``): values and gradients
match the exact function on every route (Activation, nd.tanh, np.tanh, autograd)."""

import numpy as np
import pytest
import torch

import mxnet as mx
from mxnet._op import _tanh

rng = np.random.RandomState(3)


def _exact(x):
    return np.tanh(x.astype(np.float64))


@pytest.mark.parametrize("shape", [(7, 5), (4, 20, 24, 24)])  # below / above the threshold
def test_tanh_values_and_gradient(shape):
    xn = (rng.standard_normal(shape) * 3).astype(np.float32)
    xn.flat[:4] = [0.0, 1e-7, -30.0, np.nan]
    gn = rng.standard_normal(shape).astype(np.float32)
    for fn in (lambda v: mx.nd.Activation(v, act_type="tanh"), mx.nd.tanh):
        x = mx.nd.array(xn)
        x.attach_grad()
        with mx.autograd.record():
            y = fn(x)
        y.backward(mx.nd.array(gn))
        yv = y.asnumpy()
        assert yv.dtype == np.float32
        np.testing.assert_allclose(yv, _exact(xn), rtol=3e-7, atol=1e-30)
        np.testing.assert_allclose(x.grad.asnumpy(), gn * (1 - yv.astype(np.float64) ** 2),
                                   rtol=1e-5, atol=1e-7)
    out = mx.np.tanh(mx.np.array(xn)).asnumpy()
    np.testing.assert_allclose(out, _exact(xn), rtol=3e-7, atol=1e-30)


def test_large_inputs_take_the_onednn_route_and_strided_ones_do_not(monkeypatch):
    calls = []
    real = _tanh._onednn_tanh
    monkeypatch.setattr(_tanh, "_onednn_tanh", lambda t: calls.append(t.shape) or real(t))
    x = torch.randn(4, 20, 24, 24)
    cl = x.contiguous(memory_format=torch.channels_last)
    if torch.backends.mkldnn.is_available():
        torch.testing.assert_close(_tanh.tanh(x), torch.tanh(x), rtol=3e-7, atol=0)
        assert calls == [(4, 20, 24, 24)]
        y = _tanh.tanh(cl)  # channels-last: the same dense memory, kept channels-last
        assert calls[-1] == (4, 20, 24, 24) and len(calls) == 2
        assert y.is_contiguous(memory_format=torch.channels_last)
        torch.testing.assert_close(y, torch.tanh(x), rtol=3e-7, atol=0)
    strided = x[:, :, ::2]
    torch.testing.assert_close(_tanh.tanh(strided), torch.tanh(strided), rtol=0, atol=0)
    torch.testing.assert_close(_tanh.tanh(x.double()), torch.tanh(x.double()))
    assert len(calls) <= 2
