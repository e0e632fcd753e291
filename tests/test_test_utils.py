"""mx.test_utils: MXNet 1.9.1 signatures, tolerance tables and messages."""

import inspect

import numpy as np
import pytest

import mxnet as mx
from mxnet import test_utils as tu


def test_signatures_match_mxnet():
    sig = {n: str(inspect.signature(getattr(tu, n)).replace(
        return_annotation=inspect.Signature.empty)) for n in (
        "assert_almost_equal", "almost_equal", "same", "assert_exception", "rand_ndarray",
        "rand_shape_2d", "rand_shape_3d", "rand_shape_nd", "get_rtol", "get_atol",
        "get_tolerance")}
    assert sig["assert_almost_equal"] == ("(a, b, rtol=None, atol=None, names=('a', 'b'), "
                                          "equal_nan=False, use_broadcast=True, "
                                          "mismatches=(10, 10))")
    assert sig["almost_equal"] == ("(a, b, rtol=None, atol=None, equal_nan=False, "
                                   "use_broadcast=True)")
    assert sig["same"] == "(a, b)"
    assert sig["assert_exception"] == "(f, exception_type, *args, **kwargs)"
    assert sig["rand_ndarray"] == ("(shape, stype='default', density=None, dtype=None, "
                                   "modifier_func=None, shuffle_csr_indices=False, "
                                   "distribution=None, ctx=None)")
    assert sig["rand_shape_2d"] == "(dim0=10, dim1=10, allow_zero_size=False)"
    assert sig["rand_shape_nd"] == "(num_dim, dim=10, allow_zero_size=False)"
    assert sig["get_tolerance"] == "(dat, tol, default_tol)"


def test_tolerance_tables():
    assert tu.get_rtol() == 1e-5 and tu.get_atol() == 1e-20
    assert tu.get_rtol(0.5) == 0.5
    assert tu.default_rtols()[np.dtype(np.float32)] == 1e-4
    assert tu.default_atols()[np.dtype(np.float16)] == 1e-1
    assert tu.default_rtols()[np.dtype(np.int32)] == 0
    assert tu.get_tols(mx.nd.ones((1,), dtype="float16"), np.ones(1), None, None) == (0.01, 0.1)
    assert tu.get_tols(np.ones(1, np.float32), np.ones(1, np.float64), None, None) == \
        (1e-4, 1e-3)
    assert tu.get_tolerance(np.ones(1), 0.3, tu.default_rtols()) == 0.3
    assert tu.default_numeric_eps()[np.dtype(np.float32)] == 1.0 / 2 ** 9
    assert tu.default_context() == mx.cpu(0) and tu.default_dtype() is np.float32


def test_assert_almost_equal_passes_and_fails():
    tu.assert_almost_equal(mx.nd.array([1.0, 2.0]), np.array([1.0, 2.00001]))
    tu.assert_almost_equal(np.array([np.nan]), np.array([np.nan]), equal_nan=True)
    tu.assert_almost_equal(np.ones((2, 3)), np.ones(3))  # broadcasting
    with pytest.raises(AssertionError, match="a.shape"):
        tu.assert_almost_equal(np.ones((2, 3)), np.ones(3), use_broadcast=False)
    with pytest.raises(AssertionError) as ei:
        tu.assert_almost_equal(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.5, 3.0]),
                               names=("x", "y"))
    msg = str(ei.value)
    assert ("Error 20000.000000 exceeds tolerance rtol=1.000000e-05, atol=1.000000e-20 "
            "(mismatch 33.333333%).") in msg
    assert "Location of maximum error: (np.int64(1),)" in msg or \
        "Location of maximum error: (1,)" in msg
    assert "x=2.00000000, y=2.50000000" in msg
    with pytest.raises(AssertionError, match=r"Error 400.000000 exceeds tolerance "
                                             r"rtol=1.000000e-04, atol=1.000000e-03"):
        tu.assert_almost_equal(mx.nd.array([1.0, 2.0, 3.0]), mx.nd.array([1.0, 2.5, 3.0]))
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(np.array([True]), np.array([False]))
    assert np.get_printoptions()["threshold"] == 1000  # no global side effect


def test_almost_equal_same_and_ignore_nan():
    assert tu.almost_equal(np.ones(2), np.ones(2) + 1e-7)
    assert not tu.almost_equal(np.ones(2), np.ones(2) + 1)
    assert tu.same(mx.nd.array([1, 2]), np.array([1, 2], dtype=np.float32))
    tu.assert_almost_equal_ignore_nan(np.array([np.nan, 1.0]), np.array([5.0, 1.0]))
    tu.assert_almost_equal_with_err(np.array([1.0, 2.0, 3.0, 4.0]),
                                    np.array([1.0, 2.0, 3.0, 9.0]), etol=0.3)
    with pytest.raises(AssertionError):
        tu.assert_almost_equal_with_err(np.array([1.0, 2.0]), np.array([1.0, 9.0]), etol=0.3)


def test_same_array():
    a = mx.nd.ones((3,))
    assert tu.same_array(a, a[:])
    assert not tu.same_array(a, a.copy())


def test_assert_exception():
    tu.assert_exception(lambda: 1 / 0, ZeroDivisionError)
    with pytest.raises(AssertionError):
        tu.assert_exception(lambda: 1, ZeroDivisionError)


def test_random_helpers():
    s = tu.rand_shape_2d()
    assert len(s) == 2 and all(1 <= d <= 10 for d in s)
    assert len(tu.rand_shape_3d(2, 3, 4)) == 3
    nd = tu.rand_shape_nd(4, dim=3)
    assert len(nd) == 4 and all(1 <= d <= 3 for d in nd)
    a = tu.rand_ndarray((2, 3))
    assert a.shape == (2, 3) and a.dtype == np.float32
    assert tu.rand_ndarray((2,), dtype="float64").dtype == np.float64
    assert tu.random_arrays((2, 3), (4,))[1].shape == (4,)
    assert tu.random_arrays(()).shape == ()
    assert tu.rand_ndarray((2, 2), stype="csr").stype == "csr"  # sparse, as in MXNet


def test_context_setting_and_environment():
    tu.set_default_context(mx.cpu(1))
    try:
        assert tu.default_context() == mx.cpu(1)
    finally:
        tu.set_default_context(mx.cpu(0))
    with tu.environment("MXNG_T", "1"):
        import os

        assert os.environ["MXNG_T"] == "1"
    assert "MXNG_T" not in os.environ


def test_np_reduce_and_collapse():
    x = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(tu.np_reduce(x, (0, 2), True, np.sum),
                                  x.sum(axis=(0, 2), keepdims=True))
    np.testing.assert_array_equal(tu.collapse_sum_like(x, (3, 1)), x.sum(axis=(0, 2))[:, None])


def test_symbol_checkers_exposed():
    for name in ("check_numeric_gradient", "check_symbolic_forward", "check_symbolic_backward",
                 "check_consistency", "numeric_grad", "simple_forward"):
        assert callable(getattr(tu, name))
