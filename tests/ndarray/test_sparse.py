"""Sparse NDArrays (``mx.nd.sparse``) against golden files written by MXNet 1.9.1
(``tests/compat/make_golden_sparse.py``) and NumPy references."""

import json
import os
import pickle

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.ndarray import sparse as sp
from mxnet.ndarray.sparse import CSRNDArray, RowSparseNDArray

G = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "sparse")
META = json.load(open(os.path.join(G, "meta.json")))
CASES = np.load(os.path.join(G, "cases.npz"))


def _csr():
    return sp.csr_matrix(([1., 2., 3.], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 3))


def _rsp():
    return sp.row_sparse_array(([[1., 2.], [3., 4.]], [0, 2]), shape=(4, 2))


def _made():
    dense = mx.nd.array([[0, 1.5], [0, 0], [2, 0], [0, 0]])
    csr = _csr()
    return {"csr": csr, "rsp": _rsp(), "csr_f64": csr.astype("float64"),
            "csr_empty": sp.zeros("csr", (2, 3)), "rsp_empty": sp.zeros("row_sparse", (3, 2)),
            "rsp_tostype": dense.tostype("row_sparse"), "csr_tostype": dense.tostype("csr"),
            "csr_slice": csr[1:3]}


def _bytes(path):
    with open(path, "rb") as f:
        return f.read()


@pytest.mark.parametrize("name", sorted(_made()))
def test_matches_oracle(name, tmp_path):
    arr = _made()[name]
    meta = META[name]
    assert repr(arr) == meta["repr"] and str(arr) == meta["repr"]
    assert arr.stype == meta["stype"]
    assert arr.shape == tuple(meta["shape"])
    assert np.dtype(arr.dtype).name == meta["dtype"]
    assert arr.context == mx.cpu()
    np.testing.assert_array_equal(arr.asnumpy(), CASES[f"{name}_dense"])
    np.testing.assert_array_equal(arr.data.asnumpy(), CASES[f"{name}_data"])
    np.testing.assert_array_equal(arr.indices.asnumpy(), CASES[f"{name}_indices"])
    assert arr.indices.dtype == np.int64
    if arr.stype == "csr":
        np.testing.assert_array_equal(arr.indptr.asnumpy(), CASES[f"{name}_indptr"])
        assert arr.indptr.dtype == np.int64
    # save: byte-identical to MXNet; load: sparse again
    out = tmp_path / "a.params"
    mx.nd.save(str(out), [arr])
    golden = os.path.join(G, f"{name}.params")
    assert out.read_bytes() == _bytes(golden)
    back = mx.nd.load(golden)[0]
    assert type(back) is type(arr)
    np.testing.assert_array_equal(back.asnumpy(), CASES[f"{name}_dense"])
    np.testing.assert_array_equal(back.indices.asnumpy(), CASES[f"{name}_indices"])


def test_mixed_dict_save_load(tmp_path):
    out = tmp_path / "m.params"
    mx.nd.save(str(out), {"a": _csr(), "b": _rsp(), "c": mx.nd.array([1, 2])})
    assert out.read_bytes() == _bytes(os.path.join(G, "mixed_dict.params"))
    d = mx.nd.load(str(out))
    assert [type(v).__name__ for v in d.values()] == ["CSRNDArray", "RowSparseNDArray",
                                                      "NDArray"]
    buf = mx.nd.load_frombuffer(_bytes(str(out)))
    assert buf["b"].stype == "row_sparse"


def test_sparse_ops_match_oracle():
    csr, rsp = _csr(), _rsp()
    rhs = mx.nd.array(np.arange(6).reshape(3, 2))
    d = sp.dot(csr, rhs)
    assert d.stype == "default"
    np.testing.assert_array_equal(d.asnumpy(), CASES["dot_csr_dense"])
    t = sp.dot(csr, rhs, transpose_a=True)
    assert t.stype == META["dot_csr_t_dense_stype"] == "row_sparse"
    np.testing.assert_array_equal(t.asnumpy(), CASES["dot_csr_t_dense"])
    np.testing.assert_array_equal(t.indices.asnumpy(), CASES["dot_csr_t_dense_indices"])
    s = rsp + sp.row_sparse_array(([[10., 10.]], [1]), shape=(4, 2))
    assert isinstance(s, RowSparseNDArray)
    np.testing.assert_array_equal(s.indices.asnumpy(), CASES["rsp_add_indices"])
    np.testing.assert_array_equal(s.asnumpy(), CASES["rsp_add_dense"])
    r = sp.retain(rsp, mx.nd.array([2, 3]))
    np.testing.assert_array_equal(r.indices.asnumpy(), CASES["retain_indices"])
    np.testing.assert_array_equal(r.asnumpy(), CASES["retain_dense"])


