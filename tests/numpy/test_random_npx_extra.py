"""npx.random samplers and npx.constraint_check as MXNet 1.9.1 (imperative and hybridized)."""

import pytest

import mxnet as mx
from mxnet import np, npx
from mxnet.gluon import HybridBlock


@mx.util.use_np
class _Check(HybridBlock):
    def hybrid_forward(self, F, x):
        return F.npx.constraint_check(x, "must hold")


@pytest.mark.parametrize("hybridize", [False, True])
def test_constraint_check_raises_value_error(hybridize):
    net = _Check()
    if hybridize:
        net.hybridize()
    with pytest.raises(ValueError, match="must hold"):
        net(np.zeros((2, 3), dtype="bool")).asnumpy()
    assert bool(net(np.ones((2,), dtype="bool")))


def test_bernoulli_rejects_probabilities_outside_unit_interval():
    for prob in (1.5, -0.5, np.array([0.5, 1.5]), np.array([-1.0])):
        with pytest.raises(ValueError):
            npx.random.bernoulli(prob=prob).asnumpy()
    assert npx.random.bernoulli(prob=np.array([0.0, 1.0])).asnumpy().tolist() == [0.0, 1.0]


@mx.util.use_np
class _SampleN(HybridBlock):
    def __init__(self, op):
        super().__init__()
        self._op = op

    def hybrid_forward(self, F, a, b):
        return getattr(F.npx.random, self._op)(a, b, batch_shape=(4,))


@pytest.mark.parametrize("op", ["uniform_n", "normal_n"])
def test_sample_n_hybridized_shapes(op):
    net = _SampleN(op)
    net.hybridize()
    assert net(np.ones((2, 3)), np.ones((3,))).shape == (4, 2, 3)
    assert getattr(npx.random, op)(np.ones((3,)), 2.0, batch_shape=2).shape == (2, 3)
    low = npx.random.uniform_n(5.0, 6.0, batch_shape=(500,)).asnumpy()
    assert low.min() >= 5.0 and low.max() < 6.0


def test_multivariate_normal_broadcasts_cov_batch():
    cov = np.broadcast_to(np.eye(2), (3, 2, 2))
    assert np.random.multivariate_normal(np.zeros(2), cov, 1).shape == (1, 3, 2)
    cov4 = np.broadcast_to(np.eye(2), (4, 3, 2, 2))
    assert np.random.multivariate_normal(np.zeros((3, 2)), cov4, (2,)).shape == (2, 4, 3, 2)
