"""Zero gradients for the parameters of a hybridized call that backward passed through.

MXNet runs a hybridized block's backward as one graph: when any output of the call is on
the path of ``backward()``, the parameters of the whole graph get their gradient buffers
written, those that no gradient reached (a head whose output the loss ignores, a branch
behind ``BlockGrad``) with zeros, and all of them count as updated for ``Trainer.step``'s
stale-gradient check. Torch's engine never visits the unreached branches, so the
hybridized call wraps its outputs in :class:`_Touch`; its backward records the call's
parameters, and :func:`settle` writes the zeros once the backward is over.
"""

from __future__ import annotations

import torch

WRITTEN: set = set()  # id() of the arrays whose gradient hook fired in this backward
_touched: list = []  # parameter-array lists of the calls backward passed through


class _Touch(torch.autograd.Function):
    """Identity on a call's outputs; its backward notes the call's parameters."""

    @staticmethod
    def forward(ctx, params, *outs):
        ctx.params = params
        return tuple(o.view_as(o) for o in outs)

    @staticmethod
    def backward(ctx, *grads):
        _touched.append(ctx.params)
        return (None, *grads)


def touch(outs: list, params: list) -> list:
    """``outs`` (tensors) linked to ``params`` (NDArrays holding gradient buffers)."""
    idx = [i for i, o in enumerate(outs) if o.requires_grad]
    if not idx or not params:
        return outs
    linked = _Touch.apply(params, *[outs[i] for i in idx])
    outs = list(outs)
    for i, t in zip(idx, linked):
        outs[i] = t
    return outs


def start() -> None:
    """Called before a backward pass."""
    WRITTEN.clear()
    _touched.clear()


def settle() -> None:
    """Called after a backward pass: zero the unreached gradients of the touched calls."""
    if not _touched:
        return
    seen = set()
    for params in _touched:
        for v in params:
            key = id(v)
            if key in WRITTEN or key in seen:
                continue
            seen.add(key)
            g = v._grad
            if g is None or v._grad_req == "null":
                continue
            if v._grad_req == "write":
                with torch.no_grad():
                    g._t.zero_()
            v._fresh = 1
    _touched.clear()
    WRITTEN.clear()


class CallRecord:
    """Provenance of one recorded hybridized call, expanded by ``autograd.get_symbol``
    into the graph's operators (inlined, whatever ``inline_limit`` says)."""

    __slots__ = ("sym", "names", "ins", "_nodes", "inline", "_node")

    def __init__(self, sym, names: list, ins: tuple, inline: bool = True):
        self.sym, self.names, self.ins, self._nodes = sym, names, ins, None
        self.inline = inline  # False: get_symbol shows one ``_CachedOp`` node (MXNet's
        self._node = None  # CachedOp records itself when its graph exceeds inline_limit)

    def cached_op_node(self, inputs: list):
        """The single ``_CachedOp`` node standing for this call (made once)."""
        if self._node is None:
            from ._op._registry import OpDef
            from .base import MXNetError
            from .symbol._node import Node

            def compute(attrs, *ts):
                raise MXNetError("_CachedOp: a hybridized call shown by autograd.get_symbol "
                                 "cannot be run; hybridize with a larger inline_limit")

            nout = len(self.sym._outputs)
            names = tuple(f"arg{i}" for i in range(len(inputs)))
            op = OpDef("_CachedOp", compute, inputs=names,
                       outputs=("output",) if nout == 1 else
                       tuple(f"output{i}" for i in range(nout)))
            from .name import _current_manager

            node = Node(op, _current_manager().get(None, "_cachedop"), {})
            node.set_inputs([(s._outputs[0][0], s._outputs[0][1]) for s in inputs])
            self._node = node
        return self._node

    def output(self, idx: int):
        """The ``(op, attrs, inputs, index)`` record of graph output ``idx``."""
        if self._nodes is None:
            from .ndarray._invoke import Leaf
            from .symbol._node import topo_order

            by_name = dict(zip(self.names, self.ins))
            recs: dict = {}
            for node in topo_order([n for n, _ in self.sym._outputs]):
                if node.op is None:
                    recs[id(node)] = by_name.get(node.name) or Leaf()
                    continue
                recs[id(node)] = tuple(
                    recs[id(src)] if src.op is None else (src.op, src.parsed, recs[id(src)], i)
                    for src, i in node.inputs)
            self._nodes = recs
        node, i = self.sym._outputs[idx]
        rec = self._nodes[id(node)]
        return rec if node.op is None else (node.op, node.parsed, rec, i)
