"""Fill ``mx.nd`` namespaces and NDArray fluent methods from the operator registry."""

from __future__ import annotations

from .._op import _registry
from .._op._gen import FLUENT_METHODS, route
from ._invoke import make_nd_function

_MODULES = {"op": "mxnet.ndarray.op", "_internal": "mxnet.ndarray._internal",
            "contrib": "mxnet.ndarray.contrib", "linalg": "mxnet.ndarray.linalg",
            "random": "mxnet.ndarray.random", "sparse": "mxnet.ndarray.sparse",
            "image": "mxnet.ndarray.image"}

_FUNCS: dict[str, object] = {}


def function_for(name: str):
    """The generated ``mx.nd`` function for operator (or alias) ``name``."""
    fn = _FUNCS.get(name)
    if fn is None:
        op = _registry.get_op(name)
        ns, public = route(name)
        fn = make_nd_function(op, public, _MODULES[ns])
        _FUNCS[name] = fn
    return fn


def populate(namespace: dict, which: str) -> list[str]:
    """Put every operator routed to ``which`` into ``namespace``; return the names."""
    names = []
    for name in _registry.all_names():
        ns, public = route(name)
        if ns == which:
            namespace[public] = function_for(name)
            names.append(public)
    return names


def attach_fluent(cls) -> None:
    """Give ``cls`` MXNet's fluent methods (``a.sum(axis=1)``) for registered operators."""
    for method, opname in FLUENT_METHODS.items():
        if _registry.has_op(opname) and not hasattr(cls, method):
            setattr(cls, method, _fluent(function_for(opname)))


def _fluent(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    method.__name__ = fn.__name__
    method.__doc__ = f"Fluent form of :func:`mxnet.ndarray.{fn.__name__}` on this array."
    return method
