"""mx.contrib.svrg_optimization: SVRGModule and its optimizers."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.contrib.svrg_optimization.svrg_module import SVRGModule
from mxnet.contrib.svrg_optimization.svrg_optimizer import _SVRGOptimizer


def _regression(n=40, batch=10):
    rng = np.random.RandomState(3)
    x = rng.randint(1, 5, (n, 2)).astype(np.float32)
    it = mx.io.NDArrayIter(x, x.dot([1.0, 2.0]), batch_size=batch, label_name="y")
    out = mx.sym.LinearRegressionOutput(
        mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=1, name="fc"),
        mx.sym.var("y"),
        name="lro",
    )
    return it, out


def test_module_binds_auxiliary_module_and_checks_update_freq():
    it, sym = _regression()
    with pytest.raises(ValueError, match="update_freq"):
        SVRGModule(sym, data_names=["data"], label_names=["y"])
    mod = SVRGModule(sym, data_names=["data"], label_names=["y"], update_freq=2)
    mod.bind(it.provide_data, it.provide_label)
    assert mod.binded and mod._mod_aux.binded
    mod.init_params(mx.init.One())
    mod.init_optimizer(kvstore=mx.kv.create("local"), optimizer="sgd")
    assert isinstance(mod._optimizer, _SVRGOptimizer)


def test_optimizer_assigns_full_keys():
    o = _SVRGOptimizer(
        default_optimizer="sgd", param_idx2name={0: "w", 1: "w_full"}, learning_rate=0.5
    )
    assert o.default_opt.lr == 0.5
    kv = mx.kv.create("local")
    kv.set_optimizer(o)
    w, wf = mx.nd.zeros(2), mx.nd.zeros(2)
    kv.init(0, w)
    kv.init(1, wf)
    kv.push(0, mx.nd.ones(2))
    kv.push(1, mx.nd.ones(2) * 7)
    kv.pull(0, w)
    kv.pull(1, wf)
    np.testing.assert_allclose(w.asnumpy(), [-0.5, -0.5])
    np.testing.assert_allclose(wf.asnumpy(), [7, 7])


def test_full_gradient_is_the_batch_average_and_fit_converges():
    it, sym = _regression()
    mod = SVRGModule(sym, data_names=["data"], label_names=["y"], update_freq=2)
    mod.bind(it.provide_data, it.provide_label)
    mod.init_params(mx.init.One())
    mod.init_optimizer(kvstore="local", optimizer="sgd")
    mod._mod_aux.set_params(*mod.get_params())  # the auxiliary module needs weights first
    expected = 0
    for batch in it:
        mod.forward(batch)
        mod.backward()
        expected = expected + mod._exec_group.grad_arrays[0][0].asnumpy()
    mod.update_full_grads(it)
    np.testing.assert_allclose(mod._param_dict[0]["fc_weight"].asnumpy(), expected / 4, rtol=1e-5)
    metric = mx.metric.create("mse")
    mod.fit(
        it,
        eval_metric=metric,
        optimizer="sgd",
        optimizer_params={"learning_rate": 0.02},
        num_epoch=20,
        kvstore="local",
        force_init=True,
    )
    assert metric.get()[1] < 0.1
