"""Helpers of :mod:`mxnet.gluon._hybrid`: argument flattening, CachedOp flags, context
checks and the traced graph's input links (private)."""

from __future__ import annotations

import torch

from .. import _int_grad, ndarray
from .._op._state import state as _state
from ..base import MXNetError

__all__: list[str] = []


def _symbol_mod():
    from .. import symbol

    return symbol


def _is_symbol(x) -> bool:
    try:
        from ..symbol import Symbol
    except ImportError:
        return False
    return isinstance(x, Symbol)


def _zero_grad_compute(compute):
    def run(attrs, *ts):
        r = compute(attrs, *ts)
        z = lambda t: t.detach() + (t - t.detach()) * 0 if t.requires_grad else t  # noqa: E731
        return z(r) if isinstance(r, torch.Tensor) else tuple(z(t) for t in r)

    return run


def _link_int_outputs(fn, tensors, aux, outs):
    """Run the graph again on the float64 shadows of integer inputs marked for gradients
    (see ``mxnet._int_grad``) and tie the outputs to that graph, as an imperative operator
    does; graphs that refuse float inputs keep no gradient path."""
    shadows = [_int_grad.shadow(t) for t in tensors]
    if all(s is None for s in shadows):
        return outs
    prog = fn.prog
    steps = prog.__dict__.get("_int_steps")
    if steps is None:  # operators whose MXNet integer kernels differentiate to zero
        steps = prog._int_steps = [
            (_zero_grad_compute(st[0]),) + tuple(st[1:])
            if getattr(st[5].op, "int_grad_zero", False)
            else st
            for st in prog.steps
        ]
    try:
        souts = prog._raw(
            [t if s is None else s for s, t in zip(shadows, tensors)],
            aux,
            steps if not prog.partial else None,
        )
    except (MXNetError, RuntimeError, TypeError, ValueError):
        return outs
    res = list(outs)
    for i, (r, s) in enumerate(zip(outs, souts)):
        if not (s.requires_grad and s.is_floating_point()) or s.shape != r.shape:
            continue
        if r.is_floating_point():
            if not r.requires_grad:
                res[i] = _int_grad.tie(r, s).to(r.dtype)
        else:
            r._mx_shadow = _int_grad.tie(r, s)
    return res


def _run_hooked(prog, tensors, aux, hook, ctx):
    """Run ``prog`` step by step, reporting each operator's outputs (and with monitor_all
    its inputs) to the op hook under MXNet's names."""
    from .._executor._monitor import input_labels

    callback, monitor_all = hook
    op_of = {}
    for node in prog.nodes:
        if node.op is None:
            continue
        for name in node.output_names():
            op_of[name] = node.op.name
        if monitor_all:
            for _var, label in input_labels(node):
                op_of[label] = node.op.name

    def monitor(name, t):
        op = op_of.get(name)
        if op is not None:
            callback(name.encode(), op.encode(), ndarray.NDArray._wrap(t, ctx))

    if _state.is_recording:
        return prog.run(tensors, aux, _state.is_train, monitor=monitor, monitor_all=monitor_all)
    with torch.no_grad():
        return prog.run(tensors, aux, _state.is_train, monitor=monitor, monitor_all=monitor_all)


def _hooked_descendant(block) -> bool:
    """Whether a child (at any depth) of ``block`` has forward hooks or pre-hooks."""
    for child in block._children.values():
        if child._forward_hooks or child._forward_pre_hooks or _hooked_descendant(child):
            return True
    return False


def _flatten(args, inout_str):
    if isinstance(args, ndarray.NDArray):
        return [args], 0
    if _is_symbol(args):
        length = len(args.list_outputs())
        return [args], (length if length > 1 else 0)
    if args is None:
        return [None], -1
    if not isinstance(args, (list, tuple)):
        raise ValueError(
            f"When hybridized, the input of HybridBlock {inout_str} must be "
            f"(nested) list of Symbol or NDArray, but got {args} of type "
            f"{type(args)}"
        )
    flat, fmts = [], []
    for i in args:
        arg, fmt = _flatten(i, inout_str)
        flat.extend(arg)
        fmts.append(fmt)
    return flat, fmts


