"""``mx.nd.array`` of a sparse array keeps the storage type (as MXNet 1.9.1)."""
import numpy as np

import mxnet as mx


def test_array_of_csr_is_csr_with_dtype():
    a = mx.nd.sparse.csr_matrix(([7, 8, 9], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 4))
    f = mx.nd.array(a, dtype=np.float16)
    assert type(f).__name__ == 'CSRNDArray' and f.stype == 'csr'
    assert f.dtype == np.float16
    np.testing.assert_array_equal(f.asnumpy(), a.asnumpy())
    assert mx.nd.array(a).dtype == np.float32


def test_array_of_row_sparse_is_row_sparse():
    r = mx.nd.sparse.row_sparse_array(([[1., 2, 3]], [1]), shape=(2, 3))
    out = mx.nd.array(r, ctx=mx.cpu(0))
    assert type(out).__name__ == 'RowSparseNDArray'
    np.testing.assert_array_equal(out.asnumpy(), r.asnumpy())


def test_array_of_dense_stays_dense():
    d = mx.nd.array(mx.nd.ones((2, 2)), dtype='int32')
    assert type(d).__name__ == 'NDArray' and d.dtype == np.int32
