"""Element-wise operators from tables: unary math, binary (broadcast and not), scalar forms.

Each family is one factory; adding an operator is adding a table row.
"""

from __future__ import annotations

import torch

from .. import _int_grad
from .._dtype import to_torch
from ..base import MXNetError
from . import _relu
from ._apply import block_grad
from ._params import Param
from ._registry import OpDef, get_op, register
from ._shape_rules import broadcast_out, elemwise_out, same_out
from ._tanh import tanh as fast_tanh
from ._unary_grad import _GammaFn, _OnesGrad, _Pointwise, acosh_mx, asinh_mx

# MXNet's conversion factors are float constants (180/PI with PI a float): float64 data
# gets x * 57.2957763671875, not x * 57.29577951308232
_PI32 = torch.tensor(3.141592653589793, dtype=torch.float32)
DEG_PER_RAD = float(torch.tensor(180.0, dtype=torch.float32) / _PI32)
RAD_PER_DEG = float(_PI32 / torch.tensor(180.0, dtype=torch.float32))


def _same_shape(attrs, shapes):
    known = next((s for s in shapes if s is not None), None)
    return [known if s is None else s for s in shapes]


# ---------------------------------------------------------------------------------------
# unary


def _round_half_away(x):
    return torch.sign(x) * torch.floor(torch.abs(x) + 0.5)


def _rint(x):
    lo, hi = torch.floor(x), torch.ceil(x)
    return torch.where(x - lo > hi - x, hi, lo)


def _float_only(fn):
    def f(x):
        if not x.is_floating_point():
            return fn(x.to(torch.float64)).to(x.dtype)
        if x.dtype in (torch.float16, torch.bfloat16):
            # MXNet's half_t math kernels compute DType(f(float(x))): one rounding
            return fn(x.float()).to(x.dtype)
        return fn(x)

    return f


