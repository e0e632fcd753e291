"""Optimizer base-class behaviour: multipliers, schedules, registry, precision, errors."""

import pickle
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import lr_scheduler
from mxnet import optimizer as opt


def test_lr_wd_mult_from_symbol_and_names():
    from mxnet import symbol as sym

    d = sym.Variable("data")
    w = sym.Variable("fc_weight", lr_mult=2.0, wd_mult=0.5)
    fc = sym.FullyConnected(d, weight=w, num_hidden=3, name="fc")
    o = opt.SGD(sym=fc, param_idx2name={0: "fc_weight", 1: "fc_bias", 2: "data"}, wd=0.1,
                learning_rate=1.0)
    # values recorded from MXNet 1.9.1
    assert o.lr_mult == {"fc_weight": 2.0}
    assert o.wd_mult == {"fc_bias": 0.0, "data": 0.0, "fc_weight": 0.5}
    assert o._get_lrs([0, 1, 2]) == [2.0, 1.0, 1.0]
    assert o._get_wds([0, 1, 2]) == pytest.approx([0.05, 0.0, 0.0])
    o.set_lr_mult({"fc_bias": 3.0})
    assert o.lr_mult == {"fc_weight": 2.0, "fc_bias": 3.0} and o._get_lr(1) == 3.0


def test_param_dict_multipliers_win():
    class P:
        lr_mult = 0.5
        wd_mult = 2.0

    o = opt.SGD(learning_rate=1.0, wd=0.1, param_dict={0: P()})
    assert o._get_lr(0) == 0.5 and o._get_wd(0) == pytest.approx(0.2)
    o2 = pickle.loads(pickle.dumps(o))
    assert o2.param_dict == {} and o2.lr == 1.0


def test_learning_rate_and_scheduler():
    o = opt.SGD(learning_rate=0.1, lr_scheduler=lr_scheduler.FactorScheduler(2, 0.5,
                                                                             base_lr=0.3))
    assert o.learning_rate == 0.1 and o.lr_scheduler.base_lr == 0.1
    with pytest.raises(UserWarning, match="LRScheduler of the optimizer has already been"):
        o.set_learning_rate(0.2)
    o = opt.SGD()
    assert o.learning_rate == 0.01
    o.set_learning_rate(0.3)
    assert o.learning_rate == 0.3
    o = opt.Adam()
    assert (o.lr, o.beta1, o.beta2, o.epsilon) == (0.001, 0.9, 0.999, 1e-8)


def test_registry_and_create():
    assert isinstance(opt.create("SGD", momentum=0.9), opt.SGD)
    assert isinstance(opt.create("ccsgd"), opt.ccSGD)
    assert opt.Optimizer.create_optimizer("rmsprop").centered is False
    with pytest.raises(ValueError, match="Cannot find optimizer nosuch"):
        opt.create("nosuch")

    @opt.register
    class MyOpt(opt.Optimizer):
        def update(self, index, weight, grad, state):
            weight[:] = weight - grad

    assert isinstance(opt.create("myopt"), MyOpt)
    for name in ("SGD", "Adam", "LAMB", "Nadam", "DCASGD", "Test"):
        cls = getattr(opt, name)
        assert cls.__module__ == "mxnet.optimizer.optimizer"
        assert getattr(opt.optimizer, name) is cls


def test_multi_precision_sgd_keeps_fp32_master():
    o = opt.SGD(learning_rate=0.1, momentum=0.9, multi_precision=True)
    w = mx.nd.array([1.0, 2.0], dtype="float16")
    st = o.create_state_multi_precision(0, w)
    assert st[0].dtype == np.float32 and st[1].dtype == np.float32  # (mom, weight32)
    o.update_multi_precision(0, w, mx.nd.array([0.001, 0.001], dtype="float16"), st)
    np.testing.assert_allclose(st[1].asnumpy(), [0.9999, 1.9999], rtol=1e-6)
    assert w.dtype == np.float16
    # the base-class path: (weight32, state) for optimizers without their own fp16 logic
    a = opt.Adam(multi_precision=True)
    st = a.create_state_multi_precision(0, w)
    assert st[0].dtype == np.float32 and isinstance(st[1], tuple)
    a.update_multi_precision(0, w, mx.nd.array([0.1, 0.1], dtype="float16"), st)
    np.testing.assert_allclose(w.asnumpy(), st[0].asnumpy(), rtol=1e-3)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        opt.Adam().create_state_multi_precision(0, w)
    assert any("multi_precision=True" in str(r.message) for r in rec)


