"""BatchNorm, LayerNorm, InstanceNorm, GroupNorm, L2Normalization and LRN."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.ndarray._namespace import function_for
from tests._op.harness import Record, run_record
from tests._op.test_nn import check_golden_case, golden_names, golden_records, infer

OPS = {"BatchNorm", "LayerNorm", "InstanceNorm", "GroupNorm", "L2Normalization", "LRN",
       "_contrib_BatchNormWithReLU", "_contrib_SyncBatchNorm", "BatchNorm_v1"}
rng = np.random.RandomState(0)
X = rng.uniform(-1, 1, (2, 3, 2)).astype(np.float32)
G3 = rng.uniform(0.5, 1.5, (3,)).astype(np.float32)
B3 = rng.uniform(-1, 1, (3,)).astype(np.float32)


def _np_layernorm(x, g, b, eps=1e-5, **k):
    m = x.mean(-1, keepdims=True)
    v = x.var(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


def _np_l2(x, **k):
    return x / np.sqrt((x * x).sum((1, 2), keepdims=True) + 1e-10)


RECORDS = golden_records(OPS, grad=("instancenorm", "l2norm_channel", "lrn3", "groupnorm"))
RECORDS += [
    Record("LayerNorm", [X, G3[:2], B3[:2]], {"eps": 1e-5}, ref=_np_layernorm, grad=True,
           name="layernorm_np"),
    Record("L2Normalization", [X], {}, ref=_np_l2, grad=True, name="l2norm_np"),
    Record("BatchNorm", [X, G3, B3, np.zeros(3, np.float32), np.ones(3, np.float32)],
           {"fix_gamma": False, "eps": 1e-3, "use_global_stats": True},
           ref=lambda x, g, b, m, v, **k: (x * (g / np.sqrt(1 + 1e-3))[:, None] + b[:, None]),
           grad=True, grad_inputs=(0, 1, 2), name="batchnorm_global_np"),
    Record("BatchNorm_v1", [X, G3, B3, np.zeros(3, np.float32), np.ones(3, np.float32)],
           {"fix_gamma": False}, ref=lambda x, g, b, m, v, **k: (
               x * (g / np.sqrt(1 + 1e-3))[:, None] + b[:, None]), name="bn_v1_np"),
    Record("_contrib_BatchNormWithReLU",
           [X, G3, B3, np.zeros(3, np.float32), np.ones(3, np.float32)], {"fix_gamma": False},
           ref=lambda x, g, b, m, v, **k: np.maximum(
               x * (g / np.sqrt(1 + 1e-3))[:, None] + b[:, None], 0), name="bn_relu_np"),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("name", golden_names(OPS))
def test_golden(name):
    check_golden_case(name)


def test_infer_shape():
    # values from real MXNet 1.9.1 Symbol.infer_shape
    assert infer("BatchNorm", {"axis": -1}, [(2, 3, 4), None, None, None, None])[0] == \
        [(2, 3, 4), (4,), (4,), (4,), (4,)]
    assert infer("BatchNorm", {}, [(2, 3, 4), None, None, None, None])[1] == \
        [(2, 3, 4), (3,), (3,)]
    assert infer("LayerNorm", {"output_mean_var": True}, [(2, 3, 4), None, None]) == \
        ([(2, 3, 4), (4,), (4,)], [(2, 3, 4), (2, 3, 1), (2, 3, 1)])
    assert infer("GroupNorm", {"num_groups": 2, "output_mean_var": True},
                 [(2, 4, 5), None, None]) == ([(2, 4, 5), (2,), (2,)],
                                              [(2, 4, 5), (2, 2), (2, 2)])
    assert infer("InstanceNorm", {}, [(2, 4, 5), None, None])[0] == [(2, 4, 5), (4,), (4,)]


def test_batchnorm_moving_stats_and_visibility():
    bn = function_for("BatchNorm")
    x = mx.nd.array(rng.uniform(-1, 1, (4, 2, 3)))
    g, b = mx.nd.ones(2), mx.nd.zeros(2)
    mm, mv = mx.nd.zeros(2), mx.nd.ones(2)
    out = bn(x, g, b, mm, mv)  # inference: no update, one visible output
    assert isinstance(out, mx.nd.NDArray)
    np.testing.assert_array_equal(mm.asnumpy(), [0, 0])
    with mx.autograd.record():  # nothing to differentiate: MXNet never runs the update
        out = bn(x, g, b, mm, mv, momentum=0.5, output_mean_var=True)
    assert len(out) == 3
    np.testing.assert_array_equal(mm.asnumpy(), [0, 0])
    x.attach_grad()
    with mx.autograd.record():
        out = bn(x, g, b, mm, mv, momentum=0.5, output_mean_var=True)
    np.testing.assert_array_equal(mm.asnumpy(), [0, 0])  # not in the forward pass
    out[0].backward()  # MXNet 1.9.1 moves the statistics in BatchNorm's backward
    xn = x.asnumpy()
    np.testing.assert_allclose(mm.asnumpy(), 0.5 * xn.mean((0, 2)), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(mv.asnumpy(), 0.5 + 0.5 * xn.var((0, 2)), rtol=1e-5)
    mm0 = mm.asnumpy().copy()
    with mx.autograd.record():
        bn(x, g, b, mm, mv, use_global_stats=True)
    np.testing.assert_array_equal(mm.asnumpy(), mm0)


def test_batchnorm_learned_gamma_updates_moving_stats_in_backward_only():
    # the learned-gamma training path is torch's own autograd node plus a gradient hook
    # (no Python autograd.Function): same MXNet semantics as the fix_gamma path
    bn = function_for("BatchNorm")
    xn = rng.uniform(-1, 1, (4, 2, 3)).astype(np.float32)
    x, g, b = mx.nd.array(xn), mx.nd.array([2.0, 0.5]), mx.nd.array([0.1, -0.2])
    mm, mv = mx.nd.zeros(2), mx.nd.ones(2)
    for v in (x, g, b):
        v.attach_grad()
    with mx.autograd.record():
        y = bn(x, g, b, mm, mv, fix_gamma=False, momentum=0.25, eps=1e-5)
    assert type(y._t.grad_fn).__name__ == "NativeBatchNormBackward0"
    np.testing.assert_array_equal(mm.asnumpy(), [0, 0])  # not in the forward pass
    y.backward(mx.nd.array(xn * 2))
    np.testing.assert_allclose(mm.asnumpy(), 0.75 * xn.mean((0, 2)), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(mv.asnumpy(), 0.25 + 0.75 * xn.var((0, 2)), rtol=1e-5)
    xhat = (xn - xn.mean((0, 2), keepdims=True)) / np.sqrt(xn.var((0, 2), keepdims=True) + 1e-5)
    np.testing.assert_allclose(g.grad.asnumpy(), (xn * 2 * xhat).sum((0, 2)), rtol=1e-4)
    np.testing.assert_allclose(b.grad.asnumpy(), (xn * 2).sum((0, 2)), rtol=1e-5)
    with mx.autograd.record():  # a training forward without backward leaves them alone
        bn(x, g, b, mm, mv, fix_gamma=False)
    np.testing.assert_allclose(mm.asnumpy(), 0.75 * xn.mean((0, 2)), rtol=1e-5, atol=1e-7)


def test_batchnorm_fix_gamma_gradient_is_zero():
    bn = function_for("BatchNorm")
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (4, 2)))
    g = mx.nd.array([3.0, 4.0])
    g.attach_grad()
    with mx.autograd.record():
        y = bn(x, g, mx.nd.zeros(2), mx.nd.zeros(2), mx.nd.ones(2))
    y.backward()
    np.testing.assert_array_equal(g.grad.asnumpy(), [0, 0])
    xv = x.asnumpy()  # gamma treated as 1 (eps 1e-3, MXNet's default)
    np.testing.assert_allclose(y.asnumpy(), (xv - xv.mean(0)) / np.sqrt(xv.var(0) + 1e-3),
                               rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("op", ["LayerNorm", "GroupNorm"])
def test_mean_std_outputs_carry_no_gradient(op):
    # MXNet 1.9.1: head gradients on the mean/std outputs do not reach the data
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (2, 4, 3)))
    kw = {"num_groups": 2} if op == "GroupNorm" else {"axis": 1}
    n = 2 if op == "GroupNorm" else 4
    x.attach_grad()
    with mx.autograd.record():
        _, mean, std = getattr(mx.nd, op)(x, mx.nd.ones(n), mx.nd.zeros(n),
                                          output_mean_var=True, **kw)
        head = (mean * 3).sum() + (std * 2).sum()
    head.backward()
    assert (x.grad.asnumpy() == 0).all()


def test_sync_batchnorm_outputs_batch_variance():
    # MXNet 1.9.1: SyncBatchNorm's extra outputs are the batch mean and biased batch
    # variance while training (BatchNorm gives the inverse std), zeros outside training
    xv = np.random.RandomState(1).uniform(-1, 1, (4, 3, 2)).astype(np.float32)
    args = (mx.nd.array(xv), mx.nd.ones(3), mx.nd.zeros(3), mx.nd.zeros(3), mx.nd.ones(3))
    with mx.autograd.record():
        _, mean, var = mx.nd.contrib.SyncBatchNorm(*args, key="s0", output_mean_var=True)
    red = xv.transpose(1, 0, 2).reshape(3, -1)
    np.testing.assert_allclose(mean.asnumpy(), red.mean(1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), red.var(1), rtol=1e-5, atol=1e-6)
    _, mean, var = mx.nd.contrib.SyncBatchNorm(*args, key="s1", output_mean_var=True)
    assert (mean.asnumpy() == 0).all() and (var.asnumpy() == 0).all()
