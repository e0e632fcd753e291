"""Deferred shapes that only the whole graph determines (MXNet infers them over the traced
Symbol, in both directions): a parameter meets an elementwise op before any shape-giving
operator (Bayes-by-Backprop's ``weight_std`` of the Straight Dope)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon, nd


class _NoisyDense(gluon.nn.Dense):
    def __init__(self, units, **kwargs):
        super().__init__(units, **kwargs)
        with self.name_scope():
            self.weight_std = self.params.get(
                "weight_std", shape=(units, 0), init=mx.init.One(), allow_deferred_init=True
            )

    def hybrid_forward(self, F, x, weight, weight_std, bias=None):
        w = weight + F.sqrt(weight_std**2 + 3.0)  # weight_std's shape follows from weight's
        return super().hybrid_forward(F, x, weight=w, bias=bias)


def test_elementwise_use_of_a_deferred_parameter_is_inferred_from_the_graph():
    net = _NoisyDense(4)
    net.initialize(mx.init.Constant(0.5))
    x = nd.ones((2, 3))
    y = net(x)
    assert net.weight_std.shape == (4, 3)
    assert net.weight.shape == (4, 3)
    np.testing.assert_allclose(
        y.asnumpy(), np.full((2, 4), 3 * (0.5 + 2.0)), rtol=1e-6
    )  # bias: zeros


def test_uninferable_deferred_parameter_still_raises():
    class Lonely(gluon.HybridBlock):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            with self.name_scope():
                self.p = self.params.get("p", shape=(0,), allow_deferred_init=True)

        def hybrid_forward(self, F, x, p):
            return x + F.sum(p**2)

    net = Lonely()
    net.initialize()
    with pytest.raises(ValueError, match="Deferred initialization failed"):
        net(nd.ones((2,)))


class _UsesSecondChildFirst(gluon.nn.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.a = gluon.nn.Dense(3)  # registered first ...
            self.b = gluon.nn.Dense(3)  # ... but its graph input comes second

    def hybrid_forward(self, F, x):
        return self.b(x) + self.a(F.relu(x))


def test_hybridized_deferred_init_draws_in_graph_input_order():
    # MXNet's CachedOp finishes deferred parameters in ``list_inputs()`` order, so a
    # hybridized net gets the same random initial values as the imperative one, whose
    # layers initialize as they run (GluonTS's estimators rely on this with a fixed seed)
    got = []
    for hybridize in (False, True):
        net = _UsesSecondChildFirst()
        mx.random.seed(0)
        net.initialize(mx.init.Xavier())
        if hybridize:
            net.hybridize()
        net(nd.ones((2, 4)))
        got.append((net.a.weight.data().asnumpy(), net.b.weight.data().asnumpy()))
    assert not np.array_equal(got[0][0], got[0][1])
    np.testing.assert_array_equal(got[1][0], got[0][0])
    np.testing.assert_array_equal(got[1][1], got[0][1])
