"""Printed forms of iterator batches met in MXNet's data-loading tutorials (values checked
against MXNet 1.9.1)."""
import cv2
import numpy as np

import mxnet as mx


def _write_rec(tmp_path, n=3):
    rec = mx.recordio.MXIndexedRecordIO(str(tmp_path / 'a.idx'), str(tmp_path / 'a.rec'), 'w')
    for i in range(n):
        img = np.full((20, 24, 3), 40 * i, dtype=np.uint8)
        ok, buf = cv2.imencode('.jpg', img)
        assert ok
        rec.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, float(i), i + 7, 0),
                                          buf.tobytes()))
    rec.close()
    return str(tmp_path / 'a.rec')


def test_image_record_iter_batches_are_pinned_with_zero_index(tmp_path):
    path = _write_rec(tmp_path)
    it = mx.io.ImageRecordIter(path_imgrec=path, data_shape=(3, 16, 16), batch_size=2)
    b = it.next()
    assert b.data[0].context == mx.cpu_pinned(0)
    assert b.label[0].context == mx.cpu_pinned(0)
    assert '@cpu_pinned(0)' in repr(b.label[0])
    assert b.index.tolist() == [0, 0]


def test_image_record_iter_v1_batches_on_cpu_with_ids(tmp_path):
    path = _write_rec(tmp_path)
    it = mx.io.ImageRecordIter_v1(path_imgrec=path, data_shape=(3, 16, 16), batch_size=2)
    b = it.next()
    assert b.data[0].context == mx.cpu(0)
    assert b.index.tolist() == [7, 8]


def test_csv_iter_batches_on_cpu(tmp_path):
    np.savetxt(str(tmp_path / 'd.csv'), np.arange(12.).reshape(4, 3), delimiter=',')
    it = mx.io.CSVIter(data_csv=str(tmp_path / 'd.csv'), data_shape=(3,), batch_size=2)
    assert it.next().data[0].context == mx.cpu(0)


def test_ndarrayiter_csr_gives_dense_batches():
    csr = mx.nd.array(np.arange(36).reshape((9, 4))).tostype('csr')
    it = mx.io.NDArrayIter(csr, np.ones([9, 1]), 3, last_batch_handle='discard')
    batches = [b.data[0] for b in it]
    assert [type(b).__name__ for b in batches] == ['NDArray'] * 3
    np.testing.assert_array_equal(batches[1].asnumpy(), np.arange(12, 24).reshape(3, 4))
