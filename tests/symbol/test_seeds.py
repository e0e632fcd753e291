"""The seed programs (../shared/seeds/001_*, 000_*) run unchanged, on synthetic data."""

import numpy as np
import pytest

import mxnet as mx
import mxnet.symbol as sym
from mxnet._op import has_op

pytestmark = pytest.mark.skipif(
    not all(has_op(o) for o in ("FullyConnected", "Activation", "SoftmaxOutput",
                                "argmax_channel")),
    reason="nn operators not registered")


class ToyData:
    def __init__(self, num_classes, num_features, rng):
        self.num_classes = num_classes
        self.num_features = num_features
        self.rng = rng
        self.mu = rng.rand(num_classes, num_features)
        self.sigma = np.ones((num_classes, num_features)) * 0.1

    def get(self, num_samples):
        n = num_samples // self.num_classes
        x = np.zeros((num_samples, self.num_features))
        y = np.zeros((num_samples,))
        for i in range(self.num_classes):
            x[i * n:(i + 1) * n] = self.rng.normal(self.mu[i], self.sigma[i],
                                                   (n, self.num_features))
            y[i * n:(i + 1) * n] = i
        return x, y


def mlp(num_classes=10):
    net = sym.Variable('data')
    net = sym.FullyConnected(data=net, name='fc1', num_hidden=128)
    net = sym.Activation(data=net, name='relu1', act_type="relu")
    net = sym.FullyConnected(data=net, name='fc2', num_hidden=num_classes)
    return sym.SoftmaxOutput(data=net, name='out')


def test_mlp_simple_bind_training():
    mx.random.seed(0) if hasattr(mx, "random") else None
    net = mlp()
    assert net.list_arguments() == ['data', 'fc1_weight', 'fc1_bias', 'fc2_weight',
                                    'fc2_bias', 'out_label']
    num_features, batch_size = 100, 100
    ex = net.simple_bind(ctx=mx.cpu(), data=(batch_size, num_features))
    args = dict(zip(net.list_arguments(), ex.arg_arrays))
    shapes = {k: v.shape for k, v in args.items()}
    assert shapes == {'data': (100, 100), 'fc1_weight': (128, 100), 'fc1_bias': (128,),
                      'fc2_weight': (10, 128), 'fc2_bias': (10,), 'out_label': (100,)}
    rng = np.random.RandomState(0)
    for name in args:
        data = args[name]
        if 'weight' in name:
            data[:] = mx.nd.array(rng.uniform(-0.1, 0.1, data.shape))
        if 'bias' in name:
            data[:] = 0
    toy = ToyData(10, num_features, rng)
    learning_rate = 0.1
    final_acc = 0
    for i in range(31):
        x, y = toy.get(batch_size)
        args['data'][:] = x
        args['out_label'][:] = y
        ex.forward(is_train=True)
        ex.backward()
        for weight, grad in zip(ex.arg_arrays, ex.grad_arrays):
            weight[:] -= learning_rate * (grad / batch_size)
        if i % 10 == 0:
            final_acc = (mx.nd.argmax_channel(ex.outputs[0]).asnumpy() == y).sum()
    assert final_acc > 0.95 * batch_size