_UNARY = {
    # name: (torch function, fluent, aliases, doc)
    "abs": (torch.abs, True, (), "Element-wise absolute value."),
    "negative": (torch.neg, False, (), "Numerical negative, element-wise."),
    "sign": (torch.sign, True, (), "Element-wise sign."),
    "round": (
        lambda x: _round_half_away(x) if x.is_floating_point() else x,
        True,
        (),
        "Round to the nearest integer, halfway cases away from zero.",
    ),
    "rint": (
        lambda x: _rint(x) if x.is_floating_point() else x,
        True,
        (),
        "Round to the nearest integer; exact halves go to the lower integer.",
    ),
    "ceil": (lambda x: torch.ceil(x) if x.is_floating_point() else x, True, (), "Ceiling."),
    "floor": (lambda x: torch.floor(x) if x.is_floating_point() else x, True, (), "Floor."),
    "trunc": (
        lambda x: torch.trunc(x) if x.is_floating_point() else x,
        True,
        (),
        "Truncate toward zero.",
    ),
    "fix": (
        lambda x: torch.trunc(x) if x.is_floating_point() else x,
        True,
        (),
        "Round toward zero.",
    ),
    "square": (torch.square, True, (), "Element-wise square."),
    "sqrt": (
        _float_only(lambda x: _Pointwise.apply(x, "sqrt")),
        True,
        (),
        "Element-wise square root.",
    ),
    "rsqrt": (
        _float_only(lambda x: _Pointwise.apply(x, "rsqrt")),
        True,
        (),
        "Element-wise inverse square root.",
    ),
    "cbrt": (
        _float_only(lambda x: _Pointwise.apply(x, "cbrt")),
        True,
        (),
        "Element-wise cube root.",
    ),
    "rcbrt": (
        _float_only(lambda x: _Pointwise.apply(x, "rcbrt")),
        True,
        (),
        "Element-wise inverse cube root.",
    ),
    "exp": (_float_only(torch.exp), True, (), "Element-wise exponential."),
    "expm1": (_float_only(torch.expm1), True, (), "exp(x) - 1, element-wise."),
    "log": (_float_only(torch.log), True, (), "Natural logarithm, element-wise."),
    "log10": (_float_only(torch.log10), True, (), "Base-10 logarithm, element-wise."),
    "log2": (_float_only(torch.log2), True, (), "Base-2 logarithm, element-wise."),
    "log1p": (_float_only(torch.log1p), True, (), "log(1 + x), element-wise."),
    "sin": (_float_only(torch.sin), True, (), "Element-wise sine."),
    "cos": (_float_only(torch.cos), True, (), "Element-wise cosine."),
    "tan": (_float_only(torch.tan), True, (), "Element-wise tangent."),
    "arcsin": (_float_only(torch.asin), True, (), "Element-wise inverse sine."),
    "arccos": (_float_only(torch.acos), True, (), "Element-wise inverse cosine."),
    "arctan": (_float_only(torch.atan), True, (), "Element-wise inverse tangent."),
    "sinh": (_float_only(torch.sinh), True, (), "Hyperbolic sine."),
    "cosh": (_float_only(torch.cosh), True, (), "Hyperbolic cosine."),
    "tanh": (_float_only(fast_tanh), True, (), "Hyperbolic tangent."),
    "arcsinh": (_float_only(asinh_mx), True, (), "Inverse hyperbolic sine."),
    "arccosh": (_float_only(acosh_mx), True, (), "Inverse hyperbolic cosine."),
    "arctanh": (_float_only(torch.atanh), True, (), "Inverse hyperbolic tangent."),
    "degrees": (_float_only(lambda x: x * DEG_PER_RAD), True, (), "Radians to degrees."),
    "radians": (_float_only(lambda x: x * RAD_PER_DEG), True, (), "Degrees to radians."),
    "sigmoid": (_float_only(torch.sigmoid), True, (), "Logistic sigmoid, element-wise."),
    "relu": (
        lambda x: _relu.relu(x, keep_nan=True),
        True,
        (),
        "Rectified linear unit, element-wise.",
    ),
    "softsign": (
        _float_only(lambda x: _Pointwise.apply(x, "softsign")),
        False,
        (),
        "x / (1 + |x|), element-wise.",
    ),
    "reciprocal": (_float_only(torch.reciprocal), True, (), "1 / x, element-wise."),
    "erf": (_float_only(lambda x: _Pointwise.apply(x, "erf")), False, (), "Gauss error function."),
    "erfinv": (
        _float_only(lambda x: _Pointwise.apply(x, "erfinv")),
        False,
        (),
        "Inverse Gauss error function.",
    ),
    "gamma": (_float_only(lambda x: _GammaFn.apply(x, False)), False, (), "Gamma function."),
    "gammaln": (
        _float_only(lambda x: _GammaFn.apply(x, True)),
        False,
        (),
        "Log of the absolute gamma function.",
    ),
    "logical_not": (lambda x: (x == 0).to(x.dtype), False, (), "Logical NOT, 0/1 output."),
    "_copy": (lambda x: x.clone(), False, ("identity",), "Identity (copy) of the input."),
    "BlockGrad": (
        block_grad,
        False,
        ("stop_gradient",),
        "Pass the input through and stop gradients flowing back.",
    ),
    "make_loss": (
        lambda x: _OnesGrad.apply(x) if x.requires_grad else x,
        False,
        (),
        "Mark a symbol as a loss: its gradient is ones, whatever the head gradient.",
    ),
}


def _unary(fn):
    return lambda attrs, x: fn(x)


for _name, (_fn, _fluent, _aliases, _doc) in _UNARY.items():
    register(
        OpDef(
            _name,
            _unary(_fn),
            fluent=_fluent,
            aliases=_aliases,
            doc=_doc,
            infer_shape=_same_shape,
            infer_out=same_out,
            # MXNet 1.9.1 names make_loss's output "loss" (make_loss0_loss)
            outputs=("loss",) if _name == "make_loss" else ("output",),
        )
    )


def _f32(v):
    """MXNet keeps clip's bounds in float parameters: float64 data is clipped to the
    float32-rounded bound (``clip(x, 0.3, 0.7)`` gives 0.30000001192092896)."""
    return v if v is None else float(torch.tensor(v, dtype=torch.float32))


