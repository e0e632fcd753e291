"""Records for element-wise operators: unary math, binary, scalar forms, n-ary and casts.

Quirky integer / rounding behaviours are checked against values produced by MXNet 1.9.1.
"""

import math

import numpy as np
import pytest

import mxnet as mx
from mxnet._op import get_op
from tests._op.harness import Record, run_record

rng = np.random.RandomState(0)
A = rng.uniform(-2, 2, (2, 3)).astype(np.float32)
B = rng.uniform(0.5, 2, (2, 3)).astype(np.float32)
P = rng.uniform(0.2, 3, (2, 3)).astype(np.float32)  # positive
U = rng.uniform(-0.9, 0.9, (2, 3)).astype(np.float32)  # inside (-1, 1)
G = rng.uniform(1.1, 3, (2, 3)).astype(np.float32)  # > 1
I = np.array([[1, 2, 3], [4, -5, 6]], dtype=np.int32)
J = np.array([[2, 3, -3], [1, 2, 4]], dtype=np.int32)


def _dtype(expected):
    def check(outs, ins):
        assert outs[0].dtype == np.dtype(expected), f"dtype {outs[0].dtype} != {expected}"

    return check


def _u(fn):
    return lambda x, **k: fn(x)


def _round_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _rint_mx(x):
    lo, hi = np.floor(x), np.ceil(x)
    return np.where(x - lo > hi - x, hi, lo)


_vgamma = np.vectorize(math.gamma, otypes=[np.float64])
_vlgamma = np.vectorize(math.lgamma, otypes=[np.float64])
_verf = np.vectorize(math.erf, otypes=[np.float64])


def _erfinv_check(outs, ins):
    np.testing.assert_allclose(_verf(outs[0].astype(np.float64)), ins[0], rtol=1e-4, atol=1e-5)


# name: (input, numpy reference, gradient check)
_UNARY = {
    "abs": (A, np.abs, True), "negative": (A, np.negative, True), "sign": (A, np.sign, False),
    "round": (A, _round_away, False), "rint": (A, _rint_mx, False),
    "ceil": (A, np.ceil, False), "floor": (A, np.floor, False), "trunc": (A, np.trunc, False),
    "fix": (A, np.fix, False), "square": (A, np.square, True), "sqrt": (P, np.sqrt, True),
    "rsqrt": (P, lambda x: 1 / np.sqrt(x), True), "cbrt": (A, np.cbrt, True),
    "rcbrt": (P, lambda x: 1 / np.cbrt(x), True), "exp": (A, np.exp, True),
    "expm1": (A, np.expm1, True), "log": (P, np.log, True), "log10": (P, np.log10, True),
    "log2": (P, np.log2, True), "log1p": (P, np.log1p, True), "sin": (A, np.sin, True),
    "cos": (A, np.cos, True), "tan": (U, np.tan, True), "arcsin": (U, np.arcsin, True),
    "arccos": (U, np.arccos, True), "arctan": (A, np.arctan, True), "sinh": (A, np.sinh, True),
    "cosh": (A, np.cosh, True), "tanh": (A, np.tanh, True), "arcsinh": (A, np.arcsinh, True),
    "arccosh": (G, np.arccosh, True), "arctanh": (U, np.arctanh, True),
    "degrees": (A, np.degrees, True), "radians": (A, np.radians, True),
    "sigmoid": (A, lambda x: 1 / (1 + np.exp(-x)), True), "relu": (A, lambda x: np.maximum(x, 0),
                                                                      True),
    "softsign": (A, lambda x: x / (1 + np.abs(x)), True), "reciprocal": (P, np.reciprocal, True),
    "erf": (A, _verf, True), "gamma": (P, _vgamma, True), "gammaln": (P, _vlgamma, True),
    "logical_not": (np.array([[0, 1.5, -2], [0, 0, 3]], np.float32),
                    lambda x: (x == 0).astype(x.dtype), False),
    "_copy": (A, lambda x: x, True), "BlockGrad": (A, lambda x: x, False),
    "make_loss": (A, lambda x: x, False),
}

RECORDS = [Record(n, [x], ref=_u(f), grad=g, rtol=1e-4, atol=1e-5)
           for n, (x, f, g) in _UNARY.items()]
