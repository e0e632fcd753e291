"""Record for the ``Custom`` operator (a registered square op)."""

import numpy as np
import pytest

from mxnet import operator
from tests._op.harness import Record, run_record


class _Sqr(operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], 2 * in_data[0] * out_grad[0])


@operator.register("_record_sqr")
class _SqrProp(operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return _Sqr()


X = np.random.RandomState(0).uniform(-2, 2, (2, 3)).astype(np.float32)
RECORDS = [Record("Custom", [X], {"op_type": "_record_sqr"}, ref=lambda x, op_type: x * x,
                  grad=True)]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


class _Failing(operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        raise ValueError("boom in user code")

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        pass


@operator.register("_record_failing")
class _FailingProp(operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return _Failing()


def test_user_error_becomes_mxnet_error():
    import mxnet as mx

    with pytest.raises(mx.base.MXNetError, match="boom in user code"):
        mx.nd.Custom(mx.nd.ones((2, 2)), op_type="_record_failing").wait_to_read()


def test_get_operator_arguments_lists_inputs_then_params():
    from mxnet.operator import OperatorArguments, get_operator_arguments

    act = get_operator_arguments("Activation")
    assert isinstance(act, OperatorArguments)
    assert act.narg == 2 and act.names == ["data", "act_type"]
    assert act.types == ["NDArray-or-Symbol",
                         "{'relu', 'sigmoid', 'softrelu', 'softsign', 'tanh'}, required"]
    fc = get_operator_arguments("FullyConnected")
    assert fc.names == ["data", "weight", "bias", "num_hidden", "no_bias", "flatten"]
    assert fc.types[3:] == ["int, required", "boolean, optional, default=0",
                            "boolean, optional, default=1"]
    bn = get_operator_arguments("BatchNorm")
    assert bn.names[:5] == ["data", "gamma", "beta", "moving_mean", "moving_var"]


@operator.register("_record_pair_same_shape")
class _PairProp(operator.CustomOpProp):
    def list_arguments(self):
        return ["a", "b"]

    def infer_shape(self, in_shape):
        if in_shape[0] != in_shape[1]:
            raise ValueError("shapes differ: %s %s" % (in_shape[0], in_shape[1]))
        return in_shape, [in_shape[0]], []


def test_custom_infer_shape_rejecting_known_shapes_raises():
    # MXNet 1.9.1 (example/recommenders/randomproj.py): a CustomOpProp.infer_shape that
    # rejects fully known input shapes fails Symbol.infer_shape with MXNetError.
    import mxnet as mx

    net = mx.sym.Custom(a=mx.sym.var("x"), b=mx.sym.var("y"), op_type="_record_pair_same_shape")
    assert net.infer_shape(x=(3, 4), y=(3, 4))[1] == [(3, 4)]
    with pytest.raises(mx.base.MXNetError, match="shapes differ"):
        net.infer_shape(x=(3, 4), y=(3, 5))
