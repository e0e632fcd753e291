"""FullyConnected, Activation, LeakyReLU, Dropout, Embedding; also the golden-file helpers
shared by the other neural-network operator tests (golden values from real MXNet 1.9.1,
written by ``tests/compat/make_golden_nn.py``)."""

from __future__ import annotations

import functools
import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet._op import get_op
from mxnet.base import MXNetError
from mxnet.ndarray._namespace import function_for
from tests._op.harness import Record, run_record

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "nn")


@functools.lru_cache(maxsize=1)
def _golden():
    with open(os.path.join(GOLDEN, "cases.json")) as f:
        meta = json.load(f)
    with np.load(os.path.join(GOLDEN, "arrays.npz")) as z:
        arrays = dict(z)
    return meta, arrays


def _params(meta: dict) -> dict:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in meta["params"].items()}


def golden_names(ops) -> list[str]:
    meta, _ = _golden()
    return sorted(n for n, m in meta.items() if get_op(m["op"]).name in ops)


def golden_records(ops, grad: tuple[str, ...] = (), rtol=1e-4, atol=1e-5) -> list[Record]:
    """One record per inference-mode golden case of ``ops`` (numeric gradient for ``grad``)."""
    meta, arrays = _golden()
    recs = []
    for name in golden_names(ops):
        m = meta[name]
        if m["train"]:
            continue
        ins = [arrays[f"{name}|in{i}"] for i in range(m["n_in"])]
        outs = [arrays[f"{name}|out{i}"] for i in range(m["n_out"])]
        gi = tuple(i for i in m["grad"] if ins[i].size <= 64)
        recs.append(Record(m["op"], ins, _params(m), ref=lambda *a, _o=outs, **k: _o,
                           grad=name in grad and bool(gi), grad_inputs=gi, rtol=rtol,
                           atol=atol, name=f"golden_{name}"))
    return recs


def check_golden_case(name: str, rtol=1e-4, atol=1e-5) -> None:
    """Forward (in the case's train mode), backward with the recorded head gradient, and
    compare outputs, gradients and auxiliary states with MXNet's."""
    meta, arrays = _golden()
    m = meta[name]
    ins = [mx.nd.array(arrays[f"{name}|in{i}"]) for i in range(m["n_in"])]
    for i in m["grad"]:
        ins[i].attach_grad()
    fn = function_for(m["op"])
    with mx.autograd.record(train_mode=m["train"]):
        out = fn(*ins, **_params(m))
    outs = out if isinstance(out, list) else [out]
    assert len(outs) >= m["n_out"], name
    for i, o in enumerate(outs[:m["n_out"]]):
        np.testing.assert_allclose(o.asnumpy(), arrays[f"{name}|out{i}"], rtol=rtol, atol=atol,
                                   err_msg=f"{name} output {i}")
    if m["grad"]:
        outs[0].backward(mx.nd.array(arrays[f"{name}|head0"]))
        for i in m["grad"]:
            np.testing.assert_allclose(ins[i].grad.asnumpy(), arrays[f"{name}|grad{i}"],
                                       rtol=rtol, atol=atol, err_msg=f"{name} grad {i}")
    for i in m["aux"]:
        np.testing.assert_allclose(ins[i].asnumpy(), arrays[f"{name}|aux{i}"], rtol=rtol,
                                   atol=atol, err_msg=f"{name} aux {i}")


def infer(op_name: str, params: dict, shapes: list):
    op = get_op(op_name)
    return op.infer_shape(op.parse_attrs(params), shapes)


# ---------------------------------------------------------------------------------------

OPS = {"FullyConnected", "Activation", "LeakyReLU", "Embedding", "Dropout"}
rng = np.random.RandomState(0)
X = rng.uniform(-1, 1, (3, 4)).astype(np.float32)

RECORDS = golden_records(OPS, grad=("fc_nobias", "act_softrelu", "act_softsign", "leaky_elu",
                                    "leaky_gelu", "prelu", "act_tanh"))
