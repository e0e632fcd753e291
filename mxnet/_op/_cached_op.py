"""The ``_CachedOp`` operator: a whole graph (given as its JSON) used as one node.

``mx.sym._internal._CachedOp(*inputs, subgraph=json)`` takes the inputs in the subgraph's
``list_inputs()`` order; the node's arguments and auxiliary states are the subgraph's, and
its outputs are named after the subgraph's outputs (``_cachedop0_<output name>``), as in
MXNet 1.9.1. Running it runs the subgraph (autograd flows through it; BatchNorm-style
auxiliary updates land in the outer node's auxiliary arrays).

The float32 oneDNN fusion nodes of MXNet 1.9.1's ``MKLDNN`` subgraph backend
(``_sg_mkldnn_conv``, ``_sg_mkldnn_fully_connected``), found in models exported after
``optimize_for(backend='MKLDNN')``, carry the original operators as their subgraph and run
the same way, so such ``-symbol.json`` files load and run. Their quantized form
(``quantized=True``) is refused with :class:`MXNetError`.
"""

from __future__ import annotations

from typing import Any

import torch

from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register

__all__: list[str] = []

_GRAPHS: dict[str, Any] = {}  # subgraph JSON -> loaded Symbol (shared by equal nodes)


def _load(js: str):
    sym = _GRAPHS.get(js)
    if sym is None:
        from ..symbol._json import load_json

        try:
            sym = load_json(js)
        except (ValueError, KeyError, TypeError) as e:
            raise MXNetError(
                f"Operator _CachedOp: the subgraph attribute is not a symbol JSON string: {e}"
            ) from None
        if len(_GRAPHS) > 256:
            _GRAPHS.clear()
        _GRAPHS[js] = sym
    return sym


def _sub(attrs: dict):
    sym = attrs.get("_sym")
    return sym if sym is not None else _fused_sub(attrs)


class CachedOpDef(OpDef):
    """``_CachedOp``: an OpDef whose names come from the subgraph it carries."""

    dynamic_inputs = True

    def __init__(self):
        super().__init__(
            "_CachedOp",
            _compute,
            params=[Param("subgraph", "str", doc="The graph run by this node, as JSON.")],
            inputs=(),
            variadic="num_args",
            doc="Run a whole graph (the ``subgraph`` JSON) as one operator.",
        )

    def parse_attrs(self, kwargs: dict) -> dict:
        js = kwargs.get("subgraph")
        if js is None:
            raise MXNetError(
                "Required parameter subgraph of string is not presented, in operator _CachedOp"
            )
        if not isinstance(js, str):
            js = js.tojson() if hasattr(js, "tojson") else str(js)
        return {"subgraph": js, "_sym": _load(js)}

    def format_attrs(self, kwargs: dict) -> dict[str, str]:
        attrs = self.parse_attrs(kwargs)
        out = {
            k: v if isinstance(v, str) else str(v)
            for k, v in kwargs.items()
            if k not in ("num_args", "subgraph")
        }
        out["subgraph"] = attrs["subgraph"]
        return out

    def input_names(self, attrs: dict, num_inputs: int | None = None) -> list[str]:
        return list(_sub(attrs).list_arguments())

    def aux_names(self, attrs: dict) -> list[str]:
        return list(_sub(attrs).list_auxiliary_states())

    def positional_slots(self, attrs: dict) -> list[str]:
        """Slot names of positional inputs: the subgraph's ``list_inputs()`` order."""
        return list(_sub(attrs).list_inputs())

    def output_names(self, attrs: dict) -> list[str]:
        return list(_sub(attrs).list_outputs())

    def num_visible_outputs(self, attrs: dict) -> int:
        return len(self.output_names(attrs))

    def infer_shape(self, attrs: dict, in_shapes: list) -> tuple[list, list]:
        sub = _sub(attrs)
        names = sub.list_arguments() + sub.list_auxiliary_states()
        known = {
            n: tuple(s)
            for n, s in zip(names, in_shapes)
            if s is not None and len(s) > 0 and all(d > 0 for d in s)
        }
        arg, out, aux = sub._infer_shape_raw(True, **known)

        def full(s):
            return tuple(s) if s is not None and len(s) > 0 and all(d > 0 for d in s) else None

        ins = [full(s) for s in (arg or [None] * len(sub.list_arguments()))]
        ins += [full(s) for s in (aux or [None] * len(sub.list_auxiliary_states()))]
        ins = [old if old is not None else new for old, new in zip(in_shapes, ins)]
        outs = [full(s) for s in (out or [None] * len(sub.list_outputs()))]
        return ins, outs