def _clip(a, x):
    lo, hi = _f32(a["a_min"]), _f32(a["a_max"])
    if not x.is_floating_point():
        lo, hi = int(lo), int(hi)
    return torch.clamp(x, lo, hi)


_clip_op = register(
    OpDef(
        "clip",
        _clip,
        fluent=True,
        infer_shape=_same_shape,
        infer_out=same_out,
        params=[
            Param("a_min", "float", doc="Minimum value"),
            Param("a_max", "float", doc="Maximum value"),
        ],
        doc="Clip (limit) the values in an array.",
    )
)


def _hard_sigmoid(a, x):
    if not x.is_floating_point():
        raise MXNetError(
            "Operator hard_sigmoid: this operation only supports floating point "
            f"types, not {str(x.dtype).replace('torch.', '')}"
        )
    z = x * a["alpha"] + a["beta"]
    # MXNet's gradient is alpha strictly inside (0, 1) and 0 at the clamp boundaries
    inside = (z > 0) & (z < 1)
    # NaN passes through (with a zero gradient), as in MXNet
    rest = torch.where(torch.isnan(z), z.detach(), (z >= 1).to(z.dtype))
    return torch.where(inside, z, rest)


_hsig_op = register(
    OpDef(
        "hard_sigmoid",
        _hard_sigmoid,
        infer_shape=_same_shape,
        infer_out=same_out,
        params=[
            Param("alpha", "float", 0.2, doc="Slope of hard sigmoid"),
            Param("beta", "float", 0.5, doc="Bias of hard sigmoid."),
        ],
        doc="Hard sigmoid: max(0, min(1, alpha * x + beta)), element-wise.",
    )
)
# output shape and dtype are the input's: no meta tracing (torch.clamp on meta tensors
# imports torch's compiler stack, seconds at the first bind of MobileNetV2's relu6)
_clip_op.uniform_dtype = _hsig_op.uniform_dtype = True

# ---------------------------------------------------------------------------------------
# binary


def _check_dtypes(name, a, b):
    if a.dtype != b.dtype:
        raise MXNetError(incompatible_dtype_message(a.dtype, b.dtype, op=name))


def incompatible_dtype_message(expected, got, index: int = 1, op: str = "") -> str:
    """MXNet 1.9.1's type-inference failure for inputs whose dtypes must agree (the node
    name is empty for an imperative call)."""
    from .._dtype import dtype_name

    return (
        "Check failed: assign(&dattr, vec.at(i)): Incompatible attr in node  at "
        f"{index}-th input: expected {dtype_name(expected)}, got {dtype_name(got)}"
        + (f" (operator {op})" if op else "")
    )


def _div(a, b):
    if a.is_floating_point():
        return a / b
    return torch.div(a, b, rounding_mode="trunc")


def _mod(a, b):
    # Python semantics (sign of the divisor); x % 0 is 0 as in MXNet
    zero = b == 0
    if not isinstance(b, torch.Tensor):
        return torch.zeros_like(a) if zero else torch.remainder(a, b)
    if a.is_floating_point():
        return torch.where(zero, torch.zeros_like(a), torch.remainder(a, b))
    r = torch.remainder(a, torch.where(zero, torch.ones_like(b), b))
    return torch.where(zero, torch.zeros_like(r), r)


def _power(a, b):
    if a.is_floating_point() or a.dtype == torch.bool:
        return torch.pow(a, b)
    # MXNet's integer kernels compute pow in double and convert with a C cast: 0 ** -1,
    # overflow and other values out of range become the type's minimum (x86 conversion)
    bd = b.double() if isinstance(b, torch.Tensor) else b
    r = torch.pow(a.double(), bd)
    wide = torch.int64 if a.dtype == torch.int64 else torch.int32
    lim = 2.0 ** (63 if wide == torch.int64 else 31)
    bad = ~torch.isfinite(r) | (r >= lim) | (r < -lim)
    out = torch.where(bad, torch.zeros_like(r), r).to(wide)
    out = torch.where(bad, torch.full_like(out, torch.iinfo(wide).min), out)
    return out if out.dtype == a.dtype else out.to(a.dtype)


