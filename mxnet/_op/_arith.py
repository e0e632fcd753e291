"""Python operators (``+``, ``*``, ``<``...) shared by NDArray and Symbol.

Each class supplies a table mapping an operator kind to the registry op used between two
arrays, with a scalar on the right and with a scalar on the left. NDArray's table uses the
broadcasting ops; Symbol's keeps MXNet's element-wise (non-broadcasting) ops.
"""

from __future__ import annotations

from ..base import numeric_types

# kind -> (array-array op, array-scalar op, scalar-array op)
NDARRAY_TABLE = {
    "add": ("broadcast_add", "_plus_scalar", "_plus_scalar"),
    "sub": ("broadcast_sub", "_minus_scalar", "_rminus_scalar"),
    "mul": ("broadcast_mul", "_mul_scalar", "_mul_scalar"),
    "div": ("broadcast_div", "_div_scalar", "_rdiv_scalar"),
    "mod": ("broadcast_mod", "_mod_scalar", "_rmod_scalar"),
    "pow": ("broadcast_power", "_power_scalar", "_rpower_scalar"),
    "eq": ("broadcast_equal", "_equal_scalar", "_equal_scalar"),
    "ne": ("broadcast_not_equal", "_not_equal_scalar", "_not_equal_scalar"),
    "gt": ("broadcast_greater", "_greater_scalar", "_lesser_scalar"),
    "ge": ("broadcast_greater_equal", "_greater_equal_scalar", "_lesser_equal_scalar"),
    "lt": ("broadcast_lesser", "_lesser_scalar", "_greater_scalar"),
    "le": ("broadcast_lesser_equal", "_lesser_equal_scalar", "_greater_equal_scalar"),
}

SYMBOL_TABLE = {
    "add": ("_Plus", "_PlusScalar", "_PlusScalar"),
    "sub": ("_Minus", "_MinusScalar", "_RMinusScalar"),
    "mul": ("_Mul", "_MulScalar", "_MulScalar"),
    "div": ("_Div", "_DivScalar", "_RDivScalar"),
    "mod": ("_Mod", "_ModScalar", "_RModScalar"),
    "pow": ("_Power", "_PowerScalar", "_rpower_scalar"),  # MXNet's __rpow__: _rpower_scalar0
    "eq": ("_equal", "_equal_scalar", "_equal_scalar"),
    "ne": ("_not_equal", "_not_equal_scalar", "_not_equal_scalar"),
    "gt": ("_greater", "_greater_scalar", "_lesser_scalar"),
    "ge": ("_greater_equal", "_greater_equal_scalar", "_lesser_equal_scalar"),
    "lt": ("_lesser", "_lesser_scalar", "_greater_scalar"),
    "le": ("_lesser_equal", "_lesser_equal_scalar", "_greater_equal_scalar"),
}


class ArithMixin:
    """Operator overloads; subclasses set ``_ARITH`` and implement ``_arith_call``."""

    _ARITH: dict = {}
    __slots__ = ()

    def _arith_call(self, opname: str, inputs: list, attrs: dict, out=None):
        raise TypeError(f"{type(self).__name__} does not define _arith_call")

    def _binary(self, kind: str, other, reflected: bool = False, out=None):
        table = self._ARITH[kind]
        if isinstance(other, ArithMixin):
            ins = [other, self] if reflected else [self, other]
            return self._arith_call(table[0], ins, {}, out)
        if isinstance(other, numeric_types):
            return self._arith_call(table[2] if reflected else table[1], [self],
                                    {"scalar": other}, out)
        raise TypeError(f"type {type(other)} not supported")

    def __add__(self, o):
        return self._binary("add", o)

    def __radd__(self, o):
        return self._binary("add", o, True)

    def __sub__(self, o):
        return self._binary("sub", o)

    def __rsub__(self, o):
        return self._binary("sub", o, True)

    def __mul__(self, o):
        return self._binary("mul", o)

    def __rmul__(self, o):
        return self._binary("mul", o, True)

    def __truediv__(self, o):
        return self._binary("div", o)

    def __rtruediv__(self, o):
        return self._binary("div", o, True)

    __div__ = __truediv__
    __rdiv__ = __rtruediv__

    def __mod__(self, o):
        return self._binary("mod", o)

    def __rmod__(self, o):
        return self._binary("mod", o, True)

    def __pow__(self, o):
        return self._binary("pow", o)

    def __rpow__(self, o):
        return self._binary("pow", o, True)

    def __neg__(self):
        return self._arith_call("negative", [self], {})

    def __abs__(self):
        return self._arith_call("abs", [self], {})

    def __eq__(self, o):
        return self._binary("eq", o)

    def __ne__(self, o):
        return self._binary("ne", o)

    def __gt__(self, o):
        return self._binary("gt", o)

    def __ge__(self, o):
        return self._binary("ge", o)

    def __lt__(self, o):
        return self._binary("lt", o)

    def __le__(self, o):
        return self._binary("le", o)

    __hash__ = object.__hash__
