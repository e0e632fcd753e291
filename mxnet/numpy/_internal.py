"""``mx.nd.np._internal``: the ``_npi_*`` operators under their short names (MXNet 1.9.1's
``mxnet.ndarray.numpy._internal``), e.g. ``_internal.boolean_mask_assign_scalar``.

Each function takes the operator's inputs positionally, then its parameters, and returns
``mx.np.ndarray`` results; given symbols (``F.np._internal`` in a hybridized block) it builds
``mx.sym.np`` symbols instead.

Examples
--------
>>> from mxnet import np
>>> np._internal.add_scalar(np.ones(2), scalar=1.0)
array([2., 2.])
"""

from __future__ import annotations

from .._op import _registry

_CACHE: dict = {}


def _make(opname: str):
    from ..ndarray._namespace import function_for as nd_function_for
    from ..symbol._namespace import function_for as sym_function_for
    from ..symbol.numpy import _as_np_sym
    from .multiarray import _is_symbol, wrap

    def fn(*args, **kwargs):
        if any(_is_symbol(a) for a in args) or any(_is_symbol(v) for v in kwargs.values()):
            res = sym_function_for(opname)(*args, **kwargs)
            if isinstance(res, (list, tuple)):
                return type(res)(_as_np_sym(r) for r in res)
            return _as_np_sym(res)
        return wrap(nd_function_for(opname)(*args, **kwargs))

    fn.__name__ = opname[len("_npi_"):]
    fn.__doc__ = f"The ``{opname}`` operator (see ``mx.nd._internal.{opname}``)."
    return fn


def __getattr__(attr: str):
    if attr.startswith("__"):
        raise AttributeError(attr)
    fn = _CACHE.get(attr)
    if fn is None:
        opname = "_npi_" + attr
        if not _registry.has_op(opname):
            raise AttributeError(f"module 'mxnet.ndarray.numpy._internal' has no attribute "
                                 f"'{attr}'")
        fn = _CACHE[attr] = _make(opname)
    return fn


def __dir__():
    return sorted(n[len("_npi_"):] for n in _registry.all_names() if n.startswith("_npi_"))
