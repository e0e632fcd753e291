"""Deferred parameter shapes through mx.np dot in a hybridized NumPy-mode block."""

import mxnet as mx
from mxnet import autograd, gluon


def test_np_dot_fills_deferred_weight_shape():
    from mxnet import np, npx

    class LinearRegression(gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            with self.name_scope():
                self.w1 = self.params.get("w1", shape=(0, 16), allow_deferred_init=True)
                self.w2 = self.params.get("w2", shape=(16, 3), allow_deferred_init=True)

        def hybrid_forward(self, F, x, w1, w2):
            return F.npx.relu(x.dot(w1)).dot(w2)

    prev = mx.util.is_np_array()
    npx.set_np()
    try:
        net = LinearRegression()
        net.initialize(mx.init.Uniform())
        net.hybridize()
        x = np.ones((4, 7))
        assert net(x).shape == (4, 3)
        assert net.w1.shape == (7, 16)
        trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 1e-3})
        with autograd.record():
            loss = ((net(x) - 1) ** 2).sum()
        loss.backward()
        trainer.step(1)
    finally:
        if not prev:
            npx.reset_np()
