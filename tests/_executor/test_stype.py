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


def test_embedding_weight_gradient_stypes():
    # MXNet 1.9.1: SparseEmbedding always makes a row_sparse weight gradient, Embedding
    # only with sparse_grad=True (a row_sparse weight alone gives a dense gradient)
    d = S.Variable("data")
    cases = [
        (S.contrib.SparseEmbedding(d, S.Variable("w"), input_dim=5, output_dim=3), "row_sparse"),
        (
            S.contrib.SparseEmbedding(
                d,
                S.Variable("w", stype="row_sparse"),
                input_dim=5,
                output_dim=3,
                deterministic=True,
            ),
            "row_sparse",
        ),
        (
            S.Embedding(d, S.Variable("w", stype="row_sparse"), input_dim=5, output_dim=3),
            "default",
        ),
    ]
    for sym, want in cases:
        ex = sym.simple_bind(mx.cpu(), grad_req={"data": "null", "w": "write"}, data=(4,))
        assert ex.grad_arrays[1].stype == want
    with pytest.raises(mx.base.MXNetError):
        S.contrib.SparseEmbedding(d, input_dim=5, output_dim=3, sparse_grad=True)


def test_batchnorm_fix_gamma_refuses_sparse_inputs():
    x = mx.nd.array(np.eye(4, dtype=np.float32))
    g, b, m, v = mx.nd.ones(4), mx.nd.zeros(4), mx.nd.zeros(4), mx.nd.ones(4)
    with pytest.raises(mx.base.MXNetError, match="fix_gamma=True"):
        mx.nd.BatchNorm(x.tostype("csr"), g, b, m, v)
    with pytest.raises(mx.base.MXNetError, match="fix_gamma=True"):
        mx.nd.BatchNorm(x, g, b, m, v.tostype("row_sparse"), fix_gamma=True)
    out = mx.nd.BatchNorm(x.tostype("csr"), g, b, m, v, fix_gamma=False)
    assert out.stype == "default"
    sym = S.BatchNorm(S.Variable("data"), name="bn")
    args = {"data": x.tostype("row_sparse"), "bn_gamma": g, "bn_beta": b}
    with pytest.raises(mx.base.MXNetError, match="fix_gamma=True"):
        sym.bind(mx.cpu(), args, aux_states={"bn_moving_mean": m, "bn_moving_var": v})


def test_quadratic_keeps_csr_when_c_is_zero():
    x = mx.nd.array([[0, 1.0], [2, 0]])
    assert mx.nd.contrib.quadratic(x.tostype("csr"), a=1, b=2).stype == "csr"
    assert mx.nd.contrib.quadratic(x.tostype("csr"), a=1, b=2, c=1).stype == "default"
    assert mx.nd.contrib.quadratic(x.tostype("row_sparse"), a=1, b=2).stype == "default"
    d = S.Variable("d", stype="csr")
    assert _out_stype(S.contrib.quadratic(d, a=1.0, b=2.0), d=x.tostype("csr")) == "csr"
    assert _out_stype(S.contrib.quadratic(d, a=1.0, b=2.0, c=1.0), d=x.tostype("csr")) == "default"


@pytest.mark.parametrize(
    "name,make,shapes,want",
    [
        # gradient storage types simple_bind allocates, from the real MXNet 1.9.1
        (
            "add rsp",
            lambda r, c, d: S.elemwise_add(r("a"), r("b")),
            {"a": (4, 3), "b": (4, 3)},
            ["row_sparse", "row_sparse"],
        ),
        (
            "add csr",
            lambda r, c, d: S.elemwise_add(c("a"), c("b")),
            {"a": (4, 3), "b": (4, 3)},
            ["csr", "csr"],
        ),
        (
            "mul rsp dns",
            lambda r, c, d: S.elemwise_mul(r("a"), d("b")),
            {"a": (4, 3), "b": (4, 3)},
            ["default", "default"],
        ),
        ("sum csr", lambda r, c, d: S.sum(c("a")), {"a": (4, 3)}, ["default"]),
        ("square rsp", lambda r, c, d: S.square(r("a")), {"a": (4, 3)}, ["row_sparse"]),
        ("relu csr", lambda r, c, d: S.relu(c("a")), {"a": (4, 3)}, ["csr"]),
        (
            "dot csr.T dns",
            lambda r, c, d: S.dot(c("a"), d("b"), transpose_a=True),
            {"a": (4, 3), "b": (4, 2)},
            ["default", "default"],
        ),
        (
            "dot dns csr",
            lambda r, c, d: S.dot(d("a"), c("b")),
            {"a": (2, 4), "b": (4, 3)},
            ["default", "default"],
        ),
        (
            "broadcast_add",
            lambda r, c, d: S.broadcast_add(r("a"), d("b")),
            {"a": (4, 3), "b": (4, 3)},
            ["default", "default"],
        ),
        (
            "FullyConnected",
            lambda r, c, d: S.FullyConnected(r("a"), num_hidden=2, name="fc"),
            {"a": (4, 3)},
            ["default", "default", "default"],
        ),
        ("mul_scalar", lambda r, c, d: r("a") * 2, {"a": (4, 3)}, ["row_sparse"]),
        ("plus_scalar", lambda r, c, d: r("a") + 1, {"a": (4, 3)}, ["default"]),
        (
            "square_sum",
            lambda r, c, d: S._internal._square_sum(r("a"), axis=1, keepdims=True),
            {"a": (4, 3)},
            ["row_sparse"],
        ),
    ],
)
def test_simple_bind_gradient_stypes(name, make, shapes, want):
    def r(n):
        return S.Variable(n, stype="row_sparse")

    def c(n):
        return S.Variable(n, stype="csr")

    ex = make(r, c, S.Variable).simple_bind(mx.cpu(), **shapes)
    assert [g.stype for g in ex.grad_arrays] == want


def test_dot_csr_rowsparse_rhs_gradient_is_row_sparse():
    # MXNet 1.9.1: dot(csr, rsp) backward writes a row_sparse rhs gradient, as for a dense
    # rhs (the sparse linear-regression tutorial binds a row_sparse weight this way)
    a, b = S.var("a", stype="csr"), S.var("b", stype="row_sparse")
    ex = S.dot(a, b).simple_bind(mx.cpu(), a=(4, 3), b=(3, 2))
    assert ex.grad_dict["a"].stype == "default"
    assert ex.grad_dict["b"].stype == "row_sparse"
    ex.arg_dict["a"][:] = mx.nd.array([[1, 0, 0], [0, 0, 2], [0, 0, 3], [0, 0, 0]]).tostype("csr")
    ex.arg_dict["b"][:] = mx.nd.array([[1, 2], [3, 4], [5, 6]]).tostype("row_sparse")
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones((4, 2)))
    g = ex.grad_dict["b"]
    np.testing.assert_array_equal(g.indices.asnumpy(), [0, 2])
    np.testing.assert_array_equal(g.data.asnumpy(), [[1, 1], [5, 5]])
    # transposed lhs keeps a dense rhs gradient
    ex2 = S.dot(a, b, transpose_a=True).simple_bind(mx.cpu(), a=(3, 4), b=(3, 2))
    assert ex2.grad_dict["b"].stype == "default"