RECORDS += [
    Record("erfinv", [U], check=_erfinv_check, grad=True),
    Record("clip", [A], {"a_min": -1.0, "a_max": 0.5},
           ref=lambda x, a_min, a_max: np.clip(x, a_min, a_max), grad=True),
    Record("clip", [I], {"a_min": 2.5, "a_max": 5.5}, name="clip_int",
           ref=lambda x, **k: np.clip(x, 2, 5), check=_dtype(np.int32)),
    Record("hard_sigmoid", [A], ref=lambda x: np.clip(0.2 * x + 0.5, 0, 1), grad=True),
    Record("hard_sigmoid", [A], {"alpha": 0.3, "beta": 0.1}, name="hard_sigmoid_params",
           ref=lambda x, alpha, beta: np.clip(alpha * x + beta, 0, 1)),
    # integer inputs compute in float and truncate back (MXNet 1.9.1 values)
    Record("sqrt", [np.array([1, 4, 9, 8], np.int32)], name="sqrt_int",
           ref=lambda x: np.array([1, 2, 3, 2]), check=_dtype(np.int32)),
    Record("exp", [np.array([1, 4, 9, 0], np.int32)], name="exp_int",
           ref=lambda x: np.array([2, 54, 8103, 1]), check=_dtype(np.int32)),
    Record("cbrt", [np.array([1, 4, 9, -2], np.int32)], name="cbrt_int",
           ref=lambda x: np.array([1, 1, 2, -1])),
    Record("abs", [I], name="abs_int", ref=np.abs, check=_dtype(np.int32)),
]

# ---------------------------------------------------------------------------------------
# binary


