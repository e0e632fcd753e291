"""Symbolic mx.test_utils helpers."""

import numpy as np
import pytest

import mxnet as mx
import mxnet.symbol as sym
from mxnet import _test_utils_sym as tu


def test_forward_backward_numeric():
    x, y = sym.Variable('x'), sym.Variable('y')
    s = sym.exp(x) * y
    xv = np.array([[0.0, 1.0], [2.0, -1.0]], dtype=np.float32)
    yv = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    outs = tu.check_symbolic_forward(s, [xv, yv], [np.exp(xv) * yv])
    assert outs[0].shape == (2, 2)
    tu.check_symbolic_forward(s, {'x': xv, 'y': yv}, {s.list_outputs()[0]: np.exp(xv) * yv})
    og = np.ones((2, 2), dtype=np.float32)
    tu.check_symbolic_backward(s, [xv, yv], [og], [np.exp(xv) * yv, np.exp(xv)])
    tu.check_symbolic_backward(s, [xv, yv], [og], {'x': np.exp(xv) * yv}, grad_req='add')
    tu.check_numeric_gradient(s, [xv, yv])
    with pytest.raises(AssertionError):
        tu.check_symbolic_forward(s, [xv, yv], [np.exp(xv)])
    assert np.allclose(tu.simple_forward(s, x=xv, y=yv), np.exp(xv) * yv)


def test_check_consistency_contexts_and_dtypes():
    x = sym.Variable('x')
    s = sym.tanh(x) * 2
    outs = tu.check_consistency(s, [{'ctx': mx.cpu(0), 'x': (2, 3),
                                     'type_dict': {'x': np.float64}},
                                    {'ctx': mx.cpu(1), 'x': (2, 3),
                                     'type_dict': {'x': np.float32}}])
    assert len(outs) == 2