def test_dot_other_storage():
    rng = np.random.RandomState(0)
    a = rng.rand(3, 4).astype(np.float32) * (rng.rand(3, 4) > 0.5)
    b = rng.rand(4, 2).astype(np.float32)
    csr = mx.nd.array(a).tostype("csr")
    out = sp.dot(mx.nd.array(b.T), mx.nd.array(a).T.tostype("csr"))
    assert out.stype == "csr"
    np.testing.assert_allclose(out.asnumpy(), b.T @ a.T, rtol=1e-6)
    np.testing.assert_allclose(sp.dot(csr, mx.nd.array(b)).asnumpy(), a @ b, rtol=1e-6)
    np.testing.assert_allclose(sp.dot(csr, mx.nd.array(b.T), transpose_b=True).asnumpy(),
                               a @ b, rtol=1e-6)
    with pytest.raises(MXNetError, match="2 dimensional rhs"):
        sp.dot(csr, mx.nd.ones(4))
    with pytest.raises(MXNetError, match="shape mismatch"):
        sp.dot(csr, mx.nd.ones((3, 2)))


def test_constructors():
    dense = np.array([[0, 1], [2, 0], [0, 0]], np.float32)
    for a in (sp.csr_matrix(dense), sp.csr_matrix(mx.nd.array(dense)),
              sp.csr_matrix(([1., 2.], ([0, 1], [1, 0])), shape=(3, 2)),
              mx.nd.array(dense).tostype("csr"), sp.array(sp.csr_matrix(dense))):
        assert isinstance(a, CSRNDArray)
        np.testing.assert_array_equal(a.asnumpy(), dense)
        a.check_format()
    assert sp.csr_matrix(dense.astype(np.float64)).dtype == np.float64
    assert sp.csr_matrix((2, 3)).shape == (2, 3)
    assert sp.csr_matrix(([1., 2.], [0, 2], [0, 1, 2])).shape == (2, 3)
    r = sp.row_sparse_array(dense)
    np.testing.assert_array_equal(r.indices.asnumpy(), [0, 1])
    assert sp.row_sparse_array((3, 2)).data.shape == (0, 2)
    v = sp.row_sparse_array(([1., 2.], [1, 3]), shape=(4,))
    np.testing.assert_array_equal(v.asnumpy(), [0, 1, 0, 2])
    assert sp.zeros("default", (2,)).stype == "default"
    assert sp.empty("csr", (2, 2)).dtype == np.float32
    with pytest.raises(ValueError):
        sp.array(np.eye(2))


def test_conversions_and_copies():
    csr, rsp = _csr(), _rsp()
    assert csr.tostype("default").stype == "default"
    assert type(csr.tostype("default")).__name__ == "NDArray"
    assert csr.tostype("csr") is not csr and csr.tostype("csr").stype == "csr"
    with pytest.raises(ValueError, match="cast_storage from row_sparse to csr"):
        rsp.tostype("csr")
    with pytest.raises(ValueError, match="cast_storage from csr to row_sparse"):
        csr.tostype("row_sparse")
    c64 = csr.astype("float64")
    assert c64.stype == "csr" and c64.dtype == np.float64 and c64.indices.dtype == np.int64
    cp = csr.copyto(mx.cpu(1))
    assert repr(cp) == "\n<CSRNDArray 3x3 @cpu(1)>"
    assert csr.as_in_context(mx.cpu()) is csr
    x = mx.nd.zeros((3, 3))
    csr.copyto(x)
    np.testing.assert_array_equal(x.asnumpy(), csr.asnumpy())
    y = sp.zeros("csr", (3, 3))
    csr.copyto(y)
    np.testing.assert_array_equal(y.indptr.asnumpy(), [0, 2, 2, 3])
    y[:] = mx.nd.array([[1, 0, 0], [0, 0, 0], [0, 0, 5]])
    np.testing.assert_array_equal(y.indices.asnumpy(), [0, 2])
    with pytest.raises(ValueError, match="numeric types"):
        y[:] = 0
    with pytest.raises(MXNetError, match="only supports"):
        y[0] = mx.nd.ones((3,))
    for a in (csr, rsp):
        b = pickle.loads(pickle.dumps(a))
        assert type(b) is type(a)
        np.testing.assert_array_equal(b.asnumpy(), a.asnumpy())
    assert sp.cast_storage(mx.nd.ones((2, 2)), "row_sparse").stype == "row_sparse"


def test_getitem():
    csr = _csr()
    row = csr[2]
    assert isinstance(row, CSRNDArray) and row.shape == (1, 3)
    np.testing.assert_array_equal(row.asnumpy(), [[0, 3, 0]])
    np.testing.assert_array_equal(csr[-2:].asnumpy(), csr.asnumpy()[-2:])
    assert csr[2:1].shape == (0, 3)
    with pytest.raises(ValueError, match="continuous slicing"):
        csr[::2]
    rsp = _rsp()
    assert rsp[:] is rsp
    with pytest.raises(MXNetError, match="int key"):
        rsp[0]
    with pytest.raises(MXNetError, match=r"only supports \[:\]"):
        rsp[0:1]


