"""Executor.backward() without head gradients: only loss-terminated outputs may omit them.

MXNet 1.9.1 raises when some argument's gradient depends on a missing head gradient (the
output's operator reads it); loss outputs and zero-gradient operators need none.
"""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

x = mx.sym.Variable("x")


def _backward(sym, out_grads=None, **shapes):
    ex = sym.simple_bind(mx.cpu(), **(shapes or {"x": (2, 3)}))
    ex.arg_dict["x"][:] = np.arange(6).reshape(2, 3)
    ex.forward(is_train=True)
    ex.backward(out_grads)
    return ex.grad_dict["x"].asnumpy()


@pytest.mark.parametrize(
    "sym",
    [
        x * 2,
        mx.sym.sum(x),
        mx.sym.relu(x),
        mx.sym.sign(x),
        mx.sym.Group([x]),
        mx.sym.BlockGrad(x) + x,
        mx.sym.Group([mx.sym.make_loss(x * 2), x * 3]),
        mx.sym.softmax_cross_entropy(x, mx.sym.Variable("lab")),
    ],
)
def test_head_gradient_required(sym):
    with pytest.raises(MXNetError, match="head_gradient is required"):
        _backward(sym, x=(2, 3), **({"lab": (2,)} if "lab" in sym.list_arguments() else {}))


@pytest.mark.parametrize(
    "sym, expected",
    [
        (mx.sym.make_loss(x * 2), 2.0),
        (mx.sym.MakeLoss(x * 2), 2.0),
        (mx.sym.sum(mx.sym.make_loss(x)), 1.0),
        (mx.sym.BlockGrad(x), 0.0),
        (mx.sym.zeros_like(x), 0.0),
        (mx.sym.floor(x), 0.0),
        (mx.sym.argmax(x, axis=1), 0.0),
        (x == x, 0.0),
        (mx.sym.topk(x, k=1), 0.0),
    ],
)
def test_no_head_gradient_needed(sym, expected):
    assert np.all(_backward(sym) == expected)


def test_loss_outputs_and_given_gradients():
    sm = mx.sym.SoftmaxOutput(x, name="sm")
    g = _backward(sm, x=(2, 3), sm_label=(2,))
    assert g.shape == (2, 3)
    assert _backward(x * 2, [mx.nd.ones((2, 3))]).tolist() == [[2.0] * 3] * 2
    both = mx.sym.Group([mx.sym.make_loss(x * 2), x * 3])
    assert np.all(_backward(both, [mx.nd.ones((2, 3)), mx.nd.ones((2, 3))]) == 5.0)


def test_no_argument_gradient_needs_no_head():
    ex = (x * 2).simple_bind(mx.cpu(), x=(2,), grad_req="null")
    ex.forward(is_train=True)
    ex.backward()


def test_backward_after_inference_forward():
    ex = (x * 2).simple_bind(mx.cpu(), x=(2,))
    ex.forward(is_train=False)
    with pytest.raises(MXNetError):
        ex.backward()
    ex.backward(mx.nd.ones((2,)))
    assert ex.grad_dict["x"].asnumpy().tolist() == [2.0, 2.0]


def test_dropout_backward_follows_last_forward_mode():
    d = mx.sym.Variable("d")
    ex = mx.sym.Dropout(d, p=0.5).simple_bind(mx.cpu(), d=(4, 8))
    ex.arg_dict["d"][:] = 1
    ex.forward(is_train=False)
    ex.backward(mx.nd.ones((4, 8)))
    assert np.all(ex.grad_dict["d"].asnumpy() == 1.0)
    out = ex.forward(is_train=True)[0].asnumpy()
    ex.backward(mx.nd.ones((4, 8)))
    np.testing.assert_array_equal(ex.grad_dict["d"].asnumpy(), out)


def test_non_differentiable_operator_refused_when_binding_for_training():
    idx = mx.sym.Variable("idx")
    y = mx.sym.batch_take(x, idx)
    kw = dict(x=(4, 3), idx=(4,), type_dict={"x": np.float32, "idx": np.int32})
    with pytest.raises(RuntimeError, match="batch_take is non-differentiable"):
        y.simple_bind(mx.cpu(), **kw)
    y.simple_bind(mx.cpu(), grad_req="null", **kw)
    ex = mx.sym.stop_gradient(y).simple_bind(mx.cpu(), **kw)
    ex.forward(is_train=True)
    ex.backward()
    assert not ex.grad_dict["x"].asnumpy().any()
    args = {"x": mx.nd.ones((4, 3)), "idx": mx.nd.zeros((4,), dtype="int32")}
    with pytest.raises(MXNetError, match="non-differentiable"):
        y.bind(mx.cpu(), args, args_grad={"x": mx.nd.zeros((4, 3))})
    side = x * 2 + mx.sym.shuffle(mx.sym.Variable("w"))
    with pytest.raises(RuntimeError, match="_shuffle is non-differentiable"):
        side.simple_bind(mx.cpu(), x=(3,), w=(3,), grad_req={"x": "write", "w": "null"})
