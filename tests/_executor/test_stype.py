"""Storage types of executor outputs and arrays (values checked against MXNet 1.9.1)."""

import numpy as np
import pytest

import mxnet as mx

S = mx.sym


def _arrays():
    eye = np.eye(4, dtype=np.float32)
    return (
        mx.nd.array(eye).tostype("row_sparse"),
        mx.nd.array(eye).tostype("csr"),
        mx.nd.array(eye),
    )


def _out_stype(sym, **arrs):
    ex = sym.bind(mx.cpu(), arrs)
    return ex.forward()[0].stype


@pytest.mark.parametrize(
    "op,want",
    [
        ("elemwise_add", ["row_sparse", "default", "default", "csr", "default", "default"]),
        ("elemwise_mul", ["row_sparse", "row_sparse", "row_sparse", "csr", "csr", "csr"]),
        ("elemwise_div", ["default"] * 6),
        ("_maximum", ["row_sparse", "default", "default", "csr", "default", "default"]),
        ("broadcast_add", ["default"] * 6),
        ("add_n", ["row_sparse", "default", "default", "default", "default", "default"]),
    ],
)
def test_binary_stypes(op, want):
    rsp, csr, dns = _arrays()
    f = getattr(S, op, None) or getattr(S._internal, op)
    a, b = S.Variable("a"), S.Variable("b")
    pairs = [(rsp, rsp), (rsp, dns), (dns, rsp), (csr, csr), (csr, dns), (dns, csr)]
    assert [_out_stype(f(a, b), a=x, b=y) for x, y in pairs] == want


def test_unary_and_scalar_stypes():
    rsp, csr, dns = _arrays()
    a = S.Variable("a")
    for op in ["negative", "square", "sqrt", "abs", "sin", "relu", "expm1", "zeros_like"]:
        f = getattr(S, op)
        assert [_out_stype(f(a), a=x) for x in (rsp, csr, dns)] == [
            "row_sparse",
            "csr",
            "default",
        ], op
    for op in ["cos", "exp", "log", "sigmoid", "rsqrt", "Cast"]:
        f = getattr(S, op)
        sym = f(a, dtype="float64") if op == "Cast" else f(a)
        assert _out_stype(sym, a=rsp) == "default", op
    assert _out_stype(a * 2, a=rsp) == "row_sparse"
    assert _out_stype(a + 0, a=csr) == "csr"
    assert _out_stype(a + 2, a=csr) == "default"
    assert _out_stype(a < 0, a=rsp) == "row_sparse"
    assert _out_stype(a == 0, a=rsp) == "default"


def test_dot_cast_retain_stypes():
    rsp, csr, dns = _arrays()
    a, b = S.Variable("a"), S.Variable("b")
    assert _out_stype(S.sparse.dot(a, b), a=csr, b=dns) == "default"
    assert _out_stype(S.sparse.dot(a, b, transpose_a=True), a=csr, b=dns) == "row_sparse"
    assert _out_stype(S.dot(a, b), a=dns, b=csr) == "csr"
    assert _out_stype(S.cast_storage(a, stype="row_sparse"), a=dns) == "row_sparse"
    assert _out_stype(S.cast_storage(a, stype="default"), a=csr) == "default"
    assert _out_stype(S.sparse.retain(a, b), a=rsp, b=mx.nd.array([0, 1])) == "row_sparse"
    with pytest.raises(mx.base.MXNetError):
        S.cast_storage(a, stype="row_sparse").bind(mx.cpu(), {"a": csr})


def test_outputs_before_forward_and_groups():
    rsp, _, _ = _arrays()
    a = S.Variable("a")
    ex = S.square(a).bind(mx.cpu(), {"a": rsp})
    assert ex.outputs[0].stype == "row_sparse"
    ex = S.Group([S.square(a), S.exp(a)]).bind(mx.cpu(), {"a": rsp})
    outs = ex.forward()
    assert [o.stype for o in outs] == ["row_sparse", "default"]
    np.testing.assert_allclose(outs[0].asnumpy(), np.eye(4))


def test_sparse_gradient_buffers():
    rsp, _, _ = _arrays()
    a = S.Variable("a")
    g = mx.nd.zeros((4, 4)).tostype("row_sparse")
    ex = S.square(a).bind(mx.cpu(), {"a": rsp}, args_grad={"a": g})
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones((4, 4)))
    assert g.stype == "row_sparse"
    np.testing.assert_allclose(g.asnumpy(), 2 * np.eye(4))
    ex2 = S.square(a).bind(mx.cpu(), {"a": rsp}, args_grad={"a": g}, grad_req="add")
    ex2.forward(is_train=True)
    ex2.backward(mx.nd.ones((4, 4)))
    np.testing.assert_allclose(g.asnumpy(), 4 * np.eye(4))


def test_simple_bind_stypes():
    x, y = S.Variable("x", stype="row_sparse"), S.Variable("y", stype="row_sparse")
    ex = S.elemwise_add(x, y).simple_bind(mx.cpu(), x=(4, 4), y=(4, 4))
    assert [a.stype for a in ex.arg_arrays] == ["row_sparse", "row_sparse"]
    assert [a.stype for a in ex.grad_arrays] == ["row_sparse", "row_sparse"]
    assert ex.outputs[0].stype == "row_sparse"
    ex = S.sparse.dot(S.Variable("x", stype="csr"), S.Variable("w")).simple_bind(
        mx.cpu(), x=(4, 4), w=(4, 2)
    )
    assert [a.stype for a in ex.arg_arrays] == ["csr", "default"]
    assert [a.stype for a in ex.grad_arrays] == ["default", "row_sparse"]
    ex = S.cast_storage(S.Variable("x"), stype="row_sparse").simple_bind(mx.cpu(), x=(4, 4))
    assert [a.stype for a in ex.grad_arrays] == ["row_sparse"]
    emb = S.Embedding(S.Variable("d"), S.Variable("w"), input_dim=5, output_dim=3, sparse_grad=True)
    ex = emb.simple_bind(mx.cpu(), d=(2,), w=(5, 3))
    assert [a.stype for a in ex.grad_arrays] == ["default", "row_sparse"]


def test_dense_graph_has_no_stype_work():
    a = S.Variable("a")
    ex = (S.relu(a) * 2).bind(mx.cpu(), {"a": mx.nd.ones((2, 2))})
    assert ex._out_stypes is None and not ex._sparse_grads
