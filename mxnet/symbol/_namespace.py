"""Fill ``mx.sym`` namespaces and Symbol fluent methods from the operator registry."""

from __future__ import annotations

from .._op import _registry
from .._op._gen import FLUENT_METHODS, route

_MODULES = {"op": "mxnet.symbol.op", "_internal": "mxnet.symbol._internal",
            "contrib": "mxnet.symbol.contrib", "linalg": "mxnet.symbol.linalg",
            "random": "mxnet.symbol.random", "sparse": "mxnet.symbol.sparse",
            "image": "mxnet.symbol.image"}

_FUNCS: dict[str, object] = {}


def function_for(name: str):
    """The generated ``mx.sym`` function for operator (or alias) ``name``."""
    fn = _FUNCS.get(name)
    if fn is None:
        from ._create import make_sym_function

        op = _registry.get_op(name)
        ns, public = route(name)
        fn = make_sym_function(op, public, name, _MODULES[ns])
        _FUNCS[name] = fn
    return fn


def populate(namespace: dict, which: str) -> list[str]:
    """Put every operator routed to ``which`` into ``namespace``; return the names."""
    names = []
    for name in _registry.all_names():
        ns, public = route(name)
        if ns == which and public not in namespace:
            namespace[public] = function_for(name)
            names.append(public)
    return names


def attach_fluent(cls) -> None:
    """Give ``cls`` MXNet's fluent methods (``s.sum(axis=1)``) for registered operators."""
    for method, opname in {**FLUENT_METHODS, "reshape": "Reshape"}.items():
        if method.startswith("slice_assign"):
            continue  # NDArray-only in MXNet
        if _registry.has_op(opname) and not hasattr(cls, method):
            setattr(cls, method, _fluent(opname, method))


def _fluent(opname: str, public: str):
    def method(self, *args, **kwargs):
        return function_for(opname)(self, *args, **kwargs)

    method.__name__ = public
    method.__doc__ = f"Fluent form of :func:`mxnet.symbol.{opname}` on this symbol."
    return method


def lazy_getattr(which: str, module_name: str):
    """Module ``__getattr__`` resolving operators registered after the module was filled."""

    def __getattr__(attr: str):
        for name in _registry.all_names():
            ns, public = route(name)
            if ns == which and public == attr:
                return function_for(name)
        raise AttributeError(f"module {module_name!r} has no attribute {attr!r}")

    return __getattr__
