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
    from ._create import Group
    from ._node import Node
    from .symbol import Symbol

    flat_data, dfmt = _cf_flatten(data, "data")
    flat_init, sfmt = _cf_flatten(init_states, "init_states")
    if not flat_data:
        raise ValueError("foreach: data should contain at least one Symbol")
    for s in flat_data + flat_init:
        if not isinstance(s, Symbol) or len(s._outputs) != 1:
            raise MXNetError("foreach: data and init_states must be single-output Symbols")
    sg_name = _unique_subgraph_name(name)
    with AttrScope(__subgraph_name__=sg_name):
        data_vars, state_vars = _placeholders(flat_data, flat_init)
        outs, states = body(_cf_regroup(data_vars, dfmt)[0], _cf_regroup(state_vars, sfmt)[0])
        flat_out, ofmt = _cf_flatten(outs, "foreach output")
        flat_st, st_fmt = _cf_flatten(states, "foreach states")
        # MXNet asserts (AssertionError) the state structure and the use of every input.
        if st_fmt != sfmt:
            raise AssertionError("The input and output loop_vars have different format")
        every = flat_out + flat_st
        flat_out, flat_st = (
            _identity_outputs(flat_out, sg_name, every),
            _identity_outputs(flat_st, sg_name, every, flat_out),
        )
    # named after the body is traced, as MXNet (a nested loop gets the lower number)
    node_name = _current_manager().get(None if name == "foreach" else name, "_foreach")
    sub = Group(flat_out + flat_st)
    cut = _cut_subgraph(sub, sg_name)
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
    if -1 in data_locs:
        raise AssertionError("the data arrays have to be used in the loop body")
    if -1 in state_locs:
        raise AssertionError("the state arrays have to be used in the loop body")
    remain_locs = [k for k, n in enumerate(names) if n not in dnames and n not in snames]
    entries = (
        [s._outputs[0] for s in flat_data]
        + [s._outputs[0] for s in flat_init]
        + [cut.get(names[k], (by_name[names[k]], 0)) for k in remain_locs]
    )
    attrs = {
        "num_args": str(len(entries) + 1),
        "num_outputs": str(len(sub._outputs)),
        "num_out_data": str(len(flat_out)),
        "in_state_locs": str(state_locs),
        "in_data_locs": str(data_locs),
        "remain_locs": str(remain_locs),
    }
    from ..attribute import _current_scope

    node = Node(get_op("_foreach"), node_name, _current_scope().get(attrs))
    node.subgraphs = [sub]
    node.set_inputs(entries)
    node.invalidate()
    res = [Symbol._from_entries([(node, i)]) for i in range(len(sub._outputs))]
    out_syms = _cf_regroup(res[: len(flat_out)], ofmt)[0] if ofmt is not None else []
    return out_syms, _cf_regroup(res[len(flat_out) :], sfmt)[0]


def _subgraph_inputs(subs: list, outer: dict, cuts: list | None = None) -> tuple[list, list]:
    """Ordered union of the subgraphs' inputs as outer entries, and each subgraph's locs.

    ``outer`` maps placeholder names to outer entries; other inputs are free variables.
    ``cuts`` (one dict per subgraph, from :func:`_cut_subgraph`): as MXNet, a cut outer
    variable is shared by name, a cut operator output is an input of its subgraph only.
    """
    from ._node import topo_order

    entries, pos, locs = [], {}, []
    for k, sub in enumerate(subs):
        cut = cuts[k] if cuts else {}
        nodes = {n.name: n for n in topo_order([e[0] for e in sub._outputs]) if n.op is None}
        mine = []
        for nm in sub.list_inputs():
            if nm in cut:
                key = nm if cut[nm][0].op is None else (k, nm)
                src = cut[nm]
            else:
                key, src = nm, (outer[nm] if nm in outer else (nodes[nm], 0))
            if key not in pos:
                pos[key] = len(entries)
                entries.append(src)
            mine.append(pos[key])
        locs.append(mine)
    return entries, locs


def _subgraph_node(opname: str, node_name: str, attrs: dict, entries: list, subs: list):
    from .._op._registry import get_op
    from ..attribute import _current_scope
    from ._node import Node
    from .symbol import Symbol

    attrs = _current_scope().get({k: str(v) for k, v in attrs.items()})
    node = Node(get_op(opname), node_name, attrs)
    node.subgraphs = list(subs)
    node.set_inputs(entries)
    node.invalidate()
    return [Symbol._from_entries([(node, i)]) for i in range(node.num_outputs())]


