"""Graph rewrites for training and inference alike: ``BatchNorm -> relu`` and
``BatchNorm -> add(residual) -> relu`` as one step.

A BatchNorm whose output only a relu reads (and whose hidden mean/var outputs nobody reads)
runs as ``_contrib_BatchNormWithReLU``: in training mode on float32 CPU data that is one
native kernel pass each way instead of BatchNorm's plus relu's (see
``mxnet/_op/_norm_native.py``); elsewhere it is BatchNorm then relu as before. Likewise a
BatchNorm read only by an addition read only by a relu (a residual unit's end) writes
``relu(BatchNorm(x) + residual)`` in one pass when it qualifies, else runs the three
original steps. The last step's output slot receives the result; the others are never
filled. ``MXNET_NG_FUSE=0`` turns it off with the other rewrites.

Examples
--------
>>> from mxnet._executor._fuse_train import bn_relu_steps
>>> bn_relu_steps([], set()) is None
True
"""

from __future__ import annotations

from .._op._norm import _bn_relu, bn_add_relu_native
from ._fuse import _ADD_OPS, _is_relu, _refree

__all__ = ["bn_relu_steps"]


class _BNAddRelu:
    """Compute of a fused ``BatchNorm -> add -> relu`` step: the native pass, or the three
    original computes (``bn_first``: BatchNorm's output is the addition's first operand)."""

    def __init__(self, bn, add, relu, bn_first: bool):
        self.bn, self.add, self.relu, self.bn_first = bn, add, relu, bn_first

    def __call__(self, attrs, x, gamma, beta, mmean, mvar, z):
        r = bn_add_relu_native(attrs, x, gamma, beta, mmean, mvar, z)
        if r is not None:
            return r
        out, mean, var = self.bn[0](attrs, x, gamma, beta, mmean, mvar)
        s = self.add[0](self.add[1], *((out, z) if self.bn_first else (z, out)))
        return self.relu[0](self.relu[1], s), mean, var


def _sole_relu(steps, readers, slot, keep):
    """The step index of the relu that alone reads ``slot``, else ``None``."""
    r = readers.get(slot, [])
    if slot in keep or len(r) != 1:
        return None
    rel = steps[r[0]]
    ok = _is_relu(rel[5]) and rel[0] is rel[5].op.compute and tuple(rel[2]) == (slot,)
    return r[0] if ok else None


def bn_relu_steps(steps: list, keep: set[int]) -> list | None:
    """The steps with each qualifying ``BatchNorm -> relu`` pair merged (see the module
    notes), or ``None`` when there is none. ``keep``: slots never freed (arguments, aux
    states, outputs)."""
    readers: dict[int, list[int]] = {}
    for k, st in enumerate(steps):
        for s in st[2]:
            readers.setdefault(s, []).append(k)
    out = list(steps)
    drop: set[int] = set()
    for k, (compute, attrs, ins, outs, _frees, node) in enumerate(steps):
        if (
            node.op.name != "BatchNorm"
            or compute is not node.op.compute  # wrapped (device placement): leave as is
            or attrs.get("output_mean_var")
            or len(outs) != 3
            or outs[0] in keep
            or any(readers.get(o) or o in keep for o in outs[1:])
        ):
            continue
        j = _sole_relu(steps, readers, outs[0], keep)
        if j is not None and j not in drop:
            out[k] = (_bn_relu, attrs, ins, (steps[j][3][0], *outs[1:]), (), node)
            drop.add(j)
            continue
        r = readers.get(outs[0], [])
        if len(r) != 1 or r[0] in drop or len(ins) != 5:
            continue
        add = steps[r[0]]
        if (add[5].op.name not in _ADD_OPS or add[0] is not add[5].op.compute
                or len(add[2]) != 2 or add[2][0] == add[2][1]):
            continue
        j = _sole_relu(steps, readers, add[3][0], keep)
        if j is None or j in drop:
            continue
        bn_first = add[2][0] == outs[0]
        other = add[2][1] if bn_first else add[2][0]
        fused = _BNAddRelu((compute, attrs), add[:2], steps[j][:2], bn_first)
        out[k] = None  # runs where the relu ran: the residual may be computed after BatchNorm
        out[j] = (fused, attrs, (*ins, other), (steps[j][3][0], *outs[1:]), (), node)
        drop.add(r[0])
    if not drop:
        return None
    return _refree([st for k, st in enumerate(out) if k not in drop and st is not None], keep)
