"""CSVIter and MNISTIter (expected values taken from MXNet 1.9.1 runs of the same inputs)."""

import gzip
import struct

import numpy as np
import pytest

from mxnet.base import MXNetError
from mxnet.io import CSVIter, MNISTIter


@pytest.fixture
def csv_files(tmp_path):
    d, lab = tmp_path / "d.csv", tmp_path / "l.csv"
    np.savetxt(d, np.arange(30).reshape(10, 3), delimiter=",", fmt="%d")
    np.savetxt(lab, np.arange(10) * 2, delimiter=",", fmt="%d")
    return str(d), str(lab)


def _rows(b):
    return b.data[0].asnumpy()[:, 0].tolist()


def test_csv_round_batch(csv_files):
    it = CSVIter(data_csv=csv_files[0], data_shape=(3,), batch_size=4)
    assert repr(it.provide_data) == "[DataDesc[data,(4, 3),<class 'numpy.float32'>,NCHW]]"
    assert repr(it.provide_label) == "[DataDesc[softmax_label,(4,),<class 'numpy.float32'>,NCHW]]"
    ep1 = list(it)
    assert [_rows(b) for b in ep1] == [[0, 3, 6, 9], [12, 15, 18, 21], [24, 27, 0, 3]]
    assert [b.pad for b in ep1] == [0, 0, 2]
    assert ep1[2].index.tolist() == [8, 9, 0, 1]
    assert ep1[0].label[0].asnumpy().tolist() == [0, 0, 0, 0]
    it.reset()
    ep2 = list(it)
    assert [_rows(b) for b in ep2] == [[6, 9, 12, 15], [18, 21, 24, 27]]


def test_csv_no_round(csv_files):
    it = CSVIter(
        data_csv=csv_files[0],
        data_shape=(3,),
        label_csv=csv_files[1],
        batch_size=4,
        round_batch=False,
    )
    for _ in range(2):
        bs = list(it)
        assert [_rows(b) for b in bs] == [[0, 3, 6, 9], [12, 15, 18, 21], [24, 27, 18, 21]]
        assert bs[2].label[0].asnumpy().tolist() == [16, 18, 12, 14]
        assert bs[2].pad == 2
        it.reset()


def test_csv_bad(tmp_path, csv_files):
    with pytest.raises(MXNetError, match="row-length=3"):
        CSVIter(data_csv=csv_files[0], data_shape=(4,), batch_size=2)
    with pytest.raises(MXNetError, match="missing.csv"):
        CSVIter(data_csv=str(tmp_path / "missing.csv"), data_shape=(3,), batch_size=2)


def _write_mnist(tmp_path, n=7):
    img = (np.arange(n * 28 * 28) % 256).astype(np.uint8)
    ip, lp = tmp_path / "img", tmp_path / "lab"
    ip.write_bytes(struct.pack(">IIII", 2051, n, 28, 28) + img.tobytes())
    lp.write_bytes(struct.pack(">II", 2049, n) + np.arange(n, dtype=np.uint8).tobytes())
    return str(ip), str(lp)


def test_mnist(tmp_path):
    ip, lp = _write_mnist(tmp_path)
    it = MNISTIter(image=ip, label=lp, batch_size=3, shuffle=False, flat=True)
    assert repr(it.provide_data) == "[DataDesc[data,(3, 784),<class 'numpy.float32'>,NCHW]]"
    for _ in range(2):
        bs = list(it)
        assert len(bs) == 2
        np.testing.assert_array_equal(
            bs[0].data[0].asnumpy()[:, :2],
            [[0.0, 0.00390625], [0.0625, 0.06640625], [0.125, 0.12890625]],
        )
        assert bs[1].label[0].asnumpy().tolist() == [3, 4, 5]
        it.reset()
    it = MNISTIter(image=ip, label=lp, batch_size=2, shuffle=False, num_parts=2, part_index=1)
    bs = list(it)
    assert bs[0].data[0].shape == (2, 1, 28, 28)
    assert [b.label[0].asnumpy().tolist() for b in bs] == [[3, 4], [5, 6]]
    it = MNISTIter(image=ip, label=lp, batch_size=2, shuffle=True)
    e1 = [b.label[0].asnumpy().tolist() for b in it]
    it.reset()
    assert e1 == [b.label[0].asnumpy().tolist() for b in it]


