"""Every layer: eager == hybridized == exported-and-imported (outputs and gradients)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.gluon import contrib, nn

from ._util import check_layer

rng = np.random.RandomState(0)


def U(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


CASES = {
    "dense": (lambda: nn.Dense(4, activation="relu"), [U(3, 5)]),
    "dense_noflat": (lambda: nn.Dense(4, flatten=False, use_bias=False), [U(2, 3, 5)]),
    "dense_in_units": (lambda: nn.Dense(2, in_units=6), [U(2, 2, 3)]),
    "conv1d": (lambda: nn.Conv1D(3, 3, padding=1), [U(2, 2, 7)]),
    "conv2d": (
        lambda: nn.Conv2D(4, (3, 2), strides=(2, 1), dilation=(1, 2), groups=2, activation="tanh"),
        [U(2, 4, 7, 7)],
    ),
    "conv3d": (lambda: nn.Conv3D(2, 2, use_bias=False), [U(1, 2, 4, 4, 4)]),
    "conv1dT": (lambda: nn.Conv1DTranspose(2, 3, strides=2), [U(2, 3, 4)]),
    "conv2dT": (
        lambda: nn.Conv2DTranspose(3, 3, strides=2, padding=1, output_padding=1),
        [U(1, 2, 4, 4)],
    ),
    "conv3dT": (lambda: nn.Conv3DTranspose(2, 2), [U(1, 2, 3, 3, 3)]),
    "maxpool1d": (lambda: nn.MaxPool1D(), [U(2, 3, 8)]),
    "maxpool2d": (lambda: nn.MaxPool2D(3, 2, ceil_mode=True), [U(2, 3, 8, 8)]),
    "maxpool3d": (lambda: nn.MaxPool3D(), [U(1, 2, 4, 4, 4)]),
    "avgpool1d": (lambda: nn.AvgPool1D(3, 2, 1, count_include_pad=False), [U(2, 3, 8)]),
    "avgpool2d": (lambda: nn.AvgPool2D(2, padding=1), [U(2, 3, 7, 7)]),
    "avgpool3d": (lambda: nn.AvgPool3D(), [U(1, 2, 4, 4, 4)]),
    "gmax1d": (lambda: nn.GlobalMaxPool1D(), [U(2, 3, 5)]),
    "gmax2d": (lambda: nn.GlobalMaxPool2D(), [U(2, 3, 5, 4)]),
    "gmax3d": (lambda: nn.GlobalMaxPool3D(), [U(1, 2, 3, 3, 3)]),
    "gavg1d": (lambda: nn.GlobalAvgPool1D(), [U(2, 3, 5)]),
    "gavg2d": (lambda: nn.GlobalAvgPool2D(), [U(2, 3, 5, 4)]),
    "gavg3d": (lambda: nn.GlobalAvgPool3D(), [U(1, 2, 3, 3, 3)]),
    "batchnorm": (lambda: nn.BatchNorm(), [U(4, 3, 2, 2)]),
    "batchnorm_axis": (lambda: nn.BatchNorm(axis=-1, center=False), [U(4, 2, 3)]),
    "syncbn": (lambda: contrib.nn.SyncBatchNorm(), [U(4, 3, 2)]),
    "instancenorm": (lambda: nn.InstanceNorm(scale=True), [U(2, 3, 5)]),
    "layernorm": (lambda: nn.LayerNorm(), [U(2, 3, 5)]),
    "groupnorm": (lambda: nn.GroupNorm(2), [U(2, 4, 3)]),
    "embedding": (lambda: nn.Embedding(6, 3), [np.array([[0, 2], [5, 1]], np.float32)]),
    "flatten": (lambda: nn.Flatten(), [U(2, 3, 4)]),
    "activation": (lambda: nn.Activation("softrelu"), [U(2, 3)]),
    "leakyrelu": (lambda: nn.LeakyReLU(0.2), [U(2, 3)]),
    "prelu": (lambda: nn.PReLU(), [U(2, 3)]),
    "elu": (lambda: nn.ELU(0.5), [U(2, 3)]),
    "selu": (lambda: nn.SELU(), [U(2, 3)]),
    "swish": (lambda: nn.Swish(2.0), [U(2, 3)]),
    "gelu": (lambda: nn.GELU(), [U(2, 3)]),
    "reflectionpad": (lambda: nn.ReflectionPad2D(1), [U(1, 2, 3, 3)]),
    "hybridlambda": (lambda: nn.HybridLambda("tanh"), [U(2, 3)]),
    "identity": (lambda: contrib.nn.Identity(), [U(2, 3)]),
    "pixelshuffle1d": (lambda: contrib.nn.PixelShuffle1D(2), [U(1, 4, 3)]),
    "pixelshuffle2d": (lambda: contrib.nn.PixelShuffle2D((2, 3)), [U(1, 12, 2, 3)]),
    "pixelshuffle3d": (lambda: contrib.nn.PixelShuffle3D(2), [U(1, 16, 2, 1, 2)]),
}


def _embedding_grad_ok(name):
    return name != "embedding"


@pytest.mark.parametrize("name", sorted(CASES))
def test_layer_modes(name, tmp_path):
    make, inputs = CASES[name]
    check_layer(
        make(),
        inputs,
        tmp_path,
        train=name.startswith(("batchnorm", "syncbn")),
        input_grad=_embedding_grad_ok(name),
    )


def test_dropout_train_and_predict(tmp_path):
    check_layer(nn.Dropout(0.5), [U(3, 4)], tmp_path)  # predict mode: identity
    d = nn.Dropout(0.5)
    x = mx.nd.ones((200, 50))
    with mx.autograd.record():
        y = d(x).asnumpy()
    assert set(np.unique(y)) <= {0.0, 2.0}
    assert 0.4 < (y == 0).mean() < 0.6
    d2 = nn.Dropout(0.5, axes=(1,))
    with mx.autograd.record():
        y = d2(mx.nd.ones((4, 6))).asnumpy()
    assert (y == y[:, :1]).all()  # the mask is shared along axis 1


def test_containers(tmp_path):
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Dense(4, activation="relu"), nn.Dense(3))
    check_layer(net, [U(2, 5)], tmp_path)
    cc = contrib.nn.HybridConcurrent(axis=1)
    with cc.name_scope():
        cc.add(nn.Dense(2), nn.Dense(3), contrib.nn.Identity())
    check_layer(cc, [U(2, 4)], tmp_path)
    c2 = contrib.nn.Concurrent()
    with c2.name_scope():
        c2.add(nn.Dense(2), nn.Dense(1))
    c2.initialize()
    assert c2(mx.nd.ones((3, 4))).shape == (3, 3)


def test_sequential_indexing():
    net = nn.Sequential()
    with net.name_scope():
        net.add(nn.Dense(4), nn.Dense(3), nn.Dense(2))
    assert len(net) == 3
    assert net[1] is list(net._children.values())[1]
    sub = net[1:]
    assert isinstance(sub, nn.Sequential) and len(sub) == 2
    assert sub[0] is net[1]
    h = nn.HybridSequential()
    h.add(nn.Dense(2), nn.Dense(3))
    assert isinstance(h[:1], nn.HybridSequential)


def test_lambda():
    lam = nn.Lambda("tanh")
    x = mx.nd.array(U(2, 3))
    np.testing.assert_allclose(lam(x).asnumpy(), np.tanh(x.asnumpy()), rtol=1e-6)
    lam2 = nn.Lambda(lambda a, b: a + b)
    assert lam2(x, x).shape == (2, 3)
    with pytest.raises(AssertionError):
        nn.Lambda("not_an_op")
    with pytest.raises(ValueError):
        nn.Lambda(3)


def test_numbers_match_numpy():
    d = nn.Dense(3, in_units=4)
    d.initialize()
    x = U(2, 4)
    w = d.weight.data().asnumpy()
    b = d.bias.data().asnumpy()
    np.testing.assert_allclose(d(mx.nd.array(x)).asnumpy(), x @ w.T + b, rtol=1e-5, atol=1e-6)
    assert d.bias.data().asnumpy().sum() == 0.0  # default bias init 'zeros'
    bn = nn.BatchNorm(in_channels=3)
    bn.initialize()
    x = U(4, 3, 2)
    y = bn(mx.nd.array(x)).asnumpy()  # predict mode: running stats 0/1
    np.testing.assert_allclose(y, x / np.sqrt(1 + 1e-5), rtol=1e-5)
    with mx.autograd.record():
        out = bn(mx.nd.array(x))
    assert bn.running_mean.data().asnumpy().tolist() == [0, 0, 0]  # MXNet: not in forward
    out.backward()  # the moving statistics move in BatchNorm's backward pass
    mean = x.mean(axis=(0, 2))
    np.testing.assert_allclose(bn.running_mean.data().asnumpy(), 0.1 * mean, rtol=1e-4, atol=1e-6)