def _maximum(a, b):
    # ties send the gradient to the left operand, as MXNet does
    if not isinstance(b, torch.Tensor):
        return torch.clamp(a, min=b)
    return torch.where((a >= b) | (a != a), a, b)  # NaN in either operand wins, as in MXNet


def _minimum(a, b):
    if not isinstance(b, torch.Tensor):
        return torch.clamp(a, max=b)
    return torch.where((a <= b) | (a != a), a, b)


def _hypot(a, b):
    if a.is_floating_point():
        return torch.hypot(a, b if isinstance(b, torch.Tensor) else torch.full_like(a, b))
    bb = b.double() if isinstance(b, torch.Tensor) else torch.full_like(a, b, dtype=torch.float64)
    return torch.hypot(a.double(), bb).to(a.dtype)


def _cmp(fn):
    return lambda a, b: fn(a, b).to(a.dtype)


def _logic(fn):
    return lambda a, b: fn(a != 0, b != 0).to(a.dtype)


_BINARY = {
    # suffix: (torch function, doc)
    "add": (torch.add, "Add"),
    "sub": (torch.sub, "Subtract"),
    "mul": (torch.mul, "Multiply"),
    "div": (_div, "Divide"),
    "mod": (_mod, "Modulo"),
    "power": (_power, "Power"),
    "maximum": (_maximum, "Maximum"),
    "minimum": (_minimum, "Minimum"),
    "hypot": (_hypot, "Hypotenuse"),
    "equal": (_cmp(torch.eq), "Equal (0/1)"),
    "not_equal": (_cmp(torch.ne), "Not equal (0/1)"),
    "greater": (_cmp(torch.gt), "Greater (0/1)"),
    "greater_equal": (_cmp(torch.ge), "Greater or equal (0/1)"),
    "lesser": (_cmp(torch.lt), "Less (0/1)"),
    "lesser_equal": (_cmp(torch.le), "Less or equal"),
    "logical_and": (_logic(torch.logical_and), "Logical AND (0/1)"),
    "logical_or": (_logic(torch.logical_or), "Logical OR (0/1)"),
    "logical_xor": (_logic(torch.logical_xor), "Logical XOR (0/1)"),
}

# element-wise (same shape) names and the aliases MXNet 1.9.1 registers (old JSON uses them)
_ELEMWISE_NAMES = {
    "add": ("elemwise_add", ("_plus", "_Plus", "_add")),
    "sub": ("elemwise_sub", ("_minus", "_Minus", "_sub")),
    "mul": ("elemwise_mul", ("_mul", "_Mul")),
    "div": ("elemwise_div", ("_div", "_Div")),
    "mod": ("_mod", ("_Mod",)),
    "power": ("_power", ("_Power",)),
    "maximum": ("_maximum", ("_Maximum",)),
    "minimum": ("_minimum", ("_Minimum",)),
    "hypot": ("_hypot", ("_Hypot",)),
    "equal": ("_equal", ("_Equal",)),
    "not_equal": ("_not_equal", ("_Not_Equal",)),
    "greater": ("_greater", ("_Greater",)),
    "greater_equal": ("_greater_equal", ("_Greater_Equal",)),
    "lesser": ("_lesser", ("_Lesser",)),
    "lesser_equal": ("_lesser_equal", ("_Lesser_Equal",)),
    "logical_and": ("_logical_and", ("_Logical_And",)),
    "logical_or": ("_logical_or", ("_Logical_Or",)),
    "logical_xor": ("_logical_xor", ("_Logical_Xor",)),
}


def _broadcast_kernel(name, fn):
    def compute(attrs, a, b):
        if a.dtype != b.dtype:
            _check_dtypes(name, a, b)
        return fn(a, b)

    return compute


def _elemwise_kernel(name, fn):
    def compute(attrs, a, b):
        if a.shape != b.shape:
            raise MXNetError(
                f"Operator {name}: shapes must be equal, got {tuple(a.shape)} and {tuple(b.shape)}"
            )
        if a.dtype != b.dtype:
            _check_dtypes(name, a, b)
        return fn(a, b)

    return compute


