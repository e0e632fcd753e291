"""Graph (DGL) and CSR-structure operators of ``mx.nd.contrib``: ``getnnz``, ``edge_id``,
``dgl_adjacency``, ``dgl_subgraph``, ``dgl_graph_compact`` and the neighbour samplers.

The kernels work on CSR components ``(data, indptr, indices, shape)``: a graph stores edge
ids as values, and an edge id may be 0, so the stored structure (not the non-zeros)
defines the edges. ``mxnet.ndarray._sparse_graph`` calls them with a CSRNDArray's real
components and returns CSRNDArrays; the registry ``compute`` (used by symbols, which carry
dense tensors) rebuilds the components from the non-zeros.
"""

from __future__ import annotations

import torch

from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register

__all__ = [
    "csr_parts",
    "csr_dense",
    "getnnz",
    "edge_id",
    "adjacency",
    "subgraph",
    "graph_compact",
    "neighbor_sample",
]

I64 = torch.int64


# -- CSR helpers ----------------------------------------------------------------------
def csr_parts(dense: torch.Tensor, op: str) -> tuple:
    """``(data, indptr, indices, shape)`` of a dense 2-D tensor's non-zeros (row-major)."""
    if dense.dim() != 2:
        raise MXNetError(f"{op}: expected a 2-D (CSR) graph, got shape {tuple(dense.shape)}")
    rows, cols = dense.nonzero(as_tuple=True)
    indptr = torch.zeros(dense.shape[0] + 1, dtype=I64)
    indptr[1:] = torch.bincount(rows, minlength=dense.shape[0]).cumsum(0)
    return dense[rows, cols], indptr, cols.to(I64), tuple(dense.shape)


def csr_dense(
    data: torch.Tensor, indptr: torch.Tensor, indices: torch.Tensor, shape
) -> torch.Tensor:
    """The dense tensor of CSR components."""
    out = torch.zeros(tuple(shape), dtype=data.dtype)
    rows = torch.repeat_interleave(torch.arange(len(indptr) - 1), indptr.diff())
    out[rows, indices] = data
    return out


def _row_ids(indptr: torch.Tensor) -> torch.Tensor:
    return torch.repeat_interleave(torch.arange(len(indptr) - 1), indptr.diff())


# -- getnnz / edge_id / adjacency -------------------------------------------------------
def getnnz(data, indptr, indices, shape, axis) -> torch.Tensor:
    """Stored-value count: all (``axis=None``, shape (1,)) or per row (``axis=1``)."""
    if axis is None:
        return torch.tensor([int(indices.numel())], dtype=I64)
    if axis in (1, -1):
        return indptr.diff().to(I64)
    if axis in (0, -2):
        raise MXNetError("getnnz with axis = 0 is not supported yet")
    raise MXNetError(f"getnnz: axis {axis} is out of range for a 2-D CSR matrix")


def edge_id(data, indptr, indices, shape, u, v) -> torch.Tensor:
    """``data[u[i], v[i]]`` where that entry is stored, else -1."""
    u = u.reshape(-1).to(I64)
    v = v.reshape(-1).to(I64)
    if u.numel() != v.numel():
        raise MXNetError(
            f"edge_id: u and v must have the same length, got {u.numel()} and {v.numel()}"
        )
    ncols = int(shape[1])
    keys = _row_ids(indptr) * ncols + indices
    order = torch.argsort(keys)
    keys = keys[order]
    want = u * ncols + v
    out = torch.full((u.numel(),), -1, dtype=data.dtype)
    if keys.numel():
        pos = torch.searchsorted(keys, want).clamp(max=keys.numel() - 1)
        hit = keys[pos] == want
        out[hit] = data[order[pos[hit]]]
    return out


def adjacency(data, indptr, indices, shape) -> tuple:
    """The same structure with every stored value 1.0 (float32)."""
    return (
        torch.ones(indices.numel(), dtype=torch.float32),
        indptr.clone(),
        indices.clone(),
        shape,
    )


