"""SoftmaxOutput(multi_output=True) takes labels shaped (N, H*W), (N, H, W) or (N, 1, H, W),
as MXNet 1.9.1 (segmentation heads such as Deformable-ConvNets' DeepLab bind (N, H, W))."""

import numpy as np
import pytest

import mxnet as mx


def _sym():
    return mx.sym.SoftmaxOutput(
        mx.sym.var("data"),
        mx.sym.var("softmax_label"),
        multi_output=True,
        use_ignore=True,
        ignore_label=255,
        normalization="valid",
        name="softmax",
    )


@pytest.mark.parametrize("lshape", [(2, 12), (2, 3, 4), (2, 1, 3, 4)])
def test_label_shapes_infer_and_train(lshape):
    sym = _sym()
    arg, out, _ = sym.infer_shape(data=(2, 5, 3, 4), softmax_label=lshape)
    assert arg == [(2, 5, 3, 4), lshape] and out == [(2, 5, 3, 4)]
    rs = np.random.RandomState(0)
    x = rs.normal(size=(2, 5, 3, 4)).astype(np.float32)
    y = rs.randint(0, 5, (2, 12)).astype(np.float32)
    y[0, :3] = 255
    ex = sym.simple_bind(mx.cpu(), data=(2, 5, 3, 4), softmax_label=lshape)
    ex.forward(is_train=True, data=x, softmax_label=y.reshape(lshape))
    ex.backward()
    p = np.exp(x) / np.exp(x).sum(1, keepdims=True)
    onehot = np.eye(5, dtype=np.float32)[y.clip(0, 4).astype(int)].reshape(2, 3, 4, 5)
    g = (p - onehot.transpose(0, 3, 1, 2)) * (y.reshape(2, 1, 3, 4) != 255)
    np.testing.assert_allclose(
        ex.grad_dict["data"].asnumpy(), g / (y != 255).sum(), rtol=1e-5, atol=1e-6
    )


def test_other_label_shape_still_rejected():
    with pytest.raises(mx.base.MXNetError):
        _sym().infer_shape(data=(2, 5, 3, 4), softmax_label=(2, 4, 3))
