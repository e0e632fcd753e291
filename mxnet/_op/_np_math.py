"""NumPy-interface (``mx.np``) element-wise math: the ``_npi_*`` unary functions (exp, log,
sin..., floor/ceil/rint/fix, sign, square...), predicates (isnan...), the binary functions
that are not arithmetic operators (maximum, minimum, hypot, arctan2, copysign, ldexp, lcm,
bitwise_*) with their ``_scalar`` forms, ``_npi_around``, ``_npi_clip`` and
``_npi_nan_to_num``.

MXNet 1.9.1's dtype rules, checked against it: a boolean input is computed as float32; an
integer input keeps its dtype (a transcendental function is evaluated in floating point and
cast back, truncating); the binary functions need equal input dtypes (a boolean input
counting as float32); ``hypot``/``arctan2`` of two arrays need floats; ``lcm`` and the
bitwise functions need integers; an integer array with a Python scalar truncates the scalar.
"""

from __future__ import annotations

import torch

from .._dtype import dtype_name
from ..base import MXNetError
from ._elemwise import DEG_PER_RAD, RAD_PER_DEG, _f32, _rint
from ._params import Param
from ._registry import OpDef, register
from ._tanh import tanh as fast_tanh
from ._unary_grad import _Pointwise, acosh_mx, asinh_mx

__all__ = ["UNARY_NAMES", "BINARY_NAMES"]

_INT_KINDS = (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64)


def _is_float(t: torch.Tensor) -> bool:
    return t.is_floating_point()


def _same_shape(attrs, shapes):
    return shapes


def _first_out(attrs, shapes):
    return [shapes[0]]


def _bcast_out(attrs, shapes):
    try:
        return [tuple(torch.broadcast_shapes(tuple(shapes[0]), tuple(shapes[1])))]
    except RuntimeError:
        raise MXNetError(f"operands could not be broadcast together with shapes "
                         f"{tuple(shapes[0])} {tuple(shapes[1])}") from None


def _doc(text: str, example: str) -> str:
    return f"{text}\n\nExample: ``{example}``"


# ---------------------------------------------------------------------------------------
# unary


def _no_bool(x: torch.Tensor) -> None:
    if x.dtype == torch.bool:
        raise MXNetError("Unknown type enum 7 (boolean input is not supported)")


def _float_math(fn):
    """Evaluate ``fn`` in floating point (integers are cast back; bool is refused)."""
    def compute(attrs, x):
        _no_bool(x)
        if not _is_float(x):
            return fn(x.to(torch.float64)).to(x.dtype)
        if x.dtype in (torch.float16, torch.bfloat16):
            return fn(x.to(torch.float32)).to(x.dtype)
        return fn(x)

    return compute


def _exact(fn):
    """Integer-exact functions (sign, square): integers are computed directly."""
    def compute(attrs, x):
        _no_bool(x)
        return fn(x)

    return compute


def _keep_int(fn):
    """Rounding functions: the identity (a fresh copy) on integers."""
    def compute(attrs, x):
        _no_bool(x)
        if not _is_float(x):
            return x.clone()
        return fn(x)

    return compute


class _Cbrt(torch.autograd.Function):
    """Cube root with MXNet's gradient ``1 / (3 * cbrt(x)**2)`` (inf at 0)."""

    @staticmethod
    def forward(ctx, x):
        y = torch.sign(x) * torch.abs(x).pow(1.0 / 3.0)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g / (3.0 * y * y)


def _unary_type(attrs, ins):
    if ins[0] == "bool":
        raise MXNetError("Unknown type enum 7 (boolean input is not supported)")
    return ins, [ins[0]]


def _bool_type(attrs, ins):
    return ins, ["bool"]


def _fix(x):
    return torch.trunc(x)


