"""``mxnet.contrib.amp``: init hooks, loss scaling with a Gluon Trainer, conversion APIs."""

import json
import logging

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.contrib import amp
from mxnet.contrib.amp import amp as amp_mod
from mxnet.contrib.amp.loss_scaler import LossScaler

bfloat16 = np.dtype([("bfloat16", np.uint16)])


@pytest.fixture(autouse=True)
def amp_off():
    amp_mod._reset()
    yield
    amp_mod._reset()


def _mlp(hybrid=False):
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(16, activation="relu", in_units=4), gluon.nn.Dense(2, in_units=16))
    net.initialize(mx.init.Xavier())
    if hybrid:
        net.hybridize()
    return net


def _data():
    rng = np.random.RandomState(0)
    x = rng.randn(64, 4).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 0).astype(np.float32)
    return mx.nd.array(x), mx.nd.array(y)


def _train(net, trainer, steps=40):
    x, y = _data()
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    losses = []
    for _ in range(steps):
        with autograd.record():
            loss = loss_fn(net(x), y)
            with amp.scale_loss(loss, trainer) as scaled:
                autograd.backward(scaled)
        trainer.step(x.shape[0])
        losses.append(float(loss.mean().asscalar()))
    return losses


@pytest.mark.parametrize("hybrid", [False, True])
def test_gluon_training_bfloat16_converges(hybrid):
    amp.init("bfloat16")
    mx.random.seed(1)
    net = _mlp(hybrid)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5})
    amp.init_trainer(trainer)
    assert trainer._amp_loss_scaler.loss_scale == 2.0**16
    losses = _train(net, trainer)
    assert losses[-1] < 0.5 * losses[0]
    assert net[0].weight.data().dtype == np.float32
    assert net[0].weight.grad().dtype == np.float32
    assert trainer._amp_loss_scaler.loss_scale == 2.0**16  # no overflow in bf16


def test_dense_runs_in_target_dtype():
    amp.init("bfloat16")
    dense = gluon.nn.Dense(3, in_units=4)
    dense.initialize()
    assert dense(mx.nd.ones((2, 4))).dtype == bfloat16
    x = mx.nd.ones((2, 3))
    assert mx.nd.exp(mx.nd.amp_cast(x, dtype="bfloat16")).dtype == np.float32  # fp32 op
    assert mx.nd.relu(mx.nd.amp_cast(x, dtype="bfloat16")).dtype == bfloat16  # either type
    assert (x + mx.nd.amp_cast(x, dtype="bfloat16")).dtype == np.float32  # widest


def test_overflow_skips_step_and_halves_scale():
    amp.init("bfloat16")
    net = _mlp()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    amp.init_trainer(trainer)
    x, y = _data()
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    with autograd.record():
        loss = loss_fn(net(x), y)
        with amp.scale_loss(loss, trainer) as scaled:
            autograd.backward(scaled)
    net[0].weight.grad()[0, 0] = np.inf
    before = net[0].weight.data().asnumpy().copy()
    trainer.step(x.shape[0])
    np.testing.assert_array_equal(net[0].weight.data().asnumpy(), before)  # skipped
    scaler = trainer._amp_loss_scaler
    assert scaler.loss_scale == 2.0**16 and scaler._next_loss_scale == 2.0**15
    with autograd.record():  # the next clean step applies the halved scale and updates
        loss = loss_fn(net(x), y)
        with amp.scale_loss(loss, trainer) as scaled:
            assert trainer._scale == 1.0 / 2.0**16
            autograd.backward(scaled)
    trainer.step(x.shape[0])
    assert scaler.loss_scale == 2.0**15
    assert not np.array_equal(net[0].weight.data().asnumpy(), before)


def test_loss_scaler_grows_after_2000_clean_checks():
    p = gluon.Parameter("w", shape=(2,))
    p.initialize()
    p.grad()[:] = 1
    s = LossScaler()
    for _ in range(1999):
        assert not s.has_overflow([p])
    assert s._next_loss_scale == 2.0**16
    assert not s.has_overflow([p])
    assert s._next_loss_scale == 2.0**17
    s._next_loss_scale = s._max_loss_scale
    s._unskipped = 1999
    s.has_overflow([p])
    assert s._next_loss_scale == 2.0**24  # capped


