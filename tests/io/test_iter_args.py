"""MXNet's C++ data iterators accept and ignore unknown keyword arguments."""
import struct

import numpy as np

import mxnet as mx


def test_unknown_args_ignored(tmp_path):
    csv = tmp_path / 'd.csv'
    csv.write_text('1,2,3\n4,5,6\n')
    it = mx.io.CSVIter(data_csv=str(csv), data_shape=(3,), batch_size=2, not_an_arg=1)
    np.testing.assert_array_equal(it.next().data[0].asnumpy(), [[1, 2, 3], [4, 5, 6]])
    svm = tmp_path / 'd.t'
    svm.write_text('1 0:1 2:2\n0 1:1\n')
    it = mx.io.LibSVMIter(data_libsvm=str(svm), data_shape=(3,), batch_size=2, not_an_arg=1)
    assert it.next().data[0].shape == (2, 3)
    img, lab = tmp_path / 'img', tmp_path / 'lab'
    img.write_bytes(struct.pack('>IIII', 2051, 2, 28, 28) + bytes(2 * 784))
    lab.write_bytes(struct.pack('>II', 2049, 2) + bytes([3, 4]))
    it = mx.io.MNISTIter(image=str(img), label=str(lab), batch_size=2, shuffle=False,
                         silent=True, not_an_arg=1)
    np.testing.assert_array_equal(it.next().label[0].asnumpy(), [3, 4])
