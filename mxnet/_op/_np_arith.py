"""NumPy-interface (``mx.np``) arithmetic: the ``_npi_*`` operators behind ``+ - * / % **``
and comparisons of ``mx.np.ndarray`` (names as in MXNet 1.9.1 symbol files).

MXNet 1.9.1's dtype rules, checked against it (they are not NumPy's):

- ``add``/``multiply``/``power`` of two arrays: a float with anything gives the float (the
  wider of two floats); two integer/boolean dtypes give the wider one, except int8 with
  uint8, which is an error; bool with bool stays bool.
- ``subtract``/``mod``: as above when a float is involved; two *different* integer/boolean
  dtypes are an error, and so is bool with bool.
- ``true_divide``: a float with an integer/boolean gives the float; two different floats or
  two different integer dtypes are an error; equal integer (or bool) dtypes give float32.
- comparisons need equal dtypes and give bool.
- with a Python scalar the array's dtype wins: an integer array casts the scalar to its own
  dtype (truncation, wrap-around), a boolean array becomes int64 (comparisons cast the scalar
  to bool instead), true division of integers gives float32.
- ``mod`` by zero gives 0; an integer power with a negative exponent is computed in float64
  and cast back (0 for ``|base| > 1``).
"""

from __future__ import annotations

import numpy as _onp
import torch

from .. import _int_grad
from .._dtype import dtype_name, to_torch
from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, get_op, register
from ._state import state

__all__ = ["NP_TABLE", "np_result_type", "np_binary_type"]

_MIXED = ("add", "multiply", "power")  # ops that promote between integer dtypes
_CMP = ("equal", "not_equal", "greater", "less", "greater_equal", "less_equal")


def _is_float(name: str) -> bool:
    return name.startswith(("float", "bfloat"))


def np_result_type(a: str | None, b: str | None) -> str | None:
    """The promoted dtype name of two dtype names (``None`` while unknown)."""
    if a is None or b is None:
        return None
    return dtype_name(torch.promote_types(to_torch(a), to_torch(b)))


def np_binary_type(op: str, a: str, b: str) -> str:
    """The output dtype name of ``_npi_<op>`` on arrays of dtypes ``a`` and ``b``; raises
    MXNetError for the pairs MXNet 1.9.1 refuses."""
    if op in _CMP:
        if a != b:
            raise MXNetError(f"Operator _npi_{op}: type inconsistent, Provided = {a}, "
                             f"inferred type = {b}")
        return "bool"
    fa, fb = _is_float(a), _is_float(b)
    if a == b:
        if a == "bool" and op in ("subtract", "mod"):
            raise MXNetError(f"Operator _npi_{op}: boolean arrays are not supported")
        if op == "true_divide" and not fa:
            return "float32"
        return a
    if fa and fb:
        if op == "true_divide":
            raise MXNetError(f"Operator _npi_{op}: type inconsistent, Provided = {a}, "
                             f"inferred type = {b}")
        return np_result_type(a, b)
    if fa or fb:
        return a if fa else b
    if op not in _MIXED or {a, b} == {"int8", "uint8"}:
        raise MXNetError(f"Operator _npi_{op}: type inconsistent, Provided = {a}, "
                         f"inferred type = {b} (mixed integer dtypes are not supported)")
    return np_result_type(a, b)


