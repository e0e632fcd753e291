"""``mx.sym.np``: NumPy-interface symbols, what ``F.np`` is inside a hybridized block.

``_Symbol`` is a :class:`~mxnet.symbol.Symbol` whose operators follow NumPy (broadcasting,
type promotion: the ``_npi_*`` registry operators), as ``mx.np.ndarray``'s do. The functions
of ``mx.np`` accept symbols too (they dispatch on their inputs), so the same front ends serve
both; only functions without array inputs (creation) have symbol versions here.
"""

from __future__ import annotations

from ..._op._np_arith import NP_TABLE
from ...base import numeric_types
from ..symbol import Symbol

__all__ = ["_Symbol", "np_symbol_call"]


def _as_np_sym(s):
    if isinstance(s, Symbol) and s.__class__ is Symbol:
        s.__class__ = _Symbol
    return s


def np_symbol_call(opname: str, inputs: list, attrs: dict | None = None, name=None):
    """Apply registry operator ``opname`` to symbol ``inputs``; returns ``_Symbol``."""
    from .._create import create_op_symbol

    for x in inputs:
        if not isinstance(x, Symbol):
            raise TypeError(f"Operator {opname}: cannot mix Symbol and {type(x).__name__} "
                            "inputs")
    res = create_op_symbol(opname, list(inputs), {}, dict(attrs or {}), name=name)
    return _as_np_sym(res)


class _Symbol(Symbol):
    """A symbol with NumPy semantics (MXNet's ``mxnet.symbol.numpy._Symbol``)."""

    __slots__ = ()
    _ARITH = NP_TABLE

    def _arith_call(self, opname, inputs, attrs, out=None):
        return np_symbol_call(opname, inputs, attrs)

    def _binary(self, kind, other, reflected=False, out=None):
        table = self._ARITH[kind]
        if isinstance(other, Symbol):
            ins = [other, self] if reflected else [self, other]
            return np_symbol_call(table[0], ins, {})
        if isinstance(other, bool):
            other = int(other)
        if isinstance(other, numeric_types):
            return np_symbol_call(table[2] if reflected else table[1], [self],
                                  {"scalar": other, "is_int": isinstance(other, int)})
        raise TypeError(f"type {type(other)} not supported")

    def __neg__(self):
        return np_symbol_call("_npi_negative", [self])

    def __abs__(self):
        return np_symbol_call("_npi_absolute", [self])

    def __getitem__(self, key):
        return _as_np_sym(Symbol.__getitem__(self, key))

    def as_nd_ndarray(self) -> Symbol:
        """The same graph as a classic Symbol."""
        return Symbol._from_entries(self._outputs)

    def as_np_ndarray(self) -> _Symbol:
        return self
