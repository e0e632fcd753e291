"""Trainer: the seed's LeNet training loop, several contexts, stale gradients, states."""

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon, initializer
from mxnet.gluon import Trainer, nn
from mxnet.gluon.loss import SoftmaxCrossEntropyLoss


def test_seed_lenet_training_loop():
    """The CIFAR-10 LeNet loop of the seed document, on synthetic CIFAR-shaped batches."""
    ctx = mx.cpu()
    net = nn.Sequential()
    net.add(
        nn.Conv2D(channels=6, kernel_size=5, activation="relu"),
        nn.MaxPool2D(pool_size=2, strides=2),
        nn.Conv2D(channels=16, kernel_size=5, activation="relu"),
        nn.MaxPool2D(pool_size=2, strides=2),
        nn.Flatten(),
        nn.Dense(120, activation="relu"),
        nn.Dense(84, activation="relu"),
        nn.Dense(10),
    )
    net.initialize(ctx=ctx)
    criterion = SoftmaxCrossEntropyLoss()
    trainer = Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    rng = np.random.RandomState(0)
    images = rng.uniform(-1, 1, (32, 3, 32, 32)).astype(np.float32)
    labels = rng.randint(0, 10, 32).astype(np.float32)
    losses = []
    for _ in range(6):
        for i in range(0, 32, 16):
            inputs = mx.nd.array(images[i : i + 16]).as_in_context(ctx)
            targets = mx.nd.array(labels[i : i + 16]).as_in_context(ctx)
            with autograd.record():
                outputs = net(inputs)
                loss = criterion(outputs, targets)
            loss.backward()
            trainer.step(inputs.shape[0])
            losses.append(loss.mean().asscalar())
    assert losses[-1] < losses[0]
    assert net[0].weight.shape == (6, 3, 5, 5) and net[5].weight.shape == (120, 400)


def _net(ctx):
    net = nn.HybridSequential()
    net.add(nn.Dense(4, in_units=3, activation="tanh"), nn.Dense(2, in_units=4))
    net.initialize(initializer.Xavier(), ctx=ctx)
    return net


def _grads_step(net, trainer, x, y, ctxs):
    loss_fn = SoftmaxCrossEntropyLoss()
    xs = gluon.utils.split_and_load(x, ctxs)
    ys = gluon.utils.split_and_load(y, ctxs)
    with autograd.record():
        losses = [loss_fn(net(a), b) for a, b in zip(xs, ys)]
    autograd.backward(losses)
    trainer.step(x.shape[0])


@pytest.mark.parametrize("update_on_kvstore", [None, True])
def test_multi_context_equals_single(update_on_kvstore):
    rng = np.random.RandomState(1)
    x = mx.nd.array(rng.uniform(-1, 1, (8, 3)))
    y = mx.nd.array(rng.randint(0, 2, 8))
    one = _net(mx.cpu(0))
    two = _net([mx.cpu(0), mx.cpu(1)])
    for p1, p2 in zip(one.collect_params().values(), two.collect_params().values()):
        p2.set_data(p1.data())
    t1 = Trainer(one.collect_params(), "sgd", {"learning_rate": 0.5, "momentum": 0.9})
    t2 = Trainer(
        two.collect_params(),
        "sgd",
        {"learning_rate": 0.5, "momentum": 0.9},
        kvstore="device",
        update_on_kvstore=update_on_kvstore,
    )
    for _ in range(3):
        _grads_step(one, t1, x, y, [mx.cpu(0)])
        _grads_step(two, t2, x, y, [mx.cpu(0), mx.cpu(1)])
    for p1, p2 in zip(one.collect_params().values(), two.collect_params().values()):
        for d in p2.list_data():
            np.testing.assert_allclose(d.asnumpy(), p1.data().asnumpy(), rtol=1e-5, atol=1e-6)


def test_stale_gradient_and_learning_rate():
    net = _net(mx.cpu())
    tr = Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    assert tr.learning_rate == 0.1
    tr.set_learning_rate(0.2)
    assert tr.learning_rate == 0.2 and tr.optimizer.lr == 0.2
    with pytest.raises(UserWarning, match="has not been updated by backward since last `step`"):
        tr.step(1)
    with autograd.record():
        loss = net(mx.nd.ones((2, 3))).sum()
    loss.backward()
    tr.step(2)
    with pytest.raises(
        UserWarning, match="Gradient of Parameter `dense[0-9]+_bias` on context cpu"
    ):
        tr.step(2)
    w = net[0].weight.data().asnumpy().copy()
    tr.step(2, ignore_stale_grad=True)  # nothing fresh: nothing updated
    np.testing.assert_array_equal(net[0].weight.data().asnumpy(), w)


def test_allreduce_then_update_and_errors():
    net = _net([mx.cpu(0), mx.cpu(1)])
    tr = Trainer(net.collect_params(), "sgd", {"learning_rate": 1.0}, update_on_kvstore=False)
    for ctx in (mx.cpu(0), mx.cpu(1)):
        with autograd.record():
            loss = net(mx.nd.ones((1, 3), ctx=ctx)).sum()
        loss.backward()
    g0 = net[1].bias.grad(mx.cpu(0)).asnumpy().copy()
    tr.allreduce_grads()
    np.testing.assert_allclose(net[1].bias.grad(mx.cpu(1)).asnumpy(), 2 * g0, rtol=1e-6)
    b = net[1].bias.data(mx.cpu(0)).asnumpy().copy()
    tr.update(2)
    np.testing.assert_allclose(net[1].bias.data(mx.cpu(1)).asnumpy(), b - g0, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="got list of <class 'int'>"):
        Trainer([1], "sgd")
    with pytest.raises(ValueError, match="got <class 'int'>"):
        Trainer(3, "sgd")
    a = nn.Dense(1, in_units=1)
    a.initialize(ctx=mx.cpu(0))
    b2 = nn.Dense(1, in_units=1)
    b2.initialize(ctx=mx.cpu(1))
    with pytest.raises(AssertionError, match="must be initialized on the same set of contexts"):
        Trainer(list(a.collect_params().values()) + list(b2.collect_params().values()), "sgd")


