"""``Block.save`` / ``Block.load``: the block tree (names, traced graphs) as
``prefix-model.json`` plus the parameters as ``prefix-model.params``.

Blocks are matched by their position in a depth-first walk and their class, so the model
must be rebuilt in the same order before ``load``.
"""

from __future__ import annotations

import json
import os

__all__ = ["save_block", "load_block"]


def _key(blk, index):
    return type(blk).__name__.lower() + str(index)


def save_block(block, prefix: str) -> None:
    """Write ``prefix-model.json`` and ``prefix-model.params`` for ``block``."""
    from ._hybrid import HybridBlock

    counter = [0]

    def walk(blk, parent):
        entry = {"orig_name": blk.name}
        parent[_key(blk, counter[0])] = entry
        if isinstance(blk, HybridBlock):
            if blk._cached_graph:  # keys in MXNet 1.9.1's order
                inputs, out = blk._cached_graph
                entry["in_format"] = blk._in_format
                entry["out_format"] = blk._out_format
                entry["inputs"] = [s.tojson() for s in inputs]
                entry["symbol"] = out.tojson()
            entry["hybridized"] = bool(blk._cached_graph)
        entry["children"] = {}
        for ch_name, child in blk._children.items():
            counter[0] += 1
            entry["children"][child.name] = ch_name
            walk(child, entry)

    model: dict = {}
    walk(block, model)
    fname = prefix + "-model.json"
    tmp = f"{fname}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(model, f)
    os.replace(tmp, fname)
    block.save_parameters(prefix + "-model.params")


def load_block(block, prefix: str) -> None:
    """Restore names, traced graphs and parameters written by :func:`save_block`."""
    from .. import symbol
    from ._hybrid import HybridBlock

    with open(prefix + "-model.json") as f:
        model = json.load(f)
    counter = [0]

    def walk(blk, parent):
        entry = parent[_key(blk, counter[0])]
        blk._name = entry["orig_name"]
        if isinstance(blk, HybridBlock) and entry.get("hybridized"):
            blk._in_format = entry["in_format"]
            blk._out_format = entry["out_format"]
            inputs = [symbol.load_json(s) for s in entry["inputs"]]
            blk._cached_graph = (inputs, symbol.load_json(entry["symbol"]))
            blk._callables = {}
            blk._active = True
        # parameters are looked up by the names the saved graph uses
        pdict = blk.params
        for old in list(pdict._params.keys()):
            param = pdict._params.pop(old)
            pdict._params[blk.name + "_" + old[len(pdict.prefix):]] = param
        for child in list(blk._children.values()):
            counter[0] += 1
            walk(child, entry)
        renamed = {}
        for child in blk._children.values():
            renamed[entry["children"][child.name]] = child
        blk._children.clear()
        blk._children.update(renamed)

    walk(block, model)
    block.load_parameters(prefix + "-model.params")
