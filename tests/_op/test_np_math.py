"""Records for the NumPy-interface element-wise math operators (``_npi_exp``,
``_npi_maximum``, ``_npi_hypot_scalar``, ``_npi_around``, ``_npi_clip``...).

Values and dtypes follow MXNet 1.9.1 (checked against it): integer inputs keep their dtype,
boolean inputs are refused by the transcendental functions.
"""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from tests._op.harness import Record, run_record

rng = np.random.RandomState(5)
A = rng.uniform(-0.9, 0.9, (2, 3)).astype(np.float32)  # inside (-1, 1) for arcsin...
P = rng.uniform(1.1, 3.0, (2, 3)).astype(np.float32)  # > 1 for arccosh, logs
B = rng.uniform(0.5, 2.0, (2, 3)).astype(np.float32)
ROW = rng.uniform(0.5, 2.0, (1, 3)).astype(np.float32)
H = np.array([[0.3, 1.7, -2.2], [3.6, -0.4, 2.45]], dtype=np.float32)  # no ties, no halves
I = np.array([[12, -8, 9], [6, 4, 15]], dtype=np.int32)
J = np.array([[8, 6, 6], [4, 10, 5]], dtype=np.int32)
N = np.array([[np.nan, np.inf, -np.inf], [1.0, -2.0, 0.0]], dtype=np.float32)


def _dtype(expected):
    def check(outs, ins):
        assert outs[0].dtype == np.dtype(expected), f"dtype {outs[0].dtype} != {expected}"

    return check


def _u(fn):
    return lambda x, **k: fn(x)


_UNARY = {
    "exp": (np.exp, A), "expm1": (np.expm1, A), "log": (np.log, P), "log10": (np.log10, P),
    "log2": (np.log2, P), "log1p": (np.log1p, B), "sqrt": (np.sqrt, B), "cbrt": (np.cbrt, A),
    "reciprocal": (np.reciprocal, B), "sin": (np.sin, A), "cos": (np.cos, A),
    "tan": (np.tan, A), "arcsin": (np.arcsin, A), "arccos": (np.arccos, A),
    "arctan": (np.arctan, A), "sinh": (np.sinh, A), "cosh": (np.cosh, A),
    "tanh": (np.tanh, A), "arcsinh": (np.arcsinh, A), "arccosh": (np.arccosh, P),
    "arctanh": (np.arctanh, A), "degrees": (np.degrees, A), "radians": (np.radians, A),
    "sign": (np.sign, A), "square": (np.square, A), "floor": (np.floor, H),
    "ceil": (np.ceil, H), "trunc": (np.trunc, H), "rint": (np.rint, H), "fix": (np.fix, H),
}

RECORDS = []
for _n, (_f, _x) in _UNARY.items():
    RECORDS.append(Record(f"_npi_{_n}", [_x], ref=_u(_f), grad=True, rtol=1e-5, atol=1e-5))
    RECORDS.append(Record(f"_npi_{_n}", [I], ref=lambda x, _f=_f, **k: _f(x.astype(np.float64))
                          .astype(np.int32) if x.dtype.kind == "i" else _f(x),
                          check=_dtype(np.int32), name=f"_npi_{_n}_int32", symbolic=False,
                          atol=1.01) if _n not in ("log", "log10", "log2", "log1p", "sqrt",
                                                   "arcsin", "arccos", "arccosh", "arctanh",
                                                   "exp", "expm1", "sinh", "cosh")
                   else Record(f"_npi_{_n}", [np.abs(I) % 3 + 1], check=_dtype(np.int32),
                               name=f"_npi_{_n}_int32", symbolic=False))
for _n, _f in {"isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
               "isposinf": np.isposinf, "isneginf": np.isneginf,
               "logical_not": np.logical_not}.items():
    RECORDS.append(Record(f"_npi_{_n}", [N], ref=_u(_f), check=_dtype(np.bool_)))
RECORDS += [
    Record("_npi_bitwise_not", [I], ref=_u(np.invert), check=_dtype(np.int32)),
    Record("_npi_around", [H], params={"decimals": 0}, ref=lambda x, decimals=0: np.around(
        x, decimals), grad=True),
    Record("_npi_around", [I * 7], params={"decimals": -1}, name="_npi_around_int",
           ref=lambda x, decimals=0: np.trunc(x / 10).astype(np.int32) * 10),
    Record("_npi_clip", [A], params={"a_min": -0.5, "a_max": 0.5}, grad=True,
           ref=lambda x, a_min, a_max: np.clip(x, a_min, a_max)),
    Record("_npi_clip", [I], params={"a_min": 5, "a_max": 10}, name="_npi_clip_int",
           ref=lambda x, a_min, a_max: np.clip(x, a_min, a_max), check=_dtype(np.int32)),
    Record("_npi_nan_to_num", [N], params={"nan": 1.5, "posinf": 9.0},
           ref=lambda x, nan=0.0, posinf=None, neginf=None, copy=True: np.nan_to_num(
               x, nan=nan, posinf=posinf, neginf=neginf)),
]