def test_dcasgd_momentum_fails_like_mxnet():
    o = opt.DCASGD(momentum=0.9)
    w = mx.nd.ones((3,))
    with pytest.raises(ValueError, match="ambiguous"):
        o.update(0, w, mx.nd.ones((3,)), o.create_state(0, w))


def test_sgld_and_test_optimizer():
    mx.random.seed(1) if hasattr(mx, "random") else None
    o = opt.SGLD(learning_rate=0.01)
    w = mx.nd.zeros((20000,))
    o.update(0, w, mx.nd.zeros((20000,)), None)
    assert abs(float(w.asnumpy().std()) - 0.1) < 0.005  # noise with variance lr
    t = opt.Test(rescale_grad=2.0)
    w = mx.nd.ones((2,))
    st = t.create_state(0, w)
    t.update(0, w, mx.nd.ones((2,)), st)
    assert w.asnumpy().tolist() == [3, 3] and st.asnumpy().tolist() == [3, 3]


def test_updater_sync_and_bytes_keys():
    upd = opt.get_updater(opt.SGD(learning_rate=0.1, momentum=0.9))
    w = mx.nd.ones((2,))
    upd(b"k", mx.nd.ones((2,)), w)
    assert "k" in upd.states
    upd.set_states(upd.get_states())
    upd(b"k", mx.nd.ones((2,), ctx=mx.cpu(1)), mx.nd.ones((2,), ctx=mx.cpu(1)))
    assert upd.states["k"].context == mx.cpu(1)
    with pytest.raises(NotImplementedError):
        opt.Optimizer().update(0, w, w, None)


def test_registry_lists_optimizers_in_mxnet_order():
    import mxnet as mx

    names = list(mx.optimizer.Optimizer.opt_registry)
    assert names[:18] == ["sgd", "signum", "ftml", "lars", "lbsgd", "lamb", "dcasgd", "nag",
                          "sgld", "ccsgd", "adam", "adagrad", "rmsprop", "adadelta", "ftrl",
                          "adamax", "nadam", "test"]
    assert "groupadagrad" in names[18:]


def test_nd_nag_mom_update_in_place_momentum_sees_the_new_weight():
    # MXNet's kernel writes out=weight first; the momentum's decay term then reads it
    w0 = np.array([0.5, -1.0, 2.0], np.float32)
    g = np.array([0.1, 0.2, -0.3], np.float32)
    m0 = np.array([0.05, -0.02, 0.01], np.float32)
    lr, wd, mo = 0.1, 0.5, 0.9
    w, mom = mx.nd.array(w0), mx.nd.array(m0)
    mx.nd.nag_mom_update(w, mx.nd.array(g), mom, lr=lr, wd=wd, momentum=mo, out=w)
    m1 = mo * m0
    new_w = w0 - m1 + (mo + 1) * (m1 - lr * (g + wd * w0))
    np.testing.assert_allclose(w.asnumpy(), new_w, rtol=1e-6)
    np.testing.assert_allclose(mom.asnumpy(), m1 - lr * (g + wd * new_w), rtol=1e-5)
    # not in place: the old weight
    w2, mom2 = mx.nd.array(w0), mx.nd.array(m0)
    out = mx.nd.nag_mom_update(w2, mx.nd.array(g), mom2, lr=lr, wd=wd, momentum=mo)
    np.testing.assert_allclose(out.asnumpy(), new_w, rtol=1e-6)
    np.testing.assert_allclose(mom2.asnumpy(), m1 - lr * (g + wd * w0), rtol=1e-5)