for _suffix, (_fn, _doc) in _BINARY.items():
    _bname = f"broadcast_{_suffix}"
    _bal = (
        ("broadcast_plus",)
        if _suffix == "add"
        else (("broadcast_minus",) if _suffix == "sub" else ())
    )
    _b = register(
        OpDef(
            _bname,
            _broadcast_kernel(_bname, _fn),
            inputs=("lhs", "rhs"),
            aliases=_bal,
            infer_out=broadcast_out(_bname),
            doc=f"{_doc}, element-wise with broadcasting.",
        )
    )
    _ename, _eal = _ELEMWISE_NAMES[_suffix]
    _e = register(
        OpDef(
            _ename,
            _elemwise_kernel(_ename, _fn),
            inputs=("lhs", "rhs"),
            aliases=_eal,
            infer_shape=_same_shape,
            infer_out=elemwise_out(_ename),
            doc=f"{_doc}, element-wise (same shapes).",
        )
    )
    _b.uniform_dtype = _e.uniform_dtype = True  # symbolic infer_type refuses mixed dtypes

# ---------------------------------------------------------------------------------------
# scalar forms: an integer array keeps its dtype and truncates the scalar (is_int, the
# default); with is_int=False an integer array is computed and returned as float64.
# Boolean arrays compute as int64.


def _scalar_type(attrs, ins):
    t = ins[0]
    if t is None or t.startswith(("float", "bfloat")):
        return ins, [t]
    if not attrs["is_int"]:
        return ins, ["float64"]
    return ins, ["int64" if t == "bool" else t]


def _scalar_kernel(fn, reverse: bool):
    def compute(attrs, x):
        s = attrs["scalar"]
        if not x.is_floating_point():
            if attrs["is_int"]:
                s = int(s)
                if x.dtype == torch.bool:
                    x = x.to(torch.int64)
            else:
                x = x.to(torch.float64)
        elif x.dtype in (torch.float16, torch.bfloat16):
            # MXNet's kernels take DType(scalar): the scalar is rounded to float16 first
            s = torch.tensor(s, dtype=x.dtype).item()
        if reverse:
            return fn(torch.full_like(x, s), x)
        return fn(x, s)

    return compute


_SCALAR = {
    # name: (binary suffix, reversed, legacy alias)
    "_plus_scalar": ("add", False, "_PlusScalar"),
    "_minus_scalar": ("sub", False, "_MinusScalar"),
    "_rminus_scalar": ("sub", True, "_RMinusScalar"),
    "_mul_scalar": ("mul", False, "_MulScalar"),
    "_div_scalar": ("div", False, "_DivScalar"),
    "_rdiv_scalar": ("div", True, "_RDivScalar"),
    "_mod_scalar": ("mod", False, "_ModScalar"),
    "_rmod_scalar": ("mod", True, "_RModScalar"),
    "_power_scalar": ("power", False, "_PowerScalar"),
    "_rpower_scalar": ("power", True, "_RPowerScalar"),
    "_maximum_scalar": ("maximum", False, "_MaximumScalar"),
    "_minimum_scalar": ("minimum", False, "_MinimumScalar"),
    "_hypot_scalar": ("hypot", False, "_HypotScalar"),
    "_equal_scalar": ("equal", False, "_EqualScalar"),
    "_not_equal_scalar": ("not_equal", False, "_NotEqualScalar"),
    "_greater_scalar": ("greater", False, "_GreaterScalar"),
    "_greater_equal_scalar": ("greater_equal", False, "_GreaterEqualScalar"),
    "_lesser_scalar": ("lesser", False, "_LesserScalar"),
    "_lesser_equal_scalar": ("lesser_equal", False, "_LesserEqualScalar"),
    "_logical_and_scalar": ("logical_and", False, "_LogicalAndScalar"),
    "_logical_or_scalar": ("logical_or", False, "_LogicalOrScalar"),
    "_logical_xor_scalar": ("logical_xor", False, "_LogicalXorScalar"),
}

_SCALAR_PARAMS = [
    Param("scalar", "float", 1.0, doc="Scalar input value"),
    Param("is_int", "bool", True, doc="Indicate whether scalar input is int type"),
]


