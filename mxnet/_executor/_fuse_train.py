"""Graph rewrite for training and inference alike: ``BatchNorm -> relu`` as one step.

A BatchNorm whose output only a relu reads (and whose hidden mean/var outputs nobody reads)
runs as ``_contrib_BatchNormWithReLU``: in training mode on float32 CPU data that is one
native kernel pass each way instead of BatchNorm's plus relu's (see
``mxnet/_op/_norm_native.py``); elsewhere it is BatchNorm then relu as before. The relu's
output slot receives the result; the BatchNorm output slot is never filled.
``MXNET_NG_FUSE=0`` turns it off with the other rewrites.

Examples
--------
>>> from mxnet._executor._fuse_train import bn_relu_steps
>>> bn_relu_steps([], set()) is None
True
"""

from __future__ import annotations

from .._op._norm import _bn_relu
from ._fuse import _is_relu, _refree

__all__ = ["bn_relu_steps"]


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
        r = readers.get(outs[0], [])
        if len(r) != 1 or r[0] in drop:
            continue
        j = r[0]
        rel = steps[j]
        if not (_is_relu(rel[5]) and rel[0] is rel[5].op.compute and tuple(rel[2]) == (outs[0],)):
            continue
        out[k] = (_bn_relu, attrs, ins, (rel[3][0], *outs[1:]), (), node)
        drop.add(j)
    if not drop:
        return None
    return _refree([st for k, st in enumerate(out) if k not in drop], keep)