# name -> (compute wrapper, torch function, description)
_UNARY = {
    "exp": (_float_math, torch.exp, "Exponential"),
    "expm1": (_float_math, torch.expm1, "``exp(x) - 1``"),
    "log": (_float_math, torch.log, "Natural logarithm"),
    "log10": (_float_math, torch.log10, "Base-10 logarithm"),
    "log2": (_float_math, torch.log2, "Base-2 logarithm"),
    "log1p": (_float_math, torch.log1p, "``log(1 + x)``"),
    "sqrt": (_float_math, lambda x: _Pointwise.apply(x, "sqrt"), "Square root"),
    "cbrt": (_float_math, lambda x: _Cbrt.apply(x), "Cube root"),
    "reciprocal": (_float_math, torch.reciprocal, "Reciprocal ``1/x``"),
    "sin": (_float_math, torch.sin, "Sine"), "cos": (_float_math, torch.cos, "Cosine"),
    "tan": (_float_math, torch.tan, "Tangent"),
    "arcsin": (_float_math, torch.asin, "Inverse sine"),
    "arccos": (_float_math, torch.acos, "Inverse cosine"),
    "arctan": (_float_math, torch.atan, "Inverse tangent"),
    "sinh": (_float_math, torch.sinh, "Hyperbolic sine"),
    "cosh": (_float_math, torch.cosh, "Hyperbolic cosine"),
    "tanh": (_float_math, fast_tanh, "Hyperbolic tangent"),
    "arcsinh": (_float_math, asinh_mx, "Inverse hyperbolic sine"),
    "arccosh": (_float_math, acosh_mx, "Inverse hyperbolic cosine"),
    "arctanh": (_float_math, torch.atanh, "Inverse hyperbolic tangent"),
    "degrees": (_float_math, lambda x: x * DEG_PER_RAD, "Radians to degrees"),
    "radians": (_float_math, lambda x: x * RAD_PER_DEG, "Degrees to radians"),
    "sign": (_exact, torch.sign, "Sign (-1, 0 or 1)"),
    "square": (_exact, lambda x: x * x, "Square"),
    "floor": (_keep_int, torch.floor, "Floor"), "ceil": (_keep_int, torch.ceil, "Ceiling"),
    "trunc": (_keep_int, torch.trunc, "Truncation toward zero"),
    "rint": (_keep_int, _rint, "Round to the nearest integer (halves toward -inf, as MXNet)"),
    "fix": (_keep_int, _fix, "Round toward zero"),
}

UNARY_NAMES = tuple(_UNARY)

for _n, (_wrap, _fn, _d) in _UNARY.items():
    register(OpDef(f"_npi_{_n}", _wrap(_fn), inputs=("x",), infer_shape=_same_shape,
                   infer_out=_first_out,
                   infer_type=_unary_type,
                   doc=_doc(f"{_d}, element-wise (``mx.np.{_n}``).",
                            f"mx.np.{_n}(mx.np.array([1., 2.]))")))


def _zero_grad_out(compute):
    """Boolean outputs of a recorded float input still reach it in ``backward``, with a zero
    gradient, as in MXNet (a float64 shadow, see ``mxnet._int_grad``)."""
    from .. import _int_grad

    def wrapped(attrs, x):
        r = compute(attrs, x)
        if x.requires_grad and not r.requires_grad and r.device.type != "meta":
            r._mx_shadow = _int_grad.tie(r, x.to(torch.float64) * 0)
            _int_grad.ACTIVE[0] = 1
        return r

    return wrapped


def _logical_not(attrs, x):
    return torch.logical_not(x)


def _bitwise_not(attrs, x):
    if x.dtype == torch.bool:
        return torch.logical_not(x)
    if _is_float(x):
        raise MXNetError("Operator _npi_bitwise_not: This operation only support integer "
                         f"types, not {dtype_name(x.dtype)}")
    return torch.bitwise_not(x)


def _bitwise_type(attrs, ins):
    t = ins[0]
    if t is not None and not t.startswith(("int", "uint", "bool")):
        raise MXNetError(f"Operator _npi_bitwise_not: This operation only support integer "
                         f"types, not {t}")
    return ins, [t]


register(OpDef("_npi_logical_not", _zero_grad_out(_logical_not), inputs=("x",),
               infer_shape=_same_shape, infer_out=_first_out,
               infer_type=_bool_type,
               doc=_doc("Logical NOT, element-wise (bool result).",
                        "mx.np.logical_not(mx.np.array([0., 1.]))")))
register(OpDef("_npi_bitwise_not", _bitwise_not, inputs=("x",), infer_shape=_same_shape,
               infer_out=_first_out,
               infer_type=_bitwise_type,
               doc=_doc("Bitwise NOT of integers, element-wise (``mx.np.invert``).",
                        "mx.np.invert(mx.np.array([1, 2], dtype='int32'))")))


