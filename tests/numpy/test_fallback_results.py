"""mx.np functions that MXNet 1.9.1 binds to official NumPy (its ``fallback`` list): what
they return for plain and for mx.np inputs, checked against MXNet 1.9.1 on NumPy 1.x."""

import numpy as onp
import pytest

from mxnet import np


@pytest.mark.parametrize("call", [
    lambda: np.correlate([1, 2, 3], [0, 1, 0.5]),
    lambda: np.intersect1d([1, 3, 4, 3], [3, 1, 2, 1]),
    lambda: np.heaviside([-1.5, 0, 2.0], 0.5),
    lambda: np.searchsorted([1, 2, 3, 4, 5], [-10, 10, 2, 3]),
    lambda: np.choose([2, 3, 1, 0], [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23],
                                     [30, 31, 32, 33]]),
])
def test_plain_inputs_give_numpy_results(call):
    assert type(call()) is onp.ndarray


def test_mx_inputs_give_mx_results_and_keep_zero_dim():
    x = np.array([-2.1, -1, 4.3], dtype="float64")
    c = np.cov(x)  # NumPy gives a 0-d array for one variable
    assert isinstance(c, np.ndarray) and c.shape == () and c.dtype == onp.float64
    assert abs(float(c) - 11.71) < 1e-9
    r = np.intersect1d(np.array([1, 3, 4, 3]), [3, 1, 2, 1])
    assert isinstance(r, np.ndarray) and r.tolist() == [1, 3]


def test_nanpercentile_numpy1_results():
    a = np.array([[10., onp.nan, 4], [3, 2, 1]])  # float32
    r = np.nanpercentile(a, 50, axis=0)
    assert isinstance(r, np.ndarray) and r.dtype == onp.float64
    assert r.tolist() == [6.5, 2.0, 2.5]
    assert float(np.nanquantile(a, 0.5, interpolation="lower")) == 3.0