def test_arithmetic_storage():
    csr, rsp = _csr(), _rsp()
    d = csr.asnumpy()
    cases = [(csr * 2, "csr", d * 2), (2 * csr, "csr", d * 2), (csr / 2, "csr", d / 2),
             (-csr, "csr", -d), (csr + csr, "csr", d + d), (csr - csr, "csr", d - d),
             (csr * csr, "csr", d * d), (csr + 1, "default", d + 1),
             (rsp * rsp, "row_sparse", rsp.asnumpy() ** 2),
             (rsp + mx.nd.ones((4, 2)), "default", rsp.asnumpy() + 1),
             (sp.elemwise_sub(rsp, rsp), "row_sparse", 0 * rsp.asnumpy()),
             (mx.nd.sum(csr), "default", d.sum(keepdims=True).reshape(1))]
    for res, stype, ref in cases:
        assert res.stype == stype
        np.testing.assert_allclose(res.asnumpy(), ref)
    c = _csr()
    c += c
    assert c.stype == "csr"
    np.testing.assert_array_equal(c.asnumpy(), 2 * d)


def test_check_format():
    bad = sp.csr_matrix(([1., 2.], [2, 0], [0, 2, 2, 2]), shape=(3, 3))
    bad.check_format(full_check=False)
    with pytest.raises(MXNetError, match="ascending order per row"):
        bad.check_format()
    bad2 = sp.row_sparse_array(([[1., 2.], [3., 4.]], [2, 0]), shape=(4, 2))
    with pytest.raises(MXNetError, match="Indices of row_sparse"):
        bad2.check_format()
    with pytest.raises(MXNetError):
        sp.csr_matrix(([1.], [0], [0, 1]), shape=(3, 3))  # indptr too short


def test_asscipy():
    sps = pytest.importorskip("scipy.sparse")
    m = _csr().asscipy()
    assert isinstance(m, sps.csr_matrix)
    np.testing.assert_array_equal(m.toarray(), _csr().asnumpy())


def test_kvstore_row_sparse_pull():
    kv = mx.kv.create("local")
    kv.init("w", mx.nd.arange(12).reshape((4, 3)).tostype("row_sparse"))  # MXNet needs rsp
    out = sp.zeros("row_sparse", (4, 3))
    kv.row_sparse_pull("w", out=out, row_ids=mx.nd.array([2, 0, 2]))
    np.testing.assert_array_equal(out.indices.asnumpy(), [0, 2])
    np.testing.assert_array_equal(out.asnumpy(), [[0, 1, 2], [0, 0, 0], [6, 7, 8], [0, 0, 0]])


def test_zero_preserving_unary():
    csr, rsp = _csr(), _rsp()
    for x in (csr, rsp):
        d = x.asnumpy()
        for name, ref in (("sqrt", np.sqrt(d)), ("square", d * d), ("negative", -d),
                          ("relu", d), ("sign", np.sign(d))):
            res = getattr(sp, name)(x)
            assert res.stype == x.stype
            np.testing.assert_allclose(res.asnumpy(), ref, rtol=1e-6)
        assert x.sqrt().stype == x.stype  # fluent form keeps the storage too
        z = sp.zeros_like(x)
        assert z.stype == x.stype and z.data.shape[0] == 0
        assert x.zeros_like().stype == x.stype
    assert sp.sqrt(mx.nd.array([4.0])).stype == "default"
    s = sp.sum(csr, axis=0)  # dense fallback, as MXNet
    assert s.stype == "default"
    np.testing.assert_array_equal(s.asnumpy(), csr.asnumpy().sum(0))
    assert sp.divide(csr, 2).stype == "csr"


def test_sparse_creation_rejects_a_non_context_ctx():
    # the pre-1.0 call csr_matrix(data, indptr, indices, shape) puts a list in ctx:
    # MXNet 1.9.1 raises a TypeError
    with pytest.raises(TypeError):
        mx.nd.sparse.csr_matrix([7, 8, 9], [0, 2, 2, 3], [0, 2, 1], (3, 4))
    with pytest.raises(TypeError):
        mx.nd.sparse.row_sparse_array([[1.0, 2.0]], (1, 2), [0])
    assert mx.nd.sparse.csr_matrix((2, 3), ctx=mx.cpu(1)).context == mx.cpu(1)


def test_sparse_shape_mismatch_message_shows_shape_as_given():
    with pytest.raises(ValueError, match=r"Shape mismatch detected\. \(3, 2\) v\.s\. \[0, 1, 3\]"):
        mx.nd.sparse.row_sparse_array([[1, 2], [3, 4], [5, 6]], [0, 1, 3])