def _np_mod(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.mod(a, np.where(b == 0, 1, b))
    return np.where(b == 0, 0, r)


def _np_div(a, b):
    if a.dtype.kind == "f":
        return a / b
    return np.trunc(a / b).astype(a.dtype)


def _cmp(fn):
    return lambda a, b, **k: fn(a, b).astype(a.dtype)


def _logic(fn):
    return lambda a, b, **k: fn(a != 0, b != 0).astype(a.dtype)


_BIN = {
    # suffix: (numpy reference, gradient check, positive lhs)
    "add": (np.add, True, False), "sub": (np.subtract, True, False),
    "mul": (np.multiply, True, False), "div": (_np_div, True, False), "mod": (_np_mod, False, False),
    "power": (np.power, True, True), "maximum": (np.maximum, True, False),
    "minimum": (np.minimum, True, False), "hypot": (np.hypot, True, False),
    "equal": (_cmp(np.equal), False, False), "not_equal": (_cmp(np.not_equal), False, False),
    "greater": (_cmp(np.greater), False, False),
    "greater_equal": (_cmp(np.greater_equal), False, False),
    "lesser": (_cmp(np.less), False, False), "lesser_equal": (_cmp(np.less_equal), False, False),
    "logical_and": (_logic(np.logical_and), False, False),
    "logical_or": (_logic(np.logical_or), False, False),
    "logical_xor": (_logic(np.logical_xor), False, False),
}
_ELEM = {"add": "elemwise_add", "sub": "elemwise_sub", "mul": "elemwise_mul",
         "div": "elemwise_div"}
C = np.array([[1.0, 0.0, -1.5], [2.0, 0.0, 1.0]], np.float32)  # some equal to D, some zero
D = np.array([[1.0, 2.0, -1.5], [0.5, 0.0, 3.0]], np.float32)

for _s, (_f, _g, _pos) in _BIN.items():
    _lhs = P if _pos else A
    _bref = (lambda f: lambda a, b, **k: f(a, b))(_f)
    RECORDS.append(Record(f"broadcast_{_s}", [_lhs, B[:1]], ref=_bref, grad=_g, rtol=1e-4,
                          atol=1e-5))
    RECORDS.append(Record(_ELEM.get(_s, f"_{_s}"), [_lhs, B], ref=_bref, grad=_g, rtol=1e-4,
                          atol=1e-5))
    if not _g:
        RECORDS.append(Record(f"broadcast_{_s}", [C, D], ref=_bref, name=f"broadcast_{_s}_ties"))
    if _s not in ("power", "hypot"):
        RECORDS.append(Record(f"broadcast_{_s}", [I, J], ref=_bref, name=f"broadcast_{_s}_int",
                              check=_dtype(np.int32)))

RECORDS += [
    # MXNet 1.9.1 values: x % 0 == 0, Python-style sign, trunc division, 2 ** -1 == 0
    Record("broadcast_mod", [np.array([5, -5, 5], np.int32), np.array([0, 3, -3], np.int32)],
           name="mod_int_zero", ref=lambda a, b: np.array([0, 1, -1]), check=_dtype(np.int32)),
    Record("broadcast_mod", [np.array([5.5, -5, 5], np.float32), np.array([0, 3, -3], np.float32)],
           name="mod_float_zero", ref=lambda a, b: np.array([0.0, 1.0, -1.0])),
    Record("broadcast_div", [np.array([5, -5, 5], np.int32), np.array([2, 3, -3], np.int32)],
           name="div_int_trunc", ref=lambda a, b: np.array([2, -1, -1])),
    Record("broadcast_power", [np.array([2, 3], np.int32), np.array([-1, 2], np.int32)],
           name="power_int_neg", ref=lambda a, b: np.array([0, 9])),
]

# ---------------------------------------------------------------------------------------
# scalar forms

_SC = {
    # name: numpy reference f(x, s)
    "_plus_scalar": np.add, "_minus_scalar": np.subtract,
    "_rminus_scalar": lambda x, s: s - x, "_mul_scalar": np.multiply,
    "_div_scalar": lambda x, s: x / s, "_rdiv_scalar": lambda x, s: s / x,
    "_mod_scalar": lambda x, s: np.mod(x, s), "_rmod_scalar": lambda x, s: np.mod(s, x),
    "_power_scalar": lambda x, s: np.power(x, s), "_rpower_scalar": lambda x, s: np.power(s, x),
    "_maximum_scalar": np.maximum, "_minimum_scalar": np.minimum, "_hypot_scalar": np.hypot,
    "_equal_scalar": _cmp(np.equal), "_not_equal_scalar": _cmp(np.not_equal),
    "_greater_scalar": _cmp(np.greater), "_greater_equal_scalar": _cmp(np.greater_equal),
    "_lesser_scalar": _cmp(np.less), "_lesser_equal_scalar": _cmp(np.less_equal),
    "_logical_and_scalar": lambda x, s: np.logical_and(x != 0, s != 0).astype(x.dtype),
    "_logical_or_scalar": lambda x, s: np.logical_or(x != 0, s != 0).astype(x.dtype),
    "_logical_xor_scalar": lambda x, s: np.logical_xor(x != 0, s != 0).astype(x.dtype),
}
_NO_GRAD = {"_mod_scalar", "_rmod_scalar"}
E = np.array([[1.0, 2.5, -3.0], [0.0, 2.5, 4.0]], np.float32)  # hits the scalar exactly

for _n, _f in _SC.items():
    _sref = (lambda f: lambda x, scalar, **k: f(x.astype(np.float64), scalar))(_f)
    _x = P if _n in ("_power_scalar", "_rdiv_scalar", "_rmod_scalar") else A
    RECORDS.append(Record(_n, [_x], {"scalar": 2.5}, ref=_sref, rtol=1e-4, atol=1e-5,
                          grad=not _n.endswith(("l_scalar", "r_scalar", "d_scalar"))
                          and _n not in _NO_GRAD))
    if "equal" in _n or "logical" in _n or "greater" in _n or "lesser" in _n:
        RECORDS.append(Record(_n, [E], {"scalar": 2.5}, ref=_sref, name=f"{_n}_ties"))

# integer arrays (MXNet 1.9.1 values): the scalar is truncated and the dtype kept
_INT_EXPECT = {
    "_plus_scalar": [[3, 4, 5], [6, -3, 8]], "_rminus_scalar": [[1, 0, -1], [-2, 7, -4]],
    "_div_scalar": [[0, 1, 1], [2, -2, 3]], "_rdiv_scalar": [[2, 1, 0], [0, 0, 0]],
    "_mod_scalar": [[1, 0, 1], [0, 1, 0]], "_rmod_scalar": [[0, 0, 2], [2, -3, 2]],
    "_power_scalar": [[1, 4, 9], [16, 25, 36]], "_rpower_scalar": [[2, 4, 8], [16, 0, 64]],
    "_hypot_scalar": [[2, 2, 3], [4, 5, 6]], "_equal_scalar": [[0, 1, 0], [0, 0, 0]],
    "_logical_and_scalar": [[1, 1, 1], [1, 1, 1]], "_maximum_scalar": [[2, 2, 3], [4, 2, 6]],
}
for _n, _v in _INT_EXPECT.items():
    RECORDS.append(Record(_n, [I], {"scalar": 2.5}, name=f"{_n}_int",
                          ref=(lambda v: lambda x, **k: np.array(v))(_v),
                          check=_dtype(np.int32)))
RECORDS += [
    Record("_plus_scalar", [I], {"scalar": 2.5, "is_int": False}, name="_plus_scalar_not_int",
           ref=lambda x, scalar, is_int: x + scalar, check=_dtype(np.float64)),
    Record("_div_scalar", [I], {"scalar": 2.5, "is_int": False}, name="_div_scalar_not_int",
           ref=lambda x, scalar, is_int: x / scalar, check=_dtype(np.float64)),
    Record("_plus_scalar", [np.array([True, False])], {"scalar": 2.5}, name="_plus_scalar_bool",
           ref=lambda x, **k: np.array([3, 2]), check=_dtype(np.int64)),
    Record("_mod_scalar", [A], {"scalar": 0.0}, name="_mod_scalar_zero",
           ref=lambda x, **k: np.zeros_like(x)),
]

# ---------------------------------------------------------------------------------------
# n-ary, where, casts

RECORDS += [
    Record("add_n", [A, B, P], ref=lambda *xs, **k: xs[0] + xs[1] + xs[2], grad=True),
    Record("where", [np.array([[1, 0, 1], [0, 0, 1]], np.float32), A, B],
           ref=lambda c, x, y: np.where(c != 0, x, y), grad=True, grad_inputs=(1, 2)),
    Record("where", [np.array([1, 0], np.float32), A, B], name="where_rows",
           ref=lambda c, x, y: np.where(c[:, None] != 0, x, y)),
    Record("Cast", [np.array([1.7, -1.5, 300], np.float32)], {"dtype": "int32"},
           ref=lambda x, **k: np.array([1, -1, 300]), check=_dtype(np.int32)),
    Record("Cast", [np.array([1.7, -1.5, 300], np.float32)], {"dtype": "uint8"},
           name="Cast_uint8_wrap", ref=lambda x, **k: np.array([1, 255, 44]),
           check=_dtype(np.uint8)),
    Record("Cast", [A], {"dtype": "float64"}, name="Cast_float64", ref=lambda x, **k: x,
           grad=True, check=_dtype(np.float64)),
    Record("amp_cast", [A], {"dtype": "float16"}, ref=lambda x, **k: x, rtol=1e-3, atol=1e-3,
           check=_dtype(np.float16), symbolic=False),  # tojson drops amp casts, as MXNet does
    Record("amp_cast", [I], {"dtype": "float16"}, name="amp_cast_int", ref=lambda x, **k: x,
           check=_dtype(np.int32), symbolic=False),
    Record("amp_multicast", [A, A.astype(np.float16)], {"num_outputs": 2},
           ref=lambda a, b, **k: [a, b], rtol=1e-3, atol=1e-3,
           check=lambda o, i: [x.dtype for x in o] == [np.float32] * 2 or pytest.fail("dtype"),
           symbolic=False),
    Record("amp_multicast", [A, A.astype(np.float16)], {"num_outputs": 2, "cast_narrow": True},
           name="amp_multicast_narrow", ref=lambda a, b, **k: [a, b], rtol=1e-3, atol=1e-3,
           check=lambda o, i: [x.dtype for x in o] == [np.float16] * 2 or pytest.fail("dtype"),
           symbolic=False),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


_LEGACY = {
    "_Plus": "elemwise_add", "_add": "elemwise_add", "_plus": "elemwise_add",
    "_Minus": "elemwise_sub", "_sub": "elemwise_sub", "_Mul": "elemwise_mul",
    "_Div": "elemwise_div", "_Power": "_power", "_Maximum": "_maximum", "_Minimum": "_minimum",
    "_Hypot": "_hypot", "_Mod": "_mod", "_Equal": "_equal", "_Not_Equal": "_not_equal",
    "_Greater": "_greater", "_Greater_Equal": "_greater_equal", "_Lesser": "_lesser",
    "_Lesser_Equal": "_lesser_equal", "_Logical_And": "_logical_and",
    "_Logical_Or": "_logical_or", "_Logical_Xor": "_logical_xor",
    "_PlusScalar": "_plus_scalar", "_RMinusScalar": "_rminus_scalar",
    "_HypotScalar": "_hypot_scalar", "_MinimumScalar": "_minimum_scalar",
    "_LogicalXorScalar": "_logical_xor_scalar", "ElementWiseSum": "add_n",
    "identity": "_copy", "stop_gradient": "BlockGrad", "cast": "Cast",
    "broadcast_plus": "broadcast_add", "broadcast_minus": "broadcast_sub",
}


@pytest.mark.parametrize("alias", sorted(_LEGACY))
def test_legacy_alias(alias):
    assert get_op(alias) is get_op(_LEGACY[alias])


def test_blockgrad_and_make_loss_gradients():
    x = mx.nd.array([1.0, 2.0, 3.0])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.make_loss(x * 2) + mx.nd.BlockGrad(x * 5)
    y.backward(mx.nd.array([3.0, 3.0, 3.0]))
    np.testing.assert_allclose(x.grad.asnumpy(), [2.0, 2.0, 2.0])  # MXNet: ones, not head


def test_maximum_ties_send_gradient_left():
    x, z = mx.nd.array([1.0, 2.0, 2.0]), mx.nd.array([2.0, 2.0, 1.0])
    x.attach_grad()
    z.attach_grad()
    with mx.autograd.record():
        y = mx.nd.broadcast_maximum(x, z)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [0, 1, 1])
    np.testing.assert_allclose(z.grad.asnumpy(), [1, 0, 0])


def test_errors():
    with pytest.raises(mx.base.MXNetError, match="elemwise_add"):
        mx.nd.elemwise_add(mx.nd.ones((2,)), mx.nd.ones((3,)))
    # MXNet 1.9.1's type-inference message (no operator name in an imperative call)
    with pytest.raises(mx.base.MXNetError, match="1-th input: expected float32, got int32"):
        mx.nd.broadcast_add(mx.nd.ones((2,)), mx.nd.ones((2,), dtype="int32"))
    with pytest.raises(mx.base.MXNetError, match="a_min"):
        mx.nd.clip(mx.nd.ones((2,)))


def test_signatures_and_fluent():
    import inspect

    assert list(inspect.signature(mx.nd.clip).parameters)[:3] == ["data", "a_min", "a_max"]
    assert hasattr(mx.nd.NDArray, "sqrt") and not hasattr(mx.nd.NDArray, "erf")
    assert mx.nd.ones((2,)).clip(0, 0.5).asnumpy().tolist() == [0.5, 0.5]


def test_symbol_type_inference_matches_imperative():
    """Types inferred by the symbol layer (no shapes given) equal the nd output dtypes."""
    import importlib

    from mxnet import symbol as sym
    from mxnet.ndarray._namespace import function_for as ndf
    from mxnet.symbol._namespace import function_for as symf

    for mod in ("test_elemwise", "test_reduce", "test_softmax", "test_random"):
        for rec in importlib.import_module(f"tests._op.{mod}").RECORDS:
            op = get_op(rec.op)
            arrays = [np.asarray(x) for x in rec.inputs]
            names = ([f"arg{i}" for i in range(len(arrays))] if op.variadic
                     else list(op.input_slots[:len(arrays)]))
            s = symf(rec.op)(*[sym.Variable(n) for n in names], **rec.params)
            _, outs, _ = s.infer_type(**{n: a.dtype for n, a in zip(names, arrays)})
            res = ndf(rec.op)(*[mx.nd.array(a, dtype=a.dtype) for a in arrays], **rec.params)
            res = res if isinstance(res, list) else [res]
            got = [np.dtype(t).name for t in outs[:len(res)]]
            assert got == [np.dtype(o.dtype).name for o in res], rec.id


def test_gamma_gammaln_pole_values_match_mxnet():
    # MXNet: Gamma is NaN at negative integers; psi (in both gradients) is +inf at the poles
    import mxnet as mx

    x = mx.nd.array([-2.0, 0.0, 1.5])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.gamma(x)
    y.backward()
    out, grad = y.asnumpy(), x.grad.asnumpy()
    assert np.isnan(out[0]) and np.isposinf(out[1])
    assert np.isnan(grad[0]) and np.isposinf(grad[1])
    np.testing.assert_allclose(grad[2], 0.0323400, rtol=1e-4)
    with mx.autograd.record():
        y = mx.nd.gammaln(x)
    y.backward()
    assert np.isposinf(x.grad.asnumpy()[:2]).all()


def test_unary_edge_gradients_match_mxnet():
    # values at 0 / +-inf / NaN as MXNet 1.9.1 gives them
    import mxnet as mx

    x = mx.nd.array([0.0, np.inf, -np.inf, np.nan])
    x.attach_grad()
    grads = {}
    for name in ("cbrt", "rcbrt", "softsign", "hard_sigmoid"):
        with mx.autograd.record():
            y = getattr(mx.nd, name)(x)
        y.backward()
        grads[name] = x.grad.asnumpy()
    assert np.isposinf(grads["cbrt"][0]) and np.isneginf(grads["rcbrt"][0])
    np.testing.assert_array_equal(grads["softsign"][1:3], [0.0, 0.0])
    assert grads["hard_sigmoid"][3] == 0.0
    assert np.isnan(mx.nd.hard_sigmoid(x).asnumpy()[3])
    x64 = mx.nd.array([-2.0], dtype="float64")
    x64.attach_grad()
    with mx.autograd.record():
        y = mx.nd.gammaln(x64)
    y.backward()
    assert x64.grad.asnumpy()[0] == np.finfo(np.float64).max


def test_constant_outputs_send_zero_gradients():
    # MXNet records every op: a path through BlockGrad/logical_not/zeros_like/argmax gives
    # zero gradients instead of "not in a computational graph"
    import mxnet as mx

    x = mx.nd.array([1.0, 0.0, 2.0])
    x.attach_grad()
    for fn in (mx.nd.logical_not, mx.nd.zeros_like, mx.nd.BlockGrad,
               lambda v: v.argmax(axis=0)):
        x.grad[:] = 5
        with mx.autograd.record():
            y = fn(x)
        y.backward()
        np.testing.assert_array_equal(x.grad.asnumpy(), np.zeros(3))
    with mx.autograd.record():
        y = x * 2 + mx.nd.BlockGrad(x)
    y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), np.full(3, 2.0))