# -- subgraph / compact -----------------------------------------------------------------
def subgraph(data, indptr, indices, shape, vertices: torch.Tensor) -> tuple:
    """Induced subgraph on sorted ``vertices``: ``(new-edge-id parts, parent-id parts)``."""
    vid = vertices.reshape(-1).to(I64)
    if vid.numel() > 1 and bool((vid[1:] < vid[:-1]).any()):
        raise MXNetError("dgl_subgraph: the input vertex list has to be sorted")
    n = int(shape[0])
    if vid.numel() and (int(vid.min()) < 0 or int(vid.max()) >= n):
        raise MXNetError(f"dgl_subgraph: vertex id out of range [0, {n})")
    pos = torch.full((max(n, int(shape[1])),), -1, dtype=I64)
    pos[vid] = torch.arange(vid.numel())
    rows = _row_ids(indptr)
    keep = (pos[rows] >= 0) & (pos[indices] >= 0)
    new_rows = pos[rows[keep]]
    new_cols = pos[indices[keep]]
    k = vid.numel()
    new_ptr = torch.zeros(k + 1, dtype=I64)
    new_ptr[1:] = torch.bincount(new_rows, minlength=k).cumsum(0)
    ids = torch.arange(int(keep.sum()), dtype=data.dtype)
    return (ids, new_ptr, new_cols, (k, k)), (data[keep], new_ptr.clone(), new_cols.clone(), (k, k))


def graph_compact(data, indptr, indices, shape, vids: torch.Tensor, size: int) -> tuple:
    """The first ``size`` rows of a sampled subgraph with columns renumbered to positions
    in ``vids``: ``(new-edge-id parts, parent-id parts)``."""
    vids = vids.reshape(-1).to(I64)[:size]
    if size > int(shape[0]) or vids.numel() < size:
        raise MXNetError(
            f"dgl_graph_compact: graph size {size} exceeds the subgraph "
            f"({shape[0]} rows, {vids.numel()} vertex ids)"
        )
    nnz = int(indptr[size])
    cols = indices[:nnz]
    lookup = {int(v): i for i, v in enumerate(vids.tolist())}
    try:
        new_cols = torch.tensor([lookup[int(c)] for c in cols.tolist()], dtype=I64)
    except KeyError as e:
        raise MXNetError(
            f"dgl_graph_compact: column {e.args[0]} is not among the vertex ids"
        ) from None
    ptr = indptr[: size + 1].clone()
    ids = torch.arange(nnz, dtype=data.dtype)
    return (ids, ptr, new_cols, (size, size)), (
        data[:nnz].clone(),
        ptr.clone(),
        new_cols.clone(),
        (size, size),
    )


# -- neighbour sampling -----------------------------------------------------------------
def _pick(cols, vals, k, prob):
    """Sample ``k`` of a vertex's neighbours (all when it has at most ``k``)."""
    n = cols.numel()
    if n <= k:
        return cols, vals
    if prob is None:
        idx = torch.randperm(n)[:k].sort().values
        return cols[idx], vals[idx]
    weights = prob[cols].to(torch.float64)
    idx = torch.multinomial(weights, k, replacement=False)
    # MXNet's non-uniform kernel sorts the vertex and edge lists separately
    return cols[idx].sort().values, vals[idx].sort().values


