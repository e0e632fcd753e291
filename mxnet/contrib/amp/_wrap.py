"""AMP's operator rules and the two hooks that apply them (private).

:func:`install` builds one rule per registry operator from the AMP lists and sets the hooks of
the imperative path (``mxnet.ndarray._invoke._amp_hook``) and of symbol creation
(``mxnet.symbol._create._amp_hook``). Until then both hooks are ``None`` and cost one global
check per operator call.

A rule is ``(dtype, fp32_flags, condition)``: inputs are cast to ``dtype`` (``"widest"`` for
the widest-type casts), ``fp32_flags`` marks inputs (by position) that keep their type, and
``condition`` ``(param, values)`` limits the rule to calls where that parameter takes one of
``values``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import torch

from ..._op._registry import OpDef, get_op, has_op

__all__ = ["install", "uninstall", "Rules"]

_WIDEST = "widest"
_TORCH = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}
# float types an NDArray is cast from, by device kind (MXNet: fp16/fp32 on GPU, bf16/fp32 on CPU)
_CASTABLE_CPU = (torch.bfloat16, torch.float32)
_CASTABLE_GPU = (torch.float16, torch.float32)


class Rules:
    """The AMP rule of every affected operator, resolved from lists of MXNet function names.

    Parameters
    ----------
    target_dtype : str
        ``'float16'`` or ``'bfloat16'``.
    lp16, fp32 : list of str
        Functions run in ``target_dtype`` / in float32.
    conditional : list of (str, str, list)
        ``(function, parameter, values)``: run in float32 when the parameter is in values.
    widest : list of str
        Functions run in the widest float type among their inputs.
    loss_outputs : list of str
        Loss outputs whose ``grad_scale`` is multiplied by the loss scale.
    fp32_params : dict, optional
        ``function -> per-input flags``: a true flag keeps that input's type.
    strict : bool
        Whether an unknown function name raises ``AttributeError`` (user-given lists) or is
        skipped (MXNet's default lists name operators this package does not implement).

    Examples
    --------
    >>> from mxnet.contrib.amp._wrap import Rules
    >>> r = Rules('float16', ['FullyConnected'], ['sin'], [], [], [])
    >>> sorted(op.name for op in r.by_op)
    ['FullyConnected', 'sin']
    """

    def __init__(
        self,
        target_dtype: str,
        lp16: Sequence[str],
        fp32: Sequence[str],
        conditional: Sequence,
        widest: Sequence[str],
        loss_outputs: Sequence[str],
        fp32_params: dict | None = None,
        strict: Sequence[bool] = (False,) * 3,
    ):
        self.target_dtype = target_dtype
        found: dict[OpDef, list[tuple[str, tuple]]] = {}

        def add(name: str, rule: tuple, is_strict: bool) -> None:
            if not has_op(name):
                if is_strict:
                    raise AttributeError(f"module 'mxnet.ndarray' has no attribute '{name}'")
                return
            found.setdefault(get_op(name), []).append((name, rule))

        params = fp32_params or {}
        for name in lp16:
            flags = params.get(name)
            add(
                name,
                (target_dtype, tuple(bool(f) for f in flags) if flags else None, None),
                strict[0],
            )
        for name in fp32:
            add(name, ("float32", None, None), strict[1])
        for name, param, values in conditional:
            add(name, ("float32", None, (param, tuple(values))), strict[2])
        for name in widest:
            add(name, (_WIDEST, None, None), False)
        # aliases share one operator: the rule of its own name wins, else the first listed
        self.by_op: dict[OpDef, tuple] = {}
        for op, cands in found.items():
            own = [r for n, r in cands if n == op.name]
            self.by_op[op] = own[0] if own else cands[0][1]
        self.loss_ops = {get_op(n) for n in loss_outputs if has_op(n)}
        self.scaler = None


_rules: Rules | None = None


# -- imperative ----------------------------------------------------------------------------
def _cast_nd(x, dtype: str):
    t = x._t.dtype
    want = _TORCH[dtype]
    if t == want:
        return x
    castable = _CASTABLE_CPU if x._ctx.device_type == "cpu" else _CASTABLE_GPU
    if t not in castable:
        return x
    from ...ndarray._invoke import invoke

    op = get_op("amp_cast")
    return invoke(op, op.parse_attrs({"dtype": dtype}), [x])


def _nd_hook(op: OpDef, attrs: dict, inputs: list):
    rules = _rules
    if rules is None:
        return attrs, inputs
    rule = rules.by_op.get(op)
    if rule is not None and inputs:
        dtype, flags, cond = rule
        if cond is None or attrs.get(cond[0]) in cond[1]:
            if dtype == _WIDEST:
                inputs = _widest_nd(inputs, rules.target_dtype)
            else:
                inputs = [
                    x if flags is not None and i < len(flags) and flags[i] else _cast_nd(x, dtype)
                    for i, x in enumerate(inputs)
                ]
    if op in rules.loss_ops and rules.scaler is not None:
        attrs = {**attrs, "grad_scale": attrs.get("grad_scale", 1.0) * rules.scaler.loss_scale}
    return attrs, inputs


def _widest_nd(inputs: list, target: str) -> list:
    want = _TORCH[target]
    if any(x._t.dtype == torch.float32 for x in inputs):
        from ...ndarray._invoke import invoke

        op = get_op("amp_cast")
        attrs = op.parse_attrs({"dtype": "float32"})
        return [invoke(op, attrs, [x]) if x._t.dtype == want else x for x in inputs]
    return inputs


# -- symbolic ------------------------------------------------------------------------------
def _sym_hook(
    create: Callable, opname: str, args: list, sym_kwargs: dict, params: dict, name, attr
):
    rules = _rules
    op = get_op(opname)
    if op in rules.loss_ops:
        logging.warning(
            "%s does not support dynamic loss scaling in symbolic and hybridized execution.", opname
        )
    rule = rules.by_op.get(op)
    if rule is None:
        return create(opname, args, sym_kwargs, params, name, attr)
    dtype, flags, cond = rule
    if cond is not None and params.get(cond[0]) not in cond[1]:
        return create(opname, args, sym_kwargs, params, name, attr)
    if dtype == _WIDEST:
        args, sym_kwargs = _multicast_inputs(create, args, sym_kwargs)
        return create(opname, args, sym_kwargs, params, name, attr)
    sym = create(opname, args, sym_kwargs, params, name, attr)
    from ...symbol.symbol import Symbol

    node = sym._outputs[0][0]
    keep = set(node.mutable_input_indices())
    entries, versions = [], []
    for i, (entry, ver) in enumerate(zip(node.inputs, node.in_versions)):
        if i in keep and entry[0].op is None:
            # MXNet composes the operator a second time: a mutated variable moves on again
            entry[0].version += 1
            entries.append(entry)
            versions.append(entry[0].version)
            continue
        if i in keep or (flags is not None and i < len(flags) and flags[i]):
            entries.append(entry)
            versions.append(ver)
            continue
        cast = create("amp_cast", [Symbol._from_entries([entry])], {}, {"dtype": dtype})
        entries.append(cast._outputs[0])
        versions.append(0)
    node.set_inputs(entries, versions)
    return sym


def _multicast_inputs(create: Callable, args: list, sym_kwargs: dict):
    from ...symbol.symbol import Symbol

    syms = list(args) + list(sym_kwargs.values())
    if not syms:
        return args, sym_kwargs
    mc = create("amp_multicast", syms, {}, {"num_outputs": len(syms)})
    outs = [Symbol._from_entries([e]) for e in mc._outputs]
    new_args = outs[: len(args)]
    new_kwargs = dict(zip(sym_kwargs, outs[len(args) :]))
    return new_args, new_kwargs


# -- switching -----------------------------------------------------------------------------
def install(rules: Rules) -> None:
    """Activate ``rules`` on the imperative and symbolic operator paths."""
    global _rules
    from ...ndarray import _invoke
    from ...symbol import _create

    _rules = rules
    _invoke._amp_hook = _nd_hook
    _create._amp_hook = _sym_hook


def uninstall() -> None:
    """Remove the hooks (AMP off)."""
    global _rules
    from ...ndarray import _invoke
    from ...symbol import _create

    _rules = None
    _invoke._amp_hook = None
    _create._amp_hook = None