def _infer_type(attrs: dict, in_types: list):
    import numpy as np

    from .._dtype import dtype_name

    sub = _sub(attrs)
    names = sub.list_arguments() + sub.list_auxiliary_states()
    known = {n: np.dtype(t).type for n, t in zip(names, in_types) if t is not None}
    arg, out, aux = sub.infer_type_partial(**known)

    def name(t):
        return None if t is None or t == -1 else dtype_name(t)

    ins = [name(t) for t in (arg or [])] + [name(t) for t in (aux or [])]
    ins = [old if old is not None else new for old, new in zip(in_types, ins)]
    return ins, [name(t) for t in (out or [])]


def _compute(attrs: dict, *tensors: torch.Tensor):
    from ._control_flow import _callable
    from ._state import state

    fn, arg_names, aux_names, _ = _callable(_sub(attrs))
    nargs = len(arg_names)
    if len(tensors) != nargs + len(aux_names):
        raise MXNetError(
            f"Operator _CachedOp: the subgraph takes {nargs + len(aux_names)} "
            f"inputs, got {len(tensors)}"
        )
    return tuple(fn(list(tensors[:nargs]), list(tensors[nargs:]), state.is_train))


CACHED_OP = register(CachedOpDef())
CACHED_OP.infer_type_fn = _infer_type


class _AnyStrParams(dict):
    """Parameter map accepting every non-hidden key (the fusion flags are free-form)."""

    def __contains__(self, key) -> bool:
        return isinstance(key, str) and not (key.startswith("__") and key.endswith("__"))

    def get(self, key, default=None):
        return Param(key, "str", "") if key in self else default


class FusedSubgraphOpDef(CachedOpDef):
    """A oneDNN fusion node (``_sg_mkldnn_*``): runs the subgraph stored on the node."""

    def __init__(self, name: str):
        OpDef.__init__(
            self,
            name,
            _compute,
            inputs=(),
            variadic="num_args",
            doc="A oneDNN-fused subgraph of MXNet 1.9.1's MKLDNN backend (float32 only).",
        )
        self.param_map = _AnyStrParams()

    def parse_attrs(self, kwargs: dict) -> dict:
        flags = {k: str(v) for k, v in kwargs.items() if k != "num_args"}
        if flags.get("quantized", "false").lower() in ("true", "1"):
            raise MXNetError(
                f"Operator {self.name}: quantized oneDNN subgraphs "
                "(quantized=True) are not supported by mxnet-ng"
            )
        return flags

    def format_attrs(self, kwargs: dict) -> dict[str, str]:
        return self.parse_attrs(kwargs)

    def output_names(self, attrs: dict) -> list[str]:
        n = len(_sub(attrs).list_outputs())
        return ["output"] if n == 1 else [f"output{i}" for i in range(n)]


def _fused_sub(attrs: dict):
    subs = attrs.get("__subgraphs__")
    if not subs:
        raise MXNetError(
            "Operator _sg_mkldnn_*: the node has no subgraph (it is made by "
            "MXNet's MKLDNN subgraph backend and read from a symbol JSON file)"
        )
    return subs[0]


for _name in ("_sg_mkldnn_conv", "_sg_mkldnn_fully_connected"):
    _op = register(FusedSubgraphOpDef(_name))
    _op.infer_type_fn = _infer_type
