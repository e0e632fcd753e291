"""Sparse arrays made from SciPy matrices, as MXNet 1.9.1 makes them."""

import numpy as np
import pytest

import mxnet as mx


def test_non_canonical_scipy_csr_is_summed_and_sorted():
    sps = pytest.importorskip("scipy.sparse")
    src = sps.csr_matrix(
        (
            np.array([1.0, 2, 3, 4, 5, 6, 1]),
            np.array([0, 2, 2, 0, 1, 2, 1]),
            np.array([0, 2, 3, 7]),
        ),
        shape=(3, 3),
    )
    for make in (mx.nd.sparse.csr_matrix, mx.nd.sparse.array, mx.nd.array):
        a = make(src, dtype=np.float64)
        np.testing.assert_array_equal(a.indptr.asnumpy(), [0, 2, 3, 6])
        np.testing.assert_array_equal(a.indices.asnumpy(), [0, 2, 2, 0, 1, 2])
        np.testing.assert_array_equal(a.data.asnumpy(), [1, 2, 3, 4, 6, 6])
        np.testing.assert_array_equal(a.asnumpy(), src.toarray())
    # the source matrix is left as it was
    np.testing.assert_array_equal(src.indices, [0, 2, 2, 0, 1, 2, 1])
