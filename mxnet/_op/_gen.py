"""Generate front-end functions (``mx.nd.X``) and docstrings from the registry.

Functions are closures with a real ``__signature__`` (never ``exec``); namespaces follow
MXNet's prefix rules (:func:`route`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from ..base import _Null
from ._params import format_attr
from ._registry import OpDef

_PREFIXES = (("_contrib_", "contrib"), ("_linalg_", "linalg"), ("_random_", "random"),
             ("_sparse_", "sparse"), ("_image_", "image"))


# MXNet 1.9.1's fluent methods (method name -> operator name), shared by NDArray and Symbol
# (Symbol has no slice_assign*). Generated methods exist only for operators registered here.
FLUENT_METHODS = {n: n for n in (
    "abs arccos arccosh arcsin arcsinh arctan arctanh argmax argmax_channel argmin argsort "
    "broadcast_axes broadcast_like broadcast_to cbrt ceil clip cos cosh degrees depth_to_space "
    "diag exp expand_dims expm1 fix flatten flip floor log log10 log1p log2 log_softmax max "
    "mean min nanprod nansum norm one_hot ones_like pad pick prod radians rcbrt reciprocal "
    "relu repeat reshape_like rint round rsqrt shape_array sigmoid sign sin sinh size_array "
    "slice slice_axis slice_like softmax softmin sort space_to_depth split sqrt square "
    "squeeze sum swapaxes take tan tanh tile topk transpose trunc zeros_like").split()}
FLUENT_METHODS.update({"split_v2": "_split_v2", "slice_assign": "_slice_assign",
                       "slice_assign_scalar": "_slice_assign_scalar"})


def route(name: str) -> tuple[str, str]:
    """Map an operator name to ``(namespace, public name)`` by MXNet's prefix rules.

    ``_random_*`` operators stay in ``_internal`` except the ``*_like`` ones, as in 1.9.1.
    """
    for prefix, ns in _PREFIXES:
        if name.startswith(prefix):
            if prefix == "_random_" and not name.endswith("_like"):
                return "_internal", name
            return ns, name[len(prefix):]
    if name.startswith("_"):
        return "_internal", name
    return "op", name


def build_doc(op: OpDef, out_type: str = "NDArray") -> str:
    """NumPy-style docstring from the op's schema."""
    lines = [op.doc.strip() or f"The ``{op.name}`` operator.", "", "Parameters", "----------"]
    if op.variadic:
        lines += ["*data : " + out_type + "[]", "    Positional inputs."]
    else:
        for n in op.input_slots:
            lines += [f"{n} : {out_type}", f"    Input ``{n}``."]
    for p in op.params:
        if p.name == op.variadic:
            continue
        default = "required" if p.required else f"optional, default={format_attr(p.default)!s}"
        lines += [f"{p.name} : {p.type_doc()}, {default}"]
        if p.doc:
            lines += ["    " + p.doc]
    lines += ["out : NDArray, optional", "    The output array.", "", "Returns", "-------",
              f"out : {out_type} or list of {out_type}s", "    The output of this function."]
    return "\n".join(lines)


def build_signature(op: OpDef, tail: tuple[str, ...] = ("out", "name")) -> inspect.Signature:
    P = inspect.Parameter
    params = []
    if op.variadic:
        params.append(P("data", P.VAR_POSITIONAL))
    else:
        params += [P(n, P.POSITIONAL_OR_KEYWORD, default=None) for n in op.input_slots]
        params += [P(p.name, P.POSITIONAL_OR_KEYWORD, default=_Null) for p in op.params]
        params += [P(t, P.POSITIONAL_OR_KEYWORD, default=None) for t in tail]
    if op.variadic:
        params += [P(t, P.KEYWORD_ONLY, default=None) for t in tail]
    params.append(P("kwargs", P.VAR_KEYWORD))
    return inspect.Signature(params)


def finish(fn: Callable, op: OpDef, public: str, module: str, out_type: str) -> Callable:
    fn.__name__ = public
    fn.__qualname__ = public
    fn.__module__ = module
    fn.__doc__ = build_doc(op, out_type)
    # MXNet's generated signatures end with (out, name) on NDArray functions and with
    # (name, attr, out) on Symbol functions
    tail = ("name", "attr", "out") if out_type == "Symbol" else ("out", "name")
    fn.__signature__ = build_signature(op, tail)
    return fn
