"""NDArrayIter over CSR arrays (only last_batch_handle='discard', as MXNet) and the MXNet
dataset helpers of mx.test_utils."""
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet.test_utils import get_bz2_data, rand_sparse_ndarray


def test_csr_needs_discard():
    csr, _ = rand_sparse_ndarray((6, 4), 'csr', density=0.5)
    with pytest.raises(NotImplementedError):
        mx.io.NDArrayIter({'data': csr}, csr.asnumpy(), 2)
    with pytest.raises(NotImplementedError):
        mx.io.NDArrayIter(csr.asnumpy(), csr, 2, last_batch_handle='roll_over')


@pytest.mark.parametrize('shuffle', [False, True])
def test_csr_batches(shuffle):
    np.random.seed(1)
    csr, (indptr, indices, data) = rand_sparse_ndarray((9, 5), 'csr', density=0.4)
    dns = csr.asnumpy()
    np.testing.assert_array_equal(indptr.asnumpy(), csr.indptr.asnumpy())
    it = mx.io.NDArrayIter({'csr_data': csr, 'dns_data': dns}, dns, 4, shuffle=shuffle,
                           last_batch_handle='discard')
    got = []
    for b in it:
        assert b.data[0].stype == 'default'  # MXNet 1.9.1: slice_axis falls back to dense
        np.testing.assert_array_equal(b.data[0].asnumpy(), b.data[1].asnumpy())
        got.append(b.label[0].asnumpy())
    assert len(got) == 2
    with pytest.raises(StopIteration):
        it.next()
    if not shuffle:
        np.testing.assert_array_equal(np.concatenate(got), dns[:8])


def test_rand_sparse_row_sparse():
    rsp, (val, idx) = rand_sparse_ndarray((6, 3), 'row_sparse', density=1.0)
    assert rsp.stype == 'row_sparse' and val.shape == (len(idx), 3)


def test_get_bz2_data_uses_existing_file(tmp_path):
    (tmp_path / 'x.t').write_text('1 1:1\n')
    get_bz2_data(str(tmp_path), 'x.t', 'http://unreachable.invalid/x.t.bz2', 'x.t.bz2')
    assert os.path.exists(tmp_path / 'x.t')


def test_csr_with_pad_is_an_mxnet_error_and_not_implemented():
    csr = mx.nd.array(np.eye(4)).tostype("csr")
    with pytest.raises(mx.base.MXNetError, match="last_batch_handle"):
        mx.io.NDArrayIter(csr, np.zeros(4), batch_size=3, last_batch_handle="pad")
