"""Run-time operator failures are deferred as in MXNet's asynchronous engine (mxnet._deferred).

Every behaviour here was checked against MXNet 1.9.1.
"""

import pickle

import numpy as np
import pytest

import mxnet as mx
from mxnet import _deferred, autograd
from mxnet.base import MXNetError

nd = mx.nd


@pytest.fixture(autouse=True)
def _no_leftover_failure():
    try:
        nd.waitall()
    except MXNetError:
        pass
    yield
    try:
        nd.waitall()
    except MXNetError:
        pass
    assert not _deferred.PENDING[0]


def _bad():
    return nd.random.normal(0, -1, shape=(2, 2))


def test_call_returns_read_raises_once():
    a = _bad()
    assert a.shape == (2, 2) and a.dtype == np.float32
    with pytest.raises(MXNetError, match="scale parameter in gaussian has to be positive"):
        a.asnumpy()
    assert a.asnumpy().shape == (2, 2)  # reported: reads normally now
    nd.waitall()  # nothing left
    assert not _deferred.PENDING[0]


def test_dependents_share_one_failure():
    a = _bad()
    b = a + 1
    c = nd.dot(b, b)
    with pytest.raises(MXNetError):
        c.asnumpy()
    b.asnumpy()  # the same failure: already reported
    a.wait_to_read()
    nd.waitall()


def test_waitall_raises_first_then_clears():
    a = _bad()
    nd.random.uniform(1, 0, shape=(3,))
    with pytest.raises(MXNetError, match="gaussian"):
        nd.waitall()
    a.asnumpy()
    nd.waitall()
    assert (nd.ones((2,)) * 3).asnumpy().tolist() == [3.0, 3.0]


@pytest.mark.parametrize(
    "read",
    [
        lambda a: a.asnumpy(),
        lambda a: a.wait_to_read(),
        lambda a: a[0, 0].asscalar(),
        lambda a: repr(a),
        lambda a: a[0, 0].asnumpy(),
        lambda a: pickle.dumps(a),
        lambda a: a.to_dlpack_for_read(),
    ],
)
def test_reads(read):
    with pytest.raises(MXNetError):
        read(_bad())


@pytest.mark.parametrize(
    "derive",
    [
        lambda a: a[0],
        lambda a: a[0:1],
        lambda a: a.reshape((4,)),
        lambda a: a.T,
        lambda a: a.copy(),
        lambda a: a.copyto(mx.cpu(1)),
        lambda a: a.astype("float64"),
        lambda a: a.detach(),
        lambda a: a.as_in_context(mx.cpu(2)),
        lambda a: a.tostype("csr"),
        lambda a: a.flatten(inplace=True),
        lambda a: nd.array(a),
        lambda a: list(a)[1],
    ],
)
def test_views_and_copies_carry(derive):
    a = _bad()
    d = derive(a)
    with pytest.raises(MXNetError):
        d.asnumpy()
    a.asnumpy()  # the view's read reported the shared failure


def test_writes_into_existing_arrays_carry():
    dst = nd.zeros((2, 2))
    _bad().copyto(dst)
    with pytest.raises(MXNetError):
        dst.asnumpy()
    acc = nd.ones((2, 2))
    acc += _bad()
    with pytest.raises(MXNetError):
        acc.asnumpy()
    out = nd.ones((2, 2))
    nd.random.normal(0, -1, shape=(2, 2), out=out)
    with pytest.raises(MXNetError):
        out.asnumpy()
    part = nd.zeros((2, 2))
    part[0] = _bad()[0]
    with pytest.raises(MXNetError):
        part.asnumpy()


def test_shape_errors_stay_synchronous():
    a = _bad()
    with pytest.raises(MXNetError):
        nd.dot(a, nd.ones((3, 3)))
    with pytest.raises(MXNetError):  # the run-time failure is still pending
        nd.waitall()


def test_executor_forward_backward():
    x = mx.sym.Variable("x")
    out = mx.sym.make_loss(mx.sym.dot(x, mx.sym.random.normal(0, -1, shape=(2, 2))))
    ex = out.bind(mx.cpu(), args={"x": nd.ones((2, 2))}, args_grad={"x": nd.zeros((2, 2))})
    outs = ex.forward(is_train=True)
    assert outs[0].shape == (2, 2)
    ex.backward()
    with pytest.raises(MXNetError, match="gaussian"):
        ex.grad_arrays[0].asnumpy()
    outs[0].asnumpy()  # same failure
    ex.forward(is_train=True)
    with pytest.raises(MXNetError):
        nd.waitall()


def test_executor_input_carrying_failure():
    x = mx.sym.Variable("x")
    ex = (x * 2).bind(mx.cpu(), args={"x": _bad()})
    with pytest.raises(MXNetError):
        ex.forward()[0].asnumpy()
    ex.arg_dict["x"][:] = 1
    assert ex.forward()[0].asnumpy().tolist() == [[2.0, 2.0], [2.0, 2.0]]


def test_autograd_gradients_carry():
    a = nd.ones((2, 2))
    a.attach_grad()
    with autograd.record():
        b = a * _bad()
    b.backward()
    with pytest.raises(MXNetError):
        a.grad.asnumpy()
    with autograd.record():
        c = (a * _bad()).sum()
    (g,) = autograd.grad(c, [a])
    with pytest.raises(MXNetError):
        g.asnumpy()