def _match_default_nones(flat, fmt, stored):
    """Accept trailing ``None`` arguments that differ from the traced call only by relying
    on default values; returns ``flat`` aligned with the stored format."""
    n = min(len(fmt), len(stored)) if isinstance(fmt, list) and isinstance(stored, list) else 0
    longer = fmt if len(fmt) > len(stored) else stored
    valid = (
        isinstance(fmt, list)
        and isinstance(stored, list)
        and len(fmt) != len(stored)
        and fmt[:n] == stored[:n]
        and all(f == -1 for f in longer[n:])
    )
    if not valid:
        raise ValueError(
            "The argument structure of HybridBlock does not match the cached "
            f"version. Stored format = {fmt}, input format = {stored}"
        )
    extra = len(longer) - n  # each trailing None is one flat entry
    return flat[: len(flat) - extra] if len(fmt) > len(stored) else flat + [None] * extra


def _regroup(args, fmt):
    if isinstance(fmt, int):
        if fmt == 0:
            return args[0], args[1:]
        if fmt == -1:
            if args[0] is not None:
                raise ValueError(
                    "We do not support passing types that are not None when the "
                    "initial HybridBlock has received NoneType and has been "
                    f"hybridized. Received arg = {args[0]}, fmt = {fmt}."
                )
            return None, args[1:]
        return args[:fmt], args[fmt:]
    ret = []
    for i in fmt:
        res, args = _regroup(args, i)
        ret.append(res)
    return ret, args


def _cached_op_flags(
    static_alloc,
    static_shape,
    inline_limit,
    forward_bulk_size,
    backward_bulk_size,
    backend_opts: dict,
) -> list:
    """``hybridize``'s CachedOp flags as (name, value) pairs, backend options last."""
    flags = {
        "static_alloc": static_alloc,
        "static_shape": static_shape,
        "inline_limit": inline_limit,
    }
    if forward_bulk_size is not None:
        flags["forward_bulk_size"] = forward_bulk_size
    if backward_bulk_size is not None:
        flags["backward_bulk_size"] = backward_bulk_size
    flags.update(backend_opts)
    return list(flags.items())


def _common_prefix(names):
    if not names:
        return ""
    prefix = names[0]
    for name in names:
        i = 0
        while i < len(prefix) and i < len(name) and prefix[i] == name[i]:
            i += 1
        prefix = prefix[:i]
    return prefix


def _check_param_contexts(in_src, flat, ctx) -> None:
    """MXNet's CachedOp check: a parameter living on a single context other than the
    input's is an MXNetError (``Parameter.data()`` picks that one context)."""
    for src in in_src:
        if src.__class__ is int:
            continue
        ctxs = src.list_ctx()
        if len(ctxs) == 1 and ctxs[0] != ctx:
            name = "data" if len(flat) == 1 else "data0"
            raise MXNetError(
                f"Check failed: inputs[i]->ctx() == default_ctx ({ctxs[0]} vs. {ctx}) : "
                f"CachedOp requires all inputs to live on the same context. But {name} is on "
                f"{ctx} while {src.name} is on {ctxs[0]}"
            )


def _scan(args):
    """(has_symbol, has_ndarray, contexts) over a nested argument list."""
    has_sym = has_nd = False
    ctxs = []
    stack = list(args)
    while stack:
        a = stack.pop(0)
        if isinstance(a, ndarray.NDArray):
            has_nd = True
            if a.context not in ctxs:
                ctxs.append(a.context)
        elif isinstance(a, (list, tuple)):
            stack[0:0] = list(a)
        elif _is_symbol(a):
            has_sym = True
    return has_sym, has_nd, ctxs


def _np_wrap(t, ctx):
    from ..numpy.multiarray import ndarray as np_ndarray

    return np_ndarray._wrap(t, ctx)