def _unique_subgraph_name(name: str) -> str:
    """MXNet's per-process subgraph naming (``cond_then0``; nested: ``outer$inner0``).

    The counts live in ``AttrScope._subgraph_names``, which scripts may reset.
    """
    from ..attribute import AttrScope, _current_scope

    outer = _current_scope()._attr.get("__subgraph_name__", "")
    if outer:
        name = outer + "$" + name
    AttrScope._subgraph_names[name] += 1
    return name + str(AttrScope._subgraph_names[name] - 1)


def _placeholders(*groups) -> list:
    """Subgraph input variables named as MXNet names them, ``<input name>-<output index>``
    (``data-0``; nested: ``data-0-0``), created in the caller's AttrScope. A name taken
    twice (the same Symbol passed twice) gets a ``_<k>`` suffix."""
    from ._create import Variable

    seen: set = set()
    res = []
    for group in groups:
        made = []
        for sym in group:
            node, idx = sym._outputs[0]
            nm = base = f"{node.name}-{idx}"
            k = 1
            while nm in seen:
                nm, k = f"{base}_{k}", k + 1
            seen.add(nm)
            made.append(Variable(nm))
        res.append(made)
    return res


def _identity_outputs(syms: list, sg_name: str, every=None, repeats=None) -> list:
    """MXNet copies (``identity``) a subgraph output that is an input of the subgraph, was
    not built inside it, or (foreach states) is also a step output."""
    from . import identity
    from ._create import Group

    if not syms:
        return []
    inputs = set(Group(list(every if every is not None else syms)).list_inputs())
    taken = {o.name for o in repeats} if repeats else set()
    return [
        identity(o)
        if o.name in inputs
        or o.name in taken
        or o.list_attr().get("__subgraph_name__", "") != sg_name
        else o
        for o in syms
    ]


def _cut_subgraph(sub, sg_name: str) -> dict:
    """MXNet's subgraph cut: an input of a node of the body that comes from outside the body
    (a node without the body's ``__subgraph_name__``) becomes a fresh variable named as that
    output (``_greater_scalar0_output``; an outer variable keeps its name). Outer nodes are
    thus computed once outside the loop/branch. Returns {variable name: outer entry}."""
    from ._create import Variable
    from ._node import topo_order

    heads = [e[0] for e in sub._outputs]
    if not heads or heads[0].attrs.get("__subgraph_name__") != sg_name:
        return {}
    cut: dict = {}
    fresh: dict = {}
    for n in topo_order(heads):
        if n.attrs.get("__subgraph_name__") != sg_name or not n.inputs:
            continue
        new, vers, changed = [], [], False
        for (src, i), v in zip(n.inputs, n.in_versions):
            if src.attrs.get("__subgraph_name__") == sg_name:
                new.append((src, i))
                vers.append(v)
                continue
            key = (id(src), i)
            if key not in fresh:
                nm = src.name if src.op is None else src.output_names()[i]
                fresh[key] = Variable(nm)._outputs[0][0]
                cut.setdefault(nm, (src, i))
            new.append((fresh[key], 0))
            vers.append(0)
            changed = True
        if changed:
            n.set_inputs(new, versions=vers)
            n.invalidate()
    return cut


def _single(s, what: str):
    from ..base import MXNetError
    from .symbol import Symbol

    if not isinstance(s, Symbol) or len(s._outputs) != 1:
        raise MXNetError(f"{what} must be a single-output Symbol")
    return s


