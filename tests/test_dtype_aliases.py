"""dtype spellings mean what NumPy says they mean (MXNet 1.9.1 passes them to np.dtype)."""

import numpy as np
import pytest

import mxnet as mx


@pytest.mark.parametrize(
    "spelling, want",
    [
        ("float", np.float64),
        ("int", np.int64),
        ("double", np.float64),
        ("half", np.float16),
        ("long", np.int64),
        (float, np.float64),
        (int, np.int64),
    ],
)
def test_builtin_dtype_spellings(spelling, want):
    x = mx.nd.array([1.5, 2.5])
    assert mx.nd.array([1, 2], dtype=spelling).dtype == want
    assert mx.nd.zeros((2,), dtype=spelling).dtype == want
    assert x.astype(spelling).dtype == want
    assert mx.nd.cast(x, dtype=spelling).dtype == want
    assert mx.sym.var("a", dtype=spelling).infer_type()[1] == [want]
    assert mx.sym.cast(mx.sym.var("a"), dtype=spelling).infer_type(a="float32")[1] == [want]


def test_np_astype_int_is_int64():
    a = mx.np.array([4, 6, 8])
    assert a.astype("int").dtype == np.int64
    assert a.astype("float").dtype == np.float64
    assert mx.np.arange(3, dtype="int").dtype == np.int64