def test_gluon_sequential_block():
    net = mx.gluon.nn.Sequential()
    net.add(mx.gluon.nn.Dense(4, in_units=2), mx.gluon.nn.Dropout(0.5))
    net.initialize()
    z = net(nd.random.normal(10, -10, shape=(3, 2)))
    assert z.shape == (3, 4)
    with pytest.raises(MXNetError):
        z.wait_to_read()


@pytest.mark.parametrize(
    "call, text",
    [
        (lambda: nd.random.normal(0, 0, shape=(2,)), "param.scale > 0 (0 vs. 0)"),
        (lambda: nd.random.uniform(1, 0, shape=(2,)), "param.high >= param.low (0 vs. 1)"),
        (lambda: nd.random.gamma(-1, 1, shape=(2,)), "alpha parameter in gamma"),
        (lambda: nd.random.gamma(1, -1, shape=(2,)), "beta parameter in gamma"),
        (lambda: nd.random.exponential(-1, shape=(2,)), "lambda parameter in exponential"),
        (lambda: nd.random.poisson(-1, shape=(2,)), "lambda parameter in poisson"),
        (lambda: nd.random.negative_binomial(-1, 0.5, shape=(2,)), "k parameter in negative"),
        (lambda: nd.random.generalized_negative_binomial(-1, 1, shape=(2,)), "mu parameter"),
        (lambda: nd.random.generalized_negative_binomial(1, -1, shape=(2,)), "alpha parameter"),
        (lambda: nd.random.randint(5, 1, shape=(2,)), "param.high >= param.low (1 vs. 5)"),
        (lambda: nd.random.normal_like(nd.ones((2,)), 0, -1), "gaussian"),
        (lambda: nd.random.poisson_like(nd.ones((2,)), -1), "poisson"),
    ],
)
def test_sampler_run_time_checks(call, text):
    a = call()
    assert a.shape == (2,)
    with pytest.raises(MXNetError) as err:
        a.asnumpy()
    assert text in str(err.value)


def test_sampler_valid_edges():
    assert nd.random.uniform(1, 1, shape=(2,)).asnumpy().tolist() == [1.0, 1.0]
    assert nd.random.poisson(0, shape=(2,)).asnumpy().tolist() == [0.0, 0.0]
    # MXNet's Poisson-based samplers give 0 for a negative rate (no error)
    assert nd.random.negative_binomial(1, 2, shape=(3,)).asnumpy().tolist() == [0, 0, 0]
    s = nd.sample_poisson(nd.array([-1.0]), shape=2).asnumpy()
    assert s.tolist() == [[0.0, 0.0]]
    with pytest.raises(MXNetError):  # MXNet 1.9.1 crashes (division by zero) here
        nd.random.randint(1, 1, shape=(2,))


def test_no_cost_flag_resets():
    a = _bad()
    assert _deferred.PENDING[0]
    with pytest.raises(MXNetError):
        a.asnumpy()
    assert not _deferred.PENDING[0]


def test_failed_sampler_poisons_later_samplers():
    # MXNet's samplers share one random resource: a failure left on it reaches every later
    # sampler (and Dropout) until reported; other operators and shuffle are not affected
    _bad()
    c = nd.ones((2,)) + 1
    s = nd.random.shuffle(nd.ones((3,)))
    b = nd.random.uniform(0, 1, shape=(2,))
    assert c.asnumpy().tolist() == [2.0, 2.0]
    assert s.asnumpy().tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(MXNetError):
        b.asnumpy()
    assert nd.random.uniform(0, 1, shape=(2,)).shape == (2,)
    assert not _deferred.PENDING[0]
    for later in (
        lambda: nd.random.randint(0, 5, shape=(2,), dtype="int64"),
        lambda: nd.sample_normal(nd.array([0.0]), nd.array([1.0]), shape=2),
        lambda: nd.Dropout(nd.ones((4,)), p=0.5, mode="always"),
    ):
        _bad()
        with pytest.raises(MXNetError):
            later().asnumpy()


def test_error_kind_and_fail_later():
    _deferred.defer(_deferred.DeferredOpError("index 5 is out of bounds", (), kind=IndexError))
    with pytest.raises(IndexError, match="out of bounds"):
        nd.waitall()
    a = _deferred.fail_later(nd.zeros((2,)), "Unknown interpolation method")
    b = a * 2
    with pytest.raises(MXNetError, match="interpolation"):
        b.asnumpy()
    assert a.asnumpy().tolist() == [0.0, 0.0]


def test_hybridized_block_outputs_carry_the_failure():
    from mxnet.gluon import nn

    net = nn.HybridSequential()
    net.add(nn.Dense(4, in_units=3))
    net.initialize()
    net.hybridize()
    y = net(mx.nd.random.normal(0, -1, (2, 3)))  # returns; the check runs "later"
    with pytest.raises(mx.base.MXNetError, match="scale"):
        y.asnumpy()
    assert net(mx.nd.ones((2, 3))).shape == (2, 4)  # later work runs normally


def test_imresize_unknown_interp_fails_on_read():
    img = mx.image.imresize(mx.nd.ones((12, 16, 3)), 32, 32, interp=-1)  # OpenCV fails "later"
    assert img.shape == (32, 32, 3)
    with pytest.raises(MXNetError, match="interpolation"):
        img.asnumpy()


def test_save_raises_a_pending_failure(tmp_path):
    a = mx.nd.random.normal(0, -1, shape=(2,))
    with pytest.raises(MXNetError, match="scale"):
        mx.nd.save(str(tmp_path / "x.nd"), {"a": a})
    assert not (tmp_path / "x.nd").exists()