def _pred(fn):
    def compute(attrs, x):
        if not _is_float(x):
            return fn(x.to(torch.float32))
        return fn(x)

    return compute


_PREDICATES = {
    "isnan": (torch.isnan, "NaN"), "isinf": (torch.isinf, "positive or negative infinity"),
    "isfinite": (torch.isfinite, "finite"), "isposinf": (torch.isposinf, "positive infinity"),
    "isneginf": (torch.isneginf, "negative infinity"),
}
for _n, (_fn, _d) in _PREDICATES.items():
    register(OpDef(f"_npi_{_n}", _zero_grad_out(_pred(_fn)), inputs=("x",),
                   infer_shape=_same_shape, infer_out=_first_out,
                   infer_type=_bool_type,
                   doc=_doc(f"Whether each element is {_d} (bool result).",
                            f"mx.np.{_n}(mx.np.array([1., float('nan')]))")))


# ---------------------------------------------------------------------------------------
# around, clip, nan_to_num


def _around(attrs, x):
    d = attrs["decimals"]
    _no_bool(x)
    if x.dtype in (torch.float16, torch.bfloat16):
        raise MXNetError("Operator _npi_around: Do not support `float16` as input.")
    if not _is_float(x):
        if d >= 0:
            return x.clone()
        f = 10 ** (-d)  # MXNet divides with truncation, then scales back
        return torch.div(x, f, rounding_mode="trunc") * f
    return torch.round(x, decimals=d)


register(OpDef("_npi_around", _around, inputs=("x",), infer_shape=_same_shape, infer_out=_first_out,
               infer_type=_unary_type,
               params=[Param("decimals", "int", 0, doc="Number of decimal places to round to.")],
               doc=_doc("Round to ``decimals`` places, halves to even (``mx.np.around``).",
                        "mx.np.around(mx.np.array([1.25, 2.5]), 1)")))


def _clip(attrs, x):
    lo, hi = _f32(attrs["a_min"]), _f32(attrs["a_max"])
    _no_bool(x)
    y = x.to(torch.float64) if not _is_float(x) else x
    lo_t = torch.tensor(lo, dtype=y.dtype, device=y.device)
    hi_t = torch.tensor(hi, dtype=y.dtype, device=y.device)
    # MXNet's order of tests: above a_max first, then below a_min (NaN passes through)
    r = torch.where(y > hi_t, hi_t, torch.where(y < lo_t, lo_t, y))
    return r.to(x.dtype) if not _is_float(x) else r


register(OpDef("_npi_clip", _clip, inputs=("data",), infer_shape=_same_shape, infer_out=_first_out,
               infer_type=_unary_type,
               params=[Param("a_min", "float", doc="Minimum value (-inf for none)"),
                       Param("a_max", "float", doc="Maximum value (inf for none)")],
               doc=_doc("Limit the values to ``[a_min, a_max]`` (``mx.np.clip``).",
                        "mx.np.clip(mx.np.array([1., 5.]), 2, 4)")))


def _nan_to_num(attrs, x):
    if not _is_float(x):
        return x.clone()
    info = torch.finfo(x.dtype)
    pos = attrs["posinf"] if attrs["posinf"] is not None else info.max
    neg = attrs["neginf"] if attrs["neginf"] is not None else info.min
    return torch.nan_to_num(x, nan=attrs["nan"], posinf=pos, neginf=neg)


register(OpDef("_npi_nan_to_num", _nan_to_num, inputs=("data",), infer_shape=_same_shape,
               infer_out=_first_out,
               params=[Param("copy", "bool", True, doc="Whether to return a copy"),
                       Param("nan", "float", 0.0, doc="Value for NaN"),
                       Param("posinf", "float_or_none", None, doc="Value for +inf"),
                       Param("neginf", "float_or_none", None, doc="Value for -inf")],
               doc=_doc("Replace NaN and infinities by finite numbers.",
                        "mx.np.nan_to_num(mx.np.array([float('nan'), 1.]))")))


# ---------------------------------------------------------------------------------------
# binary functions of two arrays


