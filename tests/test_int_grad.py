"""Gradients of integer arrays marked with attach_grad (values checked against MXNet 1.9.1)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from mxnet.base import MXNetError

nd = mx.nd


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8"])
def test_elementwise_and_cast(dtype):
    x = nd.array([1, 2, 3], dtype=dtype)
    x.attach_grad()
    assert x.grad.dtype == np.dtype(dtype)
    with autograd.record():
        y = x * 2
    assert y.dtype == np.dtype(dtype)
    y.backward()
    assert x.grad.dtype == np.dtype(dtype)
    assert x.grad.asnumpy().tolist() == [2, 2, 2]
    with autograd.record():
        z = (x.astype("float32") * 3).sum()
    z.backward()
    assert x.grad.asnumpy().tolist() == [3, 3, 3]


def test_topk_value_gradient():
    a = nd.arange(0, 20, dtype=np.int32)
    a.attach_grad()
    with autograd.record():
        b = nd.topk(a, k=4, ret_typ="value")
    b.backward(nd.arange(0, 4, dtype=np.int32))
    g = a.grad.asnumpy()
    assert g[-4:].tolist() == [3, 2, 1, 0] and not g[:-4].any()


def test_getitem_gradient():
    x = nd.array(np.arange(12).reshape(3, 4), dtype="int32")
    x.attach_grad()
    for key in [1, (slice(0, 2), 1), ([0, 2],), (slice(None, None, -1),)]:
        with autograd.record():
            y = x[key]
        y.backward()
        expect = np.zeros((3, 4), dtype=np.int32)
        expect[key] = 1
        assert x.grad.asnumpy().tolist() == expect.tolist(), key


def test_grad_add_and_autograd_grad():
    x = nd.array([1, 2], dtype="int32")
    x.attach_grad(grad_req="add")
    for _ in range(2):
        with autograd.record():
            y = x * 3
        y.backward()
    assert x.grad.asnumpy().tolist() == [6, 6]
    v = nd.array([4, 5], dtype="int64")
    v.attach_grad()
    with autograd.record():
        w = v * v
    (g,) = autograd.grad(w, [v])
    assert g.dtype == np.int64 and g.asnumpy().tolist() == [8, 10]


def test_partial_assignment_of_recorded_value_into_integers():
    x = nd.zeros((2, 3), dtype="int32")
    y = nd.ones((3,))
    y.attach_grad()
    with pytest.raises(MXNetError, match="Inplace operations"):
        with autograd.record():
            x[0] = y


def test_bound_executor_integer_argument_gradients():
    # MXNet 1.9.1: integer arguments of a bound graph get (integer) gradients
    x = mx.sym.Variable("x", dtype="int32")
    for y, want in [(x * 2, [2, 4, -6]), (mx.sym.Cast(x, dtype="float32"), [1, 2, -3])]:
        exe = y.simple_bind(mx.cpu(), x=(3,))
        exe.arg_arrays[0][:] = np.array([1, -2, 3])
        exe.forward(is_train=True)
        exe.backward(nd.array([1.5, 2.5, -3.7], dtype=exe.outputs[0].dtype))
        assert exe.grad_arrays[0].dtype == np.int32
        assert exe.grad_arrays[0].asnumpy().tolist() == want


def test_cast_to_integer_passes_truncated_gradient():
    # MXNet casts back through casts to integers; the integer buffers truncate the gradient
    x = nd.array([1.5, -2, 3])
    x.attach_grad()
    with autograd.record():
        y = (x.astype("int32") * 2).astype("float32") * x
    y.backward()
    assert x.grad.asnumpy().tolist() == [4, -8, 12]
    s = mx.sym.Cast(mx.sym.Variable("x"), dtype="int32") * 2
    exe = s.simple_bind(mx.cpu(), x=(3,))
    exe.forward(is_train=True, x=nd.array([1.5, -2, 3]))
    exe.backward(nd.array([1, 1, 1], dtype="int32"))
    assert exe.grad_arrays[0].asnumpy().tolist() == [2, 2, 2]


def test_integer_modulo_differentiates_to_zero():
    # MXNet 1.9.1's integer mod kernels pass back zeros (no NaN where the divisor is 0)
    a = nd.array([7, -7, 5], dtype="int32")
    b = nd.array([3, 3, 2], dtype="int32")
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        c = a % b + nd.broadcast_mod(a, b) + a % 3 + 7 % a
    c.backward()
    assert a.grad.asnumpy().tolist() == [0, 0, 0] and b.grad.asnumpy().tolist() == [0, 0, 0]
    x, y = mx.sym.var("a"), mx.sym.var("b")
    s = mx.sym.cast(x, dtype="int32") % mx.sym.cast(y, dtype="int32")
    g = [nd.ones(3), nd.ones(3)]
    exe = s.bind(mx.cpu(), args={"a": nd.array([7.0, -7, 5]), "b": nd.array([3.0, 0, 2])},
                 args_grad=g)
    exe.forward(is_train=True)
    exe.backward(nd.ones(3, dtype="int32"))
    assert g[0].asnumpy().tolist() == [0, 0, 0] and g[1].asnumpy().tolist() == [0, 0, 0]
