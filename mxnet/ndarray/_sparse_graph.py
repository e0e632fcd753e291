"""CSR-aware front ends of the graph operators of ``mx.nd.contrib`` (``getnnz``,
``edge_id``, ``dgl_adjacency``, ``dgl_subgraph``, ``dgl_graph_compact``, the samplers).

They read a CSRNDArray's stored structure (an edge id may be 0) and return CSRNDArrays
where MXNet does; the kernels are the registry's (:mod:`mxnet._op._graph`).
"""

from __future__ import annotations

from .._op import _graph as G
from .._op._registry import get_op
from ..base import MXNetError, _Null
from ._sparse_base import CSRNDArray, new_sparse
from .ndarray import NDArray

__all__ = [
    "getnnz",
    "edge_id",
    "dgl_adjacency",
    "dgl_subgraph",
    "dgl_graph_compact",
    "dgl_csr_neighbor_uniform_sample",
    "dgl_csr_neighbor_non_uniform_sample",
]


def _parts(x, opname: str) -> tuple:
    if not isinstance(x, CSRNDArray):
        raise MXNetError(
            f"Operator not implemented: operator = {opname}\ninput storage "
            f"types = [{getattr(x, 'stype', type(x).__name__)}, ] (a CSRNDArray "
            "is required)"
        )
    data, indptr, indices = x._sdata, x._saux[0], x._saux[1]
    return data, indptr, indices, x.shape


def _csr(parts, ctx) -> CSRNDArray:
    data, indptr, indices, shape = parts
    return new_sparse("csr", data, (indptr, indices), shape, ctx)


def _dense(t, ctx) -> NDArray:
    return NDArray._wrap(t, ctx)


def _finish(res, out):
    if out is None:
        return res
    outs = out if isinstance(out, (list, tuple)) else [out]
    items = res if isinstance(res, list) else [res]
    if len(outs) != len(items):
        raise MXNetError(f"out= has {len(outs)} arrays but the operator has {len(items)} outputs")
    for o, r in zip(outs, items):
        r.copyto(o)
    return out


def _attrs(opname: str, kwargs: dict) -> dict:
    return get_op(opname).parse_attrs({k: v for k, v in kwargs.items() if v is not _Null})


def getnnz(data=None, axis=_Null, out=None, name=None, **kwargs):
    """Number of stored values of a CSRNDArray (explicit zeros included): one int64
    value, or one per row with ``axis=1``.

    Examples
    --------
    >>> a = mx.nd.sparse.csr_matrix(([1., 0., 2.], [0, 1, 1], [0, 2, 3]), shape=(2, 2))
    >>> mx.nd.contrib.getnnz(a).asnumpy().tolist()
    [3]
    """
    a = _attrs("_contrib_getnnz", {"axis": axis, **kwargs})
    res = _dense(G.getnnz(*_parts(data, "_contrib_getnnz"), a["axis"]), data.context)
    return _finish(res, out)


def edge_id(data=None, u=None, v=None, out=None, name=None, **kwargs):
    """Stored value ``data[u[i], v[i]]`` of a CSR graph, -1 where no edge is stored.

    Examples
    --------
    >>> g = mx.nd.sparse.csr_matrix(([1., 2.], [0, 1], [0, 1, 2]), shape=(2, 2))
    >>> mx.nd.contrib.edge_id(g, mx.nd.array([0, 1]), mx.nd.array([0, 0])).asnumpy().tolist()
    [1.0, -1.0]
    """
    _attrs("_contrib_edge_id", kwargs)
    res = G.edge_id(*_parts(data, "_contrib_edge_id"), u._t, v._t)
    return _finish(_dense(res, data.context), out)


def dgl_adjacency(data=None, out=None, name=None, **kwargs):
    """Adjacency matrix of a CSR graph: the same structure with float32 ones.

    Examples
    --------
    >>> g = mx.nd.sparse.csr_matrix(([0., 5.], [1, 0], [0, 1, 2]), shape=(2, 2))
    >>> mx.nd.contrib.dgl_adjacency(g).data.asnumpy().tolist()
    [1.0, 1.0]
    """
    _attrs("_contrib_dgl_adjacency", kwargs)
    res = _csr(G.adjacency(*_parts(data, "_contrib_dgl_adjacency")), data.context)
    return _finish(res, out)


def _one_or_list(items: list):
    return items[0] if len(items) == 1 else items


def dgl_subgraph(*data, **kwargs):
    """Induced subgraphs of ``data[0]`` (a CSR graph) on each sorted vertex array of
    ``data[1:]``: new edge ids 0..n-1, then (``return_mapping=True``) the same structure
    holding the parent's edge ids.

    Examples
    --------
    >>> g = mx.nd.sparse.csr_matrix(([1., 2., 3.], [1, 2, 0], [0, 2, 3, 3]), shape=(3, 3))
    >>> s = mx.nd.contrib.dgl_subgraph(g, mx.nd.array([0, 1], dtype='int64'),
    ...                                return_mapping=False)
    >>> s.asnumpy().tolist()
    [[0.0, 0.0], [1.0, 0.0]]
    """
    out = kwargs.pop("out", None)
    kwargs.pop("name", None)
    kwargs["num_args"] = len(data)
    a = _attrs("_contrib_dgl_subgraph", kwargs)
    if len(data) < 2:
        raise MXNetError("dgl_subgraph: needs a graph and at least one vertex array")
    parts = _parts(data[0], "_contrib_dgl_subgraph")
    ctx = data[0].context
    res = [G.subgraph(*parts, v._t) for v in data[1:]]
    outs = [_csr(r[0], ctx) for r in res]
    if a["return_mapping"]:
        outs += [_csr(r[1], ctx) for r in res]
    return _finish(_one_or_list(outs), out)