def neighbor_sample(
    data,
    indptr,
    indices,
    shape,
    seeds: torch.Tensor,
    num_hops: int,
    num_neighbor: int,
    max_num_vertices: int,
    prob=None,
) -> dict:
    """BFS neighbour sampling from ``seeds`` (MXNet's DGL sampler).

    Returns ``vid`` (max+1, sorted vertex ids, -1 padded, last = count), ``layer`` (max,),
    ``prob`` (max,) when ``prob`` is given, and the sub-CSR ``parts`` of shape
    ``(max_num_vertices, num_cols)`` (row i: sampled edges of vertex ``vid[i]``).
    """
    seeds = seeds.reshape(-1).to(I64)
    if max_num_vertices < seeds.numel():
        raise MXNetError(
            f"dgl_csr_neighbor_sample: max_num_vertices ({max_num_vertices}) "
            f"must be >= the number of seeds ({seeds.numel()})"
        )
    layer: dict[int, int] = {}
    queue: list[int] = []
    for s in seeds.tolist():
        if s not in layer:
            layer[s] = 0
            queue.append(s)
    picked: dict[int, tuple] = {}
    i = 0
    while i < len(queue) and len(layer) < max_num_vertices:
        vert = queue[i]
        i += 1
        if layer[vert] >= num_hops:
            continue
        lo, hi = int(indptr[vert]), int(indptr[vert + 1])
        cols, vals = _pick(indices[lo:hi], data[lo:hi], num_neighbor, prob)
        picked[vert] = (cols, vals)
        for c in cols.tolist():
            if len(layer) >= max_num_vertices:
                break
            if c not in layer:
                layer[c] = layer[vert] + 1
                queue.append(c)
    order = sorted(layer)
    count = len(order)
    vid = torch.full((max_num_vertices + 1,), -1, dtype=I64)
    vid[:count] = torch.tensor(order, dtype=I64)
    vid[max_num_vertices] = count
    lay = torch.zeros(max_num_vertices, dtype=I64)
    lay[:count] = torch.tensor([layer[v] for v in order], dtype=I64)
    ptr = torch.zeros(max_num_vertices + 1, dtype=I64)
    col_parts, val_parts = [], []
    for r, vert in enumerate(order):
        cols, vals = picked.get(vert, (indices[:0], data[:0]))
        col_parts.append(cols)
        val_parts.append(vals)
        ptr[r + 1] = ptr[r] + cols.numel()
    ptr[count + 1 :] = ptr[count]
    cols = torch.cat(col_parts) if col_parts else indices[:0]
    vals = torch.cat(val_parts) if val_parts else data[:0]
    res = {"vid": vid, "layer": lay, "parts": (vals, ptr, cols, (max_num_vertices, shape[1]))}
    if prob is not None:
        sp = torch.zeros(max_num_vertices, dtype=prob.dtype)
        sp[:count] = prob[vid[:count]]
        res["prob"] = sp
    return res


# -- registry operators (dense tensors in and out) --------------------------------------
def _getnnz(a, x):
    return getnnz(*csr_parts(x, "getnnz"), a["axis"])


def _getnnz_shape(a, s):
    if a["axis"] is None:
        return [(1,)]
    return [(s[0][0],)]


register(
    OpDef(
        "_contrib_getnnz",
        _getnnz,
        params=[
            Param(
                "axis",
                "int_or_none",
                None,
                doc="Select between the number of values across the whole "
                "matrix, in each column, or in each row.",
            )
        ],
        infer_out=_getnnz_shape,
        doc="Number of stored values of a CSR matrix (whole matrix or per row).",
    )
)

register(
    OpDef(
        "_contrib_edge_id",
        lambda a, x, u, v: edge_id(*csr_parts(x, "edge_id"), u, v),
        inputs=("data", "u", "v"),
        infer_out=lambda a, s: [s[1]],
        doc="``data[u[i], v[i]]`` for stored entries of a CSR graph, -1 elsewhere.",
    )
)

register(
    OpDef(
        "_contrib_dgl_adjacency",
        lambda a, x: csr_dense(*adjacency(*csr_parts(x, "dgl_adjacency"))),
        infer_out=lambda a, s: [s[0]],
        doc="Adjacency matrix (float32 ones) of a CSR graph of edge ids.",
    )
)


def _subgraph(a, graph, *vlists):
    parts = csr_parts(graph, "dgl_subgraph")
    subs, maps = zip(*(subgraph(*parts, v) for v in vlists)) if vlists else ((), ())
    outs = [csr_dense(*p) for p in subs]
    if a["return_mapping"]:
        outs += [csr_dense(*p) for p in maps]
    return tuple(outs)


def _subgraph_outputs(a):
    n = (a["num_args"] - 1) * (2 if a["return_mapping"] else 1)
    return [f"output{i}" for i in range(n)]


# the leading parameters of dgl_subgraph and dgl_graph_compact
_GRAPH_PARAMS = (
    Param("num_args", "int", doc="Number of input arguments."),
    Param("return_mapping", "bool",
          doc="Return mapping of vid and eid between the subgraph and the parent graph."),
)


