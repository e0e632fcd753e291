"""A hybridized block may pass auxiliary states (BatchNorm's moving statistics) as block
inputs, as MXNet 1.x allows: ``F.BatchNorm(x, gamma, beta, mean, var)``."""

import numpy as np

import mxnet as mx


class _BN(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x, g, b, m, v):
        return F.BatchNorm(x, g, b, m, v, fix_gamma=False, eps=1e-5)


def test_batchnorm_moving_stats_as_block_inputs():
    rs = np.random.RandomState(0)
    x = mx.nd.array(rs.normal(size=(2, 3, 4, 5)))
    g, b, m = (mx.nd.array(rs.normal(size=3)) for _ in range(3))
    v = mx.nd.array(rs.uniform(0.5, 2, size=3))
    want = _BN()(x, g, b, m, v).asnumpy()
    net = _BN()
    net.hybridize()
    got = net(x, g, b, m, v).asnumpy()
    ref = (x.asnumpy() - m.asnumpy().reshape(1, 3, 1, 1)) / np.sqrt(
        v.asnumpy().reshape(1, 3, 1, 1) + 1e-5
    ) * g.asnumpy().reshape(1, 3, 1, 1) + b.asnumpy().reshape(1, 3, 1, 1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)
