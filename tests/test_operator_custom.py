"""Custom operators through mx.nd.Custom, mx.sym.Custom and the executor."""

import numpy as np
import pytest

import mxnet as mx
import mxnet.symbol as sym
from mxnet import operator
from mxnet.base import MXNetError


class Sqr(operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], 2 * in_data[0] * out_grad[0])


@operator.register("t_sqr")
class SqrProp(operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=True)

    def create_operator(self, ctx, shapes, dtypes):
        return Sqr()


class ScaledAdd(operator.CustomOp):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], (in_data[0] + in_data[1]) * self.scale)
        self.assign(out_data[1], req[1], in_data[0] - in_data[1])
        aux[0][:] += 1

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * self.scale + out_grad[1])
        self.assign(in_grad[1], req[1], out_grad[0] * self.scale - out_grad[1])


@operator.register("t_scaled_add")
class ScaledAddProp(operator.CustomOpProp):
    def __init__(self, scale="1"):
        super().__init__()
        self.scale = float(scale)

    def list_arguments(self):
        return ["lhs", "rhs"]

    def list_outputs(self):
        return ["sum", "diff"]

    def list_auxiliary_states(self):
        return ["counter"]

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0], in_shape[0]], [(1,)]

    def create_operator(self, ctx, shapes, dtypes):
        return ScaledAdd(self.scale)


class Softmax(operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        y = np.exp(x - x.max(axis=1, keepdims=True))
        y /= y.sum(axis=1, keepdims=True)
        self.assign(out_data[0], req[0], mx.nd.array(y))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        lab = in_data[1].asnumpy().ravel().astype(int)
        y = out_data[0].asnumpy()
        y[np.arange(lab.shape[0]), lab] -= 1.0
        self.assign(in_grad[0], req[0], mx.nd.array(y))


@operator.register("t_softmax")
class SoftmaxProp(operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=False)

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape):
        return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return Softmax()


def test_nd_custom_forward_backward():
    x = mx.nd.array([1.0, 2.0, 3.0])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="t_sqr")
    y.backward()
    assert y.asnumpy().tolist() == [1.0, 4.0, 9.0]
    assert x.grad.asnumpy().tolist() == [2.0, 4.0, 6.0]


def test_sym_custom_names_shapes_and_executor():
    with mx.name.NameManager():
        a, b = sym.Variable("a"), sym.Variable("b")
        s = sym.Custom(lhs=a, rhs=b, op_type="t_scaled_add", scale=2)
    assert s.list_arguments() == ["a", "b"]
    assert s.list_outputs() == ["custom0_sum", "custom0_diff"]
    assert s.list_auxiliary_states() == ["custom0_counter"]
    assert s.infer_shape(a=(2, 3), b=(2, 3)) == ([(2, 3), (2, 3)], [(2, 3), (2, 3)], [(1,)])
    assert '"op_type": "t_scaled_add"' in s.tojson() and '"scale": "2"' in s.tojson()
    s = sym.load_json(s.tojson())
    ex = s.simple_bind(mx.cpu(), a=(2, 3), b=(2, 3))
    ex.arg_dict["a"][:] = 3
    ex.arg_dict["b"][:] = 1
    outs = ex.forward(is_train=True)
    assert outs[0].asnumpy().tolist() == [[8.0] * 3] * 2
    assert outs[1].asnumpy().tolist() == [[2.0] * 3] * 2
    assert ex.aux_dict["custom0_counter"].asnumpy().tolist() == [1.0]
    ex.backward([mx.nd.ones((2, 3)), mx.nd.ones((2, 3))])
    assert ex.grad_dict["a"].asnumpy().tolist() == [[3.0] * 3] * 2
    assert ex.grad_dict["b"].asnumpy().tolist() == [[1.0] * 3] * 2


def test_custom_loss_without_head_gradient():
    data = sym.Variable("data")
    net = sym.Custom(data=data, name="softmax", op_type="t_softmax")
    assert net.list_arguments() == ["data", "softmax_label"]
    ex = net.simple_bind(mx.cpu(), data=(2, 3))
    ex.arg_dict["data"][:] = mx.nd.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    ex.arg_dict["softmax_label"][:] = mx.nd.array([2, 0])
    out = ex.forward(is_train=True)[0].asnumpy()
    ex.backward()
    g = out.copy()
    g[0, 2] -= 1
    g[1, 0] -= 1
    np.testing.assert_allclose(ex.grad_dict["data"].asnumpy(), g, rtol=1e-6)


def test_unknown_op_type():
    with pytest.raises(MXNetError, match="nope"):
        mx.nd.Custom(mx.nd.ones((1,)), op_type="nope")
    with pytest.raises(TypeError):
        operator.register("bad")(object)


def test_custom_op_output_storage_type_from_prop():
    # numpy-ops/custom_sparse_sqr.py: a prop's infer_storage_type decides the output
    # storage type; MXNet's default infer_storage_type refuses sparse inputs.
    import pytest

    class _Sq(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], mx.nd.square(in_data[0]))

    @mx.operator.register("stype_sq_keep")
    class _Keep(mx.operator.CustomOpProp):
        def infer_storage_type(self, in_stype):
            return in_stype, [in_stype[0]], []

        def create_operator(self, ctx, shapes, dtypes):
            return _Sq()

    @mx.operator.register("stype_sq_plain")
    class _Plain(mx.operator.CustomOpProp):
        def create_operator(self, ctx, shapes, dtypes):
            return _Sq()

    x = mx.nd.array(np.arange(6).reshape(2, 3)).tostype("csr")
    y = mx.nd.Custom(x, op_type="stype_sq_keep")
    assert y.stype == "csr"
    assert y.asnumpy().tolist() == [[0, 1, 4], [9, 16, 25]]
    assert mx.nd.Custom(mx.nd.ones((2, 2)), op_type="stype_sq_keep").stype == "default"
    with pytest.raises(mx.base.MXNetError, match="non default stype 'csr'"):
        mx.nd.Custom(x, op_type="stype_sq_plain").wait_to_read()