def dgl_graph_compact(*graph_data, **kwargs):
    """Compact sampled CSR subgraphs (first half of ``graph_data``) to
    ``graph_sizes[i]`` vertices, columns renumbered to positions in the vertex-id arrays
    (second half).

    Examples
    --------
    >>> sub = mx.nd.sparse.csr_matrix(([7.], [4], [0, 1, 1, 1]), shape=(3, 5))
    >>> vid = mx.nd.array([2, 4, -1, 2], dtype='int64')
    >>> c = mx.nd.contrib.dgl_graph_compact(sub, vid, graph_sizes=(2,), return_mapping=False)
    >>> c.indices.asnumpy().tolist()
    [1]
    """
    out = kwargs.pop("out", None)
    kwargs.pop("name", None)
    kwargs["num_args"] = len(graph_data)
    a = _attrs("_contrib_dgl_graph_compact", kwargs)
    k = len(graph_data) // 2
    sizes = tuple(a["graph_sizes"])
    if len(graph_data) != 2 * k or len(sizes) != k or k == 0:
        raise MXNetError(
            f"dgl_graph_compact: expected graphs then as many vertex-id "
            f"arrays, and one graph size each; got {len(graph_data)} arrays "
            f"and graph_sizes {sizes}"
        )
    ctx = graph_data[0].context
    res = [
        G.graph_compact(
            *_parts(graph_data[j], "_contrib_dgl_graph_compact"),
            graph_data[k + j]._t,
            int(sizes[j]),
        )
        for j in range(k)
    ]
    outs = [_csr(r[0], ctx) for r in res]
    if a["return_mapping"]:
        outs += [_csr(r[1], ctx) for r in res]
    return _finish(_one_or_list(outs), out)


def _sample(opname: str, graph, prob, seeds, kwargs):
    out = kwargs.pop("out", None)
    kwargs.pop("name", None)
    a = _attrs(opname, kwargs)
    if not seeds:
        raise MXNetError(f"{opname}: at least one seed array is required")
    parts = _parts(graph, opname)
    ctx = graph.context
    p = None if prob is None else prob._t.reshape(-1)
    res = [
        G.neighbor_sample(*parts, s._t, a["num_hops"], a["num_neighbor"], a["max_num_vertices"], p)
        for s in seeds
    ]
    outs = [_dense(r["vid"], ctx) for r in res] + [_csr(r["parts"], ctx) for r in res]
    if prob is not None:
        outs += [_dense(r["prob"], ctx) for r in res]
    outs += [_dense(r["layer"], ctx) for r in res]
    return _finish(outs, out)


def dgl_csr_neighbor_uniform_sample(*seed_arrays, **kwargs):
    """Uniform BFS neighbour sampling on a CSR graph (``seed_arrays[0]``) from each seed
    array: per seed array, the sampled vertex ids (length ``max_num_vertices + 1``, last =
    count, -1 padded), the sub-CSR of sampled edge ids and each vertex's layer.

    Examples
    --------
    >>> g = mx.nd.sparse.csr_matrix(([1, 2], [1, 0], [0, 1, 2]), shape=(2, 2), dtype='int64')
    >>> out = mx.nd.contrib.dgl_csr_neighbor_uniform_sample(
    ...     g, mx.nd.array([0], dtype='int64'), num_hops=1, max_num_vertices=2)
    >>> out[0].asnumpy().tolist()
    [0, 1, 2]
    """
    kwargs["num_args"] = len(seed_arrays)
    if not seed_arrays:
        raise MXNetError("dgl_csr_neighbor_uniform_sample: a CSR graph is required")
    return _sample(
        "_contrib_dgl_csr_neighbor_uniform_sample",
        seed_arrays[0],
        None,
        list(seed_arrays[1:]),
        kwargs,
    )


def dgl_csr_neighbor_non_uniform_sample(*seed_arrays, **kwargs):
    """Like :func:`dgl_csr_neighbor_uniform_sample` with neighbours drawn by the vertex
    probabilities ``seed_arrays[1]``; also returns each sampled vertex's probability.

    Examples
    --------
    >>> g = mx.nd.sparse.csr_matrix(([1, 2], [1, 0], [0, 1, 2]), shape=(2, 2), dtype='int64')
    >>> out = mx.nd.contrib.dgl_csr_neighbor_non_uniform_sample(
    ...     g, mx.nd.array([0.5, 0.5]), mx.nd.array([0], dtype='int64'), max_num_vertices=2)
    >>> len(out)
    4
    """
    kwargs["num_args"] = len(seed_arrays)
    if len(seed_arrays) < 2:
        raise MXNetError(
            "dgl_csr_neighbor_non_uniform_sample: a CSR graph and a probability array are required"
        )
    return _sample(
        "_contrib_dgl_csr_neighbor_non_uniform_sample",
        seed_arrays[0],
        seed_arrays[1],
        list(seed_arrays[2:]),
        kwargs,
    )
