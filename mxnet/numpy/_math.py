"""``mx.np`` element-wise math: unary functions (exp, log, sin, floor, sign...), predicates
(isnan...), binary functions (add, subtract, ..., maximum, hypot, arctan2, copysign, ldexp,
lcm, bitwise_*), ``around``/``round``, ``clip`` and ``nan_to_num``.

Each function runs an MXNet 1.9.1 registry operator through ``np_call``, so it works on
``mx.np.ndarray`` (imperative, autograd) and on ``mx.sym.np`` symbols (hybridized blocks).
Python scalars alone are computed by official NumPy, as MXNet does.
"""

from __future__ import annotations

import math

import numpy as _onp

from .._op import _np_math  # noqa: F401  (registers the operators)
from .._op._np_arith import NP_TABLE
from ..base import MXNetError, MXNetNotSupportedError
from .multiarray import NDArray, ndarray
from .multiarray import np_call as _np_call

_UNARY_OPS = {
    "exp": "exp", "expm1": "expm1", "log": "log", "log10": "log10", "log2": "log2",
    "log1p": "log1p", "sqrt": "sqrt", "cbrt": "cbrt", "reciprocal": "reciprocal",
    "sin": "sin", "cos": "cos", "tan": "tan", "arcsin": "arcsin", "arccos": "arccos",
    "arctan": "arctan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "arcsinh": "arcsinh",
    "arccosh": "arccosh", "arctanh": "arctanh", "degrees": "degrees", "radians": "radians",
    "sign": "sign", "square": "square",
    "floor": "floor", "ceil": "ceil", "trunc": "trunc", "rint": "rint", "fix": "fix",
    "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite", "isposinf": "isposinf",
    "isneginf": "isneginf", "logical_not": "logical_not", "invert": "bitwise_not",
    "bitwise_not": "bitwise_not", "negative": "negative", "absolute": "absolute",
    "abs": "absolute", "fabs": "absolute",
}

_BINARY_OPS = ("maximum", "minimum", "hypot", "arctan2", "copysign", "ldexp", "lcm",
               "bitwise_and", "bitwise_or", "bitwise_xor")
# the arithmetic functions: name -> NP_TABLE kind
_ARITH_OPS = {"add": "add", "subtract": "sub", "multiply": "mul", "divide": "div",
              "true_divide": "div", "mod": "mod", "remainder": "mod", "power": "pow",
              "equal": "eq", "not_equal": "ne", "greater": "gt", "greater_equal": "ge",
              "less": "lt", "less_equal": "le"}
# scalar-first forms registered for these binary functions
_REVERSED = ("arctan2", "copysign", "ldexp")

_PREDICATES = ("_npi_isnan", "_npi_isinf", "_npi_isfinite", "_npi_isposinf", "_npi_isneginf",
               "_npi_logical_not")

__all__ = sorted(set(_UNARY_OPS) | set(_BINARY_OPS) | set(_ARITH_OPS)
                 | {"around", "round", "round_", "clip", "nan_to_num", "rad2deg", "deg2rad"})


def np_call(opname: str, inputs: list, attrs: dict, out=None):
    """``multiarray.np_call`` with MXNet's checks of ``out=``: its shape and dtype must be
    those of the result (no broadcasting or casting)."""
    for x in inputs:
        if isinstance(x, NDArray) and not isinstance(x, ndarray):
            public = opname.split("_", 3)[-1] if opname.startswith("_np_") else opname[5:]
            raise TypeError(f"Operator `{opname}` registered in backend is known as "
                            f"`{public}` in Python. This is a numpy operator which can only "
                            "accept MXNet numpy ndarrays, while received a legacy ndarray. "
                            "Please call `as_np_ndarray()` upon the legacy ndarray to convert "
                            "it to an MXNet numpy ndarray, and then feed the converted array "
                            "to this operator.")
    if out is None or not isinstance(out, NDArray):
        return _np_call(opname, inputs, attrs, out)
    res = _np_call(opname, inputs, attrs)
    if res.dtype != out.dtype:
        if opname in _PREDICATES:
            raise TypeError("the `out` parameter should be a boolean array")
        raise MXNetError(f"Operator {opname}: Incompatible attr at 0-th output: expected "
                         f"{res.dtype}, got {out.dtype}")
    if tuple(res.shape) != tuple(out.shape):
        raise MXNetError(f"Operator {opname}: Shape inconsistent, Provided = "
                         f"{list(out.shape)}, inferred shape={list(res.shape)}")
    out._assign_tensor(res._t)
    return out