def while_loop(cond, func, loop_vars, max_iterations=None, name="while_loop"):
    """Symbolic ``while_loop``: a ``_while_loop`` node with ``cond`` and ``func`` subgraphs.

    ``cond(*loop_vars)`` gives a scalar Symbol; ``func(*loop_vars) -> (step_output,
    new_loop_vars)``. Step outputs are stacked to ``max_iterations`` rows (zero padded).

    Examples
    --------
    >>> outs, (i,) = mx.sym.contrib.while_loop(lambda i: i < 3, lambda i: (i, [i + 1]),
    ...                                        [mx.sym.var('i')], max_iterations=5)
    """
    from ..attribute import AttrScope
    from ..base import MXNetError
    from ..name import _current_manager
    from ..ndarray.contrib import _cf_flatten, _cf_regroup
    from ._create import Group
    from .symbol import Symbol

    if max_iterations is None:
        raise ValueError("max_iterations should be specified")
    max_iterations = int(max_iterations)
    single = isinstance(loop_vars, Symbol)
    flat_vars, vfmt = _cf_flatten(loop_vars, "loop_vars")
    if not flat_vars:
        raise ValueError("loop_vars should contain at least one element")
    for v in flat_vars:
        _single(v, "while_loop: loop_vars")
    cond_sg = sg_name = _unique_subgraph_name(name + "_cond")
    with AttrScope(__subgraph_name__=sg_name):
        phs = _placeholders(flat_vars)[0]
        args = [phs[0]] if single else list(_cf_regroup(phs, vfmt)[0])
        pred = _single(cond(*args), "while_loop: the return value of cond")
        pred = _identity_outputs([pred], sg_name)[0]
    sg_name = _unique_subgraph_name(name + "_func")
    with AttrScope(__subgraph_name__=sg_name):
        phs = _placeholders(flat_vars)[0]
        args = [phs[0]] if single else list(_cf_regroup(phs, vfmt)[0])
        step_out, new_vars = func(*args)
        step_out = [] if step_out is None else step_out
        new_vars = [] if new_vars is None else new_vars
        flat_out, ofmt = _cf_flatten(
            list(step_out) if isinstance(step_out, tuple) else step_out, "while output"
        )
        flat_new, _ = _cf_flatten(new_vars, "loop_vars")
        wrapped = _identity_outputs(flat_out + flat_new, sg_name)
        flat_out, flat_new = wrapped[: len(flat_out)], wrapped[len(flat_out) :]
    node_name = _current_manager().get(None if name == "while_loop" else name, "_while_loop")
    if len(flat_new) != len(flat_vars):
        raise ValueError("The number of loop_vars should be consistent during the loop")
    cond_g, func_g = Group([pred]), Group(flat_out + flat_new)
    cuts = [_cut_subgraph(cond_g, cond_sg), _cut_subgraph(func_g, sg_name)]
    fnames = func_g.list_inputs()
    missing = [p.name for p in phs if p.name not in fnames]
    if missing:
        raise MXNetError(
            f"while_loop ({node_name}): func must use every loop variable (unused: {missing})"
        )
    outer = {
        p.name: _single(v, "while_loop: loop_vars")._outputs[0] for p, v in zip(phs, flat_vars)
    }
    entries, (clocs, flocs) = _subgraph_inputs([cond_g, func_g], outer, cuts)
    res = _subgraph_node(
        "_while_loop",
        node_name,
        {
            "num_args": len(entries) + 2,
            "num_outputs": len(flat_out) + len(flat_new),
            "num_out_data": len(flat_out),
            "max_iterations": max_iterations,
            "cond_input_locs": clocs,
            "func_input_locs": flocs,
            "func_var_locs": [fnames.index(p.name) for p in phs],
        },
        entries,
        [cond_g, func_g],
    )
    outs = _cf_regroup(res[: len(flat_out)], ofmt)[0] if ofmt is not None else []
    final = res[len(flat_out) :]
    return outs, (final[0] if single else _cf_regroup(final, vfmt)[0])


def cond(pred, then_func, else_func, name="cond"):
    """Symbolic ``cond``: a ``_cond`` node choosing the then/else subgraph at run time.

    Examples
    --------
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> out = mx.sym.contrib.cond(a > b, lambda: a - b, lambda: b - a)
    """
    from ..attribute import AttrScope
    from ..name import _current_manager
    from ..ndarray.contrib import _cf_flatten, _cf_regroup
    from . import identity
    from ._create import Group

    # MXNet computes the predicate outside: its subgraph is the identity of an input named
    # after the predicate's output (``_greater_scalar0_output``), made by the cut.
    pred = _single(pred, "cond: pred")
    pred_sg = _unique_subgraph_name(name + "_pred")
    with AttrScope(__subgraph_name__=pred_sg):
        pred_out = identity(pred)
    then_sg = _unique_subgraph_name(name + "_then")
    with AttrScope(__subgraph_name__=then_sg):
        flat_then, tfmt = _cf_flatten(then_func(), "then_func output")
        flat_then = _identity_outputs(flat_then, then_sg)
    sg_name = _unique_subgraph_name(name + "_else")
    with AttrScope(__subgraph_name__=sg_name):
        flat_else, _ = _cf_flatten(else_func(), "else_func output")
        flat_else = _identity_outputs(flat_else, sg_name)
    if len(flat_then) != len(flat_else):
        raise ValueError("Number of outputs differs between then-branch and else-branch")
    node_name = _current_manager().get(None if name == "cond" else name, "_cond")
    subs = [Group([pred_out]), Group(flat_then), Group(flat_else)]
    cuts = [_cut_subgraph(g, sg) for g, sg in zip(subs, (pred_sg, then_sg, sg_name))]
    entries, (clocs, tlocs, elocs) = _subgraph_inputs(subs, {}, cuts)
    res = _subgraph_node(
        "_cond",
        node_name,
        {
            "num_args": len(entries) + 3,
            "num_outputs": len(flat_then),
            "cond_input_locs": clocs,
            "then_input_locs": tlocs,
            "else_input_locs": elocs,
        },
        entries,
        subs,
    )
    return _cf_regroup(res, tfmt)[0]


