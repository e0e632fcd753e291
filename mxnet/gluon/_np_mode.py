"""Gluon under ``npx.set_np()``: the ``F`` handed to ``hybrid_forward`` and array conversion.

In NumPy mode MXNet's blocks take and return ``mx.np`` arrays (``_Symbol`` while tracing).
Here ``F`` is a :class:`NpNamespace` over ``mx.nd`` (or ``mx.sym``): its ``F.np`` and
``F.npx`` are the NumPy interfaces, and the classic operators the built-in layers call
(``F.FullyConnected``, ``F.Pooling``...) return ``mx.np`` arrays / ``_Symbol`` s, so results
keep NumPy semantics (broadcasting arithmetic, NumPy indexing) downstream.
"""

from __future__ import annotations

import functools
import types

from ..util import is_np_array

__all__ = ["NpNamespace", "to_np", "to_legacy", "np_F", "is_nd_namespace"]


def to_np(value):
    """``value`` with every NDArray made ``mx.np.ndarray`` and every Symbol ``_Symbol``
    (same storage / graph, no copy); lists and tuples are converted element-wise."""
    from ..ndarray import NDArray
    from ..numpy.multiarray import wrap
    from ..symbol import Symbol
    from ..symbol.numpy import _as_np_sym

    if isinstance(value, NDArray):
        return wrap(value)
    if isinstance(value, Symbol):
        return _as_np_sym(value)
    if isinstance(value, (list, tuple)):
        return type(value)(to_np(v) for v in value)
    return value


def to_legacy(value):
    """``value`` with every ``mx.np.ndarray`` made a classic NDArray and every ``_Symbol`` a
    classic Symbol (same storage / graph, gradient buffer shared); lists and tuples are
    converted element-wise."""
    from ..numpy import ndarray as np_ndarray
    from ..symbol.numpy import _Symbol

    if isinstance(value, (np_ndarray, _Symbol)):
        return value.as_nd_ndarray()
    if isinstance(value, (list, tuple)):
        return type(value)(to_legacy(v) for v in value)
    return value


class _SymNp:
    """``F.np`` while tracing: ``mx.sym.np`` (symbol creation functions) first, then the
    array-dispatching functions of ``mx.np``."""

    def __getattr__(self, name):
        from .. import numpy as _np
        from ..symbol import numpy as _sym_np

        attr = getattr(_sym_np, name, None)
        if attr is None:
            attr = getattr(_np, name)
        return attr


class _SymNpx:
    """``F.npx`` while tracing: ``mx.sym.npx.random`` (samplers building graph nodes) and
    ``image``, then the array-dispatching functions of ``mx.npx``."""

    def __getattr__(self, name):
        from .. import numpy_extension
        from ..symbol import numpy_extension as _sym_npx

        if name in ("random", "image"):
            return getattr(_sym_npx, name)
        return getattr(numpy_extension, name)


class NpNamespace:
    """``F`` in NumPy mode: ``mx.nd`` / ``mx.sym`` whose functions return NumPy-interface
    arrays or symbols, plus ``F.np`` and ``F.npx``.

    Examples
    --------
    >>> from mxnet import nd
    >>> F = NpNamespace(nd, symbolic=False)
    >>> type(F.relu(nd.ones((2,)).as_np_ndarray())).__name__
    'ndarray'
    """

    def __init__(self, base, symbolic: bool):
        self._base = base
        self._symbolic = symbolic
        self._cache = {}

    @property
    def np(self):
        if self._symbolic:
            return _SymNp()
        from .. import numpy as _np

        return _np

    @property
    def npx(self):
        if self._symbolic:
            return _SymNpx()
        from .. import numpy_extension

        return numpy_extension

    def __getattr__(self, name):
        hit = self._cache.get(name)
        if hit is not None:
            return hit
        attr = getattr(self._base, name)
        if isinstance(attr, types.ModuleType):
            res = NpNamespace(attr, self._symbolic)
        elif not callable(attr) or isinstance(attr, type):
            return attr
        else:
            fn = attr

            @functools.wraps(fn)
            def res(*args, **kwargs):
                # the classic operator gets classic arrays / symbols (same storage / graph)
                args = [to_legacy(a) for a in args]
                kwargs = {k: to_legacy(v) for k, v in kwargs.items()}
                return to_np(fn(*args, **kwargs))

        self._cache[name] = res
        return res

    def __repr__(self):
        # printed like the module itself, as MXNet passes ``mx.nd`` / ``mx.sym`` as F
        return repr(self._base)


_NAMESPACES: dict = {}


def np_F(base, symbolic: bool):
    """The (cached) NumPy-mode ``F`` over module ``base``."""
    ns = _NAMESPACES.get(base.__name__)
    if ns is None:
        ns = _NAMESPACES[base.__name__] = NpNamespace(base, symbolic)
    return ns


def pick_F(base, symbolic: bool):
    """``base`` itself, or its NumPy-mode namespace when ``npx.set_np()`` is on."""
    return np_F(base, symbolic) if is_np_array() else base


def is_nd_namespace(F) -> bool:
    """Whether ``F`` computes eagerly (``mx.nd`` or its NumPy-mode namespace)."""
    from .. import ndarray
    from ._deferred import InferNamespace

    if isinstance(F, InferNamespace):  # the first (deferred-init) eager call
        F = F._base
    return F is ndarray or (isinstance(F, NpNamespace) and not F._symbolic)