def _unsupported(name: str):
    def fn(x, out=None, **kwargs):
        raise AttributeError(f"module 'mxnet.ndarray.numpy._internal' has no attribute "
                             f"'{name}'")

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "Not supported by MXNet 1.9.1 (raises AttributeError, as MXNet does)."
    return fn


rad2deg = _unsupported("rad2deg")
deg2rad = _unsupported("deg2rad")


def _is_array(x) -> bool:
    from ..symbol import Symbol

    return isinstance(x, (NDArray, Symbol))


def _is_scalar(x) -> bool:
    return isinstance(x, (int, float, bool, _onp.generic)) and not isinstance(x, _onp.ndarray)


def _not_supported(x):
    return TypeError(f"type {type(x)} not supported")


def _scalar_attrs(s) -> dict:
    if isinstance(s, (bool, _onp.bool_)):
        s = int(s)
    return {"scalar": s.item() if isinstance(s, _onp.generic) else s,
            "is_int": isinstance(s, (int, _onp.integer))}


def _numpy_name(name: str) -> str:
    return {"invert": "invert", "bitwise_not": "invert", "absolute": "absolute",
            "abs": "absolute", "fabs": "fabs"}.get(name, name)


_UFUNC_DEFAULTS = {"where": True, "casting": "same_kind", "order": "K", "dtype": None,
                   "subok": True}
_DTYPE_OPTIONS = {"int8", "uint8", "int32", "int64", "float16", "float32", "float64"}


def _legal(key: str, value) -> bool:
    if key == "where":
        return True
    if key == "casting":
        return value in ("no", "equiv", "safe", "same_kind", "unsafe")
    if key == "order":
        return isinstance(value, str)
    if key == "dtype":
        try:
            return _onp.dtype(value).name in _DTYPE_OPTIONS
        except TypeError:
            return False
    return isinstance(value, bool)


def check_ufunc_kwargs(name: str, kwargs: dict, unary: bool) -> None:
    """MXNet's checks of NumPy ufunc keywords: only the defaults are implemented (a legal
    other value raises NotImplementedError, a meaningless one TypeError)."""
    for key, value in kwargs.items():
        if key not in _UFUNC_DEFAULTS:
            raise TypeError(f"{key} is an invalid keyword to function '{name}'")
        if value != _UFUNC_DEFAULTS[key]:
            if _legal(key, value):
                tail = f" for operator {name}" if unary else ""
                raise MXNetNotSupportedError(f"{key}={value} is not implemented yet{tail}")
            raise TypeError(f"{key}={value} not understood for operator {name}" if unary
                            else f"{key} {value} not understood")


def _make_unary(name: str, opname: str):
    ref = getattr(_onp, _numpy_name(name))

    def fn(x, out=None, **kwargs):
        check_ufunc_kwargs(name, kwargs, True)
        if _is_array(x):
            return np_call(opname, [x], {}, out)
        if _is_scalar(x):
            return ref(x)
        raise _not_supported(x)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"``{name}`` of each element (NumPy's ``{name}``; MXNet 1.9.1's dtype rules: "
                  f"integers keep their dtype, bool gives float32).\n\n"
                  f"Examples\n--------\n>>> from mxnet import np\n"
                  f">>> np.{name}(np.array([1., 2.])).shape\n(2,)\n")
    return fn


for _name, _op in _UNARY_OPS.items():
    globals()[_name] = _make_unary(_name, f"_npi_{_op}")


