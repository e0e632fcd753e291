"""``Block.summary``: a table of each layer's output shape and parameter count."""

from __future__ import annotations

from collections import OrderedDict

__all__ = ["summary"]


def _shape_str(args) -> str:
    from ..ndarray import NDArray

    def shapes(a):
        if isinstance(a, (list, tuple)):
            return [shapes(i) for i in a]
        return a.shape if isinstance(a, NDArray) else a

    s = shapes(args)
    return str(s)[1:-1] if isinstance(s, list) else str(s)


def summary(block, *inputs) -> None:
    """Run ``block(*inputs)`` with hooks and print one row per layer (MXNet's layout)."""
    from ._hybrid import HybridBlock
    from .nn.basic_layers import HybridSequential, Sequential

    rows: OrderedDict = OrderedDict()
    seen = set()
    hooks = []
    rows["Input"] = {"output_shape": _shape_str(inputs), "n_params": 0, "trainable": 0,
                     "shared": 0}

    def hook(blk, _, outputs):
        key = f"{blk.__class__.__name__}-{len(rows)}"
        row = {"output_shape": _shape_str(outputs), "n_params": 0, "trainable": 0, "shared": 0}
        for p in blk.params.values():
            n = p.data().size
            row["n_params"] += n
            row["trainable"] += 0 if p.grad_req == "null" else n
            if p in seen:
                row["shared"] += n
            else:
                seen.add(p)
        rows[key] = row

    def register(blk):
        if isinstance(blk, HybridBlock) and blk._active:
            raise AssertionError(f'"{blk.name}" must not be hybridized to print summary.')
        if not isinstance(blk, (Sequential, HybridSequential)):
            hooks.append(blk.register_forward_hook(hook))

    try:
        block.apply(register)
        block(*inputs)
        fmt = "{:>20}  {:>42} {:>15}"
        print("-" * 80)
        print(fmt.format("Layer (type)", "Output Shape", "Param #"))
        print("=" * 80)
        total = trainable = shared = 0
        for name, row in rows.items():
            print(fmt.format(name, str(row["output_shape"]), row["n_params"]))
            total += row["n_params"]
            trainable += row["trainable"]
            shared += row["shared"]
        print("=" * 80)
        print("Parameters in forward computation graph, duplicate included")
        print(f"   Total params: {total}")
        print(f"   Trainable params: {trainable}")
        print(f"   Non-trainable params: {total - trainable}")
        print(f"Shared params in forward computation graph: {shared}")
        print(f"Unique parameters in model: {total - shared}")
        print("-" * 80)
    finally:
        for h in hooks:
            h.detach()
