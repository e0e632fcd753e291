"""Parameter, Constant and ParameterDict behave as in MXNet 1.9.1."""

import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon, initializer
from mxnet.gluon import nn


def test_repr_and_defaults():
    p = gluon.Parameter("w", shape=(2, 3))
    assert repr(p) == "Parameter w (shape=(2, 3), dtype=<class 'numpy.float32'>)"
    assert p.grad_req == "write" and p.lr_mult == 1.0 and p.wd_mult == 1.0
    assert gluon.Parameter("v", shape=4).shape == (4,)
    assert gluon.Parameter("n", differentiable=False).grad_req == "null"


def test_multi_context_data_and_grad():
    p = gluon.Parameter("w", shape=(2, 3))
    p.initialize(initializer.One(), ctx=[mx.cpu(0), mx.cpu(1)])
    assert p.list_ctx() == [mx.cpu(0), mx.cpu(1)]
    assert [d.context for d in p.list_data()] == [mx.cpu(0), mx.cpu(1)]
    assert p.data(mx.cpu(1)).asnumpy().sum() == 6
    assert len(p.list_grad()) == 2
    with pytest.raises(RuntimeError, match=r"was not initialized on context cpu\(2\). It was "
                                           r"only initialized on \[cpu\(0\), cpu\(1\)\]"):
        p.data(mx.cpu(2))
    for ctx in p.list_ctx():
        x = p.data(ctx)
        with autograd.record():
            y = (x * x).sum()
        y.backward()
    np.testing.assert_allclose(p.grad(mx.cpu(1)).asnumpy(), 2 * np.ones((2, 3)))
    p.zero_grad()
    assert p.grad(mx.cpu(0)).asnumpy().sum() == 0
    p.set_data(mx.nd.full((2, 3), 5.0))
    assert p.data(mx.cpu(1)).asnumpy().mean() == 5.0
    p.reset_ctx(mx.cpu(3))
    assert p.list_ctx() == [mx.cpu(3)] and p.data().asnumpy().mean() == 5.0


def test_errors():
    with pytest.raises(ValueError, match=r"invalid shape: \(0, 3\)"):
        gluon.Parameter("x", shape=(0, 3)).initialize()
    q = gluon.Parameter("q", shape=(2,), grad_req="null")
    q.initialize()
    with pytest.raises(RuntimeError, match="because grad_req='null'"):
        q.grad()
    with pytest.raises(RuntimeError, match="has not been initialized. Note that"):
        gluon.Parameter("u", shape=(1,)).data()
    d = gluon.Parameter("d", shape=(0,), allow_deferred_init=True)
    d.initialize()
    with pytest.raises(gluon.DeferredInitializationError):
        d.data()
    assert issubclass(gluon.DeferredInitializationError, mx.base.MXNetError)
    p = gluon.Parameter("p", shape=(2,))
    p.initialize()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        p.initialize()
    assert "already initialized" in str(w[0].message)
    with pytest.raises(AssertionError, match="grad_req must be one of"):
        p.grad_req = "bad"


def test_grad_req_and_cast():
    p = gluon.Parameter("p", shape=(2,))
    p.initialize()
    p.grad_req = "null"
    with pytest.raises(RuntimeError):
        p.grad()
    p.grad_req = "add"
    assert p.list_grad()[0].shape == (2,)
    p.cast("float64")
    assert p.data().dtype == np.float64 and p.grad().dtype == np.float64
    x = p.data()
    for _ in range(2):
        with autograd.record():
            y = (x * 3).sum()
        y.backward()
    np.testing.assert_allclose(p.grad().asnumpy(), [6.0, 6.0])


def test_constant():
    c = gluon.Constant("c", mx.nd.array([1.0, 2.0]))
    assert repr(c) == "Constant c (shape=(2,), dtype=<class 'numpy.float32'>)"
    assert c.grad_req == "null"
    c.initialize()
    np.testing.assert_array_equal(c.data().asnumpy(), [1.0, 2.0])
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        c.grad_req = "write"
    assert c.grad_req == "null"


def test_parameter_dict():
    pd = gluon.ParameterDict("p_")
    w = pd.get("w", shape=(2, 0))
    assert pd.get("w", shape=(2, 3)) is w and w.shape == (2, 3)
    with pytest.raises(AssertionError, match="desired '\\(4, 3\\)' vs stored '\\(2, 3\\)'"):
        pd.get("w", shape=(4, 3))
    with pytest.raises(AssertionError, match="attribute 'lr_mult'"):
        pd.get("w", lr_mult=2.0)
    with pytest.raises(KeyError, match="No constant named 'p_c'"):
        pd.get_constant("c")
    c = pd.get_constant("c", [1, 2])
    assert pd.get_constant("c") is c
    assert list(pd.keys()) == ["p_w", "p_c"]
    assert repr(pd).startswith("p_ (\n  Parameter p_w (shape=(2, 3)")
    shared = gluon.ParameterDict("q_", shared=pd)
    assert shared.get("w") is not w  # other prefix: a new parameter
    same = gluon.ParameterDict("p_", shared=pd)
    assert same.get("w") is w
    pd.setattr("lr_mult", 0.5)
    assert w.lr_mult == 0.5
    other = gluon.ParameterDict("p_")
    other.get("w", shape=(2, 3))
    with pytest.raises(AssertionError, match="different Parameters with the same name"):
        pd.update(other)


def test_parameter_dict_save_load(tmp_path):
    net = nn.Dense(3, in_units=2, prefix="fc_")
    net.initialize()
    f = str(tmp_path / "p.params")
    net.collect_params().save(f, strip_prefix="fc_")
    assert sorted(mx.nd.load(f)) == ["bias", "weight"]
    with pytest.raises(ValueError, match="Prefix 'zz' is to be striped"):
        net.collect_params().save(f, strip_prefix="zz")
    net2 = nn.Dense(3, in_units=2, prefix="fc_")
    net2.collect_params().load(f, restore_prefix="fc_")
    np.testing.assert_array_equal(net2.weight.data().asnumpy(), net.weight.data().asnumpy())
    net3 = nn.Dense(3, in_units=2, prefix="fc_")
    net3.collect_params().load(f, restore_prefix="fc_", ctx=[mx.cpu(0), mx.cpu(1)])
    assert net3.weight.list_ctx() == [mx.cpu(0), mx.cpu(1)]
    bad = nn.Dense(4, in_units=2, prefix="fc_")
    with pytest.raises(AssertionError, match="shape incompatible expected"):
        bad.collect_params().load(f, restore_prefix="fc_")
    half = nn.Dense(3, in_units=2, prefix="fc_")
    mx.nd.save(f, {"weight": mx.nd.ones((3, 2), dtype="float64")})
    with pytest.raises(AssertionError, match="is missing"):
        half.collect_params().load(f, restore_prefix="fc_")
    with pytest.raises(AssertionError, match="dtype incompatible"):
        half.collect_params().load(f, restore_prefix="fc_", allow_missing=True)
    half.collect_params().load(f, restore_prefix="fc_", allow_missing=True, cast_dtype=True)
    assert half.weight.data().dtype == np.float32