__all__ += ["foreach", "while_loop", "cond"]


def rand_zipfian(true_classes, num_sampled, range_max):
    """Symbolic :func:`mxnet.ndarray.contrib.rand_zipfian`: ``(samples, expected count of
    the true classes, expected count of the samples)`` as three Symbols.

    Examples
    --------
    >>> s, c_true, c_s = mx.sym.contrib.rand_zipfian(mx.sym.var('t'), 4, 5)
    """
    import math

    from .. import symbol as sym

    log_range = math.log(range_max + 1)
    rand = sym.random.uniform(0, log_range, shape=(num_sampled,), dtype="float64")
    sampled = (rand.exp() - 1).astype("int64") % range_max
    true_f = true_classes.astype("float64")
    count_true = ((true_f + 2.0) / (true_f + 1.0)).log() / log_range * num_sampled
    sampled_f = sampled.astype("float64")
    count_sampled = ((sampled_f + 2.0) / (sampled_f + 1.0)).log() / log_range * num_sampled
    return sampled, count_true, count_sampled


__all__ += ["rand_zipfian"]


def _scale_symbol(rescale_grad):
    from .. import symbol as sym
    from .symbol import Symbol

    if isinstance(rescale_grad, Symbol):
        return rescale_grad
    return sym.full(shape=(1,), val=rescale_grad)


def _adamw(opname, inputs, rescale_grad, hyper, out, name, kwargs):
    """The ``_internal`` AdamW node ``opname``; a float ``rescale_grad`` becomes a
    ``full((1,), rescale_grad)`` node, as in MXNet."""
    from . import _internal

    return getattr(_internal, opname)(**inputs, rescale_grad=_scale_symbol(rescale_grad),
                                      **hyper, out=out, name=name, **kwargs)


def adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None, **kwargs):
    """Symbolic AdamW update (``_adamw_update``); a float ``rescale_grad`` becomes a
    ``full((1,), rescale_grad)`` node, as in MXNet.

    Examples
    --------
    >>> w, g, m, v = (mx.sym.var(n) for n in 'wgmv')
    >>> s = mx.sym.contrib.adamw_update(w, g, m, v, 1.0, lr=0.1, eta=1.0)
    """
    hyper = dict(lr=lr, eta=eta, beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                 clip_gradient=clip_gradient)
    inputs = dict(weight=weight, grad=grad, mean=mean, var=var)
    return _adamw("_adamw_update", inputs, rescale_grad, hyper, out, name, kwargs)


def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9,
                    beta2=0.999, epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None,
                    **kwargs):
    """Symbolic multi-precision AdamW update (``_mp_adamw_update``).

    Examples
    --------
    >>> w, g, m, v, w32 = (mx.sym.var(n) for n in ('w', 'g', 'm', 'v', 'w32'))
    >>> s = mx.sym.contrib.mp_adamw_update(w, g, m, v, w32, 1.0, lr=0.1, eta=1.0)
    """
    hyper = dict(lr=lr, eta=eta, beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                 clip_gradient=clip_gradient)
    inputs = dict(weight=weight, grad=grad, mean=mean, var=var, weight32=weight32)
    return _adamw("_mp_adamw_update", inputs, rescale_grad, hyper, out, name, kwargs)


__all__ += ["adamw_update", "mp_adamw_update"]
