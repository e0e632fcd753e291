"""CSVIter reads float32 values with dmlc's strtof, as MXNet 1.9.1 does (values from it)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.io._strtonum import strtof, strtof_many

# (text, float32 MXNet 1.9.1's CSVIter returns); the correctly rounded value differs here
CASES = [
    ("1.050000000000000000e+02", 104.99999237060547),
    ("5.488135039273247529e-01", 0.5488134622573853),
    ("8.917730008e-01", 0.8917730450630188),
    ("1e-38", 1.1754942106924411e-38),
    ("0.5", 0.5),
    ("-.25e1", -2.5),
    ("label1", 0.0),
]


@pytest.mark.parametrize("text, want", CASES)
def test_strtof_matches_mxnet(text, want):
    assert strtof(text) == np.float32(want)


def test_vectorized_reader_agrees_with_scalar_reader():
    toks = [c[0] for c in CASES] + ["nan", "-inf", " 7", "1.5x", "5.", "", "3.14159265358979323846"]
    got = strtof_many(toks)
    ref = np.array([strtof(t) for t in toks], dtype=np.float32)
    np.testing.assert_array_equal(got, ref)


def test_csviter_values_and_row_check(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("1.050000000000000000e+02,5.488135039273247529e-01\n0.5,1e-38,\n")
    it = mx.io.CSVIter(data_csv=str(path), data_shape=(2,), batch_size=2)
    got = it.next().data[0].asnumpy()
    want = np.array([[104.99999237060547, 0.5488134622573853], [0.5, 1.1754942106924411e-38]])
    np.testing.assert_array_equal(got, want.astype(np.float32))
    bad = tmp_path / "b.csv"
    bad.write_text("1,2\n3\n")
    with pytest.raises(MXNetError, match="row-length=1"):
        mx.io.CSVIter(data_csv=str(bad), data_shape=(2,), batch_size=1)


def test_fields_the_reader_cannot_start_are_left_out(tmp_path):
    # MXNet 1.9.1: 'abc,1' and '1,,2,' give 1 and 2 values; ' ,5' reads the blank as 0
    path = tmp_path / "f.csv"
    path.write_text("abc,1,,2,7\n ,5,x,6\n")
    it = mx.io.CSVIter(data_csv=str(path), data_shape=(3,), batch_size=2)
    np.testing.assert_array_equal(it.next().data[0].asnumpy(), [[1, 2, 7], [0, 5, 6]])