def test_save_load_states_roundtrip(tmp_path):
    net = _net(mx.cpu())
    tr = Trainer(net.collect_params(), "adam", {"learning_rate": 0.01})
    for _ in range(2):
        with autograd.record():
            loss = net(mx.nd.ones((2, 3))).sum()
        loss.backward()
        tr.step(2)
    f = str(tmp_path / "t.states")
    tr.save_states(f)
    tr2 = Trainer(net.collect_params(), "adam", {"learning_rate": 0.5})
    tr2.load_states(f)
    assert tr2.learning_rate == 0.01
    assert tr2._updaters[0].states.keys() == tr._updaters[0].states.keys()


def test_stale_grad_seen_by_a_new_trainer():
    # the "updated since last step" flag lives on the gradient, not in one Trainer
    import pytest as _pytest

    net = mx.gluon.nn.Dense(1, in_units=2)
    net.initialize()
    with mx.autograd.record():
        y = net(mx.nd.ones((3, 2))).sum()
    y.backward()
    mx.gluon.Trainer(net.collect_params(), "sgd").step(3)
    second = mx.gluon.Trainer(net.collect_params(), "adam")
    with _pytest.raises(UserWarning):
        second.step(3)
    second.step(3, ignore_stale_grad=True)


def _two_ctx_trainer(**kw):
    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = nn.Dense(2, in_units=3)
    net.initialize(ctx=ctxs)
    tr = Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1}, **kw)
    for c in ctxs:
        with autograd.record():
            loss = net(mx.nd.ones((1, 3), ctx=c)).sum()
        loss.backward()
    tr.step(1)
    return tr


def test_stale_grad_two_contexts_update_on_kvstore_false():
    # the kvstore's reduction writes into the gradient buffers, yet they stay stale:
    # only backward refreshes them (MXNet 1.9.1)
    tr = _two_ctx_trainer(update_on_kvstore=False)
    with pytest.raises(UserWarning, match="has not been updated by backward"):
        tr.step(1)


def test_update_on_kvstore_never_reports_stale_grads():
    # MXNet 1.9.1 resets the flag only when it updates on the devices, so with
    # update_on_kvstore=True (the default over several contexts) a later step without a
    # backward pushes the old gradients again instead of raising
    tr = _two_ctx_trainer()
    assert tr._update_on_kvstore
    w0 = tr._params[0].data(mx.cpu(1)).asnumpy()
    tr.step(1)
    assert not np.allclose(tr._params[0].data(mx.cpu(1)).asnumpy(), w0)


def test_trainer_without_parameters_raises_typeerror():
    # MXNet 1.9.1: a Trainer over no Parameter (e.g. a net of Activation blocks whose
    # parameters were never registered) fails at construction with a TypeError
    net = mx.gluon.nn.Sequential()
    net.add(mx.gluon.nn.Activation("sigmoid"))
    net.initialize()
    with pytest.raises(TypeError):
        mx.gluon.Trainer(net.collect_params(), "sgd")
    with pytest.raises(TypeError):
        mx.gluon.Trainer([], "sgd")


def test_no_false_stale_gradient_after_reinitializing_on_more_contexts():
    # d2l multiple-gpus-concise: train on [cpu(0)], then force_reinit on [cpu(0), cpu(1)]
    # with a new Trainer. New gradient buffers may reuse freed addresses; they must not
    # be taken for the stale ones the old Trainer saw.
    import mxnet as mx
    from mxnet import autograd, gluon
    from mxnet.gluon import nn

    net = nn.Sequential()
    net.add(nn.Conv2D(4, 3), nn.BatchNorm(), nn.Conv2D(4, 3, padding=1), nn.BatchNorm(),
            nn.Dense(3))
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    x = mx.nd.random.uniform(shape=(4, 1, 8, 8))
    y = mx.nd.array([0, 1, 2, 1])
    for ctx in ([mx.cpu(0)], [mx.cpu(0), mx.cpu(1)], [mx.cpu(0)], [mx.cpu(0), mx.cpu(1)]):
        net.initialize(mx.init.Normal(0.01), ctx=ctx, force_reinit=True)
        trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
        for _ in range(3):
            xs = gluon.utils.split_and_load(x, ctx)
            ys = gluon.utils.split_and_load(y, ctx)
            with autograd.record():
                ls = [loss(net(a), b) for a, b in zip(xs, ys)]
            for l in ls:
                l.backward()
            trainer.step(4)  # raised UserWarning (stale gradient) before the fix
    net.initialize(mx.init.Normal(0.01), ctx=mx.cpu(0), force_reinit=True)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    with autograd.record():
        lo = loss(net(x), y)
    lo.backward()
    trainer.step(4)
    with pytest.raises(UserWarning, match="has not been updated by backward"):
        trainer.step(4)  # a real stale gradient is still reported
