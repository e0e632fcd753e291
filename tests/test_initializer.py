"""Initializers: deterministic values and dumps() against MXNet 1.9.1 (golden
initializer.json), statistics of the random ones, name rules and errors."""

import json
import os
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import initializer as init

GOLD = os.path.join(os.path.dirname(__file__), "compat", "golden", "optimizer")
with open(os.path.join(GOLD, "initializer.json")) as _f:
    G = json.load(_f)

MAKE = {
    "uniform": lambda: init.Uniform(0.3),
    "normal": lambda: init.Normal(0.5),
    "xavier": lambda: init.Xavier(rnd_type="gaussian", factor_type="in", magnitude=2),
    "msra": lambda: init.MSRAPrelu(),
    "constant": lambda: init.Constant(0.7),
    "orth": lambda: init.Orthogonal(),
    "bilinear": lambda: init.Bilinear(),
    "lstmbias": lambda: init.LSTMBias(forget_bias=2.0),
    "one": lambda: init.One(),
    "zero": lambda: init.Zero(),
}


@pytest.mark.parametrize("key", sorted(G["dumps"]))
def test_dumps_match_mxnet(key):
    s = MAKE[key]().dumps()
    assert s == G["dumps"][key]
    again = init.create(s)
    assert again == MAKE[key]()


@pytest.mark.parametrize("name", sorted(G["default_rules"]))
def test_default_rules_by_suffix(name):
    shape = {"x_weight": (2, 3), "x_bias": (4,), "x_min": (2,), "x_max": (2,)}.get(name, (3,))
    arr = mx.nd.zeros(shape) + 5
    expected = G["default_rules"][name]
    if isinstance(expected, str):
        with pytest.raises(ValueError) as e:
            init.Constant(0.25)(init.InitDesc(name), arr)
        assert str(e.value) == expected.split(": ", 2)[2]
    else:
        init.Constant(0.25)(init.InitDesc(name), arr)
        np.testing.assert_array_equal(arr.asnumpy(), expected)


def test_bilinear_lstmbias_and_attr_init_match_mxnet():
    arr = mx.nd.zeros((1, 2, 4, 4))
    init.Bilinear()(init.InitDesc("up_weight"), arr)
    np.testing.assert_allclose(arr.asnumpy(), G["bilinear"], rtol=1e-7)
    arr = mx.nd.zeros((8, 3))
    init.LSTMBias(forget_bias=2.0)(init.InitDesc("lstm_bias"), arr)
    np.testing.assert_array_equal(arr.asnumpy(), G["lstmbias"])
    arr = mx.nd.zeros((3,))
    desc = init.InitDesc("fc_weight", attrs={"__init__": init.Constant(0.5).dumps()})
    init.Xavier()(desc, arr)
    np.testing.assert_array_equal(arr.asnumpy(), G["attr_init"])


def test_legacy_string_names():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, val in [
            ("bn_moving_mean", 0),
            ("bn_moving_var", 1),
            ("bn_moving_inv_var", 0),
            ("x_moving_avg", 0),
            ("fc_bias", 0),
            ("bn_gamma", 1),
        ]:
            arr = mx.nd.zeros((3,)) + 7
            init.Uniform()(name, arr)
            assert (arr.asnumpy() == val).all(), name
        arr = mx.nd.zeros((6,))
        init.Uniform()("stn_loc_bias", arr)
        assert arr.asnumpy().tolist() == [1, 0, 0, 0, 1, 0]


def test_random_statistics():
    from mxnet import random as mxrandom

    mxrandom.seed(0)
    w = mx.nd.zeros((200, 300))
    init.Uniform(0.3)(init.InitDesc("a_weight"), w)
    a = w.asnumpy()
    assert a.min() >= -0.3 and a.max() <= 0.3 and abs(a.std() - 0.3 / np.sqrt(3)) < 0.01
    init.Normal(0.5)(init.InitDesc("a_weight"), w)
    assert abs(w.asnumpy().std() - 0.5) < 0.01
    init.Xavier(rnd_type="gaussian", factor_type="in", magnitude=2)(init.InitDesc("a_weight"), w)
    assert abs(w.asnumpy().std() - np.sqrt(2 / 300)) < 0.002
    c = mx.nd.zeros((64, 16, 3, 3))
    init.Xavier()(init.InitDesc("c_weight"), c)
    bound = np.sqrt(3 / ((16 * 9 + 64 * 9) / 2))
    assert np.abs(c.asnumpy()).max() <= bound and np.abs(c.asnumpy()).max() > 0.9 * bound
    init.MSRAPrelu(factor_type="in", slope=0)(init.InitDesc("c_weight"), c)
    assert abs(c.asnumpy().std() - np.sqrt(2 / (16 * 9))) < 0.01