def test_integer_unary_math_in_double_then_truncated():
    # MXNet 1.9.1 evaluates math functions of integer arrays in double precision
    x = mx.nd.array([4, 5, 10, 100], dtype="int32")
    assert mx.nd.erf(x).asnumpy().tolist() == [0, 0, 1, 1]
    assert mx.nd.tanh(x).asnumpy().tolist() == [0, 0, 0, 1]
    assert mx.nd.erf(x).dtype == np.int32


def test_float16_scalar_ops_round_the_scalar_to_float16_first():
    # MXNet's scalar kernels compute op(x, DType(scalar)): 0.1 becomes 0.0999755859375
    x = np.random.RandomState(0).uniform(-2, 2, 500).astype(np.float16)
    s16 = np.float32(np.float16(0.1))
    ref_mul = (x.astype(np.float32) * s16).astype(np.float16)
    ref_div = (x.astype(np.float32) / np.float32(np.float16(3.3))).astype(np.float16)
    a = mx.nd.array(x, dtype="float16")
    np.testing.assert_array_equal((a * 0.1).asnumpy(), ref_mul)
    np.testing.assert_array_equal((a / 3.3).asnumpy(), ref_div)
    b = mx.np.array(x, dtype="float16")
    np.testing.assert_array_equal((b * 0.1).asnumpy(), ref_mul)
    np.testing.assert_array_equal((b / 3.3).asnumpy(), ref_div)


