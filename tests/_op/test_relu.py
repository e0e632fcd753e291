"""relu as MXNet 1.9.1 computes it on CPU (mxnet/_op/_relu.py): zeros of either sign give
+0; Activation(act_type='relu') (oneDNN's max(x, 0)) turns NaN into 0 with gradient 0, the
relu operator keeps NaN. Expected values recorded from the oracle."""

import numpy as np
import pytest
import torch

import mxnet as mx
from mxnet._op import _relu

NAN, INF = float("nan"), float("inf")
X = [NAN, -0.0, 0.0, -1.0, 2.0, INF, -INF]
ACT = [0.0, 0.0, 0.0, 0.0, 2.0, INF, 0.0]  # mx.nd.Activation(x, act_type='relu')
ACT_GRAD = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0]
RELU = [NAN, 0.0, 0.0, 0.0, 2.0, INF, 0.0]  # mx.nd.relu(x), npx.relu


def _check(got, want):
    got = np.asarray(got, dtype=np.float64).ravel()[: len(want)]
    np.testing.assert_array_equal(got, want)
    assert not np.signbit(got).any()  # +0, never -0


RELU_GRAD = [NAN, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0]  # MXNet 1.9.1: NaN at NaN


@pytest.fixture(params=["native", "torch"])
def path(request, monkeypatch):
    if request.param == "torch":
        monkeypatch.setattr(_relu, "_KERNEL", [None])
        monkeypatch.setattr(_relu, "_BWD", [None])
    return request.param


@pytest.mark.parametrize("n", [7, 7 * 3000])
def test_relu_operator_gradient_is_nan_at_nan(path, n):
    for fn in (mx.nd.relu, lambda v: mx.npx.relu(v.as_np_ndarray())):
        x = mx.nd.array(np.resize(np.array(X), n))
        x.attach_grad()
        with mx.autograd.record():
            y = fn(x)
        y.backward()
        np.testing.assert_array_equal(x.grad.asnumpy()[:7], RELU_GRAD)


@pytest.mark.parametrize("n", [7, 7 * 3000])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_activation_relu_nan_and_signed_zero(path, n, dtype):
    x = mx.nd.array(np.resize(np.array(X), n), dtype=dtype)
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Activation(x, act_type="relu")
    y.backward(mx.nd.ones_like(y))
    _check(y.asnumpy(), ACT)
    np.testing.assert_array_equal(x.grad.asnumpy()[:7], ACT_GRAD)


def test_relu_operator_keeps_nan(path):
    x = mx.nd.array(X)
    _check(mx.nd.relu(x).asnumpy(), RELU)
    _check(mx.npx.relu(x.as_np_ndarray()).asnumpy(), RELU)


def test_symbolic_activation_and_channels_last():
    ex = mx.sym.Activation(mx.sym.var("a"), act_type="relu").bind(
        mx.cpu(), {"a": mx.nd.array(X)}, args_grad={"a": mx.nd.zeros(7)})
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones(7))
    _check(ex.outputs[0].asnumpy(), ACT)
    np.testing.assert_array_equal(ex.grad_dict["a"].asnumpy(), ACT_GRAD)
    x = torch.randn(2, 16, 5, 5).to(memory_format=torch.channels_last)
    x[1, 3, 2, 2] = NAN
    y = _relu.relu(x, keep_nan=False)
    assert y.is_contiguous(memory_format=torch.channels_last)
    assert torch.equal(y, torch.relu(x).nan_to_num(0.0))


def test_integer_and_large_arrays():
    assert mx.nd.relu(mx.nd.array([3, -2], dtype="int32")).asnumpy().tolist() == [3, 0]
    x = torch.randn(1 << 23)  # past the streaming-store size
    x[::1000] = -0.0
    x[5::1000] = NAN
    y = _relu.relu(x, keep_nan=False)
    want = torch.where(x > 0, x, torch.zeros(()))
    assert torch.equal(y, want) and not torch.signbit(y).any()
