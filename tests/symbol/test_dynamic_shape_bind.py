"""Symbols with data-dependent output shapes (boolean_mask, npx.nonzero, np.unique).

MXNet 1.9.1 leaves their output shapes unknown in shape inference and still binds the graph
when the argument arrays are given; the outputs get their shapes when the graph runs.
"""

import warnings

import mxnet as mx


def _masked():
    return mx.sym.contrib.boolean_mask(mx.sym.var("d"), mx.sym.var("i")) * 2


def test_infer_shape_leaves_dynamic_outputs_unknown():
    assert _masked().infer_shape_partial(d=(3, 3), i=(3,)) == ([(3, 3), (3,)], [()], [])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert _masked().infer_shape(d=(3, 3), i=(3,)) == (None, None, None)
    assert any("Cannot decide shape" in str(x.message) for x in w)
    x = mx.sym.var("x")
    assert mx.sym.np.unique(x.as_np_ndarray()).infer_shape_partial(x=(5,)) == ([(5,)], [()], [])


def test_bind_and_run_boolean_mask_graph():
    d = mx.nd.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    grad = mx.nd.zeros((3, 3))
    ex = _masked().bind(mx.cpu(), args={"d": d, "i": mx.nd.array([0, 1, 1])}, args_grad={"d": grad})
    out = ex.forward(is_train=True)[0]
    assert out.asnumpy().tolist() == [[8, 10, 12], [14, 16, 18]]
    ex.backward(mx.nd.ones((2, 3)))
    assert grad.asnumpy().tolist() == [[0, 0, 0], [2, 2, 2], [2, 2, 2]]
    # a new mask changes the output shape on the next run
    assert ex.forward(i=mx.nd.array([1, 0, 0]))[0].shape == (1, 3)