def train(network, data_shape, data, devs, devs_power, iters=30, learning_rate=0.1):
    batch_size = float(data_shape[0])
    workloads = [int(round(batch_size / sum(devs_power) * p)) for p in devs_power]
    exs = [network.simple_bind(ctx=d, data=tuple([p] + data_shape[1:]))
           for d, p in zip(devs, workloads)]
    args = [dict(zip(network.list_arguments(), ex.arg_arrays)) for ex in exs]
    rng = np.random.RandomState(1)
    for name in args[0]:
        arr = args[0][name]
        if 'weight' in name:
            arr[:] = mx.nd.array(rng.uniform(-0.1, 0.1, arr.shape))
        if 'bias' in name:
            arr[:] = 0
    acc = 0
    for i in range(iters):
        for j in range(1, len(devs)):
            for name, src, dst in zip(network.list_arguments(), exs[0].arg_arrays,
                                      exs[j].arg_arrays):
                if 'weight' in name or 'bias' in name:
                    src.copyto(dst)
        x, y = data()
        for j in range(len(devs)):
            idx = range(sum(workloads[:j]), sum(workloads[:j + 1]))
            args[j]['data'][:] = x[idx, :].reshape(args[j]['data'].shape)
            args[j]['out_label'][:] = y[idx].reshape(args[j]['out_label'].shape)
            exs[j].forward(is_train=True)
            exs[j].backward()
            if j > 0:
                for name, src, dst in zip(network.list_arguments(), exs[j].grad_arrays,
                                          exs[0].grad_arrays):
                    if 'weight' in name or 'bias' in name:
                        dst += src.as_in_context(dst.context)
        for weight, grad in zip(exs[0].arg_arrays, exs[0].grad_arrays):
            weight[:] -= learning_rate * (grad / batch_size)
        if i % 10 == 0:
            pred = np.concatenate([mx.nd.argmax_channel(ex.outputs[0]).asnumpy()
                                   for ex in exs])
            acc = (pred == y).sum() / batch_size
    return acc


def test_mlp_data_parallel_two_contexts():
    toy = ToyData(10, 100, np.random.RandomState(2))
    acc = train(mlp(), [100, 100], lambda: toy.get(100), [mx.cpu(0), mx.cpu(1)], [1, 5],
                iters=21)
    assert acc > 0.95


@pytest.mark.skipif(not all(has_op(o) for o in ("Convolution", "Pooling", "Flatten")),
                    reason="conv operators not registered")
def test_lenet_data_parallel_runs():
    data = sym.Variable('data')
    conv1 = sym.Convolution(data=data, kernel=(5, 5), num_filter=4)
    tanh1 = sym.Activation(data=conv1, act_type="tanh")
    pool1 = sym.Pooling(data=tanh1, pool_type="max", kernel=(2, 2), stride=(2, 2))
    flatten = sym.Flatten(data=pool1)
    fc1 = sym.FullyConnected(data=flatten, num_hidden=16)
    tanh3 = sym.Activation(data=fc1, act_type="tanh")
    fc2 = sym.FullyConnected(data=tanh3, num_hidden=10)
    lenet = sym.SoftmaxOutput(data=fc2, name='out')
    rng = np.random.RandomState(3)
    protos = (rng.rand(10, 1, 12, 12) > 0.5) * 2.0 - 1.0

    def get():
        y = np.arange(32) % 10
        return protos[y] + 0.05 * rng.randn(32, 1, 12, 12), y.astype(np.float64)

    acc = train(lenet, [32, 1, 12, 12], get, [mx.cpu(0), mx.cpu(1)], [1, 1], iters=21,
                learning_rate=0.5)
    assert acc > 0.5


@pytest.mark.skipif(not has_op("Convolution"), reason="Convolution not registered")
def test_single_convolution_simple_bind():
    num_filter, kernel, pad = 8, (3, 3), (1, 1)
    shape = (2, 4, 16, 16)
    x = sym.Variable('x')
    w = sym.Variable('w')
    y = sym.Convolution(data=x, weight=w, num_filter=num_filter, kernel=kernel, no_bias=True,
                        pad=pad)
    device = mx.gpu() if mx.context.num_gpus() > 0 else mx.cpu()
    exe = y.simple_bind(device, x=shape)
    assert exe.arg_arrays[1].shape == (8, 4, 3, 3)
    exe.arg_arrays[0][:] = np.random.normal(size=exe.arg_arrays[0].shape)
    exe.arg_arrays[1][:] = np.random.normal(size=exe.arg_arrays[1].shape)
    exe.forward(is_train=False)
    o = exe.outputs[0]
    t = o.asnumpy()
    assert t.shape == (2, 8, 16, 16)
    import torch

    ref = torch.nn.functional.conv2d(exe.arg_arrays[0]._t, exe.arg_arrays[1]._t, padding=1)
    np.testing.assert_allclose(t, ref.cpu().numpy(), rtol=1e-4, atol=1e-4)
