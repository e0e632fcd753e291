"""NumPy-interface (``mx.np``) arithmetic: the ``_npi_*`` operators behind ``+ - * / % **``
and comparisons of ``mx.np.ndarray`` (names as in MXNet 1.9.1 symbol files).

MXNet 1.9.1's rules, checked against it: two arrays follow NumPy type promotion (int32 +
float32 -> float32, bool + bool stays bool, f16 + f32 -> f32); an integer or boolean array
with a Python scalar keeps an integer dtype (bool becomes int64) and the scalar is truncated
to an integer; true division of integers gives float32; comparisons give bool and need equal
dtypes between two arrays.
"""

from __future__ import annotations

import torch

from .._dtype import dtype_name, to_torch
from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register

__all__ = ["NP_TABLE", "np_result_type"]


def np_result_type(a: str | None, b: str | None) -> str | None:
    """The promoted dtype name of two dtype names (``None`` while unknown)."""
    if a is None or b is None:
        return None
    return dtype_name(torch.promote_types(to_torch(a), to_torch(b)))


def _true_div(a, b):
    if not a.is_floating_point() and not b.is_floating_point():
        return torch.true_divide(a.to(torch.float32), b.to(torch.float32))
    return torch.true_divide(a, b)


def _cmp_kernel(name, fn):
    def compute(attrs, a, b):
        if a.dtype != b.dtype:
            raise MXNetError(f"Operator {name}: type inconsistent, lhs is {dtype_name(a.dtype)} "
                             f"but rhs is {dtype_name(b.dtype)}")
        return fn(a, b)

    return compute


def _promote_kernel(fn):
    return lambda attrs, a, b: fn(a, b)


# suffix: (torch function, is comparison, doc)
_BINARY = {
    "add": (torch.add, False, "Sum"), "subtract": (torch.sub, False, "Difference"),
    "multiply": (torch.mul, False, "Product"), "true_divide": (_true_div, False, "Quotient"),
    "mod": (torch.remainder, False, "Remainder (sign of the divisor, like NumPy)"),
    "power": (torch.pow, False, "First array raised to the second"),
    "equal": (torch.eq, True, "Equality"), "not_equal": (torch.ne, True, "Inequality"),
    "greater": (torch.gt, True, "Greater than"), "less": (torch.lt, True, "Less than"),
    "greater_equal": (torch.ge, True, "Greater or equal"),
    "less_equal": (torch.le, True, "Less or equal"),
}


def _binary_type(cmp: bool, divide: bool):
    def infer(attrs, ins):
        a, b = ins
        if a is None or b is None:
            return ins, [None]
        if cmp:
            if a != b:
                raise MXNetError(f"type inconsistent: {a} vs {b}")
            return ins, ["bool"]
        t = np_result_type(a, b)
        if divide and not t.startswith(("float", "bfloat")):
            t = "float32"
        return ins, [t]

    return infer


for _suffix, (_fn, _cmp, _doc) in _BINARY.items():
    _name = f"_npi_{_suffix}"
    register(OpDef(_name, _cmp_kernel(_name, _fn) if _cmp else _promote_kernel(_fn),
                   inputs=("lhs", "rhs"), infer_type=_binary_type(_cmp, _suffix == "true_divide"),
                   doc=f"{_doc} of two arrays with NumPy broadcasting (``mx.np``).\n\n"
                       f"Example: ``mx.nd._internal.{_name}(a, b)``"))

# ---------------------------------------------------------------------------------------
# with a Python scalar

_SCALAR_PARAMS = [Param("scalar", "float", 1.0, doc="Scalar input value"),
                  Param("is_int", "bool", True, doc="Whether the scalar is a Python int")]


def _scalar_kernel(fn, reverse: bool, cmp: bool, divide: bool):
    def compute(attrs, x):
        s = attrs["scalar"]
        if cmp:
            return fn(x, s)
        if not x.is_floating_point():
            if divide:
                x = x.to(torch.float32)
            else:
                if x.dtype == torch.bool:
                    x = x.to(torch.int64)
                s = int(s)
        if reverse:
            return fn(torch.full((), s, dtype=x.dtype, device=x.device), x)
        return fn(x, s)

    return compute


def _scalar_type(cmp: bool, divide: bool):
    def infer(attrs, ins):
        t = ins[0]
        if t is None:
            return ins, [None]
        if cmp:
            return ins, ["bool"]
        if t.startswith(("float", "bfloat")):
            return ins, [t]
        if divide:
            return ins, ["float32"]
        return ins, ["int64" if t == "bool" else t]

    return infer


def _same_shape(attrs, shapes):
    return shapes


_REVERSIBLE = ("subtract", "true_divide", "mod", "power")
for _suffix, (_fn, _cmp, _doc) in _BINARY.items():
    for _rev in (False, True) if _suffix in _REVERSIBLE else (False,):
        _name = f"_npi_{'r' if _rev else ''}{_suffix}_scalar"
        _div = _suffix == "true_divide"
        register(OpDef(_name, _scalar_kernel(_fn, _rev, _cmp, _div), params=_SCALAR_PARAMS,
                       infer_shape=_same_shape, infer_type=_scalar_type(_cmp, _div),
                       doc=f"{_doc} of an array and a scalar"
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
               infer_shape=_same_shape,
               doc="Absolute value, element-wise (``mx.np.absolute``).\n\n"
                   "Example: ``mx.np.absolute(mx.np.array([1., -2.]))``"))