def _make_binary(name: str, table: tuple):
    """``table``: (array-array op, array-scalar op, scalar-array op or None)."""
    ref = getattr(_onp, name)

    def fn(x1, x2, out=None, **kwargs):
        check_ufunc_kwargs(name, kwargs, False)
        a1, a2 = _is_array(x1), _is_array(x2)
        if a1 and a2:
            return np_call(table[0], [x1, x2], {}, out)
        if a1 and _is_scalar(x2):
            return np_call(table[1], [x1], _scalar_attrs(x2), out)
        if a2 and _is_scalar(x1):
            return np_call(table[2], [x2], _scalar_attrs(x1), out)
        if _is_scalar(x1) and _is_scalar(x2):
            return ref(x1, x2)
        raise _not_supported(x2 if a1 or _is_scalar(x1) else x1)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"NumPy's ``{name}`` of two arrays (or an array and a scalar) with "
                  f"broadcasting.\n\nExamples\n--------\n>>> from mxnet import np\n"
                  f">>> np.{name}(np.array([1., 2.]), np.array([3., 4.])).shape\n(2,)\n")
    return fn


for _name in _BINARY_OPS:
    _rev = f"_npi_r{_name}_scalar" if _name in _REVERSED else f"_npi_{_name}_scalar"
    globals()[_name] = _make_binary(_name, (f"_npi_{_name}", f"_npi_{_name}_scalar", _rev))
for _name, _kind in _ARITH_OPS.items():
    globals()[_name] = _make_binary(_name, NP_TABLE[_kind])


def around(x, decimals=0, out=None, **kwargs):
    """Round to ``decimals`` places (halves to even); integers keep their dtype.

    Examples
    --------
    >>> from mxnet import np
    >>> np.around(np.array([0.5, 1.5, 2.25]), 1)
    array([0.5, 1.5, 2.2])
    """
    if _is_array(x):
        return np_call("_npi_around", [x], {"decimals": int(decimals)}, out)
    if _is_scalar(x):
        return _onp.around(x, decimals, **kwargs)
    raise _not_supported(x)


round = around  # noqa: A001  (MXNet's name)
round_ = around


def _bound(name: str, v):
    """A clip bound: a number, or a 0-d array read as its value (like MXNet's parsing)."""
    if isinstance(v, NDArray):
        if v.ndim == 0:
            return float(v.item())
        raise MXNetError(f"Invalid Parameter format for {name} expect float but value="
                         f"'{v.asnumpy()}', in operator clip")
    return v


def clip(a, a_min, a_max, out=None):
    """Limit the values of ``a`` to ``[a_min, a_max]`` (either bound may be None).

    Examples
    --------
    >>> from mxnet import np
    >>> np.clip(np.array([1., 5., 3.]), 2, 4)
    array([2., 4., 3.])
    """
    if a_min is None and a_max is None:
        raise ValueError("array_clip: must set either max or min")
    if _is_scalar(a):
        return _onp.clip(a, a_min, a_max)
    lo = -math.inf if a_min is None else a_min
    hi = math.inf if a_max is None else a_max
    lo, hi = _bound("a_min", lo), _bound("a_max", hi)
    return np_call("_npi_clip", [a], {"a_min": float(lo), "a_max": float(hi)}, out)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None, **kwargs):
    """Replace NaN by ``nan`` and infinities by ``posinf``/``neginf`` (the largest finite
    values by default).

    Examples
    --------
    >>> from mxnet import np
    >>> np.nan_to_num(np.array([float('nan'), 1.]))
    array([0., 1.])
    """
    if _is_scalar(x):
        return _onp.nan_to_num(x, copy=copy, nan=nan, posinf=posinf, neginf=neginf)
    if not _is_array(x):
        raise _not_supported(x)
    attrs = {"copy": copy, "nan": nan, "posinf": posinf, "neginf": neginf}
    if copy:
        return np_call("_npi_nan_to_num", [x], attrs)
    return np_call("_npi_nan_to_num", [x], attrs, out=x)


# reductions and products live in _reduce; the ndarray methods in _math_methods
from . import _math_methods  # noqa: E402,F401  (installs the ndarray methods)
from ._fallback_math import *  # noqa: E402,F401,F403
from ._fallback_math import __all__ as _fallback_all  # noqa: E402
from ._reduce import *  # noqa: E402,F401,F403
from ._reduce import __all__ as _reduce_all  # noqa: E402

__all__ = sorted(set(__all__) | set(_reduce_all) | set(_fallback_all))
