"""Graph/CSR operators of mx.nd.contrib, storage operators and sparse AdaGrad.

Expected values were produced by MXNet 1.9.1 on the same inputs.
"""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError


def _graph():
    data = np.array([1, 2, 0, 4, 5, 6, 7, 8], dtype=np.int64)  # edge id 0 is stored
    indices = np.array([1, 2, 0, 3, 0, 2, 1, 3], dtype=np.int64)
    indptr = np.array([0, 2, 4, 6, 8], dtype=np.int64)
    return mx.nd.sparse.csr_matrix((data, indices, indptr), shape=(4, 4))


def _parts(x):
    return [x.data.asnumpy().tolist(), x.indices.asnumpy().tolist(), x.indptr.asnumpy().tolist()]


def test_getnnz():
    a = _graph()
    r = mx.nd.contrib.getnnz(a)
    assert r.dtype == np.int64 and r.asnumpy().tolist() == [8]
    assert mx.nd.contrib.getnnz(a, axis=1).asnumpy().tolist() == [2, 2, 2, 2]
    with pytest.raises(MXNetError, match="axis = 0"):
        mx.nd.contrib.getnnz(a, axis=0)
    with pytest.raises(MXNetError, match="_contrib_getnnz"):
        mx.nd.contrib.getnnz(mx.nd.ones((2, 2)))


def test_edge_id_keeps_stored_zero():
    a = _graph()
    u, v = mx.nd.array([0, 0, 1, 3, 2]), mx.nd.array([1, 0, 0, 3, 3])
    r = mx.nd.contrib.edge_id(a, u, v)
    assert r.dtype == np.int64 and r.asnumpy().tolist() == [1, -1, 0, 8, -1]
    rf = mx.nd.contrib.edge_id(a.astype("float32"), u, v)
    assert rf.dtype == np.float32 and rf.asnumpy().tolist() == [1, -1, 0, 8, -1]


def test_adjacency():
    r = mx.nd.contrib.dgl_adjacency(_graph())
    assert r.stype == "csr" and r.dtype == np.float32
    assert _parts(r) == [[1.0] * 8, [1, 2, 0, 3, 0, 2, 1, 3], [0, 2, 4, 6, 8]]


def test_subgraph():
    a = _graph()
    r = mx.nd.contrib.dgl_subgraph(
        a,
        mx.nd.array([0, 1, 3], dtype=np.int64),
        mx.nd.array([1, 2], dtype=np.int64),
        return_mapping=True,
    )
    assert [x.shape for x in r] == [(3, 3), (2, 2), (3, 3), (2, 2)]
    assert _parts(r[0]) == [[0, 1, 2, 3, 4], [1, 0, 2, 1, 2], [0, 1, 3, 5]]
    assert _parts(r[1]) == [[0], [1], [0, 0, 1]]
    assert _parts(r[2]) == [[1, 0, 4, 7, 8], [1, 0, 2, 1, 2], [0, 1, 3, 5]]
    assert _parts(r[3]) == [[6], [1], [0, 0, 1]]
    one = mx.nd.contrib.dgl_subgraph(
        a, mx.nd.array([0, 1, 3], dtype=np.int64), return_mapping=False
    )
    assert isinstance(one, mx.nd.sparse.CSRNDArray)
    with pytest.raises(MXNetError, match="sorted"):
        mx.nd.contrib.dgl_subgraph(a, mx.nd.array([3, 0], dtype=np.int64), return_mapping=False)


def _sample_graph():
    data = np.arange(1, 21, dtype=np.int64)
    indices = np.array([1, 2, 3, 4, 0, 2, 3, 4, 0, 1, 3, 4, 0, 1, 2, 4, 0, 1, 2, 3])
    indptr = np.array([0, 4, 8, 12, 16, 20])
    return mx.nd.sparse.csr_matrix((data, indices, indptr), shape=(5, 5), dtype=np.int64)


