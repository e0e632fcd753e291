"""Shape inference of a Custom op's parameter inputs from the data shape (simple_bind).

A CustomOpProp.infer_shape that indexes ``in_shapes[0][1]`` fails on 1-D probes; MXNet
1.9.1 still infers the parameter shapes from the data shape (restricted-boltzmann-machine
example: ``Module.bind`` of ``sym.Custom(data, bias, weight)``).
"""

import numpy as np

import mxnet as mx


class _Affine(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], mx.nd.dot(in_data[0], in_data[2]) + in_data[1])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        pass


@mx.operator.register("_test_infer_affine")
class _AffineProp(mx.operator.CustomOpProp):
    def __init__(self, num_hidden):
        super().__init__(need_top_grad=False)
        self.num_hidden = int(num_hidden)

    def list_arguments(self):
        return ["data", "bias", "weight"]

    def infer_shape(self, in_shapes):
        d = in_shapes[0]
        return [d, (self.num_hidden,), (d[1], self.num_hidden)], [(d[0], self.num_hidden)], []

    def create_operator(self, ctx, shapes, dtypes):
        return _Affine()


def test_custom_param_shapes_inferred_from_data():
    data = mx.sym.Variable("data")
    out = mx.sym.Custom(
        data, mx.sym.Variable("b"), mx.sym.Variable("w"), num_hidden=3, op_type="_test_infer_affine"
    )
    args, outs, aux = out.infer_shape(data=(4, 5))
    assert args == [(4, 5), (3,), (5, 3)]
    assert outs == [(4, 3)]
    ex = out.simple_bind(mx.cpu(), data=(4, 5), grad_req="null")
    ex.arg_dict["data"][:] = 1.0
    ex.arg_dict["b"][:] = 0.5
    ex.arg_dict["w"][:] = 2.0
    np.testing.assert_allclose(ex.forward()[0].asnumpy(), np.full((4, 3), 10.5))
