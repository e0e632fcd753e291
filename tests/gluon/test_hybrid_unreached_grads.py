"""A hybridized call that backward passes through writes its whole graph's parameter
gradients, zeros where nothing reached (MXNet 1.9.1: a multi-head network whose loss
ignores a head still steps its Trainer without a stale-gradient error)."""

import numpy as np

import mxnet as mx
from mxnet import autograd, gluon


class _TwoHeads(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.trunk = gluon.nn.Dense(3, in_units=3)
            self.a = gluon.nn.Dense(2, in_units=3)
            self.b = gluon.nn.Dense(2, in_units=3)

    def hybrid_forward(self, F, x):
        h = self.trunk(x)
        return self.a(h), self.b(h)


def _step(hybridize: bool):
    net = _TwoHeads()
    net.initialize()
    if hybridize:
        net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    net.b.weight.grad()[:] = 5
    with autograd.record():
        out, _ = net(mx.nd.ones((4, 3)))
        loss = out.sum()
    loss.backward()
    grad_b = net.b.weight.grad().asnumpy().copy()
    try:
        trainer.step(4)
        return grad_b, None
    except UserWarning as e:
        return grad_b, e


def test_hybridized_unused_head_gets_zero_grads_and_steps():
    grad_b, err = _step(True)
    np.testing.assert_array_equal(grad_b, np.zeros((2, 3)))
    assert err is None


def test_imperative_unused_head_stays_stale_like_mxnet():
    grad_b, err = _step(False)
    np.testing.assert_array_equal(grad_b, np.full((2, 3), 5.0))
    assert err is not None and "stale" in str(err)