def _ldexp(a, b):
    return a * torch.exp2(b)


def _rev(fn):
    return lambda a, b: fn(b, a)


def _pick(a, b, take_a):
    """``a`` where ``take_a`` (ties go to the left input, as MXNet's gradient does), else
    ``b``; NaN propagates."""
    if a.is_floating_point():
        take_a = take_a | torch.isnan(a)
        return torch.where(torch.isnan(b) & ~torch.isnan(a), b, torch.where(take_a, a, b))
    return torch.where(take_a, a, b)


class _Arctan2(torch.autograd.Function):
    """arctan2 with MXNet's gradients ``b/(a²+b²)`` and ``-a/(a²+b²)`` (NaN at the origin)."""

    @staticmethod
    def forward(ctx, a, b):
        a, b = torch.broadcast_tensors(a, b)
        ctx.save_for_backward(a, b)
        return torch.atan2(a, b)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        d = a * a + b * b
        return g * b / d, -g * a / d


class _Copysign(torch.autograd.Function):
    """copysign with MXNet's gradient: +1 where a and b have the same sign (zero counts as
    positive), -1 elsewhere; none to b."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return torch.copysign(a, b)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        same = ((a >= 0) & (b >= 0)) | ((a < 0) & (b < 0))
        ga = g * torch.where(same, 1.0, -1.0).to(g.dtype)
        return ga, (torch.zeros_like(b) if b.requires_grad else None)


def _copysign(a, b):
    if torch.is_grad_enabled() and (a.requires_grad or b.requires_grad):
        return _Copysign.apply(a, b)
    return torch.copysign(a, b)


# name -> (torch function, input kind: "any" | "float" | "int", exact on integers, doc)
_BINARY = {
    "maximum": (lambda a, b: _pick(a, b, a >= b), "any", True, "Element-wise maximum"),
    "minimum": (lambda a, b: _pick(a, b, a <= b), "any", True, "Element-wise minimum"),
    "copysign": (_copysign, "any", False, "First array with the sign of the second"),
    "ldexp": (_ldexp, "any", False, "``x1 * 2**x2``"),
    "hypot": (torch.hypot, "float", False, "``sqrt(x1**2 + x2**2)``"),
    "arctan2": (lambda a, b: _Arctan2.apply(a, b), "float", False,
                "Quadrant-aware arc tangent of ``x1/x2``"),
    "lcm": (torch.lcm, "int", True, "Least common multiple of integers"),
    "bitwise_and": (torch.bitwise_and, "int", True, "Bitwise AND of integers"),
    "bitwise_or": (torch.bitwise_or, "int", True, "Bitwise OR of integers"),
    "bitwise_xor": (torch.bitwise_xor, "int", True, "Bitwise XOR of integers"),
}

BINARY_NAMES = tuple(_BINARY)


def _int_only(name: str, dt) -> None:
    if dt == torch.bool or dt not in _INT_KINDS:
        raise MXNetError(f"Operator {name}: the inputs must be integers (int8, uint8, int32 "
                         f"or int64), got {dtype_name(dt)}")


def _binary_kernel(name: str, fn, kind: str, exact: bool):
    def compute(attrs, a, b):
        if kind == "int":
            if a.dtype == torch.bool and b.dtype == torch.bool:
                return torch.logical_and(a, b) if fn is torch.lcm else fn(a, b)
            _int_only(name, a.dtype)
            _int_only(name, b.dtype)
        if a.dtype == torch.bool or b.dtype == torch.bool:
            raise MXNetError(f"Operator {name} does not support boolean inputs")
        if a.dtype != b.dtype:
            raise MXNetError(f"Operator {name}: Incompatible attr at 1-th input: expected "
                             f"{dtype_name(a.dtype)}, got {dtype_name(b.dtype)}")
        if kind == "float" and not _is_float(a):
            raise MXNetError(f"Operator {name}: Do not support `int` as input")
        if _is_float(a) and a.dtype in (torch.float16, torch.bfloat16):
            return fn(a.to(torch.float32), b.to(torch.float32)).to(a.dtype)
        if not _is_float(a) and not exact:
            return fn(a.to(torch.float64), b.to(torch.float64)).to(a.dtype)
        return fn(a, b)

    return compute


def _binary_type(name: str, kind: str):
    def infer(attrs, ins):
        a, b = ins
        if kind != "int" and "bool" in (a, b):
            raise MXNetError(f"Operator {name} does not support boolean inputs")
        t = a or b
        if a is not None and b is not None and a != b:
            raise MXNetError(f"Operator {name}: Incompatible attr at 1-th input: expected "
                             f"{a}, got {b}")
        return ins, [t]

    return infer


for _n, (_fn, _kind, _exact_int, _d) in _BINARY.items():
    _name = f"_npi_{_n}"
    register(OpDef(_name, _binary_kernel(_name, _fn, _kind, _exact_int), inputs=("lhs", "rhs"),
                   infer_type=_binary_type(_name, _kind), infer_out=_bcast_out,
                   doc=_doc(f"{_d}, with NumPy broadcasting (``mx.np.{_n}``).",
                            f"mx.np.{_n}(a, b)")))


# ---------------------------------------------------------------------------------------
# with a Python scalar

_SCALAR_PARAMS = [Param("scalar", "float", 1.0, doc="Scalar input value"),
                  Param("is_int", "bool", True, doc="Whether the scalar is a Python int")]


def _scalar_kernel(name: str, fn, kind: str, exact: bool, reverse: bool):
    f = _rev(fn) if reverse else fn

    def compute(attrs, x):
        s = attrs["scalar"]
        if kind == "int" and x.dtype == torch.bool and fn is not torch.lcm:
            return f(x, torch.tensor(bool(int(s)), device=x.device))
        if kind == "int":
            _int_only(name, x.dtype)
        if x.dtype == torch.bool:  # a boolean array with a scalar computes in int64
            x = x.to(torch.int64)
        if not _is_float(x):  # the scalar is truncated and cast to the array's dtype
            s = torch.tensor(int(s), dtype=torch.int64).to(x.dtype).item()
        if name == "_npi_rarctan2_scalar" and _is_float(x):
            return _RArctan2.apply(x, float(s))
        st = torch.tensor(s, dtype=torch.float64 if not _is_float(x) and not exact else
                          x.dtype if x.dtype not in (torch.float16, torch.bfloat16) else
                          torch.float32, device=x.device)
        if _is_float(x) and x.dtype in (torch.float16, torch.bfloat16):
            return f(x.to(torch.float32), st).to(x.dtype)
        if not _is_float(x) and not exact:
            return f(x.to(torch.float64), st).to(x.dtype)
        return f(x, st.to(x.dtype))

    return compute


class _RArctan2(torch.autograd.Function):
    """``arctan2(scalar, x)`` with MXNet 1.9.1's gradient ``-x / (x**2 + scalar**2)``."""

    @staticmethod
    def forward(ctx, x, s):
        ctx.save_for_backward(x)
        ctx.s = s
        dt = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
        return torch.atan2(torch.tensor(s, dtype=dt), x.to(dt)).to(x.dtype)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * (-x / (x * x + ctx.s * ctx.s)), None


def _scalar_type(kind: str):
    def infer(attrs, ins):
        t = ins[0]
        if t == "bool" and kind != "int":
            return ins, ["int64"]
        return ins, [t]

    return infer


_SCALAR_FORMS = {"maximum": (False,), "minimum": (False,), "hypot": (False,),
                 "arctan2": (False, True), "copysign": (False, True), "ldexp": (False, True),
                 "lcm": (False,), "bitwise_and": (False,), "bitwise_or": (False,),
                 "bitwise_xor": (False,)}

for _n, _forms in _SCALAR_FORMS.items():
    _fn, _kind, _exact_int, _d = _BINARY[_n]
    for _r in _forms:
        _name = f"_npi_{'r' if _r else ''}{_n}_scalar"
        register(OpDef(_name, _scalar_kernel(_name, _fn, _kind, _exact_int, _r),
                       params=_SCALAR_PARAMS, infer_shape=_same_shape, infer_out=_first_out,
                       infer_type=_scalar_type(_kind),
                       doc=_doc(f"{_d} of an array and a scalar"
                                f"{' (scalar first)' if _r else ''}.",
                                f"mx.nd._internal.{_name}(a, scalar=2.0)")))