def _logic_scalar(fn):
    return lambda a, s: fn(a != 0, torch.tensor(s != 0, device=a.device)).to(a.dtype)


_SCALAR_FN = dict((k, v[0]) for k, v in _BINARY.items())
for _k in ("logical_and", "logical_or", "logical_xor"):
    _SCALAR_FN[_k] = _logic_scalar(getattr(torch, _k))

for _name, (_suffix, _rev, _alias) in _SCALAR.items():
    register(
        OpDef(
            _name,
            _scalar_kernel(_SCALAR_FN[_suffix], _rev),
            params=_SCALAR_PARAMS,
            aliases=(_alias,),
            infer_shape=_same_shape,
            infer_out=same_out,
            infer_type=_scalar_type,
            doc=f"{_BINARY[_suffix][1]} with a scalar.",
        )
    )


# ---------------------------------------------------------------------------------------
# n-ary


def _add_n(attrs, *xs):
    if len(xs) == 1:
        return xs[0].clone()  # a new array, never a view of the input
    if len(xs) in (3, 4):
        # MXNet 1.9.1's kernel adds 3 or 4 inputs right to left: a + (b + (c + d));
        # other counts left to right (bit-exact sums, e.g. Sockeye's checkpoint averaging)
        out = xs[-1]
        for x in xs[-2::-1]:
            out = x + out
        return out
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return out


_add_n_op = register(
    OpDef(
        "add_n",
        _add_n,
        params=[Param("num_args", "int", doc="Number of inputs")],
        variadic="num_args",
        aliases=("ElementWiseSum", "_sparse_ElementWiseSum"),
        infer_shape=_same_shape,
        infer_out=same_out,
        doc="Add all input arguments element-wise.",
    )
)
_add_n_op.uniform_dtype = True  # the inputs' dtype, no meta tracing


def _where(attrs, cond, x, y):
    if cond.shape != x.shape:
        if cond.dim() != 1 or cond.shape[0] != x.shape[0]:
            raise MXNetError(
                f"Operator where: condition shape {tuple(cond.shape)} must equal "
                f"x shape {tuple(x.shape)} or be ({x.shape[0]},)"
            )
        cond = cond.reshape((-1,) + (1,) * (x.dim() - 1))
    if x.shape != y.shape:
        raise MXNetError(
            f"Operator where: x shape {tuple(x.shape)} and y shape {tuple(y.shape)} must be equal"
        )
    return torch.where(cond != 0, x, y)


def _where_type(attrs, ins):
    # the condition may have any dtype; x, y and the output share theirs
    cond, x, y = ins
    t = x if x is not None else y
    return [cond, t, t], [t]


def _merge_partial(a, b):
    """Merge two shapes whose ``0`` dims are unknown; ``None`` when they conflict."""
    if a is None or b is None:
        return a if b is None else b
    if len(a) != len(b) or any(p and q and p != q for p, q in zip(a, b)):
        return None
    return tuple(p or q for p, q in zip(a, b))


def _where_shape(attrs, s):
    """MXNet 1.9.1's rule: once the condition's shape is known, x, y (and the output) share
    one shape, merged from the dims each knows (``zeros((0, n))`` through ``F.where``)."""
    cond, x, y = s
    if cond is None:  # as MXNet 1.9.1: nothing is shared before the condition's shape
        return s
    t = _merge_partial(None if x is None else tuple(x), None if y is None else tuple(y))
    if t is not None:
        s = [cond, t, t]
    return s


def _where_back(attrs, ins, outs):
    """MXNet 1.9.1 also gives x and y the output's shape (symbolic inference backwards):
    ``where(c, zeros((0, n)), ...)`` feeding an element-wise op (GluonTS's DeepAR)."""
    out = tuple(outs[0])
    return [ins[0], out, out]