def _subgraph_shapes(a, s):
    sq = [(v[0], v[0]) for v in s[1:]]
    return sq * (2 if a["return_mapping"] else 1)


register(
    OpDef(
        "_contrib_dgl_subgraph",
        _subgraph,
        variadic="num_args",
        params=list(_GRAPH_PARAMS),
        outputs=_subgraph_outputs,
        infer_out=_subgraph_shapes,
        doc="Induced subgraphs of a CSR graph on sorted vertex sets.",
    )
)


def _compact(a, *arrays):
    k = len(arrays) // 2
    sizes = tuple(a["graph_sizes"])
    if len(arrays) != 2 * k or len(sizes) != k:
        raise MXNetError(
            f"dgl_graph_compact: expected graphs then as many vertex-id arrays, "
            f"and one graph size each; got {len(arrays)} arrays and graph_sizes "
            f"{sizes}"
        )
    res = [
        graph_compact(*csr_parts(arrays[j], "dgl_graph_compact"), arrays[k + j], sizes[j])
        for j in range(k)
    ]
    outs = [csr_dense(*r[0]) for r in res]
    if a["return_mapping"]:
        outs += [csr_dense(*r[1]) for r in res]
    return tuple(outs)


def _compact_outputs(a):
    n = a["num_args"] // 2 * (2 if a["return_mapping"] else 1)
    return ["output"] if n == 1 else [f"output{i}" for i in range(n)]


register(
    OpDef(
        "_contrib_dgl_graph_compact",
        _compact,
        variadic="num_args",
        params=[*_GRAPH_PARAMS,
                Param("graph_sizes", "int_seq", doc="the number of vertices in each graph.")],
        outputs=_compact_outputs,
        infer_out=lambda a, s: (
            [(n, n) for n in a["graph_sizes"]] * (2 if a["return_mapping"] else 1)
        ),
        doc="Drop the empty rows/columns of sampled CSR subgraphs.",
    )
)

_SAMPLE_P = [
    Param("num_args", "int", doc="Number of input NDArray."),
    Param("num_hops", "int", 1, doc="Number of hops."),
    Param("num_neighbor", "int", 2, doc="Number of neighbor."),
    Param("max_num_vertices", "int", 100, doc="Max number of vertices."),
]


def _sampler(weighted: bool):
    first = 2 if weighted else 1

    def compute(a, graph, *rest):
        prob = rest[0] if weighted else None
        parts = csr_parts(graph, "dgl_csr_neighbor_sample")
        res = [
            neighbor_sample(
                *parts, seeds, a["num_hops"], a["num_neighbor"], a["max_num_vertices"], prob
            )
            for seeds in rest[first - 1 :]
        ]
        outs = [r["vid"] for r in res] + [csr_dense(*r["parts"]) for r in res]
        if weighted:
            outs += [r["prob"] for r in res]
        return tuple(outs + [r["layer"] for r in res])

    def outputs(a):
        n = (a["num_args"] - first) * (4 if weighted else 3)
        return [f"output{i}" for i in range(n)]

    def shapes(a, s):
        m = a["max_num_vertices"]
        k = a["num_args"] - first
        out = [(m + 1,)] * k + [(m, s[0][1])] * k
        return out + [(m,)] * k * (2 if weighted else 1)

    return compute, outputs, shapes


for _name, _weighted, _inputs in (
    ("_contrib_dgl_csr_neighbor_uniform_sample", False, "csr_matrix, seed_arrays..."),
    (
        "_contrib_dgl_csr_neighbor_non_uniform_sample",
        True,
        "csr_matrix, probability, seed_arrays...",
    ),
):
    _c, _o, _s = _sampler(_weighted)
    register(
        OpDef(
            _name,
            _c,
            variadic="num_args",
            params=_SAMPLE_P,
            outputs=_o,
            infer_out=_s,
            doc=f"Sample subgraphs from a CSR graph by BFS ({_inputs}): sampled "
            "vertex ids (last = count), sub-CSR of edge ids, "
            + ("vertex probabilities, " if _weighted else "")
            + "layers.",
        )
    )
