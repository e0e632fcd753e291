"""Control-flow operators with a subgraph: ``_foreach`` (MXNet's symbolic ``foreach``).

The loop body is a Symbol stored on the graph node (``Node.subgraphs``); the node's parsed
attributes carry it as ``attrs["__subgraphs__"]``. Inputs are the sliced sequences, then the
loop states, then the body's free variables; ``in_data_locs``/``in_state_locs``/
``remain_locs`` give each one's position in ``subgraph.list_inputs()``.
"""

from __future__ import annotations

import torch

from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register
from ._state import state

__all__: list[str] = []

_CALLABLES: dict[int, tuple] = {}


def _subgraph(attrs: dict):
    subs = attrs.get("__subgraphs__")
    if not subs:
        raise MXNetError("Operator _foreach: the node has no subgraph (the loop body); build "
                         "it with mx.sym.contrib.foreach")
    return subs[0]


def _callable(sub):
    hit = _CALLABLES.get(id(sub))
    if hit is None or hit[0] is not sub:
        from ..executor import _graph_callable

        fn, args, aux = _graph_callable(sub)
        hit = (sub, fn, args, aux, sub.list_inputs())
        if len(_CALLABLES) > 256:
            _CALLABLES.clear()
        _CALLABLES[id(sub)] = hit
    return hit[1:]


def _split(attrs: dict, items: list) -> tuple[list, list, list]:
    nd, ns = len(attrs["in_data_locs"]), len(attrs["in_state_locs"])
    return list(items[:nd]), list(items[nd:nd + ns]), list(items[nd + ns:])


def _foreach_compute(attrs: dict, *ts: torch.Tensor):
    fn, arg_names, aux_names, in_names = _callable(_subgraph(attrs))
    data, states, remain = _split(attrs, ts)
    if not data:
        raise MXNetError("Operator _foreach: no input sequence")
    steps = data[0].shape[0]
    for d in data[1:]:
        if d.shape[0] != steps:
            raise MXNetError(f"Operator _foreach: input sequences have different lengths "
                             f"{[tuple(x.shape) for x in data]}")
    n_out = attrs["num_out_data"]
    fixed = {in_names[loc]: t for loc, t in zip(attrs["remain_locs"], remain)}
    outs: list[list[torch.Tensor]] = [[] for _ in range(n_out)]
    for t in range(steps):
        vals = dict(fixed)
        for loc, d in zip(attrs["in_data_locs"], data):
            vals[in_names[loc]] = d[t]
        for loc, s in zip(attrs["in_state_locs"], states):
            vals[in_names[loc]] = s
        res = fn([vals[a] for a in arg_names], [vals[a] for a in aux_names], state.is_train)
        for i in range(n_out):
            outs[i].append(res[i])
        states = list(res[n_out:])
    if steps == 0:
        raise MXNetError("Operator _foreach: the input sequence has length 0")
    return tuple(torch.stack(o) for o in outs) + tuple(states)


def _sub_shapes(attrs: dict, in_shapes: list):
    sub = _subgraph(attrs)
    names = sub.list_inputs()
    data, states, remain = _split(attrs, in_shapes)
    known = {}
    for loc, s in zip(attrs["in_data_locs"], data):
        if s is not None:
            known[names[loc]] = tuple(s[1:])
    for loc, s in zip(list(attrs["in_state_locs"]) + list(attrs["remain_locs"]),
                      states + remain):
        if s is not None:
            known[names[loc]] = tuple(s)
    arg, out, aux = sub.infer_shape_partial(**known)
    by_name = dict(zip(sub.list_arguments(), arg or []))
    by_name.update(zip(sub.list_auxiliary_states(), aux or []))
    return sub, names, by_name, out


def _known(s):
    return s is not None and len(s) > 0 and all(d > 0 for d in s)


def _foreach_infer(attrs: dict, in_shapes: list) -> list:
    sub, names, by_name, _ = _sub_shapes(attrs, in_shapes)
    nd = len(attrs["in_data_locs"])
    locs = list(attrs["in_data_locs"]) + list(attrs["in_state_locs"]) + list(attrs["remain_locs"])
    out = list(in_shapes)
    for k, loc in enumerate(locs):
        if out[k] is None and k >= nd:
            s = by_name.get(names[loc])
            if s is not None and _known(s):
                out[k] = tuple(s)
    return out


def _foreach_out(attrs: dict, in_shapes: list) -> list:
    _, _, _, outs = _sub_shapes(attrs, in_shapes)
    if outs is None or not all(_known(s) for s in outs):
        raise MXNetError(f"Operator _foreach: cannot infer the loop body's output shapes from "
                         f"input shapes {in_shapes}")
    steps = in_shapes[0][0]
    n_out = attrs["num_out_data"]
    return [(steps,) + tuple(s) for s in outs[:n_out]] + [tuple(s) for s in outs[n_out:]]


register(OpDef(
    "_foreach", _foreach_compute,
    params=[Param("num_args", "int", doc="Number of inputs."),
            Param("num_outputs", "int", doc="The number of outputs of "
                  "the subgraph."),
            Param("num_out_data", "int", doc="The number of output data "
                  "of the subgraph."),
            Param("in_state_locs", "shape", doc="The locations of loop "
                  "states among the inputs."),
            Param("in_data_locs", "shape", doc="The locations of input "
                  "data among the inputs."),
            Param("remain_locs", "shape", doc="The locations of remaining "
                  "data among the inputs.")],
    variadic="num_args",
    outputs=lambda a: [f"output{i}" for i in range(a["num_outputs"])],
    infer_shape=_foreach_infer, infer_out=_foreach_out,
    doc="Run a loop body (a subgraph) over the first axis of the input sequences."))
