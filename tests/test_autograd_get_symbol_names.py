"""autograd.get_symbol names as MXNet 1.9.1: variables ``var<N>`` numbered when marked,
other inputs ``null<N>``, one process-wide count; gradients made with create_graph show a
backward node over ``_head_grad_<i>`` and the variables they depend on."""

import pytest

import mxnet as mx
from mxnet import autograd, nd
from mxnet.base import MXNetError


def _num(name: str, prefix: str) -> int:
    assert name.startswith(prefix), name
    return int(name[len(prefix) :])


def test_variable_and_constant_names():
    x, y, c = nd.array([1.0, 2.0]), nd.array([3.0, 4.0]), nd.array([5.0, 6.0])
    x.attach_grad()
    y.attach_grad()
    with autograd.record():
        z = nd.elemwise_sub(x, y) * c + 1
    args = autograd.get_symbol(z).list_arguments()
    nx, ny = _num(args[0], "var"), _num(args[1], "var")
    assert ny == nx + 1 and _num(args[2], "null") > ny
    # each array keeps its name across calls
    assert autograd.get_symbol(x).list_outputs() == [args[0]]
    assert autograd.get_symbol(c).list_outputs() == [args[2]]
    x.attach_grad()  # marking again makes a new variable
    assert _num(autograd.get_symbol(x).list_outputs()[0], "var") > _num(args[2], "null")


def test_gradient_symbol_lists_its_dependencies():
    x, y = nd.array([1.0, 2.0]), nd.array([3.0, 4.0])
    x.attach_grad()
    y.attach_grad()
    yname = autograd.get_symbol(y).list_outputs()[0]
    with autograd.record():
        gs = autograd.grad(nd.elemwise_sub(x, y), [x, y], create_graph=True, retain_graph=True)
        gm = autograd.grad(nd.elemwise_mul(x, y), [x], create_graph=True, retain_graph=True)
    assert autograd.get_symbol(gs[0]).list_arguments() == ["_head_grad_0"]
    assert autograd.get_symbol(gm[0]).list_arguments() == ["_head_grad_0", yname]
    with pytest.raises(MXNetError):
        autograd.get_symbol(gm[0]).bind(
            mx.cpu(), {"_head_grad_0": nd.ones((2,)), yname: nd.ones((2,))}
        ).forward()