def test_orthogonal():
    w = mx.nd.zeros((4, 6))
    init.Orthogonal(scale=1.0)(init.InitDesc("o_weight"), w)
    a = w.asnumpy()
    np.testing.assert_allclose(a @ a.T, np.eye(4), atol=1e-5)


def test_mixed_load_create_register():
    m = init.Mixed(["bias", ".*"], [init.Zero(), init.One()])
    b, w = mx.nd.ones((2,)), mx.nd.zeros((2, 2))
    m("fc_bias", b)
    m("fc_weight", w)
    assert b.asnumpy().sum() == 0 and w.asnumpy().sum() == 4
    with pytest.raises(ValueError):
        init.Mixed(["bias"], [init.Zero()])("fc_weight", w)
    ld = init.Load({"arg:fc_weight": mx.nd.ones((2, 2)) * 3}, default_init=init.Zero())
    w2, b2 = mx.nd.zeros((2, 2)), mx.nd.ones((2,))
    ld("fc_weight", w2)
    ld(init.InitDesc("fc_bias"), b2)
    assert w2.asnumpy().sum() == 12 and b2.asnumpy().sum() == 0
    with pytest.raises(AssertionError, match="Shape mismatch"):
        ld("fc_weight", mx.nd.zeros((3,)))
    assert isinstance(init.create("zeros"), init.Zero)
    assert isinstance(init.create("xavier", magnitude=2), init.Xavier)
    x = init.Xavier()
    assert init.create(x) is x

    @init.register
    class Threes(init.Initializer):
        def _init_weight(self, _, arr):
            arr[:] = 3

    a = mx.nd.zeros((2,))
    init.create('["threes", {}]')(init.InitDesc("t_weight"), a)
    assert a.asnumpy().tolist() == [3, 3]
    with pytest.raises(AssertionError, match="not registered"):
        init.create("nosuchinit")


def test_errors():
    with pytest.raises(ValueError, match="at least 2D"):
        init.Xavier()(init.InitDesc("v_weight"), mx.nd.zeros((3,)))
    with pytest.raises(ValueError, match="Incorrect factor type"):
        init.Xavier(factor_type="x")(init.InitDesc("v_weight"), mx.nd.zeros((3, 3)))


def test_fused_rnn_lstm():
    h, nin = 3, 2
    total = 4 * h * (nin + h + 2)
    arr = mx.nd.zeros((total,))
    fused = init.FusedRNN(init.One(), num_hidden=h, num_layers=1, mode="lstm", forget_bias=5.0)
    init.Uniform()(init.InitDesc("rnn_parameters", attrs={"__init__": fused.dumps()}), arr)
    a = arr.asnumpy()
    nw = 4 * h * (nin + h)
    assert (a[:nw] == 1).all()
    biases = a[nw:].reshape(2, 4, h)  # i2h, h2h x gates i, f, c, o
    assert (biases[:, 1] == 5).all() and (biases[:, [0, 2, 3]] == 0).all()
    with pytest.raises(ValueError, match="does not fit"):
        init.FusedRNN(None, 3, 1, "lstm")._init_weight(init.InitDesc("p"), mx.nd.zeros((7,)))


def test_init_alias_module():
    import mxnet.init as mi

    assert mi.Xavier is init.Xavier and mi.InitDesc is init.InitDesc


def test_constant_broadcasts_array_values():
    arr = mx.nd.zeros((2, 2))
    init.Constant([[1], [2]])(init.InitDesc("w_weight"), arr)
    assert arr.asnumpy().tolist() == [[1.0, 1.0], [2.0, 2.0]]
    init.Constant(mx.nd.array([7]))(init.InitDesc("w_weight"), arr)
    assert (arr.asnumpy() == 7).all()
    with pytest.raises(ValueError):
        init.Constant([1, 2, 3, 4])(init.InitDesc("w_weight"), arr)


def test_random_initializers_reject_integer_parameters():
    # MXNet's samplers only write floating-point outputs: an int32 parameter with the
    # default Uniform initializer fails with MXNetError (not a torch error).
    import pytest

    import mxnet as mx

    for ini in (mx.init.Uniform(), mx.init.Normal(), mx.init.Xavier()):
        p = mx.gluon.Parameter("w", shape=(2, 2), dtype="int32", init=ini)
        with pytest.raises(mx.base.MXNetError, match="float16, float32, float64"):
            p.initialize()
    p = mx.gluon.Parameter("z", shape=(2,), dtype="int32", init=mx.init.Zero())
    p.initialize()
    assert p.data().asnumpy().tolist() == [0, 0]
