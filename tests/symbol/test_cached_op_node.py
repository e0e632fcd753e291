"""``mx.sym._internal._CachedOp``: a graph given as JSON used as one node (MXNet 1.9.1)."""

import numpy as np

import mxnet as mx


def test_cached_op_names_shapes_and_values():
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    with mx.name.NameManager():  # fresh auto-name counters (_mul0, _plusscalar0)
        inner = mx.sym.Group([a * b, a * b + 1])
    node = mx.sym._internal._CachedOp(b, a, subgraph=inner.tojson(), name="foo")
    assert node.list_arguments() == ["b", "a"]
    assert node.list_outputs() == ["foo__mul0_output", "foo__plusscalar0_output"]
    assert node.infer_shape(a=(2,), b=(2,))[1] == [(2,), (2,)]
    assert node.infer_type(a="float64")[1] == [np.float64, np.float64]
    ex = node.bind(mx.cpu(), {"a": mx.nd.array([2.0, 3.0]), "b": mx.nd.array([5.0, 7.0])})
    out = ex.forward()
    # the inputs follow the subgraph's list_inputs order: inner 'a' is outer 'b'
    np.testing.assert_allclose(out[0].asnumpy(), [10.0, 21.0])
    np.testing.assert_allclose(out[1].asnumpy(), [11.0, 22.0])
    again = mx.sym.load_json(node.tojson())
    assert again.list_outputs() == node.list_outputs()


def test_cached_op_batchnorm_aux_and_grads():
    data = mx.sym.Variable("data")
    bn = mx.sym.BatchNorm(data, fix_gamma=False, name="bn")
    node = mx.sym._internal._CachedOp(
        *[mx.sym.Variable(n) for n in bn.list_inputs()], subgraph=bn.tojson()
    )
    assert node.list_arguments() == ["data", "bn_gamma", "bn_beta"]
    assert node.list_auxiliary_states() == ["bn_moving_mean", "bn_moving_var"]
    x = mx.nd.array([[1.0, 2.0], [3.0, 6.0]])
    args = {"data": x, "bn_gamma": mx.nd.ones((2,)), "bn_beta": mx.nd.zeros((2,))}
    grads = {k: mx.nd.zeros(v.shape) for k, v in args.items()}
    aux = {"bn_moving_mean": mx.nd.zeros((2,)), "bn_moving_var": mx.nd.ones((2,))}
    ref = bn.bind(
        mx.cpu(),
        args={k: v.copy() for k, v in args.items()},
        args_grad={k: mx.nd.zeros(v.shape) for k, v in args.items()},
        aux_states={k: v.copy() for k, v in aux.items()},
    )
    ex = node.bind(mx.cpu(), args=args, args_grad=grads, aux_states=aux)
    head = mx.nd.array([[1.0, -1.0], [0.5, 2.0]])
    for e in (ref, ex):
        e.forward(is_train=True)
        e.backward([head])
    np.testing.assert_allclose(ex.outputs[0].asnumpy(), ref.outputs[0].asnumpy(), rtol=1e-5)
    for k in args:
        np.testing.assert_allclose(
            ex.grad_dict[k].asnumpy(), ref.grad_dict[k].asnumpy(), rtol=1e-5, atol=1e-6
        )
    np.testing.assert_allclose(ex.aux_dict["bn_moving_mean"].asnumpy(), [0.2, 0.4], rtol=1e-5)