def _safe_mod(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    zero = b == 0
    r = torch.where(zero, torch.zeros((), dtype=a.dtype, device=a.device),
                    torch.remainder(a, torch.where(zero, torch.ones((), dtype=b.dtype,
                                                                    device=b.device), b)))
    return r + 0.0 if r.is_floating_point() else r  # MXNet gives +0.0, never -0.0


def _power(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.is_floating_point():
        return torch.pow(a, b)
    if a.dtype == torch.bool:
        return torch.pow(a.to(torch.int64), b.to(torch.int64)).to(torch.bool)
    if not a.is_meta and bool((b < 0).any()):  # negative integer exponents: C's pow, truncated
        return _pow_via_double(a, b, a.dtype)
    return torch.pow(a, b)


def _pow_via_double(a, b, dtype: torch.dtype) -> torch.Tensor:
    """C's ``(T)pow((double)a, (double)b)`` for integer ``T`` (wrapping through int64)."""
    a = a.to(torch.float64) if isinstance(a, torch.Tensor) else float(a)
    b = b.to(torch.float64) if isinstance(b, torch.Tensor) else float(b)
    return torch.pow(a, b).to(torch.int64).to(dtype)


_FN = {
    "add": torch.add, "subtract": torch.sub, "multiply": torch.mul,
    "true_divide": torch.true_divide, "mod": _safe_mod, "power": _power,
    "equal": torch.eq, "not_equal": torch.ne, "greater": torch.gt, "less": torch.lt,
    "greater_equal": torch.ge, "less_equal": torch.le,
}

_DOC = {
    "add": "Sum", "subtract": "Difference", "multiply": "Product", "true_divide": "Quotient",
    "mod": "Remainder (sign of the divisor, like NumPy; 0 where the divisor is 0)",
    "power": "First array raised to the second", "equal": "Equality",
    "not_equal": "Inequality", "greater": "Greater than", "less": "Less than",
    "greater_equal": "Greater or equal", "less_equal": "Less or equal",
}


def _zero_grad_link(res: torch.Tensor, *ins: torch.Tensor) -> torch.Tensor:
    """A boolean result recorded from differentiable inputs: backward from it gives the
    inputs zero gradients (as MXNet does) instead of failing."""
    src = [x for x in ins if isinstance(x, torch.Tensor) and x.requires_grad]
    if src and state.is_recording and not res.is_meta:
        zero = sum((x * 0).sum().to(torch.float64) for x in src)
        res._mx_shadow = res.detach().to(torch.float64) + zero
        _int_grad.ACTIVE[0] = 1
    return res


def _binary_kernel(op: str):
    fn = _FN[op]

    cache: dict = {}  # (lhs dtype, rhs dtype) -> (result dtype name, torch dtype)

    def compute(attrs, a, b):
        key = (a.dtype, b.dtype)
        hit = cache.get(key)
        if hit is None:
            out = np_binary_type(op, dtype_name(a.dtype), dtype_name(b.dtype))
            hit = cache[key] = (out, to_torch(out))  # (the type check raises before this)
        out, work = hit
        if op in _CMP:
            return _zero_grad_link(fn(a, b), a, b)
        if out == "bool" and op == "add":
            return torch.logical_or(a, b)
        if out == "bool" and op == "multiply":
            return torch.logical_and(a, b)
        if a.dtype is not work:
            a = a.to(work)
        if b.dtype is not work:
            b = b.to(work)
        return fn(a, b)

    return compute


def _binary_type(op: str):
    def infer(attrs, ins):
        a, b = ins
        if a is None or b is None:
            return ins, [None]
        return ins, [np_binary_type(op, a, b)]

    return infer


for _op in _FN:
    _name = f"_npi_{_op}"
    register(OpDef(_name, _binary_kernel(_op), inputs=("lhs", "rhs"),
                   infer_type=_binary_type(_op),
                   doc=f"{_DOC[_op]} of two arrays with NumPy broadcasting (``mx.np``).\n\n"
                       f"Example: ``mx.nd._internal.{_name}(a, b)``"))

# ---------------------------------------------------------------------------------------
# with a Python scalar

_SCALAR_PARAMS = [Param("scalar", "float", 1.0, doc="Scalar input value"),
                  Param("is_int", "bool", True, doc="Whether the scalar is a Python int")]


def cast_scalar(s, dtype: torch.dtype):
    """``s`` converted as C casts it to an array of ``dtype`` (integers truncate and wrap,
    bool is ``s != 0``)."""
    if dtype == torch.bool:
        return bool(s)
    if dtype.is_floating_point:
        return float(s)
    np_dt = _onp.dtype(dtype_name(dtype))
    return int(_onp.array(int(s), dtype=_onp.int64).astype(np_dt))


def _scalar_kernel(op: str, reverse: bool):
    fn = _FN[op]

    def compute(attrs, x):
        s = attrs["scalar"]
        if x.dtype in (torch.float16, torch.bfloat16):
            # MXNet's kernels take DType(scalar): the scalar is rounded to float16 first
            s = torch.tensor(float(s), dtype=x.dtype).item()
        if op in _CMP:
            s = cast_scalar(s, x.dtype)
        elif x.is_floating_point():
            pass
        elif op == "true_divide":
            x = x.to(torch.float32)
        else:
            if x.dtype == torch.bool:
                x = x.to(torch.int64)
            if op == "power" and (int(s) < 0 or cast_scalar(s, x.dtype) != int(s)):
                return _pow_via_double(int(s), x, x.dtype) if reverse else \
                    _pow_via_double(x, int(s), x.dtype)
            s = cast_scalar(s, x.dtype)
        other = torch.full((), s, dtype=x.dtype, device=x.device)
        if op in _CMP:
            return _zero_grad_link(fn(x, s), x)
        if reverse:
            return fn(other, x)
        if op in ("add", "subtract", "multiply", "true_divide"):
            return fn(x, s)
        return fn(x, other)

    return compute


def _scalar_type(op: str):
    def infer(attrs, ins):
        t = ins[0]
        if t is None:
            return ins, [None]
        if op in _CMP:
            return ins, ["bool"]
        if _is_float(t):
            return ins, [t]
        if op == "true_divide":
            return ins, ["float32"]
        return ins, ["int64" if t == "bool" else t]

    return infer


def _same_shape(attrs, shapes):
    return shapes


_REVERSIBLE = ("subtract", "true_divide", "mod", "power")
for _op in _FN:
    for _rev in (False, True) if _op in _REVERSIBLE else (False,):
        _name = f"_npi_{'r' if _rev else ''}{_op}_scalar"
        register(OpDef(_name, _scalar_kernel(_op, _rev), params=_SCALAR_PARAMS,
                       infer_shape=_same_shape, infer_type=_scalar_type(_op),
                       doc=f"{_DOC[_op]} of an array and a scalar"
                           f"{' (scalar on the left)' if _rev else ''} (``mx.np``).\n\n"
                           f"Example: ``mx.nd._internal.{_name}(a, scalar=2.0)``"))

# the Python operators of mx.np.ndarray / mx.sym.np._Symbol: kind -> (array-array op,
# array-scalar op, scalar-array op)
NP_TABLE = {
    "add": ("_npi_add", "_npi_add_scalar", "_npi_add_scalar"),
    "sub": ("_npi_subtract", "_npi_subtract_scalar", "_npi_rsubtract_scalar"),
    "mul": ("_npi_multiply", "_npi_multiply_scalar", "_npi_multiply_scalar"),
    "div": ("_npi_true_divide", "_npi_true_divide_scalar", "_npi_rtrue_divide_scalar"),
    "mod": ("_npi_mod", "_npi_mod_scalar", "_npi_rmod_scalar"),
    "pow": ("_npi_power", "_npi_power_scalar", "_npi_rpower_scalar"),
    "eq": ("_npi_equal", "_npi_equal_scalar", "_npi_equal_scalar"),
    "ne": ("_npi_not_equal", "_npi_not_equal_scalar", "_npi_not_equal_scalar"),
    "gt": ("_npi_greater", "_npi_greater_scalar", "_npi_less_scalar"),
    "ge": ("_npi_greater_equal", "_npi_greater_equal_scalar", "_npi_less_equal_scalar"),
    "lt": ("_npi_less", "_npi_less_scalar", "_npi_greater_scalar"),
    "le": ("_npi_less_equal", "_npi_less_equal_scalar", "_npi_greater_equal_scalar"),
}


def _negative(attrs, x):
    if x.dtype == torch.bool:
        raise MXNetError("Operator _npi_negative: the negative of a boolean array is not "
                         "supported; use logical_not")
    return torch.neg(x)


register(OpDef("_npi_negative", _negative, infer_shape=_same_shape,
               doc="Numerical negative, element-wise (``mx.np.negative``).\n\n"
                   "Example: ``mx.np.negative(mx.np.array([1., -2.]))``"))
register(OpDef("_npi_absolute", lambda attrs, x: x if x.dtype == torch.bool else torch.abs(x),
               infer_shape=_same_shape, aliases=("_npi_abs",),
               doc="Absolute value, element-wise (``mx.np.absolute``).\n\n"
                   "Example: ``mx.np.absolute(mx.np.array([1., -2.]))``"))


class NpOperatorsMixin:
    """The reflected and comparison operators of ``mx.np.ndarray`` and ``mx.sym.np._Symbol``.

    They are installed on this class itself (not only inherited from the classic
    ``ArithMixin``) so that Python tries them first when a classic array or symbol is the left
    operand: mixing the two then raises MXNet's TypeError instead of silently using the
    classic operator.
    """

    __slots__ = ()
    __hash__ = object.__hash__  # (defining __eq__ would otherwise make instances unhashable)


def _np_operator(kind: str, reflected: bool):
    def method(self, o):
        return self._binary(kind, o, reflected)

    return method


for _dunder, _kind, _refl in (
        ("__radd__", "add", True), ("__rsub__", "sub", True), ("__rmul__", "mul", True),
        ("__rtruediv__", "div", True), ("__rmod__", "mod", True), ("__rpow__", "pow", True),
        ("__eq__", "eq", False), ("__ne__", "ne", False), ("__gt__", "gt", False),
        ("__ge__", "ge", False), ("__lt__", "lt", False), ("__le__", "le", False)):
    setattr(NpOperatorsMixin, _dunder, _np_operator(_kind, _refl))


# MXNet 1.9.1's np mod on integer arrays differentiates to zero (its integer backward kernel)
for _name in ("_npi_mod", "_npi_mod_scalar", "_npi_rmod_scalar"):
    get_op(_name).int_grad_zero = True
