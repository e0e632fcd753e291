"""NDArray._at/_slice/_sync_copyfrom and Executor.get_optimized_symbol (used by older code)."""

import numpy as np
import pytest

import mxnet as mx


def test_at_and_slice_are_views():
    a = mx.nd.arange(6).reshape((2, 3))
    row = a._at(1)
    assert row.shape == (3,)
    row[:] = 0
    np.testing.assert_array_equal(a.asnumpy()[1], [0, 0, 0])
    assert mx.nd.arange(3)._at(1).shape == (1,)
    assert a._slice(0, 1).shape == (1, 3)
    with pytest.raises(IndexError):
        a._at(2)


def test_sync_copyfrom():
    b = mx.nd.zeros((2, 3))
    b._sync_copyfrom(np.ones((2, 3)) * 2)
    np.testing.assert_array_equal(b.asnumpy(), np.full((2, 3), 2))
    with pytest.raises(ValueError, match="Shape inconsistent"):
        b._sync_copyfrom(np.ones((3,)))


def test_get_optimized_symbol():
    x = mx.sym.var("x")
    ex = (x * 2).simple_bind(mx.cpu(), x=(2,))
    assert ex.get_optimized_symbol().list_arguments() == ["x"]
