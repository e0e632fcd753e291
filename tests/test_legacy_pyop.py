"""Deprecated mx.operator.NumpyOp / NDArrayOp / PythonOp (run through Custom)."""

import warnings

import numpy as np
import pytest

import mxnet as mx

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_default_numpy_op_copies_and_passes_gradient():
    x = mx.nd.ones((10,)) * 10
    dx = mx.nd.zeros((10,))
    sym = mx.operator.NumpyOp().get_symbol(mx.sym.Variable("X"), name="numpy_op")
    assert sym.list_arguments() == ["X"] and sym.list_outputs() == ["numpy_op_output"]
    ex = sym.bind(mx.cpu(), args=[x], args_grad={"X": dx})
    ex.forward(is_train=True)
    assert (ex.outputs[0].asnumpy() == 10).all()
    ex.backward(mx.nd.ones((10,)))
    assert (dx.asnumpy() == 1).all()


class _Softmax(mx.operator.NumpyOp):
    def __init__(self):
        super().__init__(False)

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape):
        return [in_shape[0], (in_shape[0][0],)], [in_shape[0]]

    def forward(self, in_data, out_data):
        x = in_data[0]
        e = np.exp(x - x.max(axis=1, keepdims=True))
        out_data[0][:] = e / e.sum(axis=1, keepdims=True)

    def backward(self, out_grad, in_data, out_data, in_grad):
        lab = in_data[1].astype(int)
        in_grad[0][:] = out_data[0]
        in_grad[0][np.arange(len(lab)), lab] -= 1.0


class _Double(mx.operator.NDArrayOp):
    def forward(self, in_data, out_data):
        out_data[0][:] = in_data[0] * 2

    def backward(self, out_grad, in_data, out_data, in_grad):
        in_grad[0][:] = out_grad[0] * 2


def test_numpy_loss_layer_trains_like_softmax_output():
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc1")
    net = _Softmax()(data=fc, name="softmax")
    assert net.list_arguments() == ["data", "fc1_weight", "fc1_bias", "softmax_label"]
    ref = mx.sym.SoftmaxOutput(fc, name="softmax")
    rng = np.random.RandomState(0)
    vals = {"data": rng.uniform(-1, 1, (4, 5)), "fc1_weight": rng.uniform(-1, 1, (3, 5)),
            "fc1_bias": np.zeros(3), "softmax_label": np.array([0, 1, 2, 0])}
    grads = []
    for sym in (net, ref):
        ex = sym.simple_bind(mx.cpu(), data=(4, 5))
        for k, v in vals.items():
            ex.arg_dict[k][:] = v
        out = ex.forward(is_train=True)[0].asnumpy()
        ex.backward()
        grads.append((out, ex.grad_dict["fc1_weight"].asnumpy()))
    np.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-5, atol=1e-6)


def test_ndarray_op():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        op = _Double()
    assert any("deprecated" in str(x.message) for x in w)
    x = mx.nd.array([1.0, 2.0])
    ex = op.get_symbol(mx.sym.Variable("x")).bind(mx.cpu(), {"x": x},
                                                   args_grad={"x": mx.nd.zeros(2)})
    assert ex.forward(is_train=True)[0].asnumpy().tolist() == [2.0, 4.0]
    ex.backward(mx.nd.ones(2))
    assert ex.grad_arrays[0].asnumpy().tolist() == [2.0, 2.0]
