"""``mxnet.executor_manager``: MXNet 1.x's legacy data-parallel helpers, kept for code that
imports them (Deformable-ConvNets' executor groups import ``_split_input_slice``)."""

from __future__ import annotations

from .module.executor_group import _split_input_slice  # noqa: F401

__all__: list[str] = []


def _check_arguments(symbol) -> None:
    """Raise ValueError when a symbol repeats an argument or auxiliary-state name."""
    for kind, names in (("argument", symbol.list_arguments()),
                        ("auxiliary", symbol.list_auxiliary_states())):
        seen = set()
        for name in names:
            if name in seen:
                raise ValueError(f'Find duplicated {kind} name "{name}", please make the '
                                 f"weight name non-duplicated(using name arguments), "
                                 f"{kind}s are {names}")
            seen.add(name)


def _load_general(data, targets) -> None:
    """Copy each source into its target NDArray, or into ``(slice, array)`` pieces cut
    along the first axis."""
    from . import ndarray as nd

    for d_src, d_targets in zip(data, targets):
        if isinstance(d_targets, nd.NDArray):
            d_src.copyto(d_targets)
        else:
            for sl, d_dst in d_targets:
                d_src[sl].copyto(d_dst)


def _load_data(batch, targets) -> None:
    _load_general(batch.data, targets)


def _load_label(batch, targets) -> None:
    _load_general(batch.label, targets)