def test_mnist_bad(tmp_path):
    ip, lp = _write_mnist(tmp_path)
    with pytest.raises(MXNetError, match="magic number 2049"):
        MNISTIter(image=lp, label=lp)
    raw = open(ip, "rb").read()
    (tmp_path / "short").write_bytes(raw[:1000])
    with pytest.raises(MXNetError, match="short is truncated"):
        MNISTIter(image=str(tmp_path / "short"), label=lp)
    (tmp_path / "x.gz").write_bytes(gzip.compress(raw))
    with pytest.raises(MXNetError, match="x.gz"):
        MNISTIter(image=str(tmp_path / "x.gz"), label=lp)


def test_iter_next_protocol(csv_files):
    it = CSVIter(data_csv=csv_files[0], data_shape=(3,), batch_size=4, round_batch=False)
    firsts = []
    while it.iter_next():
        firsts.append(it.getdata().asnumpy()[0, 0])
        assert it.getpad() in (0, 2) and it.getlabel().shape == (4,)
    assert firsts == [0, 12, 24]


def test_dropped_iterator_stops_its_thread(csv_files):
    import gc
    import threading
    import time

    before = threading.active_count()
    for _ in range(3):
        it = CSVIter(data_csv=csv_files[0], data_shape=(3,), batch_size=1, prefetch_buffer=1)
        it.next()
        del it
    gc.collect()
    deadline = time.time() + 5
    while threading.active_count() > before and time.time() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= before


def test_mnist_shuffle_order_and_load_line(tmp_path, capsys):
    # MXNet 1.9.1 shuffles with std::shuffle over std::mt19937(seed): these orders (and
    # the LOG(INFO) line of a non-silent iterator) come from MXNet runs on the same files.
    n = 10
    ip, lp = tmp_path / "i", tmp_path / "l"
    ip.write_bytes(struct.pack(">IIII", 2051, n, 28, 28) + bytes(n * 784))
    lp.write_bytes(struct.pack(">II", 2049, n) + np.arange(n, dtype=np.uint8).tobytes())
    for seed, want in ((0, [0, 2, 3, 5, 9, 1, 6, 8, 4, 7]), (10, [3, 1, 4, 6, 9, 7, 5, 8, 2, 0])):
        it = MNISTIter(image=str(ip), label=str(lp), batch_size=n, seed=seed, flat=True)
        assert next(iter(it)).label[0].asnumpy().tolist() == want
    assert "MNISTIter: load 10 images, shuffle=1, shape=(10,784)" in capsys.readouterr().err
    MNISTIter(image=str(ip), label=str(lp), batch_size=5, shuffle=False)
    assert "MNISTIter: load 10 images, shuffle=0, shape=[5,1,28,28]" in capsys.readouterr().err
    MNISTIter(image=str(ip), label=str(lp), batch_size=5, silent=True)
    assert capsys.readouterr().err == ""


def test_image_record_iter_verbose_line(tmp_path, capsys):
    # MXNet's ImageRecordIOParser2 logs the file and its decoding threads unless verbose=False
    import cv2

    import mxnet as mx

    rec = str(tmp_path / "a.rec")
    w = mx.recordio.MXRecordIO(rec, "w")
    img = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    w.write(mx.recordio.pack(mx.recordio.IRHeader(0, 1.0, 0, 0), img))
    w.close()
    mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=1, preprocess_threads=1)
    assert "ImageRecordIOParser2: %s, use 1 threads for decoding.." % rec in capsys.readouterr().err
    mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=1, verbose=False)
    assert "ImageRecordIOParser2" not in capsys.readouterr().err


def test_debug_skip_load_repeats_the_current_batch(tmp_path):
    # MXNet 1.9.1: after debug_skip_load() next() returns the current batch, without end
    path = tmp_path / 'd.csv'
    path.write_text(''.join('%d,%d\n' % (i, -i) for i in range(8)))
    from mxnet.io import CSVIter

    it = CSVIter(data_csv=str(path), data_shape=(2,), batch_size=2)
    it.debug_skip_load()
    got = [it.next().data[0].asnumpy()[:, 0].tolist() for _ in range(6)]
    assert got == [[0.0, 1.0]] * 6
