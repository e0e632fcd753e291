"""Generated ``mx.nd``/``mx.sym`` functions check their array arguments as MXNet 1.9.1 does:
an AssertionError naming the argument, and a list is not unpacked (old tutorials call
``mx.nd.concat([a, b])``, which fails on MXNet 1.9.1)."""
import numpy as np
import pytest

import mxnet as mx


@pytest.mark.parametrize('name', ['concat', 'Concat', 'stack', 'add_n', 'ElementWiseSum'])
def test_variadic_rejects_a_list(name):
    a = mx.nd.ones((2, 3))
    with pytest.raises(AssertionError, match='^Positional arguments must have NDArray type, '
                                             'but got \\['):
        getattr(mx.nd, name)([a, a])
    assert getattr(mx.nd, name)(a, a).shape[0] == 2


def test_variadic_rejects_a_numpy_array():
    with pytest.raises(AssertionError, match='Positional arguments must have NDArray type'):
        mx.nd.concat(mx.nd.ones(2), np.ones(2))


def test_fixed_inputs_name_the_argument():
    a = mx.nd.ones((2,))
    with pytest.raises(AssertionError, match='^Argument rhs must have NDArray type, but got 1$'):
        mx.nd.elemwise_add(a, 1)
    with pytest.raises(AssertionError, match='^Argument data must have NDArray type'):
        mx.nd.relu(data=[1, 2])


def test_symbol_variadic_rejects_a_list():
    a, b = mx.sym.var('a'), mx.sym.var('b')
    with pytest.raises(AssertionError, match='^Positional arguments must be Symbol instances'):
        mx.sym.concat([a, b])
    assert mx.sym.concat(a, b, dim=1).list_arguments() == ['a', 'b']
