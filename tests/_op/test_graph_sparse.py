"""Records of the storage and graph operators (dense forms: the registry kernels).

The CSR-aware front ends are tested in tests/ndarray/test_sparse_graph_ops.py.
"""

import numpy as np
import pytest

from tests._op.harness import Record, run_record

G = np.array([[0, 1, 2, 0], [0, 0, 0, 4], [5, 0, 6, 0], [0, 7, 0, 8]], np.float32)
X = np.arange(12, dtype=np.float32).reshape(4, 3) - 5


def _retain(x, i, **k):
    out = np.zeros_like(x)
    out[i.astype(int)] = x[i.astype(int)]
    return out


def _adagrad(w, g, h, lr, epsilon=1e-7, **k):
    h = h + g * g
    return w - lr * g / np.sqrt(h + epsilon)


def _edge(g, u, v, **k):
    vals = g[u.astype(int), v.astype(int)]
    return np.where(vals != 0, vals, -1)


def _subgraph(g, v, return_mapping, **k):
    sub = g[np.ix_(v.astype(int), v.astype(int))]
    ids = np.zeros_like(sub)
    nz = sub != 0
    ids[nz] = np.arange(nz.sum())
    return [ids, sub] if return_mapping else [ids]


def _check_sample(outs, ins):
    vid, sub, layer = outs
    count = int(vid[-1])
    assert vid.shape == (5,) and sub.shape == (4, 4) and layer.shape == (4,)
    assert 1 <= count <= 4 and (vid[count:-1] == -1).all()


def _check_weighted(outs, ins):
    vid, sub, prob, layer = outs
    count = int(vid[-1])
    np.testing.assert_allclose(prob[:count], ins[1][vid[:count].astype(int)])


SUB = np.array([[0, 0, 0, 0, 3], [5, 0, 0, 0, 0], [0, 9, 0, 0, 2]], np.float32)
VID = np.array([4, 0, 1, -1, 3], np.float32)

RECORDS = [
    Record("cast_storage", [X], {"stype": "csr"}, ref=lambda x, **k: x, grad=True),
    Record(
        "cast_storage", [X], {"stype": "default"}, ref=lambda x, **k: x, name="cast_storage_default"
    ),
    Record(
        "_sparse_retain",
        [X, np.array([0, 2], np.float32)],
        ref=_retain,
        grad=True,
        grad_inputs=(0,),
    ),
    Record(
        "_sparse_adagrad_update",
        [X, X / 3, np.ones_like(X)],
        {"lr": 0.1},
        ref=_adagrad,
        symbolic=False,
    ),
    Record("_contrib_getnnz", [G], ref=lambda g, **k: np.array([7])),
    Record(
        "_contrib_getnnz", [G], {"axis": 1}, ref=lambda g, **k: (g != 0).sum(1), name="getnnz_rows"
    ),
    Record(
        "_contrib_edge_id",
        [G, np.array([0, 1, 2], np.float32), np.array([1, 1, 2], np.float32)],
        ref=_edge,
    ),
    Record("_contrib_dgl_adjacency", [G], ref=lambda g, **k: (g != 0).astype(np.float32)),
    Record(
        "_contrib_dgl_subgraph",
        [G, np.array([0, 2, 3], np.float32)],
        {"return_mapping": True},
        ref=_subgraph,
    ),
    Record(
        "_contrib_dgl_graph_compact",
        [SUB, VID],
        {"graph_sizes": (3,), "return_mapping": False},
        ref=lambda s, v, **k: np.array([[0, 0, 0], [0, 1, 0], [3, 0, 2]], np.float32),
    ),
    Record(
        "_contrib_dgl_csr_neighbor_uniform_sample",
        [G, np.array([0], np.float32)],
        {"num_hops": 1, "num_neighbor": 2, "max_num_vertices": 4},
        check=_check_sample,
        symbolic=False,
    ),
    Record(
        "_contrib_dgl_csr_neighbor_non_uniform_sample",
        [G, np.array([0.1, 0.2, 0.3, 0.4], np.float32), np.array([1], np.float32)],
        {"num_hops": 2, "num_neighbor": 1, "max_num_vertices": 4},
        check=_check_weighted,
        symbolic=False,
    ),
    Record(
        "_contrib_calibrate_entropy",
        [
            np.array([1, 3, 8, 20, 40, 20, 8, 3, 1], np.float32),
            np.linspace(-1, 1, 10).astype(np.float32),
        ],
        {"num_quantized_bins": 3},
        check=lambda outs, ins: (
            (outs[0].shape == (1,) and outs[1].shape == (1,))
            or pytest.fail("calibrate_entropy output shapes")
        ),
    ),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)
