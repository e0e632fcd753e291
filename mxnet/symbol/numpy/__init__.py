"""``mx.sym.np``: NumPy-interface symbols, what ``F.np`` is inside a hybridized block.

``_Symbol`` is a :class:`~mxnet.symbol.Symbol` whose operators follow NumPy (broadcasting,
type promotion: the ``_npi_*`` registry operators), as ``mx.np.ndarray``'s do. The functions
of ``mx.np`` accept symbols too (they dispatch on their inputs), so the same front ends serve
both; only functions without array inputs (creation) have symbol versions here.
"""

from __future__ import annotations

import numpy as _onp

from ..._op._arith import SYMBOL_TABLE
from ..._op._np_arith import NP_TABLE, NpOperatorsMixin
from ...base import numeric_types
from ..symbol import Symbol

__all__ = ["_Symbol", "np_symbol_call"]


def _as_np_sym(s):
    if isinstance(s, Symbol) and s.__class__ is Symbol:
        s.__class__ = _Symbol
    return s


_PREFIXES = ("_npi_", "_npx_", "_np_")


def _hint(opname: str) -> str:
    """MXNet's node-name hint of an np operator: its name without the ``_npi_`` prefix."""
    for p in _PREFIXES:
        if opname.startswith(p):
            return opname[len(p):]
    return opname.lower()


def np_symbol_call(opname: str, inputs: list, attrs: dict | None = None, name=None,
                   hint: str | None = None):
    """Apply registry operator ``opname`` to symbol ``inputs``; returns ``_Symbol``.

    ``name`` names the node; otherwise it is numbered after ``hint`` (the front end's name,
    as MXNet's ``npx.fully_connected`` gives ``fully_connected0``) or the operator's."""
    from ...name import NameManager
    from .._create import _current_manager, create_op_symbol

    for x in inputs:
        if not isinstance(x, Symbol):
            raise TypeError(f"Operator {opname}: cannot mix Symbol and {type(x).__name__} "
                            "inputs")
        if not isinstance(x, _Symbol):
            raise TypeError(f"Operator `{opname}` registered in backend is known as "
                            f"`{_hint(opname)}` in Python. This is a numpy operator which can "
                            "only accept MXNet numpy ndarrays, while received a legacy "
                            "ndarray. Please call `as_np_ndarray()` upon the legacy ndarray "
                            "to convert it to an MXNet numpy ndarray, and then feed the "
                            "converted array to this operator.")
    full = _current_manager().get(name, hint or _hint(opname))
    with NameManager():  # the name is final: no second prefix
        res = create_op_symbol(opname, list(inputs), {}, dict(attrs or {}), name=full)
    return _as_np_sym(res)


def _index_error(key):
    return IndexError(f"Only integer, slice, or tuple of these types are supported! Received "
                      f"key={key}")


class _Symbol(NpOperatorsMixin, Symbol):
    """A symbol with NumPy semantics (MXNet's ``mxnet.symbol.numpy._Symbol``)."""

    __slots__ = ()
    _ARITH = NP_TABLE

    def _arith_call(self, opname, inputs, attrs, out=None):
        return np_symbol_call(opname, inputs, attrs)

    def _binary(self, kind, other, reflected=False, out=None):
        table = self._ARITH[kind]
        if isinstance(other, Symbol):
            if not isinstance(other, _Symbol) and reflected:
                raise TypeError(f"Operator `{SYMBOL_TABLE[kind][0]}` is a legacy operator "
                                "which can only accept legacy ndarrays, while received an "
                                "MXNet numpy ndarray. Please call `as_nd_ndarray()` upon the "
                                "numpy ndarray to convert it to a legacy ndarray, and then "
                                "feed the converted array to this operator.")
            ins = [other, self] if reflected else [self, other]
            return np_symbol_call(table[0], ins, {})
        if isinstance(other, bool):
            other = int(other)
        if isinstance(other, numeric_types) and not isinstance(other, _onp.ndarray):
            # MXNet marks the scalar of a reflected -, *, /, %, ** as a float
            is_int = isinstance(other, (int, _onp.integer)) and (
                not reflected or kind not in ("sub", "mul", "div", "mod", "pow"))
            return np_symbol_call(table[2] if reflected else table[1], [self],
                                  {"scalar": float(other), "is_int": is_int})
        raise TypeError(f"type {type(other)} not supported")

    def __neg__(self):
        return np_symbol_call("_npi_multiply_scalar", [self], {"scalar": -1.0, "is_int": False})

    def __abs__(self):
        raise AttributeError("_Symbol object has no attribute abs")

    @property
    def T(self) -> _Symbol:
        """All axes reversed (``_np_transpose``)."""
        return np_symbol_call("_np_transpose", [self], {"axes": None})

    def __getitem__(self, key):
        """An output of a multi-output symbol; on one output, NumPy basic indexing (ints and
        slices) as ``slice`` + ``_npx_reshape`` nodes."""
        if len(self._outputs) > 1:
            return _as_np_sym(Symbol.__getitem__(self, key))
        items = key if isinstance(key, tuple) else (key,)
        if not all(isinstance(k, (int, _onp.integer, slice)) and not isinstance(k, bool)
                   for k in items):
            raise _index_error(key)
        if isinstance(key, slice):
            return np_symbol_call("slice", [self], {"begin": (key.start,), "end": (key.stop,),
                                                    "step": (key.step,)})
        begin, end, step = [], [], []
        for k in items:
            if isinstance(k, slice):
                begin.append(k.start)
                end.append(k.stop)
                step.append(k.step)
            else:
                k = int(k)
                begin.append(k)
                end.append(k + 1 if k != -1 else None)
                step.append(1)
        res = np_symbol_call("slice", [self], {"begin": tuple(begin), "end": tuple(end),
                                               "step": tuple(step)})
        if any(not isinstance(k, slice) for k in items):
            codes = tuple(-2 if isinstance(k, slice) else -3 for k in items) + (-4,)
            res = np_symbol_call("_npx_reshape", [res], {"newshape": codes})
        return res

    def as_nd_ndarray(self) -> Symbol:
        """The same graph as a classic Symbol."""
        return Symbol._from_entries(self._outputs)

    def as_np_ndarray(self) -> _Symbol:
        return self


