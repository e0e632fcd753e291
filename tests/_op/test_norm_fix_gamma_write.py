"""BatchNorm(fix_gamma=True) writes ones into its gamma input, as MXNet 1.9.1 does.

InsightFace's embedding head (``BatchNorm(fix_gamma=True, name='fc1')``) relies on it: the
checkpoints MXNet writes hold ``fc1_gamma == 1`` whatever the initial value and weight
decay, and ``mod.get_params()`` after training returns ones.
"""

import numpy as np

import mxnet as mx
from mxnet import autograd, gluon


def _x(shape=(2, 3, 4, 4)):
    return mx.nd.array(np.random.RandomState(0).rand(*shape))


def test_nd_batchnorm_fix_gamma_writes_one():
    g = mx.nd.full((3,), 2.0)
    mx.nd.BatchNorm(_x(), g, mx.nd.zeros(3), mx.nd.zeros(3), mx.nd.ones(3), fix_gamma=True)
    assert (g.asnumpy() == 1).all()
    g2 = mx.nd.full((3,), 2.0)
    mx.nd.BatchNorm(_x(), g2, mx.nd.zeros(3), mx.nd.zeros(3), mx.nd.ones(3), fix_gamma=False)
    assert (g2.asnumpy() == 2).all()


def test_executor_fix_gamma_writes_one_train_and_eval():
    s = mx.sym.BatchNorm(mx.sym.Variable("data"), fix_gamma=True, name="bn")
    for train in (False, True):
        ex = s.simple_bind(mx.cpu(), data=(2, 3, 4, 4))
        ex.arg_dict["bn_gamma"][:] = 2.0
        ex.forward(is_train=train, data=_x())
        assert (ex.arg_dict["bn_gamma"].asnumpy() == 1).all()
        if train:
            ex.backward([mx.nd.ones((2, 3, 4, 4))])
            assert (ex.grad_dict["bn_gamma"].asnumpy() == 0).all()


def test_module_sgd_wd_keeps_fixed_gamma_one():
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
    bn = mx.sym.BatchNorm(fc, fix_gamma=True, name="fc1")
    out = mx.sym.SoftmaxOutput(bn, name="softmax")
    mod = mx.mod.Module(out, context=mx.cpu())
    mod.bind(data_shapes=[("data", (4, 5))], label_shapes=[("softmax_label", (4,))])
    mod.init_params(mx.init.Xavier())
    arg, aux = mod.get_params()
    arg["fc1_gamma"][:] = 1.5
    mod.set_params(arg, aux)
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.1, "wd": 0.1})
    batch = mx.io.DataBatch([_x((4, 5))], [mx.nd.array([0, 1, 2, 3])])
    for _ in range(2):
        mod.forward_backward(batch)
        mod.update()
    # each forward resets gamma to 1; the last update then decays it once: 1 - lr * wd
    np.testing.assert_allclose(mod.get_params()[0]["fc1_gamma"].asnumpy(), 0.99, rtol=1e-6)


def test_gluon_shared_block_twice_in_one_graph():
    # a block applied twice under record(): writing gamma must not break backward
    net = gluon.nn.BatchNorm(scale=False, in_channels=3)
    net.initialize()
    x = _x()
    x.attach_grad()
    with autograd.record():
        y = net(x) + net(x * 2)
    y.backward()
    assert (net.gamma.data().asnumpy() == 1).all()
    assert np.isfinite(x.grad.asnumpy()).all()