@pytest.mark.parametrize(
    "seeds,hops,nbr,maxv",
    [([0, 1, 2, 3, 4], 1, 2, 5), ([0], 1, 1, 4), ([0], 2, 1, 3), ([0, 4], 2, 2, 5)],
)
def test_uniform_sample_and_compact(seeds, hops, nbr, maxv):
    a = _sample_graph()
    out = mx.nd.contrib.dgl_csr_neighbor_uniform_sample(
        a,
        mx.nd.array(seeds, dtype=np.int64),
        num_args=2,
        num_hops=hops,
        num_neighbor=nbr,
        max_num_vertices=maxv,
    )
    vid, sub, layer = out
    assert vid.shape == (maxv + 1,) and vid.dtype == np.int64
    count = int(vid[-1].asnumpy()[0])
    assert (vid.asnumpy()[:-1] != -1).sum() == count
    assert sub.stype == "csr" and sub.shape == (maxv, 5)
    sub.check_format(full_check=True)
    assert (layer.asnumpy() <= hops).all()
    ids = vid.asnumpy()[:count]
    assert list(ids) == sorted(ids) and set(seeds) <= set(ids.tolist())
    compact = mx.nd.contrib.dgl_graph_compact(sub, vid, graph_sizes=(count,), return_mapping=False)
    assert compact.shape == (count, count)
    assert compact.indptr.asnumpy().tolist() == sub.indptr.asnumpy()[: count + 1].tolist()
    for k, c in enumerate(compact.indices.asnumpy()):
        assert vid.asnumpy()[c] == sub.indices.asnumpy()[k]


def test_non_uniform_sample():
    a = _sample_graph()
    prob = mx.nd.array([0.9, 0.8, 0.2, 0.4, 0.1])
    out = mx.nd.contrib.dgl_csr_neighbor_non_uniform_sample(
        a,
        prob,
        mx.nd.array([0, 4], dtype=np.int64),
        num_args=3,
        num_hops=2,
        num_neighbor=2,
        max_num_vertices=5,
    )
    assert [(x.stype, x.shape) for x in out] == [
        ("default", (6,)),
        ("csr", (5, 5)),
        ("default", (5,)),
        ("default", (5,)),
    ]
    count = int(out[0][-1].asnumpy()[0])
    ids = out[0].asnumpy()[:count]
    np.testing.assert_allclose(out[2].asnumpy()[:count], prob.asnumpy()[ids])


def test_graph_symbols():
    g = mx.sym.var("g")
    s = mx.sym.contrib.dgl_subgraph(g, mx.sym.var("v"), mx.sym.var("w"), return_mapping=True)
    assert len(s.list_outputs()) == 4
    s = mx.sym.contrib.dgl_csr_neighbor_non_uniform_sample(g, mx.sym.var("p"), mx.sym.var("v"))
    assert len(s.list_outputs()) == 4
    e = mx.sym.contrib.edge_id(g, mx.sym.var("u"), mx.sym.var("v"))
    dense = mx.nd.array([[0, 1], [2, 0]])
    r = e.eval(g=dense, u=mx.nd.array([0, 1]), v=mx.nd.array([1, 1]))[0]
    assert r.asnumpy().tolist() == [1.0, -1.0]


def test_calibrate_entropy_matches_mxnet():
    np.random.seed(0)
    x = np.random.randn(1000).astype("float32")
    th = np.abs(x).max()
    for bins, nq, want_th, want_div in [
        (2001, 255, 2.8482428, 0.06206696),
        (601, 63, 2.812994, 0.10876092),
        (11, 3, 1.9384546, 0.03153256),
    ]:
        hist, edges = np.histogram(x, bins=bins, range=(-th, th))
        t, d = mx.nd.contrib.calibrate_entropy(
            mx.nd.array(hist), mx.nd.array(edges), num_quantized_bins=nq
        )
        assert t.shape == (1,) and d.dtype == np.float32
        np.testing.assert_allclose(t.asnumpy(), [want_th], rtol=1e-5)
        np.testing.assert_allclose(d.asnumpy(), [want_div], rtol=1e-3)
    s = mx.sym.contrib.calibrate_entropy(mx.sym.var("h"), mx.sym.var("e"), name="calib")
    assert s.list_outputs() == ["calib_threshold", "calib_divergence"]