def test_scale_loss_and_unscale():
    amp.init("bfloat16")
    net = _mlp()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    with pytest.raises(AssertionError, match="did you forget to call amp.init_trainer"):
        with amp.scale_loss(mx.nd.ones((1,)), trainer):
            pass
    amp.init_trainer(trainer)
    with amp.scale_loss([mx.nd.ones((1,)), mx.nd.ones((1,)) * 2], trainer) as scaled:
        assert [float(s.asscalar()) for s in scaled] == [2.0**16, 2.0**17]
    assert trainer._scale == 2.0**-16
    for p in net.collect_params().values():
        p.grad()[:] = 2.0**16
    amp.unscale(trainer)
    assert trainer._scale == 1.0
    np.testing.assert_array_equal(net[0].weight.grad().asnumpy(), 1.0)


def test_init_and_trainer_errors():
    with pytest.raises(AssertionError, match="supports only float16 or bfloat16"):
        amp.init("float32")
    with pytest.raises(AssertionError, match="AMP not initialized"):
        amp.init_trainer(None)
    with pytest.raises(TypeError, match="should be a Gluon Trainer"):
        amp.unscale(None)
    amp.init()
    with pytest.raises(TypeError, match="only compatible with Gluon Trainer"):
        amp.init_trainer(mx.optimizer.SGD())
    with pytest.raises(TypeError, match="instead is <class 'NoneType'>"):
        amp.init_trainer(None)
    amp.init("bfloat16")  # a second init is ignored, as in MXNet
    assert amp_mod._wrap._rules.target_dtype == "float16"


def test_user_lists_and_unknown_names():
    with pytest.raises(AttributeError, match="no_such_op"):
        amp.init(target_precision_ops=["no_such_op"])
    amp_mod._reset()
    amp.init(
        "bfloat16",
        target_precision_ops=["exp"],
        fp32_ops=["FullyConnected"],
        conditional_fp32_ops=[],
    )
    x = mx.nd.ones((2, 4))
    assert mx.nd.exp(x).dtype == bfloat16
    w = mx.nd.amp_cast(mx.nd.ones((3, 4)), dtype="bfloat16")
    assert mx.nd.FullyConnected(x, w, num_hidden=3, no_bias=True).dtype == np.float32
    assert (
        mx.nd.Activation(mx.nd.amp_cast(x, dtype="bfloat16"), act_type="softrelu").dtype == bfloat16
    )


def test_list_functions():
    assert amp.list_lp16_ops("float16") == ["Convolution", "Deconvolution", "FullyConnected", "RNN"]
    assert amp.list_lp16_ops(bfloat16) == ["Convolution", "FullyConnected"]
    assert amp.list_lp16_use_fp32_params("float16") is None
    assert "BatchNorm" in amp.list_lp16_use_fp32_params(bfloat16)
    assert ("Activation", "act_type", ["softrelu"]) in amp.list_conditional_fp32_ops(np.float16)
    with pytest.raises(AssertionError, match="not supported type"):
        amp.list_fp32_ops("bfloat16")  # MXNet wants its bfloat16 dtype here


def test_hooks_off_by_default():
    from mxnet.ndarray import _invoke
    from mxnet.symbol import _create

    assert _invoke._amp_hook is None and _create._amp_hook is None
    amp.init()
    assert _invoke._amp_hook is not None and _create._amp_hook is not None


def test_loss_output_grad_scale_and_symbol_warning(caplog):
    x = mx.nd.array([[1.0, 2.0, 0.5]])
    label = mx.nd.array([1])

    def grad():
        x.attach_grad()
        with autograd.record():
            out = mx.nd.SoftmaxOutput(x, label)
        out.backward()
        return x.grad.asnumpy()

    plain = grad()
    amp.init("bfloat16")
    np.testing.assert_allclose(grad(), plain * 2.0**16, rtol=1e-6)
    with caplog.at_level(logging.WARNING):
        mx.sym.SoftmaxOutput(mx.sym.var("d"), name="sm")
    assert "SoftmaxOutput does not support dynamic loss scaling" in caplog.text


