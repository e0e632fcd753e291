"""Module.bind(shared_module=...) borrows a trained module's optimizer, as MXNet 1.9.1.

mx-rcnn's and Deformable-ConvNets' MutableModule rebind a fresh Module against the current
one whenever the image shape changes and call ``update()`` on it straight away.
"""

import numpy as np

import mxnet as mx


def _net():
    data = mx.sym.Variable("data")
    conv = mx.sym.Convolution(data, num_filter=2, kernel=(3, 3), pad=(1, 1), name="conv")
    pool = mx.sym.Pooling(conv, global_pool=True, kernel=(1, 1), pool_type="avg")
    fc = mx.sym.FullyConnected(mx.sym.Flatten(pool), num_hidden=3, name="fc")
    return mx.sym.SoftmaxOutput(fc, name="softmax")


def _batch(h, w):
    rs = np.random.RandomState(h * w)
    return mx.io.DataBatch(
        [mx.nd.array(rs.rand(1, 1, h, w))],
        [mx.nd.array([1])],
        provide_data=[("data", (1, 1, h, w))],
        provide_label=[("softmax_label", (1,))],
    )


def test_rebind_with_shared_module_keeps_training():
    sym = _net()
    first = mx.mod.Module(sym, context=mx.cpu())
    first.bind([("data", (1, 1, 8, 8))], [("softmax_label", (1,))])
    first.init_params(mx.init.Xavier())
    first.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.5})
    first.forward_backward(_batch(8, 8))
    first.update()
    second = mx.mod.Module(sym, context=mx.cpu())
    second.bind([("data", (1, 1, 6, 10))], [("softmax_label", (1,))], shared_module=first)
    assert second.params_initialized and second.optimizer_initialized
    assert second._optimizer is first._optimizer
    before = second.get_params()[0]["fc_weight"].asnumpy().copy()
    second.forward_backward(_batch(6, 10))
    second.update()
    after = second.get_params()[0]["fc_weight"].asnumpy()
    assert not np.allclose(before, after)
    # the optimizer's update count goes on from the first module's
    assert first._optimizer.num_update == 2


def test_shared_module_without_optimizer_does_not_borrow():
    sym = _net()
    first = mx.mod.Module(sym, context=mx.cpu())
    first.bind([("data", (1, 1, 8, 8))], [("softmax_label", (1,))])
    first.init_params(mx.init.Xavier())
    second = mx.mod.Module(sym, context=mx.cpu())
    second.bind([("data", (1, 1, 6, 10))], [("softmax_label", (1,))], shared_module=first)
    assert second.params_initialized and not second.optimizer_initialized
