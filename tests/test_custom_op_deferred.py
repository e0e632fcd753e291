"""A run-time failure of an operator inside a CustomOp's forward surfaces when the Custom
operator's output is read (MXNet 1.9.1 raises MXNetError at ``wait_to_read``)."""

import pytest

import mxnet as mx
from mxnet.base import MXNetError


class _Chol(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        out_data[0][:] = mx.nd.linalg.potrf(mx.nd.dot(in_data[0], in_data[1]))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        pass


@mx.operator.register("_test_chol_of_product")
class _CholProp(mx.operator.CustomOpProp):
    def list_arguments(self):
        return ["a", "b"]

    def infer_shape(self, in_shape):
        return in_shape, [(in_shape[0][0], in_shape[1][1])]

    def create_operator(self, ctx, shapes, dtypes):
        return _Chol()


def test_failure_inside_forward_raises_on_read():
    c = mx.nd.Custom(mx.nd.zeros((2, 1)), mx.nd.zeros((1, 2)), op_type="_test_chol_of_product")
    with pytest.raises(MXNetError):
        c.wait_to_read()
    mx.nd.waitall()  # reported once: nothing left pending


def test_each_call_reports_its_own_failure():
    a = mx.nd.array([[2.0], [0.0]])
    b = mx.nd.array([[2.0, 0.0]])
    eye = mx.nd.Custom(a, b, op_type="_test_chol_of_product")
    with pytest.raises(MXNetError):  # [[4, 0], [0, 0]] is singular too
        eye.asnumpy()
    good = mx.nd.Custom(mx.nd.array([[2.0]]), mx.nd.array([[2.0]]),
                        op_type="_test_chol_of_product")
    assert good.asnumpy().tolist() == [[2.0]]