from ._create import *  # noqa: E402,F401,F403  (B: creation and shape front ends)


class _SymbolicRandom:
    """``mx.sym.np.random``: ``mx.np.random``'s front ends building symbols even when every
    parameter is a Python scalar (a sampler node in the graph, drawn at each run). Also
    ``mx.sym.npx.random`` over ``mxnet.numpy_extension.random``."""

    def __init__(self, module: str = "mxnet.numpy.random"):
        self._module = module

    def __getattr__(self, name):
        import functools
        import importlib

        fn = getattr(importlib.import_module(self._module), name)
        if not callable(fn):
            return fn

        @functools.wraps(fn)
        def symbolic(*args, **kwargs):
            from ...numpy.multiarray import SYMBOLIC

            prev, SYMBOLIC.on = SYMBOLIC.on, True
            try:
                return fn(*args, **kwargs)
            finally:
                SYMBOLIC.on = prev

        return symbolic


_symbolic_random = _SymbolicRandom()


def __getattr__(name: str):
    """Other ``mx.sym.np.<f>``: the ``mx.np`` front end of that name, which builds symbols
    when given symbols (one front end serves arrays and symbols)."""
    if name.startswith("__"):
        raise AttributeError(name)
    from ... import numpy as _mx_np

    if name == "linalg":  # its front ends build symbols from symbol inputs
        import importlib

        return importlib.import_module("mxnet.numpy.linalg")
    if name == "random":
        return _symbolic_random
    if name == "_internal":  # its functions build symbols from symbol inputs
        return _mx_np._internal
    fn = getattr(_mx_np, name, None)
    if fn is None or not callable(fn) or isinstance(fn, type):
        raise AttributeError(f"module 'mxnet.symbol.numpy' has no attribute '{name}'")
    return fn


def _keep_np_class(name: str, method):
    def wrapped(self, *args, **kwargs):
        res = method(self, *args, **kwargs)
        if isinstance(res, (list, tuple)):
            return type(res)(_as_np_sym(r) for r in res)
        return _as_np_sym(res)

    wrapped.__name__ = name
    wrapped.__doc__ = method.__doc__
    return wrapped


# Symbol methods without a NumPy-specific version (astype, copy, the generated fluent
# operators...) keep returning ``_Symbol`` on ``_Symbol`` (the NumPy front ends installed on
# the class later replace these)
for _name in [n for n in dir(Symbol) if not n.startswith("_")]:
    _m = getattr(Symbol, _name)
    if callable(_m) and not isinstance(_m, type) and _name not in _Symbol.__dict__ \
            and _name not in ("tojson", "save", "list_arguments", "list_outputs",
                              "list_auxiliary_states", "list_inputs", "list_attr",
                              "attr_dict", "attr", "infer_shape", "infer_shape_partial",
                              "infer_type", "infer_type_partial", "debug_str", "bind",
                              "simple_bind", "eval", "get_internals", "get_children"):
        setattr(_Symbol, _name, _keep_np_class(_name, _m))
del _name, _m


def __dir__():
    """The module's own names and the ``mx.np`` front ends reachable through it."""
    from ... import numpy as _mx_np

    own = set(globals())
    extra = {n for n in dir(_mx_np) if not n.startswith("_") and callable(getattr(_mx_np, n))
             and not isinstance(getattr(_mx_np, n), type)}
    return sorted(own | extra | {"linalg", "random"})