def test_float16_unary_math_rounds_once_like_mxnet():
    # MXNet's half_t math kernels compute DType(f(float(x))); composite functions (rcbrt,
    # softsign, erf, ...) must not round their intermediates to float16
    x = np.random.RandomState(0).uniform(0.01, 4, 2000).astype(np.float16)
    a = mx.nd.array(x, dtype="float16")
    f32 = mx.nd.array(x.astype(np.float32))
    for name in ("rcbrt", "softsign", "erf", "rsqrt", "cbrt"):
        fn = getattr(mx.nd, name)
        ref = fn(f32).asnumpy().astype(np.float16)
        np.testing.assert_array_equal(fn(a).asnumpy(), ref, err_msg=name)


def test_integer_power_follows_mxnet_double_cast():
    # MXNet 1.9.1 computes integer pow in double and casts: 0 ** -1 and overflow give the
    # type's minimum (values from the oracle)
    x = mx.nd.array([0, 0, 2, -2, 3, 1, -1, 5, 2, 0], dtype="int32")
    y = mx.nd.array([-1, -3, -1, -2, -2, -5, -3, 0, 40, 0], dtype="int32")
    m = -(2**31)
    want = [m, m, 0, 0, 0, 1, -1, 1, m, 1]
    assert mx.nd.power(x, y).asnumpy().tolist() == want
    assert mx.nd.broadcast_power(x, y).asnumpy().tolist() == want
    assert (x**-2).asnumpy().tolist() == [m, m, 0, 0, 0, 1, 1, 0, 0, m]
    x64 = x.astype("int64")
    got = mx.nd.power(x64, y.astype("int64")).asnumpy().tolist()
    assert got[0] == -(2**63) and got[8] == 2**40
