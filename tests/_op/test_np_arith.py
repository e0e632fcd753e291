"""Records for the NumPy-interface arithmetic operators (``_npi_add``, ``_npi_mod_scalar``...).

Dtype rules and the quirks (mod by zero gives 0, integer scalars are cast to the array's
dtype, negative integer powers) were checked against MXNet 1.9.1.
"""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from tests._op.harness import Record, run_record

rng = np.random.RandomState(3)
A = rng.uniform(-2, 2, (2, 3)).astype(np.float32)
B = rng.uniform(0.5, 2, (2, 3)).astype(np.float32)
ROW = rng.uniform(0.5, 2, (1, 3)).astype(np.float32)
P = rng.uniform(0.5, 2, (2, 3)).astype(np.float32)  # positive bases for power
I = np.array([[3, -2, 7], [0, 5, -9]], dtype=np.int32)
J = np.array([[2, 3, -4], [1, 2, 4]], dtype=np.int32)


def _dtype(expected):
    def check(outs, ins):
        assert outs[0].dtype == np.dtype(expected), f"dtype {outs[0].dtype} != {expected}"

    return check


def _b(fn):
    return lambda a, b, **k: fn(a, b)


def _s(fn, rev=False):
    return lambda x, scalar=1.0, is_int=True, **k: fn(scalar, x) if rev else fn(x, scalar)


_BIN = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
        "true_divide": np.true_divide, "mod": np.mod, "power": np.power}
_CMP = {"equal": np.equal, "not_equal": np.not_equal, "greater": np.greater,
        "less": np.less, "greater_equal": np.greater_equal, "less_equal": np.less_equal}

RECORDS = []
for _n, _f in _BIN.items():
    lhs = P if _n == "power" else A
    RECORDS.append(Record(f"_npi_{_n}", [lhs, ROW], ref=_b(_f), grad=True,
                          name=f"_npi_{_n}_bcast"))
    if _n != "true_divide":  # MXNet refuses to divide float32 by float64
        RECORDS.append(Record(f"_npi_{_n}", [lhs, B.astype(np.float64)], ref=_b(_f),
                              check=_dtype(np.float64), name=f"_npi_{_n}_f32_f64"))
    for _rev in (False, True) if _n in ("subtract", "true_divide", "mod", "power") else (False,):
        _op = f"_npi_{'r' if _rev else ''}{_n}_scalar"
        x = P if _n == "power" else B if _rev else A
        RECORDS.append(Record(_op, [x], params={"scalar": 1.5, "is_int": False},
                              ref=_s(_f, _rev), grad=True))
for _n, _f in _CMP.items():
    RECORDS.append(Record(f"_npi_{_n}", [A, np.round(A)], ref=_b(_f), check=_dtype(np.bool_)))
    RECORDS.append(Record(f"_npi_{_n}_scalar", [np.round(A)], params={"scalar": 1.0},
                          ref=_s(_f), check=_dtype(np.bool_)))
RECORDS += [
    Record("_npi_negative", [A], ref=lambda x: -x, grad=True),
    Record("_npi_absolute", [A], ref=lambda x: np.abs(x), grad=True),
    # integer rules (MXNet 1.9.1): same-dtype integers keep it, true division gives float32
    Record("_npi_add", [I, J], ref=_b(np.add), check=_dtype(np.int32), name="add_int"),
    Record("_npi_true_divide", [I, J], ref=_b(np.true_divide), check=_dtype(np.float32),
           name="div_int"),
    Record("_npi_mod", [I, J], ref=_b(np.mod), check=_dtype(np.int32), name="mod_int"),
    Record("_npi_mod", [I, np.zeros_like(J)], ref=lambda a, b: np.zeros_like(a),
           name="mod_by_zero"),
    Record("_npi_multiply_scalar", [I], params={"scalar": 2.5, "is_int": False},
           ref=lambda x, **k: x * 2, check=_dtype(np.int32), name="mul_int_by_float"),
    Record("_npi_power_scalar", [np.abs(J) + 1], params={"scalar": -1, "is_int": True},
           ref=lambda x, **k: (x == 1).astype(np.int32), check=_dtype(np.int32),
           name="int_negative_power"),
    Record("_npi_less_scalar", [I], params={"scalar": 3.5, "is_int": False},
           ref=lambda x, **k: x < 3, name="cmp_int_truncates_scalar"),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


# -- dtype table of two arrays (MXNet 1.9.1; "E" = MXNetError) -----------------------------
_TABLE = {
    ("add", "int8", "uint8"): "E", ("add", "int32", "int64"): "int64",
    ("add", "bool", "bool"): "bool", ("add", "bool", "int8"): "int8",
    ("add", "int64", "float16"): "float16", ("add", "float16", "float32"): "float32",
    ("subtract", "int32", "int64"): "E", ("subtract", "bool", "bool"): "E",
    ("subtract", "bool", "float32"): "float32", ("subtract", "float16", "float64"): "float64",
    ("true_divide", "int32", "int32"): "float32", ("true_divide", "bool", "bool"): "float32",
    ("true_divide", "float16", "float32"): "E", ("true_divide", "int8", "float16"): "float16",
    ("true_divide", "int8", "int32"): "E", ("mod", "uint8", "int32"): "E",
    ("mod", "int32", "float64"): "float64", ("power", "bool", "bool"): "bool",
    ("power", "uint8", "int32"): "int32", ("equal", "int32", "float32"): "E",
    ("less", "float16", "float16"): "bool",
}


@pytest.mark.parametrize("key", sorted(_TABLE), ids=lambda k: "-".join(k))
def test_dtype_table(key):
    op, a, b = key
    x = mx.nd.array(np.array([3, 1]).astype(a), dtype=a)
    y = mx.nd.array(np.array([2, 1]).astype(b), dtype=b)
    fn = getattr(mx.nd._internal, f"_npi_{op}")
    if _TABLE[key] == "E":
        with pytest.raises(MXNetError):
            fn(x, y).asnumpy()
    else:
        assert np.dtype(fn(x, y).dtype) == np.dtype(_TABLE[key])


def test_scalar_cast_to_array_dtype():
    u = mx.nd.array(np.array([3, 254], dtype=np.uint8), dtype="uint8")
    # -3 becomes 253 in uint8, as a C cast does
    assert mx.nd._internal._npi_less_scalar(u, scalar=-3).asnumpy().tolist() == [True, False]
    b = mx.nd.array(np.array([True, False]), dtype="bool")
    assert mx.nd._internal._npi_equal_scalar(b, scalar=2).asnumpy().tolist() == [True, False]
    r = mx.nd._internal._npi_add_scalar(b, scalar=2.5)
    assert r.dtype == np.int64 and r.asnumpy().tolist() == [3, 2]


def test_mod_gives_positive_zero():
    x = mx.nd.array([-2.0, 4.0])
    r = mx.nd._internal._npi_mod_scalar(x, scalar=1.0).asnumpy()
    assert not np.signbit(r).any()
    assert mx.nd._internal._npi_mod_scalar(x, scalar=0.0).asnumpy().tolist() == [0.0, 0.0]
