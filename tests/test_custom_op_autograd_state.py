"""CustomOp.forward/backward run with autograd recording paused (as in MXNet 1.9.1).

User code inside a CustomOp may use in-place NDArray ops (``x.sigmoid(out=x)``) even when
the Custom operator is called inside ``autograd.record()``, including from a hybridized
Gluon block whose parameters are in the graph; ``is_train`` is the C int 0/1.
"""

import numpy as np

import mxnet as mx


class _InplaceSigmoid(mx.operator.CustomOp):
    seen: list = []

    def forward(self, is_train, req, in_data, out_data, aux):
        _InplaceSigmoid.seen.append(
            ("fwd", is_train, type(is_train), mx.autograd.is_recording(), mx.autograd.is_training())
        )
        y = mx.nd.dot(in_data[0], in_data[1])  # depends on a Parameter in the graph
        y.sigmoid(out=y)
        self.assign(out_data[0], req[0], y)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        _InplaceSigmoid.seen.append(("bwd", mx.autograd.is_recording()))
        s = out_data[0]
        g = out_grad[0] * s * (1 - s)
        g *= 1.0  # in-place op while the outer record() scope is still open in MXNet terms
        self.assign(in_grad[0], req[0], mx.nd.dot(g, in_data[1], transpose_b=True))
        self.assign(in_grad[1], req[1], mx.nd.dot(in_data[0], g, transpose_a=True))


@mx.operator.register("_test_inplace_sigmoid")
class _InplaceSigmoidProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=True)

    def list_arguments(self):
        return ["data", "weight"]

    def infer_shape(self, in_shape):
        return in_shape, [(in_shape[0][0], in_shape[1][1])], []

    def create_operator(self, ctx, shapes, dtypes):
        return _InplaceSigmoid()


class _Net(mx.gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.weight = self.params.get("weight", shape=(3, 2))

    def hybrid_forward(self, F, x, weight):
        return F.Custom(x, weight, op_type="_test_inplace_sigmoid")


def test_custom_op_inplace_inside_record_hybridized():
    x_np = np.array([[1.0, -2.0, 0.5], [0.0, 1.5, -1.0]], dtype=np.float32)
    w_np = np.array([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], dtype=np.float32)
    for hybridize in (False, True):
        _InplaceSigmoid.seen.clear()
        net = _Net()
        net.initialize()
        net.weight.set_data(mx.nd.array(w_np))
        if hybridize:
            net.hybridize()
        x = mx.nd.array(x_np)
        with mx.autograd.record():
            y = net(x)
        y.backward()
        s = 1 / (1 + np.exp(-x_np @ w_np))
        np.testing.assert_allclose(y.asnumpy(), s, rtol=1e-5)
        np.testing.assert_allclose(
            net.weight.grad().asnumpy(), x_np.T @ (s * (1 - s)), rtol=1e-5, atol=1e-6
        )
        assert _InplaceSigmoid.seen[0] == ("fwd", 1, int, False, True)
        assert ("bwd", False) in _InplaceSigmoid.seen
        _InplaceSigmoid.seen.clear()
        net(x)  # inference: is_train is 0, training flag off
        assert _InplaceSigmoid.seen[0] == ("fwd", 0, int, False, False)