def test_convert_model_casts_params():
    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    out = mx.sym.SoftmaxOutput(fc, name="softmax")
    args = {"fc_weight": mx.nd.ones((3, 4)), "fc_bias": mx.nd.zeros((3,))}
    sym, a, x = amp.convert_model(out, args, {}, target_dtype="float16", cast_optional_params=True)
    assert a["fc_weight"].dtype == np.float16 and a["fc_bias"].dtype == np.float16
    assert sym.attr_dict()["fc_weight"]["__dtype__"] == "2"
    sym, a, _ = amp.convert_model(out, dict(args), {}, target_dtype="bfloat16")
    assert a["fc_weight"].dtype == np.float32
    exe = sym.simple_bind(mx.cpu(), data=(2, 4), grad_req="null")
    exe.forward(
        is_train=False,
        data=mx.nd.ones((2, 4)),
        fc_weight=args["fc_weight"],
        fc_bias=args["fc_bias"],
    )
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), 1.0 / 3, rtol=1e-2)
    with pytest.raises(AssertionError, match="Second argument to convert_model"):
        amp.convert_model(out, None, {})
    with pytest.raises(AssertionError, match="First argument to convert_symbol"):
        amp.convert_symbol(None)


def test_bfloat16_dtype_attr_string():
    s = mx.sym.amp_cast(mx.sym.var("d"), dtype=bfloat16)
    assert s.attr_dict()[s.name]["dtype"] == "bfloat16"


def test_contrib_attribute():
    assert mx.contrib.amp is amp


def test_convert_bucketing_module():
    def sym_gen(seq_len):
        data, label = mx.sym.var("data"), mx.sym.var("softmax_label")
        emb = mx.sym.Embedding(data, input_dim=10, output_dim=4, name="emb")
        fc = mx.sym.FullyConnected(mx.sym.reshape(emb, shape=(-1, 4)), num_hidden=10, name="fc")
        out = mx.sym.SoftmaxOutput(fc, mx.sym.reshape(label, shape=(-1,)), name="softmax")
        return out, ("data",), ("softmax_label",)

    mod = mx.mod.BucketingModule(sym_gen, default_bucket_key=5, context=mx.cpu())
    mod.bind(data_shapes=[("data", (2, 5))], label_shapes=[("softmax_label", (2, 5))])
    mod.init_params()
    res = amp_mod.convert_bucketing_module(mod, target_dtype="bfloat16")
    res.bind(
        data_shapes=[("data", (2, 5))], label_shapes=[("softmax_label", (2, 5))], for_training=False
    )
    assert "fc_weight_amp_cast_bfloat16" in res._curr_module.symbol.tojson(remove_amp_cast=False)
    res.forward(mx.io.DataBatch([mx.nd.ones((2, 5))], [mx.nd.ones((2, 5))], bucket_key=5))
    out = res.get_outputs()[0]
    assert out.shape == (10, 10) and out.dtype == np.float32


def test_bf16_batchnorm_keeps_fp32_params():
    # MXNet 1.9.1: only the data is cast; the re-composed node bumps the aux versions again
    amp.init("bfloat16", target_precision_ops=["BatchNorm", "FullyConnected"])
    with mx.name.NameManager():
        s = mx.sym.BatchNorm(mx.sym.var("x"), name="bn")
    nodes = json.loads(s.tojson(remove_amp_cast=False))["nodes"]
    assert [n["name"] for n in nodes] == [
        "x",
        "amp_cast0",
        "bn_gamma",
        "bn_beta",
        "bn_moving_mean",
        "bn_moving_var",
        "bn",
    ]
    assert nodes[-1]["inputs"] == [[1, 0, 0], [2, 0, 0], [3, 0, 0], [4, 0, 2], [5, 0, 2]]
    x = mx.nd.ones((2, 3, 4, 4))
    ones, zeros = mx.nd.ones((3,)), mx.nd.zeros((3,))
    assert mx.nd.BatchNorm(x, ones, zeros, zeros, ones).dtype == bfloat16
