"""GPU checks: every user-visible path that places data on ``mx.gpu()``.

The whole module is skipped on machines without CUDA (CI has none); run it where a GPU is
present with ``python -m pytest tests/gpu -q``. Results on the GPU are compared with the same
computation on the CPU.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn
from mxnet.test_utils import assert_almost_equal, check_consistency

pytestmark = pytest.mark.skipif(mx.context.num_gpus() == 0, reason="needs a CUDA GPU")

GPU = mx.gpu(0) if mx.context.num_gpus() else None


@pytest.fixture(autouse=True)
def full_fp32():
    """Compare with the CPU in full float32: no TF32 convolutions on Ampere+ (a subprocess
    test below checks that ``MXNET_CUDA_ALLOW_TENSOR_CORE=0`` sets the same switches)."""
    import torch

    old = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    yield
    torch.backends.cudnn.allow_tf32 = old


def test_tensor_core_switch():
    import subprocess
    import sys

    code = ("import mxnet, torch; print(torch.backends.cudnn.allow_tf32, "
            "torch.backends.cuda.matmul.allow_tf32)")
    env = dict(os.environ, MXNET_CUDA_ALLOW_TENSOR_CORE="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["False", "False"]
    env["MXNET_CUDA_ALLOW_TENSOR_CORE"] = "1"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["True", "False"]


def test_context_basics():
    a = mx.nd.ones((2, 3), ctx=GPU)
    assert a.context == mx.gpu(0)
    assert str(a.context) == "gpu(0)"
    free, total = mx.context.gpu_memory_info(0)
    assert 0 < free <= total
    b = mx.nd.zeros((2, 3))
    a.copyto(b)
    assert b.context == mx.cpu() and b.asnumpy().sum() == 6
    c = b.as_in_context(GPU) * 3
    assert c.context == GPU and c.asnumpy().sum() == 18
    d = mx.nd.empty((2, 3), GPU)
    b.copyto(d)
    assert d.context == GPU
    assert (c.copyto(mx.cpu()).asnumpy() == 3).all()


def test_creation_and_random_on_gpu():
    for arr in (mx.nd.arange(5, ctx=GPU), mx.nd.full((2, 2), 7, ctx=GPU),
                mx.nd.random.uniform(shape=(3, 3), ctx=GPU),
                mx.nd.random.normal(0, 1, shape=(4,), ctx=GPU),
                mx.nd.array(np.eye(3), ctx=GPU)):
        assert arr.context == GPU
    mx.random.seed(7, ctx=GPU)
    x = mx.nd.random.uniform(shape=(5,), ctx=GPU).asnumpy()
    mx.random.seed(7, ctx=GPU)
    y = mx.nd.random.uniform(shape=(5,), ctx=GPU).asnumpy()
    assert (x == y).all()


def test_mixed_context_operands_rejected():
    a = mx.nd.ones((2,), ctx=GPU)
    b = mx.nd.ones((2,))
    with pytest.raises(mx.MXNetError):
        (a + b).wait_to_read()


def test_autograd_on_gpu():
    x = mx.nd.array([[1.0, 2.0], [3.0, 4.0]], ctx=GPU)
    x.attach_grad()
    with autograd.record():
        y = (x * x + mx.nd.exp(x)).sum()
    y.backward()
    assert x.grad.context == GPU
    expect = 2 * x.asnumpy() + np.exp(x.asnumpy())
    assert_almost_equal(x.grad.asnumpy(), expect, rtol=1e-5, atol=1e-5)


def test_params_saved_from_gpu_load_on_cpu(tmp_path):
    fname = str(tmp_path / "g.params")
    mx.nd.save(fname, {"w": mx.nd.arange(6, ctx=GPU).reshape((2, 3))})
    loaded = mx.nd.load(fname)
    assert loaded["w"].context == mx.cpu()
    assert (loaded["w"].asnumpy() == np.arange(6).reshape(2, 3)).all()


@pytest.mark.parametrize("sym_fn, shapes", [
    (lambda d: mx.sym.Convolution(d, num_filter=4, kernel=(3, 3), pad=(1, 1), name="c"),
     {"data": (2, 3, 8, 8)}),
    (lambda d: mx.sym.FullyConnected(d, num_hidden=5, name="fc"), {"data": (3, 7)}),
    (lambda d: mx.sym.Pooling(d, kernel=(2, 2), stride=(2, 2), pool_type="max"),
     {"data": (2, 3, 6, 6)}),
    (lambda d: mx.sym.Deconvolution(d, num_filter=2, kernel=(2, 2), stride=(2, 2), name="dc"),
     {"data": (1, 3, 4, 4)}),
    (lambda d: mx.sym.softmax(d, axis=-1), {"data": (4, 6)}),
    (lambda d: mx.sym.LayerNorm(d, name="ln"), {"data": (3, 8)}),
    (lambda d: mx.sym.Activation(d, act_type="tanh"), {"data": (3, 4)}),
    (lambda d: mx.sym.broadcast_add(d, mx.sym.sum(d, axis=1, keepdims=True)), {"data": (3, 4)}),
])
def test_operators_cpu_gpu_consistent(sym_fn, shapes):
    sym = sym_fn(mx.sym.Variable("data"))
    ctx_list = [dict(ctx=mx.cpu(0), **shapes), dict(ctx=GPU, **shapes)]
    check_consistency(sym, ctx_list, tol=1e-3)


def test_batchnorm_training_cpu_gpu_consistent():
    sym = mx.sym.BatchNorm(mx.sym.Variable("data"), name="bn", fix_gamma=False)
    shapes = {"data": (4, 3, 5, 5)}
    check_consistency(sym, [dict(ctx=mx.cpu(0), **shapes), dict(ctx=GPU, **shapes)],
                      tol=1e-3)


def test_simple_bind_mlp_on_gpu():
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    act = mx.sym.Activation(fc, act_type="relu")
    out = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(act, num_hidden=3, name="fc2"),
                               name="softmax")
    ex = out.simple_bind(ctx=GPU, data=(8, 10))
    for name, arr in ex.arg_dict.items():
        assert arr.context == GPU, name
        if name.endswith("weight"):
            arr[:] = mx.nd.random.uniform(-0.1, 0.1, arr.shape, ctx=GPU)
    ex.arg_dict["data"][:] = mx.nd.random.uniform(shape=(8, 10), ctx=GPU)
    ex.arg_dict["softmax_label"][:] = mx.nd.array([0, 1, 2, 0, 1, 2, 0, 1], ctx=GPU)
    ex.forward(is_train=True)
    ex.backward()
    assert ex.outputs[0].context == GPU
    assert_almost_equal(ex.outputs[0].sum(axis=1).asnumpy(), np.ones(8), rtol=1e-5)
    assert ex.grad_dict["fc1_weight"].context == GPU
    assert np.abs(ex.grad_dict["fc1_weight"].asnumpy()).sum() > 0


def _lenet() -> nn.HybridSequential:
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(6, kernel_size=5, activation="relu"), nn.MaxPool2D(2, 2),
                nn.Conv2D(16, kernel_size=3, activation="relu"), nn.MaxPool2D(2, 2),
                nn.Flatten(), nn.Dense(32, activation="relu"), nn.BatchNorm(),
                nn.Dense(10))
    return net


def _train_steps(ctx: mx.Context, hybridize: bool, start_file: str):
    net = _lenet()
    net.load_parameters(start_file, ctx=ctx)
    if hybridize:
        net.hybridize(static_alloc=True)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1, "momentum": 0.9})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    rng = np.random.RandomState(0)
    losses = []
    for _ in range(3):
        x = mx.nd.array(rng.rand(16, 1, 28, 28), ctx=ctx)
        y = mx.nd.array(rng.randint(0, 10, 16), ctx=ctx)
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(16)
        losses.append(loss.mean().asscalar())
    return net, losses


@pytest.mark.parametrize("hybridize", [False, True])
def test_gluon_training_gpu_matches_cpu(hybridize, tmp_path):
    start = str(tmp_path / "start.params")
    net = _lenet()
    net.initialize(mx.init.Xavier())
    net(mx.nd.zeros((2, 1, 28, 28)))
    net.save_parameters(start)
    net_cpu, loss_cpu = _train_steps(mx.cpu(), False, start)
    net_gpu, loss_gpu = _train_steps(GPU, hybridize, start)
    assert_almost_equal(np.array(loss_cpu), np.array(loss_gpu), rtol=1e-3, atol=1e-4)
    for (name, pc), pg in zip(net_cpu.collect_params().items(),
                              net_gpu.collect_params().values()):
        assert pg.data().context == GPU
        # atol 1e-3: GPU backward kernels accumulate in a different order, and a ReLU input
        # sitting at ~0 can flip sides within three momentum steps (seen on one weight of 6k)
        assert_almost_equal(pc.data().asnumpy(), pg.data().asnumpy(), rtol=1e-3, atol=1e-3,
                            names=(name, name))


def test_export_on_gpu_imports_on_gpu_and_cpu(tmp_path):
    net = _lenet()
    net.initialize(ctx=GPU)
    net.hybridize()
    x = mx.nd.random.uniform(shape=(2, 1, 28, 28), ctx=GPU)
    ref = net(x).asnumpy()
    prefix = str(tmp_path / "lenet")
    net.export(prefix, epoch=0)
    for ctx in (GPU, mx.cpu()):
        blk = gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"],
                                        prefix + "-0000.params", ctx=ctx)
        out = blk(x.as_in_context(ctx))
        assert out.context == ctx
        assert_almost_equal(out.asnumpy(), ref, rtol=1e-4, atol=1e-5)


def test_trainer_on_cpu_and_gpu_contexts():
    ctxs = [mx.cpu(0), GPU]
    net = nn.Dense(3, in_units=4)
    net.initialize(mx.init.One(), ctx=ctxs)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5},
                            kvstore="device")
    data = mx.nd.ones((4, 4))
    with autograd.record():
        outs = [net(d) for d in gluon.utils.split_and_load(data, ctxs)]
    autograd.backward(outs)
    trainer.step(4)
    w_cpu = net.weight.data(mx.cpu(0)).asnumpy()
    w_gpu = net.weight.data(GPU).asnumpy()
    assert (w_cpu == w_gpu).all()
    assert_almost_equal(w_cpu, np.full((3, 4), 0.5), rtol=1e-6)


def test_module_fit_on_gpu():
    rng = np.random.RandomState(1)
    x = rng.randn(200, 6).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 0).astype(np.float32)
    it = mx.io.NDArrayIter(x, y, batch_size=20, shuffle=True, label_name="softmax_label")
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    net = mx.sym.Activation(net, act_type="relu")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(net, num_hidden=2, name="fc2"),
                               name="softmax")
    mod = mx.mod.Module(net, context=GPU)
    mod.fit(it, num_epoch=10, optimizer="adam", optimizer_params={"learning_rate": 0.01},
            initializer=mx.init.Xavier())
    acc = mod.score(it, "acc")[0][1]
    assert acc > 0.9
    arg, _ = mod.get_params()
    assert arg["fc1_weight"].context == mx.cpu()


def test_kvstore_device_reduces_gpu_values():
    kv = mx.kv.create("device")
    kv.init("w", mx.nd.zeros((2, 2), ctx=GPU))
    kv.push("w", [mx.nd.ones((2, 2), ctx=GPU), mx.nd.ones((2, 2)) * 2])
    out = mx.nd.zeros((2, 2), ctx=GPU)
    kv.pull("w", out=out)
    assert (out.asnumpy() == 3).all()


def test_dataloader_pin_memory():
    ds = gluon.data.ArrayDataset(np.arange(20, dtype=np.float32).reshape(10, 2),
                                 np.arange(10, dtype=np.float32))
    loader = gluon.data.DataLoader(ds, batch_size=4, pin_memory=True)
    batches = list(loader)
    assert len(batches) == 3
    assert batches[0][0].context == mx.cpu_pinned(0)
    moved = batches[0][0].as_in_context(GPU)
    assert (moved.asnumpy() == np.arange(8).reshape(4, 2)).all()


def test_custom_op_on_gpu():
    class Square(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] * in_data[0])

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], 2 * in_data[0] * out_grad[0])

    @mx.operator.register("gpu_square_test")
    class SquareProp(mx.operator.CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=True)

        def create_operator(self, ctx, shapes, dtypes):
            return Square()

    x = mx.nd.array([1.0, 2.0, 3.0], ctx=GPU)
    x.attach_grad()
    with autograd.record():
        y = mx.nd.Custom(x, op_type="gpu_square_test")
    y.backward()
    assert y.context == GPU
    assert (y.asnumpy() == [1, 4, 9]).all()
    assert (x.grad.asnumpy() == [2, 4, 6]).all()


def test_rnn_layer_gpu_matches_cpu():
    layer = gluon.rnn.LSTM(8, num_layers=2, bidirectional=True)
    layer.initialize(ctx=[mx.cpu(), GPU])
    x = mx.nd.random.uniform(shape=(5, 3, 4))
    out_cpu = layer(x).asnumpy()
    out_gpu = layer(x.as_in_context(GPU)).asnumpy()
    assert_almost_equal(out_cpu, out_gpu, rtol=1e-4, atol=1e-5)


def test_seed_single_convolution_uses_gpu():
    device = mx.gpu() if mx.context.num_gpus() > 0 else mx.cpu()
    data = mx.sym.Variable("data")
    conv = mx.sym.Convolution(data=data, kernel=(3, 3), num_filter=8, name="conv")
    ex = conv.simple_bind(ctx=device, data=(1, 3, 16, 16))
    ex.forward()
    assert ex.outputs[0].shape == (1, 8, 14, 14)
    assert ex.outputs[0].context == device


@pytest.mark.skipif(os.environ.get("MXNET_NG_GPU_SLOW") != "1", reason="set MXNET_NG_GPU_SLOW=1")
def test_model_zoo_resnet_gpu_matches_cpu():
    net = gluon.model_zoo.vision.resnet18_v1()
    net.initialize(mx.init.Xavier(), ctx=[mx.cpu(), GPU])
    x = mx.nd.random.uniform(shape=(2, 3, 64, 64))
    assert_almost_equal(net(x).asnumpy(), net(x.as_in_context(GPU)).asnumpy(),
                        tol=1e-3)
