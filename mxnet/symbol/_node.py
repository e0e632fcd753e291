"""Graph nodes of a Symbol and graph walks (private).

A node is an operator application or a variable (``op is None``). Attributes are strings,
as in MXNet's JSON; parsed operator parameters are cached on the node.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._op._registry import OpDef
from ..base import MXNetError

# MXNet stores these keys as ``__key__`` and lists them under both spellings
HIDDEN_KEYS = ("ctx_group", "lr_mult", "wd_mult", "force_mirroring", "mirror_stage",
               "profiler_scope")

Entry = tuple["Node", int]


def hide_key(key: str) -> str:
    """``lr_mult`` -> ``__lr_mult__`` for MXNet's hidden keys; other keys unchanged."""
    return f"__{key}__" if key in HIDDEN_KEYS else key


class Node:
    """One graph node: ``op`` (None for a variable), ``name``, string ``attrs``, inputs."""

    __slots__ = ("op", "name", "attrs", "inputs", "_parsed", "control_deps", "subgraphs",
                 "in_versions", "version")

    def __init__(self, op: OpDef | None, name: str, attrs: dict[str, str] | None = None,
                 inputs: list[Entry] | None = None):
        self.op = op
        self.name = name
        self.attrs: dict[str, str] = attrs if attrs is not None else {}
        self.inputs: list[Entry] = inputs if inputs is not None else []
        self._parsed: dict | None = None
        self.control_deps: list[Node] = []
        self.subgraphs: list = []
        # nnvm entry versions: a variable's counter rises each time an op mutates it
        self.in_versions: list[int] = [0] * len(self.inputs)
        self.version = 0

    def set_inputs(self, inputs: list[Entry], versions: list[int] | None = None) -> None:
        """Set inputs; versions follow nnvm (mutated variables get a new version)."""
        self.inputs = inputs
        if versions is not None:
            self.in_versions = list(versions)
            return
        mutable = set(self.mutable_input_indices()) if self.op is not None else set()
        vers = []
        for k, (src, _) in enumerate(inputs):
            if src.op is None and k in mutable:
                src.version += 1
            vers.append(src.version if src.op is None else 0)
        self.in_versions = vers

    @property
    def is_variable(self) -> bool:
        return self.op is None

    # -- parameters -------------------------------------------------------------------
    def param_strings(self) -> dict[str, str]:
        pmap = self.op.param_map
        return {k: v for k, v in self.attrs.items() if k in pmap}

    @property
    def parsed(self) -> dict:
        """Parsed operator parameters (cached; shared, never mutate)."""
        p = self._parsed
        if p is None:
            try:
                p = self.op.parse_attrs(self.param_strings())
            except MXNetError as e:
                raise MXNetError(f"{e} (node '{self.name}')") from None
            if self.subgraphs:  # control-flow ops read their subgraphs from the attrs
                p = {**p, "__subgraphs__": tuple(self.subgraphs)}
            self._parsed = p
        return p

    def invalidate(self) -> None:
        self._parsed = None

    # -- structure --------------------------------------------------------------------
    def num_args(self) -> int:
        """Number of non-auxiliary inputs."""
        op = self.op
        if op.variadic is not None and not getattr(op, "dynamic_inputs", False):
            return len(self.inputs)
        return len(op.input_names(self.parsed))

    def arg_names(self) -> list[str]:
        op = self.op
        if op.variadic is not None:
            return op.input_names(self.parsed, len(self.inputs))
        return op.input_names(self.parsed)

    def aux_names(self) -> list[str]:
        return self.op.aux_names(self.parsed)

    def mutable_input_indices(self) -> list[int]:
        """Inputs the op writes (auxiliary states and declared mutated inputs)."""
        n = self.num_args()
        idx = list(range(n, len(self.inputs)))
        for m in self.op.mutates:
            if m < n and m not in idx:
                idx.append(m)
        return idx

    def num_outputs(self) -> int:
        if self.op is None:
            return 1
        return self.op.num_outputs(self.parsed)

    def num_visible(self) -> int:
        if self.op is None:
            return 1
        return self.op.num_visible_outputs(self.parsed)

    def output_names(self) -> list[str]:
        if self.op is None:
            return [self.name]
        # an unnamed node (Symbol._gen_atomic_symbol) lists bare output names, as nnvm
        return [f"{self.name}_{o}" if self.name else o for o in self.op.output_names(self.parsed)]

    def __repr__(self) -> str:
        return f"<Node {self.op.name if self.op else 'null'} {self.name}>"


def topo_order(heads: Iterable[Node]) -> list[Node]:
    """Post-order depth-first walk (MXNet's order): inputs before consumers, each node once.

    Iterative (no recursion limit); a cycle raises :class:`MXNetError`.
    """
    order: list[Node] = []
    state: dict[int, int] = {}  # 1 = on stack, 2 = done
    for h in heads:
        if state.get(id(h)) == 2:
            continue
        stack = [(h, 0)]
        state[id(h)] = 1
        while stack:
            node, i = stack[-1]
            preds = node.inputs
            ndeps = len(node.control_deps)
            if i < len(preds) + ndeps:
                stack[-1] = (node, i + 1)
                nxt = preds[i][0] if i < len(preds) else node.control_deps[i - len(preds)]
                st = state.get(id(nxt))
                if st is None:
                    state[id(nxt)] = 1
                    stack.append((nxt, 0))
                elif st == 1:
                    raise MXNetError(f"Graph has a cycle through node '{nxt.name}'")
            else:
                stack.pop()
                state[id(node)] = 2
                order.append(node)
    return order


def aux_node_ids(order: list[Node]) -> set[int]:
    """ids of variable nodes used as mutable inputs (auxiliary states)."""
    aux: set[int] = set()
    for n in order:
        if n.op is not None:
            for i in n.mutable_input_indices():
                src = n.inputs[i][0]
                if src.op is None:
                    aux.add(id(src))
    return aux


def copy_graph(entries: list[Entry]) -> list[Entry]:
    """Deep copy of the graph reachable from ``entries``; returns the copied entries."""
    order = topo_order([n for n, _ in entries])
    mapping: dict[int, Node] = {}
    for n in order:
        c = Node(n.op, n.name, dict(n.attrs), [(mapping[id(s)], i) for s, i in n.inputs])
        c._parsed = n._parsed
        c.in_versions = list(n.in_versions)
        c.version = n.version
        c.control_deps = [mapping[id(d)] for d in n.control_deps]
        c.subgraphs = list(n.subgraphs)
        mapping[id(n)] = c
    return [(mapping[id(n)], i) for n, i in entries]
