"""Storage types of imperative operators on sparse inputs (``mx.nd.abs(rsp)``...), as MXNet
1.9.1 returns them (each case checked with the real MXNet 1.9.1)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

A = np.array([[0, 1, 0], [2, 0, 3], [0, 0, 0], [4, 0, 0]], np.float32)


def _arrays():
    a = mx.nd.array(A)
    return a, a.tostype("csr"), a.tostype("row_sparse")


CASES = [
    ("abs rsp", lambda a, c, r: mx.nd.abs(r), "row_sparse"),
    ("sqrt csr", lambda a, c, r: mx.nd.sqrt(c), "csr"),
    ("relu csr", lambda a, c, r: mx.nd.relu(c), "csr"),
    ("exp rsp", lambda a, c, r: mx.nd.exp(r), "default"),
    ("sigmoid csr", lambda a, c, r: mx.nd.sigmoid(c), "default"),
    ("clip rsp", lambda a, c, r: mx.nd.clip(r, -1, 1), "row_sparse"),
    ("identity csr", lambda a, c, r: mx.nd.identity(c), "csr"),
    ("stop_gradient csr", lambda a, c, r: mx.nd.stop_gradient(c), "csr"),
    ("zeros_like rsp", lambda a, c, r: mx.nd.zeros_like(r), "row_sparse"),
    ("ones_like rsp", lambda a, c, r: mx.nd.ones_like(r), "default"),
    ("elemwise_add csr csr", lambda a, c, r: mx.nd.elemwise_add(c, c), "csr"),
    ("elemwise_add dns rsp", lambda a, c, r: mx.nd.elemwise_add(a, r), "default"),
    ("elemwise_sub rsp rsp", lambda a, c, r: mx.nd.elemwise_sub(r, r), "row_sparse"),
    ("elemwise_mul rsp dns", lambda a, c, r: mx.nd.elemwise_mul(r, a), "row_sparse"),
    ("elemwise_mul dns csr", lambda a, c, r: mx.nd.elemwise_mul(a, c), "csr"),
    ("elemwise_mul csr rsp", lambda a, c, r: mx.nd.elemwise_mul(c, r), "default"),
    ("_maximum rsp rsp", lambda a, c, r: mx.nd._internal._maximum(r, r), "row_sparse"),
    ("add_n rsp", lambda a, c, r: mx.nd.add_n(r, r, r), "row_sparse"),
    ("add_n rsp dns", lambda a, c, r: mx.nd.add_n(r, a), "default"),
    ("mul_scalar csr", lambda a, c, r: mx.nd._internal._mul_scalar(c, scalar=3), "csr"),
    ("plus_scalar 0", lambda a, c, r: mx.nd._internal._plus_scalar(r, scalar=0), "row_sparse"),
    ("plus_scalar 1", lambda a, c, r: mx.nd._internal._plus_scalar(r, scalar=1), "default"),
    ("equal_scalar 1", lambda a, c, r: mx.nd._internal._equal_scalar(r, scalar=1), "row_sparse"),
    ("broadcast_mul csr row", lambda a, c, r: mx.nd.broadcast_mul(c, mx.nd.ones((1, 3))), "csr"),
    ("broadcast_div csr col", lambda a, c, r: mx.nd.broadcast_div(c, mx.nd.ones((4, 1))), "csr"),
    (
        "broadcast_add csr row",
        lambda a, c, r: mx.nd.broadcast_add(c, mx.nd.ones((1, 3))),
        "default",
    ),
    (
        "broadcast_mul rsp row",
        lambda a, c, r: mx.nd.broadcast_mul(r, mx.nd.ones((1, 3))),
        "default",
    ),
    ("concat csr dim0", lambda a, c, r: mx.nd.concat(c, c, dim=0), "csr"),
    ("concat csr dim1", lambda a, c, r: mx.nd.concat(c, c, dim=1), "default"),
    ("dot csr dns", lambda a, c, r: mx.nd.dot(c, mx.nd.ones((3, 2))), "default"),
    ("dot dns csr", lambda a, c, r: mx.nd.dot(mx.nd.ones((2, 4)), c), "csr"),
    ("dot dns csr.T", lambda a, c, r: mx.nd.dot(mx.nd.ones((2, 3)), c, transpose_b=True), "csr"),
    (
        "sparse.dot csr.T rsp",
        lambda a, c, r: mx.nd.sparse.dot(
            c, mx.nd.ones((4, 2)).tostype("row_sparse"), transpose_a=True
        ),
        "row_sparse",
    ),
    (
        "sparse.dot forward_stype",
        lambda a, c, r: mx.nd.sparse.dot(c, mx.nd.ones((3, 2)), forward_stype="row_sparse"),
        "row_sparse",
    ),
    (
        "sparse.dot csr.T forward_stype csr",
        lambda a, c, r: mx.nd.sparse.dot(
            c, mx.nd.ones((4, 2)), transpose_a=True, forward_stype="csr"
        ),
        "csr",
    ),
    ("rsp * dense", lambda a, c, r: r * a, "row_sparse"),
    ("sparse.multiply dns csr", lambda a, c, r: mx.nd.sparse.multiply(a, c), "csr"),
    ("sparse.divide csr vec", lambda a, c, r: mx.nd.sparse.divide(c, mx.nd.ones((1,)) * 2), "csr"),
    ("sum csr", lambda a, c, r: mx.nd.sum(c, axis=0), "default"),
]


@pytest.mark.parametrize("name,fn,want", CASES, ids=[c[0] for c in CASES])
def test_imperative_output_stype(name, fn, want):
    a, c, r = _arrays()
    out = fn(a, c, r)
    assert out.stype == want
    ref = fn(*(mx.nd.array(x.asnumpy()) for x in (a, c, r)))  # all-dense reference
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-6)


def test_clip_of_sparse_must_keep_zero():
    _, c, r = _arrays()
    for x in (c, r):
        with pytest.raises(MXNetError, match="clip"):
            mx.nd.clip(x, 1, 2)


def test_exception_types_of_sparse_indexing_and_tostype():
    # MXNet 1.9.1 raises these Python exception types
    _, c, r = _arrays()
    with pytest.raises(ValueError, match="not implemented"):
        c[1:2] = 3
    with pytest.raises(ValueError, match="not implemented"):
        r[1:2] = 3
    with pytest.raises(TypeError):
        r[1] = 3
    with pytest.raises(ValueError, match="2 Dimensional"):
        mx.nd.ones((2, 2, 2)).tostype("csr")
    with pytest.raises(MXNetError):
        mx.nd.cast_storage(mx.nd.ones((2, 2, 2)), stype="csr")


def test_copyto_between_sparse_storage_types_is_refused():
    _, c, r = _arrays()
    with pytest.raises(TypeError, match="row_sparse"):
        c.copyto(mx.nd.zeros((4, 3)).tostype("row_sparse"))
    with pytest.raises(TypeError, match="csr"):
        r.copyto(mx.nd.zeros((4, 3)).tostype("csr"))
    dense = r.copyto(mx.nd.zeros((4, 3)))
    np.testing.assert_array_equal(dense.asnumpy(), A)


def test_recorded_operators_keep_sparse_stypes_and_gradients():
    # under autograd.record MXNet returns the same storage types, and gradients still flow
    a = mx.nd.array([[0, 1, 0], [2, 0, -3], [0, 0, 0], [4, 0, 0]])
    x = a.tostype("row_sparse")
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.square(x)
        z = y * 3
        w = mx.nd.abs(y) + y
    assert (y.stype, z.stype, w.stype) == ("row_sparse",) * 3
    z.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 6 * a.asnumpy())
    d = a.copy()
    d.attach_grad()
    with mx.autograd.record():  # tostype (cast_storage) is differentiable
        c = mx.nd.relu(d.tostype("csr"))
        loss = mx.nd.sum(c * c)
    assert c.stype == "csr"
    loss.backward()
    np.testing.assert_allclose(d.grad.asnumpy(), 2 * np.maximum(a.asnumpy(), 0))
