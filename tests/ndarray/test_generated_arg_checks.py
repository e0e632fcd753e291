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


def test_classic_operators_refuse_np_arrays():
    """MXNet 1.9.1: a legacy mx.nd operator given an mx.np array raises TypeError."""
    with pytest.raises(TypeError, match="legacy operator which can only accept legacy"):
        mx.nd.exp(mx.np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match="Operator `concat`"):
        mx.nd.concat(mx.np.array([1.0]), mx.nd.array([1.0]), dim=0)
    with pytest.raises(TypeError, match="FullyConnected"):
        mx.nd.FullyConnected(mx.nd.ones((2, 3)), mx.np.ones((4, 3)), num_hidden=4,
                             no_bias=True)
    # the legacy array of the same data is accepted
    assert mx.nd.exp(mx.np.array([0.0]).as_nd_ndarray()).asscalar() == 1.0


def test_ndarray_has_no_scalar_conversions():
    """MXNet 1.9.1's NDArray has no __float__/__int__/__index__ (mx.np.ndarray does)."""
    a = mx.nd.array([1.5])
    with pytest.raises(TypeError):
        float(a)
    with pytest.raises(TypeError):
        int(a)
    with pytest.raises(TypeError):
        [1, 2, 3][mx.nd.array([1], dtype="int32")]
    assert a.asscalar() == 1.5 and bool(a)
    assert float(mx.np.array([1.5])) == 1.5 and int(mx.np.array([2.5])) == 2


def test_positional_out_and_inactive_inputs_as_mxnet():
    # MXNet 1.9.1's generated signature is (inputs..., params..., out=None, name=None)
    from mxnet.base import MXNetError

    a, b = mx.nd.ones((2, 3)), mx.nd.zeros((2, 3))
    assert mx.nd.relu(a * 2, b) is b and b.asnumpy().sum() == 12
    assert mx.nd.sum(a, 1, True).shape == (2, 1)  # params stay positional before out
    # an input the attrs leave unused is refused (gamma of a leaky LeakyReLU)
    with pytest.raises(MXNetError, match="expects 1 inputs, but got 2"):
        mx.nd.LeakyReLU(a, b)
    with pytest.raises(MXNetError, match="expects 2 inputs, but got 3"):
        mx.nd.FullyConnected(a, mx.nd.ones((4, 3)), mx.nd.ones(4), num_hidden=4, no_bias=True)


def test_symbol_functions_take_name_attr_out_positionally():
    # MXNet 1.9.1: mx.sym.<op>(inputs..., params..., name=None, attr=None, out=None)
    import inspect

    x = mx.sym.var("x")
    assert mx.sym.relu(x, "myrelu").name == "myrelu"
    assert mx.sym.sum(x, 1, True, False, "s").name == "s"
    assert list(inspect.signature(mx.sym.relu).parameters)[1:4] == ["name", "attr", "out"]
    assert list(inspect.signature(mx.nd.relu).parameters)[1:3] == ["out", "name"]


def test_count_parameters_mxnet_does_not_fill():
    # MXNet 1.9.1 fills num_args of concat/add_n/... but not these counts
    from mxnet.base import MXNetError

    a = mx.nd.ones((2, 2))
    with pytest.raises(MXNetError, match="Required parameter num_outputs"):
        mx.nd.amp_multicast(a, a)
    with pytest.raises(MXNetError, match="Required parameter num_arrays"):
        mx.nd.multi_sum_sq(a, a)
    with pytest.raises(MXNetError, match="expects 1 inputs, but got 2"):
        mx.nd.multi_all_finite(a, a)
    assert mx.nd.multi_sum_sq(a, a, num_arrays=2).asnumpy().tolist() == [4, 4]
    assert mx.nd.add_n(a, a).shape == (2, 2)


def test_creation_ctx_that_is_not_a_context_string():
    # MXNet 1.9.1 parses a non-Context ``ctx`` as a context string: ones(2, 2) puts the 2
    # in ctx and fails with "Invalid context string 2" (an MXNetError, not a KeyError)
    from mxnet.base import MXNetError

    with pytest.raises(MXNetError, match="Invalid context string 2"):
        mx.nd.ones(2, 2)
    with pytest.raises(MXNetError, match="Invalid context string foo"):
        mx.nd.zeros((2,), "foo")
    assert mx.nd.ones(2, "cpu(0)").context == mx.cpu(0)