def _b(fn):
    return lambda a, b, **k: fn(a, b)


def _s(fn, rev=False):
    return lambda x, scalar=1.0, is_int=True, **k: fn(scalar, x) if rev else fn(x, scalar)


def _ldexp(a, b):
    return a * np.power(2.0, b)


_BINARY = {"maximum": (np.maximum, H, B), "minimum": (np.minimum, H, B),
           "hypot": (np.hypot, A, ROW), "arctan2": (np.arctan2, A, B),
           "copysign": (np.copysign, B, A), "ldexp": (_ldexp, A, B)}
for _n, (_f, _a, _b2) in _BINARY.items():
    RECORDS.append(Record(f"_npi_{_n}", [_a, _b2], ref=_b(_f), grad=_n != "copysign"))
    RECORDS.append(Record(f"_npi_{_n}_scalar", [_a], params={"scalar": 0.7, "is_int": False},
                          ref=_s(_f), grad=_n != "copysign"))
for _n, _f in {"arctan2": np.arctan2, "copysign": np.copysign, "ldexp": _ldexp}.items():
    RECORDS.append(Record(f"_npi_r{_n}_scalar", [B], params={"scalar": -1.5, "is_int": False},
                          ref=_s(_f, True), grad=_n == "ldexp"))
for _n, _f in {"lcm": np.lcm, "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or,
               "bitwise_xor": np.bitwise_xor}.items():
    RECORDS.append(Record(f"_npi_{_n}", [I, J], ref=_b(_f), check=_dtype(np.int32)))
    RECORDS.append(Record(f"_npi_{_n}_scalar", [I], params={"scalar": 6, "is_int": True},
                          ref=lambda x, scalar=1, _f=_f, **k: _f(x, int(scalar)),
                          check=_dtype(np.int32)))
RECORDS += [
    Record("_npi_maximum", [I, J], ref=_b(np.maximum), name="_npi_maximum_int",
           check=_dtype(np.int32)),
    Record("_npi_hypot_scalar", [I], params={"scalar": 5, "is_int": True}, name="hypot_int",
           ref=lambda x, scalar, **k: np.trunc(np.hypot(x, scalar)).astype(np.int32)),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


def test_rarctan2_gradient_is_mxnets():
    # MXNet 1.9.1 differentiates arctan2(scalar, x) as -x / (x**2 + scalar**2)
    x = mx.np.array([0.3, 0.6, 0.9])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.np.arctan2(0.5, x)
    y.backward()
    v = x.asnumpy()
    np.testing.assert_allclose(x.grad.asnumpy(), -v / (v * v + 0.25), rtol=1e-6)


@pytest.mark.parametrize("fn", [mx.np.exp, mx.np.sqrt, mx.np.sign, mx.np.floor])
def test_boolean_inputs_are_refused(fn):
    with pytest.raises(MXNetError):
        fn(mx.np.array([True, False], dtype="bool"))


def test_integer_inputs_keep_dtype_and_truncate():
    x = mx.np.array([1, -2, 3, 4], dtype="int32")
    assert mx.np.exp(x).asnumpy().tolist() == [2, 0, 20, 54]
    assert mx.np.sqrt(x).asnumpy().tolist() == [1, -2147483648, 1, 2]
    u = mx.np.array([1, 2, 3, 200], dtype="uint8")
    assert mx.np.degrees(u).asnumpy().tolist() == [57, 114, 171, 195]


def test_binary_dtype_rules():
    i = mx.np.array([1, 2], dtype="int32")
    f = mx.np.array([1.0, 2.0])
    with pytest.raises(MXNetError):
        mx.np.maximum(i, f)
    with pytest.raises(MXNetError):
        mx.np.hypot(i, i)
    b = mx.np.array([True, False], dtype="bool")
    assert mx.np.maximum(b, 2).dtype == np.int64
    assert mx.np.bitwise_xor(b, b).dtype == np.bool_
    assert (~b).asnumpy().tolist() == [False, True]
    u = mx.np.array([4, 2, 200], dtype="uint8")
    assert mx.np.hypot(-2.5, u).asnumpy().tolist() == [254, 254, 67]
