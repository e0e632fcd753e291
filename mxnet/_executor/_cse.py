"""Common-subexpression elimination for ``Executor.get_optimized_symbol`` (private).

MXNet 1.9.1's graph executor merges operator nodes that compute the same thing (same op,
same attributes, same inputs) when ``MXNET_ELIMINATE_COMMON_EXPR`` is on (the default),
and then gives every repeated graph output its own ``_copy`` node so that outputs stay
distinct arrays. Our executor runs the bound graph unchanged (the arithmetic is the same);
this pass reproduces the optimized graph that MXNet reports.
"""

from __future__ import annotations

import os

from ..symbol._node import Entry, Node, copy_graph, topo_order

# operators whose results are not a pure function of their inputs and attributes
_NONDETERMINISTIC = ("random", "sample", "Dropout", "shuffle", "Custom", "RNN")


def cse_enabled() -> bool:
    """``MXNET_ELIMINATE_COMMON_EXPR`` (default on), read when an executor is bound."""
    return os.environ.get("MXNET_ELIMINATE_COMMON_EXPR", "1").strip() not in ("0", "false")


def _mergeable(n: Node) -> bool:
    op = n.op
    if op is None or op.mutates or n.subgraphs or op.aux_names(n.parsed):
        return False
    return not any(word in op.name for word in _NONDETERMINISTIC)


def eliminate_common_expr(outputs: list[Entry]) -> list[Entry]:
    """A copy of the graph of ``outputs`` with identical operator nodes merged."""
    from .._op import get_op

    entries = copy_graph(outputs)
    rep: dict[int, Node] = {}  # id(node) -> the node that replaces it
    seen: dict[tuple, Node] = {}
    for n in topo_order([e[0] for e in entries]):
        n.inputs = [(rep.get(id(s), s), i) for s, i in n.inputs]
        n.control_deps = [rep.get(id(d), d) for d in n.control_deps]
        if not _mergeable(n):
            continue
        key = (n.op.name, tuple(sorted(n.attrs.items())),
               tuple((id(s), i) for s, i in n.inputs), tuple(id(d) for d in n.control_deps))
        first = seen.setdefault(key, n)
        if first is not n:
            rep[id(n)] = first
    heads: list[Entry] = []
    used: dict = {}  # merged entry -> the original entry that first output it
    copy_op = get_op("_copy")
    for n0, i in entries:
        n = rep.get(id(n0), n0)
        first = used.setdefault((id(n), i), (id(n0), i))
        if first != (id(n0), i):  # outputs made equal by the merge get their own copy
            heads.append((Node(copy_op, f"{n.name}_{i}_copy", {}, [(n, i)]), 0))
        else:
            heads.append((n, i))
    return heads
