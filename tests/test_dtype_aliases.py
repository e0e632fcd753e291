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


def test_array_given_as_dtype():
    # Sockeye's loss does ``output.astype(label, copy=False)``: MXNet 1.9.1 takes the
    # dtype of an array passed where a dtype is expected
    x = mx.nd.array([1.5, 2.5])
    label = mx.nd.array([1, 2], dtype="int32")
    assert x.astype(label).dtype == np.int32
    assert x.astype(label, copy=False).dtype == np.int32
    assert mx.nd.zeros((2,), dtype=label).dtype == np.int32
    assert mx.nd.cast(x, dtype=label).dtype == np.int32
    assert mx.nd.array([1, 2], dtype=np.zeros(1, dtype="float16")).dtype == np.float16
    assert mx.np.ones(2).astype(mx.np.ones(2, dtype="int32")).dtype == np.int32
