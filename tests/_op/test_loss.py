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


def test_ctc_gradient_zero_past_data_lengths():
    # steps beyond a sequence's length may hold anything (even NaN): their gradient is 0
    data = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (4, 2, 3)))
    data[3] = np.nan
    data.attach_grad()
    with mx.autograd.record():
        loss = mx.nd.CTCLoss(data, mx.nd.array([[1, 2], [2, 0]]), mx.nd.array([3, 3]),
                             use_data_lengths=True)
    loss.backward()
    g = data.grad.asnumpy()
    assert np.isfinite(loss.asnumpy()).all() and np.isfinite(g).all()
    assert (g[3] == 0).all()


def test_softmax_output_probability_labels():
    # a label shaped like the data is a distribution: gradient = grad_scale*(softmax - label)
    x = mx.nd.array([[1.0, 2.0, 0.5], [0.0, -1.0, 1.0]])
    lab = mx.nd.array([[0.2, 0.5, 0.3], [1.0, 0.0, 0.0]])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.SoftmaxOutput(x, lab, grad_scale=2.0, normalization="batch")
    y.backward()
    p = np.exp(x.asnumpy()) / np.exp(x.asnumpy()).sum(1, keepdims=True)
    np.testing.assert_allclose(x.grad.asnumpy(), 2.0 * (p - lab.asnumpy()), rtol=1e-5)
    s = mx.sym.SoftmaxOutput(mx.sym.var("x"), mx.sym.var("l"))
    assert s.infer_shape(x=(2, 3), l=(2, 3))[0] == [(2, 3), (2, 3)]


def test_mae_regression_gradient_at_ties_is_minus_one():
    # MXNet 1.9.1: the MAE gradient is +1 where out > label and -1 otherwise (ties included)
    a = mx.nd.array([0.0, 1, -1, 2])
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.MAERegressionOutput(a, mx.nd.array([0.0, 2, -1, 1]))
    y.backward()
    assert a.grad.asnumpy().tolist() == [-1, -1, -1, 1]


def test_softmax_output_requires_label_of_data_dtype():
    # MXNet 1.9.1: "This layer requires uniform type" (imperative and in type inference)
    from mxnet.base import MXNetError

    with pytest.raises(MXNetError, match="uniform type"):
        mx.nd.SoftmaxOutput(mx.nd.ones((2, 3)), mx.nd.array([0, 1], dtype="int32"))
    s = mx.sym.SoftmaxOutput(mx.sym.var("d"), mx.sym.var("l"))
    with pytest.raises(MXNetError, match="uniform type"):
        s.infer_type(d="float32", l="int32")
    assert mx.nd.SoftmaxOutput(mx.nd.ones((2, 3)), mx.nd.array([0, 1])).shape == (2, 3)


def _softmax_output_grad(data, label, **kw):
    d = mx.sym.var("data")
    ex = mx.sym.SoftmaxOutput(d, name="sm", **kw).simple_bind(
        mx.cpu(), data=data.shape, sm_label=np.asarray(label).shape)
    ex.arg_dict["data"][:] = data
    ex.arg_dict["sm_label"][:] = np.asarray(label, dtype="float32")
    ex.forward(is_train=True)
    ex.backward()
    return ex.grad_dict["data"].asnumpy(), ex.outputs[0].asnumpy()


def test_softmax_output_out_of_range_labels_pick_no_class():
    # MXNet 1.9.1: a label outside [0, classes) one-hots to nothing, the gradient is the
    # softmax itself (no clamping to the first/last class)
    x = np.array([[0.1, 0.5], [1.0, -2.0]], dtype="float32")
    g, p = _softmax_output_grad(x, [-1, 5])
    np.testing.assert_allclose(g, p, rtol=1e-6)
    g, p = _softmax_output_grad(x, [1, 0])
    np.testing.assert_allclose(g, p - np.eye(2)[[1, 0]], rtol=1e-6)


def test_softmax_output_multi_output_ignores_smoothing_and_ignored_rows_are_plus_zero():
    x = np.linspace(-1, 1, 12, dtype="float32").reshape(2, 3, 2)
    lab = [[0, 1], [1, 2]]
    plain, _ = _softmax_output_grad(x, lab, multi_output=True)
    smooth, _ = _softmax_output_grad(x, lab, multi_output=True, smooth_alpha=0.1)
    np.testing.assert_array_equal(plain, smooth)
    g, _ = _softmax_output_grad(x[:, :, 0], [0, 1], use_ignore=True, ignore_label=1)
    assert not np.signbit(g[1]).any() and (g[1] == 0).all()
