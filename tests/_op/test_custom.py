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
