"""Symbol operators of the ``contrib`` namespace, generated from the registry."""

from ._namespace import lazy_getattr as _lazy_getattr
from ._namespace import populate as _populate

__all__ = _populate(globals(), "contrib")
__getattr__ = _lazy_getattr("contrib", __name__)


def foreach(body, data, init_states, name="foreach"):
    """Symbolic ``foreach``: a ``_foreach`` node whose subgraph is ``body`` traced once.

    ``body(data_t, states) -> (outputs, new_states)`` is called on fresh variables; free
    variables of the body (weights) become inputs of the node.

    Examples
    --------
    >>> outs, last = mx.sym.contrib.foreach(lambda x, s: (x + s, x + s),
    ...                                     mx.sym.var('seq'), mx.sym.var('h'))
    >>> last.list_arguments()
    ['seq', 'h']
    """
    from .._op._registry import get_op
    from ..attribute import AttrScope
    from ..base import MXNetError
    from ..name import _current_manager
    from ..ndarray.contrib import _cf_flatten, _cf_regroup
    from ._create import Group, Variable
    from ._node import Node
    from .symbol import Symbol

    flat_data, dfmt = _cf_flatten(data, "data")
    flat_init, sfmt = _cf_flatten(init_states, "init_states")
    if not flat_data:
        raise ValueError("foreach: data should contain at least one Symbol")
    for s in flat_data + flat_init:
        if not isinstance(s, Symbol) or len(s._outputs) != 1:
            raise MXNetError("foreach: data and init_states must be single-output Symbols")
    node_name = _current_manager().get(None if name == "foreach" else name, "_foreach")
    data_vars = [Variable(f"{node_name}_data{i}") for i in range(len(flat_data))]
    state_vars = [Variable(f"{node_name}_state{i}") for i in range(len(flat_init))]
    with AttrScope(__subgraph_name__=node_name):
        outs, states = body(_cf_regroup(data_vars, dfmt)[0], _cf_regroup(state_vars, sfmt)[0])
    flat_out, ofmt = _cf_flatten(outs, "foreach output")
    flat_st, _ = _cf_flatten(states, "foreach states")
    if len(flat_st) != len(flat_init):
        raise ValueError("the number of states changed in the loop body of foreach: "
                         f"{len(flat_init)} -> {len(flat_st)}")
    sub = Group(flat_out + flat_st)
    names = sub.list_inputs()
    dnames = [v.name for v in data_vars]
    snames = [v.name for v in state_vars]
    by_name = {}
    from ._node import topo_order

    for n in topo_order([e[0] for e in sub._outputs]):
        if n.op is None:
            by_name[n.name] = n
    data_locs = [names.index(n) if n in names else -1 for n in dnames]
    state_locs = [names.index(n) if n in names else -1 for n in snames]
    if -1 in data_locs or -1 in state_locs:
        raise MXNetError(f"foreach ({node_name}): the loop body must use every input sequence "
                         "and every state")
    remain_locs = [k for k, n in enumerate(names) if n not in dnames and n not in snames]
    entries = ([s._outputs[0] for s in flat_data] + [s._outputs[0] for s in flat_init]
               + [(by_name[names[k]], 0) for k in remain_locs])
    attrs = {"num_args": str(len(entries) + 1), "num_outputs": str(len(sub._outputs)),
             "num_out_data": str(len(flat_out)), "in_state_locs": str(state_locs),
             "in_data_locs": str(data_locs), "remain_locs": str(remain_locs)}
    node = Node(get_op("_foreach"), node_name, attrs)
    node.subgraphs = [sub]
    node.set_inputs(entries)
    node.invalidate()
    res = [Symbol._from_entries([(node, i)]) for i in range(len(sub._outputs))]
    out_syms = _cf_regroup(res[:len(flat_out)], ofmt)[0] if ofmt is not None else []
    return out_syms, _cf_regroup(res[len(flat_out):], sfmt)[0]


def while_loop(cond, func, loop_vars, max_iterations=None, name="while_loop"):
    """Symbolic ``while_loop`` is not supported in mxnet-ng (raises :class:`MXNetError`).

    Examples
    --------
    >>> mx.sym.contrib.while_loop(c, f, [mx.sym.var('i')], 5)  # doctest: +SKIP
    """
    from ..base import MXNetError

    raise MXNetError("mx.sym.contrib.while_loop (the _while_loop operator) is not supported "
                     "in mxnet-ng; use mx.nd.contrib.while_loop (imperative) or "
                     "mx.sym.contrib.foreach")


def cond(pred, then_func, else_func, name="cond"):
    """Symbolic ``cond`` is not supported in mxnet-ng (raises :class:`MXNetError`).

    Examples
    --------
    >>> mx.sym.contrib.cond(p, f, g)  # doctest: +SKIP
    """
    from ..base import MXNetError

    raise MXNetError("mx.sym.contrib.cond (the _cond operator) is not supported in "
                     "mxnet-ng; use mx.nd.contrib.cond (imperative)")


__all__ += ["foreach", "while_loop", "cond"]
