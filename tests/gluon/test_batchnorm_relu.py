"""gluon.nn.BatchNormReLU: BatchNorm then ReLU as one contrib.BatchNormWithReLU node."""

import numpy as np

import mxnet as mx
from mxnet.gluon import nn


def test_batchnorm_relu_block():
    b = nn.BatchNormReLU(in_channels=3)
    assert "BatchNormReLU" in dir(nn)
    assert repr(b) == (
        "BatchNormReLU(axis=1, eps=1e-05, momentum=0.9, fix_gamma=False, "
        "use_global_stats=False, in_channels=3)"
    )
    assert sorted(b.collect_params().keys()) == sorted(
        b.prefix + n for n in ("gamma", "beta", "running_mean", "running_var")
    )
    b.initialize()
    x = mx.nd.array(np.random.RandomState(0).randn(4, 3, 2))
    ref = nn.BatchNorm(in_channels=3)
    ref.initialize()
    with mx.autograd.record():
        y = b(x)
        y_ref = ref(x)
    np.testing.assert_allclose(y.asnumpy(), np.maximum(y_ref.asnumpy(), 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        b.running_mean.data().asnumpy(), ref.running_mean.data().asnumpy(), rtol=1e-5
    )
    b.hybridize()
    js = b(mx.sym.var("data")).tojson()
    assert '"op": "_contrib_BatchNormWithReLU"' in js
    assert (b(x).asnumpy() >= 0).all()


def test_batchnorm_moving_stats_use_float_momentum():
    # MXNet 1.9.1 keeps momentum as a C float: the new moving mean is 0.9f * 0 + 2 * (1 - 0.9f)
    # = 0.20000004768 (also for float64 parameters)
    import mxnet as mx

    for dt in ("float64", "float32"):
        bn = mx.gluon.nn.BatchNorm(in_channels=1)
        bn.initialize()
        bn.cast(dt)
        x = mx.nd.array(np.array([[[3.0, 3.0]], [[1.0, 1.0]]]), dtype=dt)
        with mx.autograd.record():
            y = bn(x)
        y.backward()
        assert float(bn.running_mean.data().asnumpy()[0]) == 0.20000004768371582
        assert float(bn.running_var.data().asnumpy()[0]) == 1.0
