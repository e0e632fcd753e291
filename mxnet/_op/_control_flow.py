"""Control-flow operators with subgraphs: ``_foreach``, ``_while_loop`` and ``_cond``.

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


def _subgraph(attrs: dict, k: int = 0, op: str = "_foreach"):
    subs = attrs.get("__subgraphs__")
    if not subs or len(subs) <= k:
        raise MXNetError(
            f"Operator {op}: the node has no subgraph (the loop body); build it "
            f"with mx.sym.contrib.{op[1:]}"
        )
    return subs[k]


def _run(sub, values: list, is_train: bool | None = None) -> list:
    """Run subgraph ``sub`` on ``values`` given in ``sub.list_inputs()`` order."""
    fn, arg_names, aux_names, in_names = _callable(sub)
    vals = dict(zip(in_names, values))
    return fn(
        [vals[a] for a in arg_names],
        [vals[a] for a in aux_names],
        state.is_train if is_train is None else is_train,
    )


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
    return list(items[:nd]), list(items[nd : nd + ns]), list(items[nd + ns :])


def _foreach_compute(attrs: dict, *ts: torch.Tensor):
    fn, arg_names, aux_names, in_names = _callable(_subgraph(attrs))
    data, states, remain = _split(attrs, ts)
    if not data:
        raise MXNetError("Operator _foreach: no input sequence")
    steps = data[0].shape[0]
    for d in data[1:]:
        if d.shape[0] != steps:
            raise MXNetError(
                f"Operator _foreach: input sequences have different lengths "
                f"{[tuple(x.shape) for x in data]}"
            )
    n_out = attrs["num_out_data"]
    fixed = {in_names[loc]: t for loc, t in zip(attrs["remain_locs"], remain)}
    outs: list[list[torch.Tensor]] = [[] for _ in range(n_out)]
    for t in range(steps):
        vals = dict(fixed)
        for loc, d in zip(attrs["in_data_locs"], data):
            # MXNet slices a 1-D sequence into shape (1,) steps, not scalars.
            vals[in_names[loc]] = d[t] if d.dim() > 1 else d[t : t + 1]
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
            known[names[loc]] = tuple(s[1:]) or (1,)
    for loc, s in zip(list(attrs["in_state_locs"]) + list(attrs["remain_locs"]), states + remain):
        if s is not None:
            known[names[loc]] = tuple(s)
    arg, out, aux = sub._infer_shape_raw(True, **known)
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
        raise MXNetError(
            f"Operator _foreach: cannot infer the loop body's output shapes from "
            f"input shapes {in_shapes}"
        )
    steps = in_shapes[0][0]
    n_out = attrs["num_out_data"]
    return [(steps,) + tuple(s) for s in outs[:n_out]] + [tuple(s) for s in outs[n_out:]]


register(
    OpDef(
        "_foreach",
        _foreach_compute,
        params=[
            Param("num_args", "int", doc="Number of inputs."),
            Param("num_outputs", "int", doc="The number of outputs of the subgraph."),
            Param("num_out_data", "int", doc="The number of output data of the subgraph."),
            Param("in_state_locs", "shape", doc="The locations of loop states among the inputs."),
            Param("in_data_locs", "shape", doc="The locations of input data among the inputs."),
            Param("remain_locs", "shape", doc="The locations of remaining data among the inputs."),
        ],
        variadic="num_args",
        outputs=lambda a: [f"output{i}" for i in range(a["num_outputs"])],
        infer_shape=_foreach_infer,
        infer_out=_foreach_out,
        doc="Run a loop body (a subgraph) over the first axis of the input sequences.",
    )
)


# -- _while_loop ---------------------------------------------------------------------------
def _pred(t: torch.Tensor, op: str) -> bool:
    if t.numel() != 1:
        raise MXNetError(
            f"Operator {op}: the condition must be a scalar (one element), got "
            f"shape {tuple(t.shape)}"
        )
    return bool(t.reshape(()).item())


def _while_compute(attrs: dict, *ts: torch.Tensor):
    cond_g = _subgraph(attrs, 0, "_while_loop")
    func_g = _subgraph(attrs, 1, "_while_loop")
    flocs = attrs["func_input_locs"]
    var_pos = [flocs[k] for k in attrs["func_var_locs"]]
    n_out, max_it = attrs["num_out_data"], attrs["max_iterations"]
    cur = list(ts)
    outs: list[list[torch.Tensor]] = [[] for _ in range(n_out)]
    steps = 0
    while steps < max_it and _pred(
        _run(cond_g, [cur[p] for p in attrs["cond_input_locs"]])[0], "_while_loop"
    ):
        res = _run(func_g, [cur[p] for p in flocs])
        for i in range(n_out):
            outs[i].append(res[i])
        for p, v in zip(var_pos, res[n_out:]):
            cur[p] = v
        steps += 1
    if steps < max_it and n_out:
        if steps == 0:  # shapes of the step outputs, from one unused run of the body
            with torch.no_grad():
                like = _run(func_g, [cur[p] for p in flocs])[:n_out]
        else:
            like = [o[0] for o in outs]
        for o, t in zip(outs, like):
            o.extend([torch.zeros_like(t)] * (max_it - steps))
    data = tuple(torch.stack(o) for o in outs)
    return data + tuple(cur[p] for p in var_pos)


def _locs_shapes(sub, locs, in_shapes) -> dict:
    names = sub.list_inputs()
    return {names[k]: tuple(in_shapes[p]) for k, p in enumerate(locs) if in_shapes[p] is not None}


def _sub_out_shapes(sub, known: dict, op: str, in_shapes) -> list:
    _, outs, _ = sub._infer_shape_raw(True, **known)
    if outs is None or not all(_known(s) for s in outs):
        raise MXNetError(
            f"Operator {op}: cannot infer the subgraph's output shapes from input "
            f"shapes {in_shapes}"
        )
    return [tuple(s) for s in outs]


def _while_out(attrs: dict, in_shapes: list) -> list:
    func_g = _subgraph(attrs, 1, "_while_loop")
    outs = _sub_out_shapes(
        func_g, _locs_shapes(func_g, attrs["func_input_locs"], in_shapes), "_while_loop", in_shapes
    )
    n_out = attrs["num_out_data"]
    return [(attrs["max_iterations"],) + s for s in outs[:n_out]] + outs[n_out:]


register(
    OpDef(
        "_while_loop",
        _while_compute,
        params=[
            Param(
                "num_args",
                "int",
                doc="Number of input arguments, including cond and func as two symbol inputs.",
            ),
            Param("num_outputs", "int", doc="The number of outputs of the subgraph."),
            Param("num_out_data", "int", doc="The number of outputs from the function body."),
            Param("max_iterations", "int", doc="Maximum number of iterations."),
            Param(
                "cond_input_locs",
                "shape",
                doc="The locations of cond's inputs in the given inputs.",
            ),
            Param(
                "func_input_locs",
                "shape",
                doc="The locations of func's inputs in the given inputs.",
            ),
            Param("func_var_locs", "shape", doc="The locations of loop_vars among func's inputs."),
        ],
        variadic="num_args",
        outputs=lambda a: [f"output{i}" for i in range(a["num_outputs"])],
        infer_shape=lambda a, s: s,
        infer_out=_while_out,
        doc="Run a loop body (a subgraph) while a condition subgraph holds.",
    )
)


# -- _cond ---------------------------------------------------------------------------------
def _cond_compute(attrs: dict, *ts: torch.Tensor):
    pred = _run(_subgraph(attrs, 0, "_cond"), [ts[p] for p in attrs["cond_input_locs"]])[0]
    if _pred(pred, "_cond"):
        res = _run(_subgraph(attrs, 1, "_cond"), [ts[p] for p in attrs["then_input_locs"]])
    else:
        res = _run(_subgraph(attrs, 2, "_cond"), [ts[p] for p in attrs["else_input_locs"]])
    return tuple(res)


def _cond_out(attrs: dict, in_shapes: list) -> list:
    then_g = _subgraph(attrs, 1, "_cond")
    return _sub_out_shapes(
        then_g, _locs_shapes(then_g, attrs["then_input_locs"], in_shapes), "_cond", in_shapes
    )


register(
    OpDef(
        "_cond",
        _cond_compute,
        params=[
            Param(
                "num_args",
                "int",
                doc="Number of input arguments, including cond, then and "
                "else as three symbol inputs.",
            ),
            Param("num_outputs", "int", doc="The number of outputs of the subgraph."),
            Param(
                "cond_input_locs",
                "shape",
                doc="The locations of cond's inputs in the given inputs.",
            ),
            Param(
                "then_input_locs",
                "shape",
                doc="The locations of then's inputs in the given inputs.",
            ),
            Param(
                "else_input_locs",
                "shape",
                doc="The locations of else's inputs in the given inputs.",
            ),
        ],
        variadic="num_args",
        outputs=lambda a: [f"output{i}" for i in range(a["num_outputs"])],
        infer_shape=lambda a, s: s,
        infer_out=_cond_out,
        doc="Run the then or else subgraph depending on a condition subgraph.",
    )
)
