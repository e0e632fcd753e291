"""``mx.io.LibSVMIter`` against batches recorded from MXNet 1.9.1
(``tests/compat/make_golden_sparse.py``)."""

import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

G = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "sparse")
META = json.load(open(os.path.join(G, "meta.json")))["libsvm"]
DATA = os.path.join(G, "data.libsvm")
KW = {"basic": dict(batch_size=2),
      "labelfile": dict(batch_size=2, label_libsvm=os.path.join(G, "label.libsvm"),
                        label_shape=(2,)),
      "part1": dict(batch_size=1, num_parts=2, part_index=1)}


@pytest.mark.parametrize("tag", sorted(KW))
def test_batches_match_oracle(tag):
    it = mx.io.LibSVMIter(data_libsvm=DATA, data_shape=(6,), **KW[tag])
    got = []
    for _ in range(3):  # fresh, then reset after each full pass
        for b in it:
            d, lab = b.data[0], b.label[0]
            got.append({"data": d.asnumpy().tolist(), "stype": d.stype,
                        "label": lab.asnumpy().tolist(), "label_stype": lab.stype,
                        "pad": b.pad, "indptr": d.indptr.asnumpy().tolist(),
                        "dtype": np.dtype(d.dtype).name, "index": [int(i) for i in b.index]})
        it.reset()
    assert got == META[tag]["batches"]
    assert [[x.name, list(x.shape)] for x in it.provide_data] == META[tag]["provide_data"]
    assert [[x.name, list(x.shape)] for x in it.provide_label] == META[tag]["provide_label"]


def test_round_batch_false_raises():
    with pytest.raises(MXNetError, match="round_batch == false"):
        mx.io.LibSVMIter(data_libsvm=DATA, data_shape=(6,), batch_size=2, round_batch=False)
    assert "round_batch == false" in META["noround"]["error"]


def test_errors_and_folder(tmp_path):
    with pytest.raises(MXNetError, match="feature index"):
        mx.io.LibSVMIter(data_libsvm=DATA, data_shape=(4,), batch_size=2)
    (tmp_path / "a.t").write_text("1 2:3 1:4\n")
    (tmp_path / "b.t").write_text("-2\n3 0:1\n")
    it = mx.io.LibSVMIter(data_libsvm=str(tmp_path), data_shape=(3,), batch_size=3)
    b = it.next()
    np.testing.assert_array_equal(b.data[0].indices.asnumpy(), [2, 1, 0])  # file order kept
    np.testing.assert_array_equal(b.data[0].asnumpy(), [[0, 4, 3], [0, 0, 0], [1, 0, 0]])
    np.testing.assert_array_equal(b.label[0].asnumpy(), [1, -2, 3])
    (tmp_path / "bad.t").write_text("1 x:y\n")
    with pytest.raises(MXNetError, match="cannot parse"):
        mx.io.LibSVMIter(data_libsvm=str(tmp_path / "bad.t"), data_shape=(3,), batch_size=1)


def test_values_read_with_dmlc_strtof(tmp_path):
    # MXNet 1.9.1 reads LibSVM labels and values with dmlc's strtof (not correctly rounded)
    path = tmp_path / "v.libsvm"
    path.write_text("1.050000000000000000e+02 0:1.050000000000000000e+02 2:8.917730008e-01\n")
    it = mx.io.LibSVMIter(data_libsvm=str(path), data_shape=(3,), batch_size=1)
    b = it.next()
    np.testing.assert_array_equal(
        b.data[0].data.asnumpy(), np.array([104.99999237060547, 0.8917730450630188], np.float32)
    )
    assert b.label[0].asnumpy()[0] == np.float32(104.99999237060547)
