"""Loss outputs with MXNet's own gradients, smooth_l1 and CTCLoss."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.ndarray._namespace import function_for
from tests._op.harness import Record, run_record
from tests._op.test_nn import check_golden_case, golden_names, golden_records, infer

OPS = {"SoftmaxOutput", "LinearRegressionOutput", "LogisticRegressionOutput",
       "MAERegressionOutput", "MakeLoss", "smooth_l1", "CTCLoss"}
rng = np.random.RandomState(0)
X = rng.uniform(-2, 2, (3, 4)).astype(np.float32)


def _np_smooth_l1(x, scalar=1.0, **k):
    s2 = scalar * scalar
    return np.where(np.abs(x) < 1 / s2, 0.5 * s2 * x * x, np.abs(x) - 0.5 / s2)


def _np_softmax(x, label, **k):
    e = np.exp(x - x.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


RECORDS = golden_records(OPS, grad=("smooth_l1", "ctc_first"))
RECORDS += [
    Record("smooth_l1", [X], {"scalar": 2.0}, ref=_np_smooth_l1, grad=True, name="smooth_l1_np"),
    Record("SoftmaxOutput", [X, np.array([0, 1, 3], np.float32)], {}, ref=_np_softmax,
           name="softmax_output_np"),
    Record("MakeLoss", [X], {}, ref=lambda x, **k: x, name="makeloss_np"),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("name", golden_names(OPS))
def test_golden(name):
    check_golden_case(name)


def test_infer_shape():
    # values from real MXNet 1.9.1 Symbol.infer_shape
    assert infer("SoftmaxOutput", {}, [(2, 3, 4), None])[0] == [(2, 3, 4), (2, 3)]
    assert infer("SoftmaxOutput", {"multi_output": True}, [(2, 3, 4, 5), None])[0] == \
        [(2, 3, 4, 5), (2, 20)]
    assert infer("SoftmaxOutput", {"preserve_shape": True}, [(2, 3, 4), None])[0] == \
        [(2, 3, 4), (2, 3)]
    assert infer("LinearRegressionOutput", {}, [(2, 3), None]) == ([(2, 3), (2, 3)], [(2, 3)])
    assert infer("CTCLoss", {}, [(5, 2, 4), (2, 3)])[1] == [(2,)]


def test_label_gradient_is_zero_and_head_ignored():
    x = mx.nd.array(X)
    lab = mx.nd.array([1, 2, 3])
    x.attach_grad()
    lab.attach_grad()
    with mx.autograd.record():
        y = function_for("Softmax")(x, lab)
    y.backward(mx.nd.ones(y.shape) * 5)
    e = np.exp(X) / np.exp(X).sum(1, keepdims=True)
    np.testing.assert_allclose(x.grad.asnumpy(), e - np.eye(4)[[1, 2, 3]], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(lab.grad.asnumpy(), 0)