def _where_out(attrs, s):
    cond, x, y = (tuple(v) for v in s)
    same = _merge_partial(cond, x) is not None if 0 in cond + x else cond == x
    if not same and (len(cond) != 1 or not x or (cond[0] != x[0] and cond[0] and x[0])):
        raise MXNetError(
            f"Operator where: condition shape {cond} must equal x shape {x} "
            f"or be ({x[0] if x else ''},)"
        )
    t = _merge_partial(x, y) if 0 in x + y else (x if x == y else None)
    if t is None:
        raise MXNetError(f"Operator where: x shape {x} and y shape {y} must be equal")
    return [t]


register(
    OpDef(
        "where",
        _where,
        inputs=("condition", "x", "y"),
        infer_type=_where_type,
        infer_shape=_where_shape,
        infer_out=_where_out,
        infer_back=_where_back,
        doc="Return elements chosen from x or y depending on condition.",
    )
)
get_op("where").partial_shapes = True  # the rules read shapes with unknown (0) dims


# ---------------------------------------------------------------------------------------
# casts

_FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def _cast(a, x):
    r = x.to(to_torch(a["dtype"]))
    if x.requires_grad and not r.is_floating_point() and r.dtype != torch.bool:
        # MXNet differentiates a cast to integers (the gradient is cast back)
        return _int_grad.shadowed(r, x)
    return r


register(
    OpDef(
        "Cast",
        _cast,
        aliases=("cast",),
        infer_shape=_same_shape,
        infer_type=lambda a, ins: (ins, [a["dtype"]]),
        params=[Param("dtype", "dtype", doc="Output data type.")],
        doc="Cast the array to the given data type (float to int truncates).",
    )
)


def _amp_cast(a, x):
    return x.to(to_torch(a["dtype"])) if x.dtype in _FLOATS else x


_FLOAT_NAMES = ("float16", "bfloat16", "float32", "float64")


def _amp_cast_type(a, ins):
    t = ins[0]
    return ins, [None if t is None else (a["dtype"] if t in _FLOAT_NAMES else t)]


def _amp_multicast_type(a, ins):
    if any(t is None for t in ins):
        return ins, [None] * len(ins)
    floats = [t for t in ins if t in _FLOAT_NAMES]
    if not floats:
        return ins, list(ins)
    order = {"float16": 0, "bfloat16": 0, "float32": 1, "float64": 2}
    target = (min if a["cast_narrow"] else max)(floats, key=order.__getitem__)
    return ins, [target if t in _FLOAT_NAMES else t for t in ins]


register(
    OpDef(
        "amp_cast",
        _amp_cast,
        infer_shape=_same_shape,
        infer_type=_amp_cast_type,
        params=[Param("dtype", "dtype", doc="Output data type.")],
        doc="Cast a floating-point array for mixed precision; other dtypes pass.",
    )
)

_WIDTH = {torch.float16: 0, torch.bfloat16: 0, torch.float32: 1, torch.float64: 2}


def _amp_multicast(a, *xs):
    if len(xs) != a["num_outputs"]:
        raise MXNetError(
            f"Operator amp_multicast: num_outputs={a['num_outputs']} but {len(xs)} inputs given"
        )
    floats = [x.dtype for x in xs if x.dtype in _WIDTH]
    if not floats:
        return tuple(xs)
    pick = min if a["cast_narrow"] else max
    target = pick(floats, key=_WIDTH.__getitem__)
    return tuple(x.to(target) if x.dtype in _WIDTH else x for x in xs)


register(
    OpDef(
        "amp_multicast",
        _amp_multicast,
        variadic="num_outputs",
        params=[
            Param("num_outputs", "int", doc="Number of input/output pairs."),
            Param(
                "cast_narrow",
                "bool",
                False,
                doc="Whether to cast to the narrowest type instead of the widest.",
            ),
        ],
        outputs=lambda a: [f"output{i}" for i in range(a["num_outputs"])],
        infer_shape=lambda a, s: s,
        infer_type=_amp_multicast_type,
        doc="Cast every floating input to the widest (or narrowest) float type among them.",
    )
)


# MXNet 1.9.1's integer modulo kernels differentiate to zero (imperative and bound graphs)
for _name in ("_mod", "broadcast_mod", "_mod_scalar", "_rmod_scalar"):
    get_op(_name).int_grad_zero = True
