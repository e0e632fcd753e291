"""Optimizers under npx.set_np(): the Updater hands mx.np weights to the classic kernels
(d2l trains with 'rmsprop', 'ftml', 'lamb'... through gluon.Trainer on mx.np parameters)."""

import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn


@pytest.mark.parametrize("name", ["rmsprop", "ftml", "lamb", "signum", "lars", "sgd"])
def test_trainer_updates_np_parameters_with_every_optimizer(name):
    with mx.util.np_array(True), mx.util.np_shape(True):
        net = nn.Dense(2, in_units=4)
        net.initialize(mx.init.Constant(0.5))
        trainer = gluon.Trainer(net.collect_params(), name, {"learning_rate": 0.01})
        with autograd.record():
            loss = (net(mx.np.ones((3, 4))) ** 2).sum()
        loss.backward()
        trainer.step(3)
        w = net.weight.data()
        assert isinstance(w, mx.np.ndarray)
        assert float(w[0, 0]) < 0.5  # updated in place, through the classic view


def test_updater_refuses_np_arrays_for_an_optimizer_made_outside_np_mode():
    opt = mx.optimizer.SGD(learning_rate=0.1)
    assert opt.allow_np_array is False
    upd = mx.optimizer.get_updater(opt)
    with mx.util.np_array(True):
        w, g = mx.np.ones((2,)), mx.np.ones((2,))
        with pytest.raises(ValueError, match="Converting np.ndarray to mx.nd.NDArray"):
            upd(0, g, w)
        opt_np = mx.optimizer.RMSProp(learning_rate=0.1)
        assert opt_np.allow_np_array is True
        mx.optimizer.get_updater(opt_np)(0, g, w)
        assert float(w[0]) < 1.0