def test_cast_storage_top_level():
    c = mx.nd.cast_storage(mx.nd.ones((2, 2)), stype="csr")
    assert c.stype == "csr"
    s = mx.sym.cast_storage(mx.sym.var("x"), stype="row_sparse")
    assert '"op": "cast_storage"' in s.tojson() and '"stype": "row_sparse"' in s.tojson()
    assert s.eval(x=mx.nd.ones((2, 2)))[0].asnumpy().tolist() == [[1, 1], [1, 1]]


def test_sym_sparse_namespace():
    names = dir(mx.sym.sparse)
    for n in (
        "abs",
        "adagrad_update",
        "cast_storage",
        "dot",
        "elemwise_add",
        "retain",
        "sgd_update",
        "zeros_like",
        "where",
    ):
        assert n in names, n
    r = mx.sym.sparse.retain(mx.sym.var("x"), mx.sym.var("i"))
    assert '"op": "_sparse_retain"' in r.tojson()
    out = r.eval(x=mx.nd.ones((3, 2)), i=mx.nd.array([2]))[0]
    assert out.asnumpy().tolist() == [[0, 0], [0, 0], [1, 1]]


@pytest.mark.parametrize("stype", ["default", "row_sparse"])
def test_sparse_adagrad_update(stype):
    w = mx.nd.array([[1, 2], [3, 4], [5, 6]]).tostype(stype)
    g = mx.nd.array([[0.5, -1], [0, 0], [2, 3]]).tostype("row_sparse")
    h = mx.nd.ones((3, 2)).tostype(stype)
    mx.nd.sparse.adagrad_update(
        w, g, h, out=w, lr=0.1, epsilon=1e-7, rescale_grad=2, clip_gradient=1.5
    )
    np.testing.assert_allclose(
        w.asnumpy(), [[0.9292893, 2.083205], [3, 4], [4.9167948, 5.9167948]], rtol=1e-6
    )
    np.testing.assert_allclose(h.asnumpy(), [[2, 3.25], [1, 1], [3.25, 3.25]])
    assert w.stype == stype and h.stype == stype
    with pytest.raises(MXNetError, match="_sparse_adagrad_update"):
        mx.nd.sparse.adagrad_update(w, g, h, out=w, lr=0.1, wd=0.1)
    with pytest.raises(MXNetError, match="kWriteInplace"):
        mx.nd.sparse.adagrad_update(w, g, h, lr=0.1)


def test_square_sum_keeps_row_sparse():
    r = mx.nd.array([[1, 2], [0, 0], [3, 0]]).tostype("row_sparse")
    o = mx.nd._internal._square_sum(r, axis=1, keepdims=True)
    assert o.stype == "row_sparse" and o.shape == (3, 1)
    assert o.asnumpy().tolist() == [[5.0], [0.0], [9.0]]
    assert o.indices.asnumpy().tolist() == [0, 2]
    d = mx.nd._internal._square_sum(r, axis=0)
    assert d.stype == "default" and d.asnumpy().tolist() == [10.0, 4.0]
    assert mx.nd._internal._square_sum(r, axis=1).stype == "default"


def test_sym_contrib_adamw_update():
    w, g, m, v = (mx.sym.var(n) for n in "wgmv")
    s = mx.sym.contrib.adamw_update(w, g, m, v, 1.0, lr=0.1, eta=1.0)
    assert s.list_arguments() == ["w", "g", "m", "v"]
    args = {
        "w": mx.nd.ones((2,)),
        "g": mx.nd.ones((2,)),
        "m": mx.nd.zeros((2,)),
        "v": mx.nd.zeros((2,)),
    }
    got = s.bind(mx.cpu(), args).forward()[0].asnumpy()
    want = mx.nd.ones((2,))
    mx.nd.contrib.adamw_update(
        want, mx.nd.ones((2,)), mx.nd.zeros((2,)), mx.nd.zeros((2,)), 1.0, lr=0.1, eta=1.0, out=want
    )
    np.testing.assert_allclose(got, want.asnumpy(), rtol=1e-6)
    w32 = mx.sym.var("w32")
    s2 = mx.sym.contrib.mp_adamw_update(w, g, m, v, w32, mx.sym.var("r"), lr=0.1, eta=1.0)
    assert s2.list_arguments() == ["w", "g", "m", "v", "w32", "r"]


W = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
GR = np.array([[0.5, -1.0], [0, 0], [2.0, 3.0]], np.float32)


def _rsp(a):
    return mx.nd.array(a).tostype("row_sparse")


def test_lazy_sparse_updates_match_mxnet():
    w = mx.nd.array(W)
    mx.nd.sparse.sgd_update(w, _rsp(GR), lr=0.1, wd=0.1, out=w)
    np.testing.assert_allclose(w.asnumpy(), [[0.94, 2.08], [3, 4], [4.75, 5.64]], rtol=1e-6)
    w = mx.nd.array(W)
    mx.nd.sparse.sgd_update(w, _rsp(GR), lr=0.1, wd=0.1, lazy_update=False, out=w)
    np.testing.assert_allclose(w.asnumpy()[1], [2.97, 3.96], rtol=1e-6)
    w, m = _rsp(W), _rsp(np.zeros((3, 2)))
    mx.nd.sparse.sgd_mom_update(w, _rsp(GR), m, lr=0.1, momentum=0.9, wd=0.1, out=w)
    assert w.stype == "row_sparse"
    np.testing.assert_allclose(m.asnumpy(), [[-0.06, 0.08], [0, 0], [-0.25, -0.36]], rtol=1e-5)
    w, m, v = mx.nd.array(W), mx.nd.zeros((3, 2)), mx.nd.zeros((3, 2))
    mx.nd.sparse.adam_update(w, _rsp(GR), m, v, lr=0.1, wd=0.1, out=w)
    np.testing.assert_allclose(w.asnumpy(), [[0.6838, 2.3162], [3, 4], [4.6838, 5.6838]], rtol=1e-4)
    np.testing.assert_allclose(v.asnumpy()[2], [0.00625, 0.01296], rtol=1e-3)
    with pytest.raises(MXNetError, match="kWriteInplace"):
        mx.nd.sparse.sgd_update(mx.nd.array(W), _rsp(GR), lr=0.1)


def test_storage_keeping_add_n_concat_broadcast_clip():
    r = mx.nd.sparse.add_n(_rsp(W), _rsp(GR), _rsp(GR))
    assert r.stype == "row_sparse" and r.asnumpy().tolist() == [[2, 0], [3, 4], [9, 12]]
    assert mx.nd.sparse.add_n(_rsp(W), mx.nd.array(GR)).stype == "default"
    c = mx.nd.sparse.concat(mx.nd.array(W).tostype("csr"), mx.nd.array(GR).tostype("csr"), dim=0)
    assert c.stype == "csr" and c.shape == (6, 2)
    np.testing.assert_array_equal(c.asnumpy(), np.concatenate([W, GR]))
    assert (
        mx.nd.sparse.concat(
            mx.nd.array(W).tostype("csr"), mx.nd.array(GR).tostype("csr"), dim=1
        ).stype
        == "default"
    )
    b = mx.nd.sparse.broadcast_mul(
        mx.nd.array(W).tostype("csr"), mx.nd.array([[2.0], [3.0], [4.0]])
    )
    assert b.stype == "csr" and b.asnumpy().tolist() == [[2, 4], [9, 12], [20, 24]]
    d = mx.nd.sparse.broadcast_div(mx.nd.array(W).tostype("csr"), mx.nd.array([[2.0, 4.0]]))
    assert d.stype == "csr" and d.asnumpy().tolist() == [[0.5, 0.5], [1.5, 1], [2.5, 1.5]]
    k = mx.nd.sparse.clip(_rsp(W), -1, 4.5)
    assert k.stype == "row_sparse" and k.asnumpy().max() == 4.5
    with pytest.raises(MXNetError, match="clip"):
        mx.nd.sparse.clip(_rsp(W), 1.5, 4.5)
    with pytest.raises(MXNetError, match="cast_storage"):
        mx.nd.sparse.cast_storage(_rsp(W), "csr")


def test_sparse_reshape_not_supported():
    from mxnet.base import NotSupportedForSparseNDArray

    for stype in ("csr", "row_sparse"):
        a = mx.nd.ones((2, 2)).tostype(stype)
        with pytest.raises(NotSupportedForSparseNDArray):
            a.reshape((4,))