RECORDS += [
    Record("Dropout", [X], {"p": 0.5}, ref=lambda x, **k: x, name="dropout_infer"),
    Record("Activation", [X], {"act_type": "relu"}, ref=lambda x, **k: np.maximum(x, 0),
           name="relu_np"),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("name", golden_names(OPS))
def test_golden(name):
    check_golden_case(name)


def test_infer_shape():
    # values from real MXNet 1.9.1 infer_shape
    assert infer("FullyConnected", {"num_hidden": 4}, [(2, 3, 5), None, None])[0] == \
        [(2, 3, 5), (4, 15), (4,)]
    assert infer("FullyConnected", {"num_hidden": 4, "flatten": False},
                 [(2, 3, 5), None, None]) == ([(2, 3, 5), (4, 5), (4,)], [(2, 3, 4)])
    assert infer("FullyConnected", {"num_hidden": 4, "no_bias": True}, [(2, 5), None])[0] == \
        [(2, 5), (4, 5)]
    assert infer("LeakyReLU", {"act_type": "prelu"}, [(2, 3, 4), None]) == \
        ([(2, 3, 4), (3,)], [(2, 3, 4)])
    assert infer("Embedding", {"input_dim": 5, "output_dim": 3}, [(2, 4), None]) == \
        ([(2, 4), (5, 3)], [(2, 4, 3)])
    assert get_op("FullyConnected").input_names(get_op("FullyConnected").parse_attrs(
        {"num_hidden": 2, "no_bias": True})) == ["data", "weight"]


def test_dropout_training_statistics():
    x = mx.nd.ones((200, 50))
    with mx.autograd.record():
        y = function_for("Dropout")(x, p=0.3)
    v = y.asnumpy()
    assert np.isclose(v, 0).sum() + np.isclose(v, 1 / 0.7).sum() == v.size
    assert abs((v == 0).mean() - 0.3) < 0.03
    y2 = function_for("Dropout")(x, p=0.3, mode="always").asnumpy()
    assert (y2 == 0).any()
    # axes: one mask shared along axis 1
    with mx.autograd.record():
        y3 = function_for("Dropout")(x, p=0.5, axes=(1,)).asnumpy()
    assert (y3 == y3[:, :1]).all()
    assert (function_for("Dropout")(x, p=0.3).asnumpy() == 1).all()  # inference: identity


def test_dropout_p_one_gives_nan_as_mxnet():
    # MXNet 1.9.1 scales the all-zero mask by 1/(1-p) = inf: NaN outputs and gradients
    x = mx.nd.ones((3, 4))
    x.attach_grad()
    with mx.autograd.record():
        y = function_for("Dropout")(x, p=1.0)
    y.backward()
    assert np.isnan(y.asnumpy()).all() and np.isnan(x.grad.asnumpy()).all()
    assert (function_for("Dropout")(x, p=1.0).asnumpy() == 1).all()  # inference: identity


def test_rrelu_training_slopes():
    x = mx.nd.array(-np.ones((100,), np.float32))
    with mx.autograd.record():
        out, mask = function_for("LeakyReLU")(x, act_type="rrelu")
    m = mask.asnumpy()
    assert ((m >= 0.125) & (m <= 0.334)).all() and m.std() > 0
    np.testing.assert_allclose(out.asnumpy(), -m, rtol=1e-6)


def test_embedding_dtype_and_clip():
    w = mx.nd.array(np.arange(6).reshape(3, 2), dtype="float64")
    y = function_for("Embedding")(mx.nd.array([-1, 7, 1.7]), w, input_dim=3, output_dim=2)
    assert y.dtype == np.float64
    np.testing.assert_array_equal(y.asnumpy(), [[0, 1], [4, 5], [2, 3]])


def test_errors():
    with pytest.raises(MXNetError):
        function_for("FullyConnected")(mx.nd.ones((2, 3)), mx.nd.ones((4, 3)), num_hidden=5,
                                       no_bias=True)
    with pytest.raises(MXNetError):
        function_for("Activation")(mx.nd.ones((2, 3)), act_type="bogus")


def test_infer_shape_fills_partial_shapes():
    # Gluon deferred init passes 0 for unknown dims
    assert infer("FullyConnected", {"num_hidden": 4}, [(2, 3, 5), (4, 0), None])[0] == \
        [(2, 3, 5), (4, 15), (4,)]
    with pytest.raises(MXNetError):
        infer("FullyConnected", {"num_hidden": 4}, [(2, 3, 5), (4, 7), None])


def test_fc_bias_of_shape_num_hidden_by_one():
    # MXNet 1.9.1 also takes a (num_hidden, 1) bias (shape inference and compute)
    x = mx.nd.ones((5, 10))
    w = mx.nd.ones((8, 10))
    b = mx.nd.arange(1, 9).reshape((8, 1))
    y = mx.nd.FullyConnected(x, w, b.tostype("row_sparse"), num_hidden=8)
    np.testing.assert_allclose(y.asnumpy(), np.tile(np.arange(11, 19), (5, 1)))
    assert infer("FullyConnected", {"num_hidden": 8}, [(5, 10), None, (8, 1)])[0] == \
        [(5, 10), (8, 10), (8, 1)]
    with pytest.raises(MXNetError):
        infer("FullyConnected", {"num_hidden": 8}, [(5, 10), None, (8, 2)])


def test_float16_leaky_elu_gelu_forward_like_mxnet_half_kernels():
    # leaky: x * DType(slope) (slope rounded to float16); elu and gelu: computed in float32
    # and rounded once (bit-exact against MXNet 1.9.1)
    x = np.random.RandomState(0).uniform(-2, 2, 400).astype(np.float16)
    a = mx.nd.array(x, dtype="float16")
    xf = x.astype(np.float32)
    leaky = np.where(x <= 0, (xf * np.float32(np.float16(0.1))).astype(np.float16), x)
    np.testing.assert_array_equal(mx.nd.LeakyReLU(a, slope=0.1).asnumpy(), leaky)
    s16 = np.float32(np.float16(0.3))
    elu = np.where(x <= 0, (np.expm1(np.minimum(xf, 0)) * s16).astype(np.float16), x)
    np.testing.assert_array_equal(mx.nd.LeakyReLU(a, act_type="elu", slope=0.3).asnumpy(), elu)
    out = mx.nd.LeakyReLU(a, act_type="gelu").asnumpy()
    ref = mx.nd.LeakyReLU(mx.nd.array(xf), act_type="gelu").asnumpy().astype(np.float16)
    np.testing.assert_array_equal(out, ref)
