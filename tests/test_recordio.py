"""RecordIO: byte-compatibility with MXNet 1.9.1 golden files, headers, bad input."""
import json
import os
import pickle
import struct

import numpy as np
import pytest

from mxnet import recordio
from mxnet.base import MXNetError

GOLD = os.path.join(os.path.dirname(__file__), 'compat', 'golden', 'data')
MAGIC = struct.pack('<I', 0xCED7230A)


@pytest.fixture(scope='module')
def gold():
    with open(os.path.join(GOLD, 'recordio.json')) as f:
        g = json.load(f)
    g['payloads'] = [bytes.fromhex(p) for p in g['payloads']]
    return g


def test_read_golden_plain(gold):
    rec = recordio.MXRecordIO(os.path.join(GOLD, 'plain.rec'), 'r')
    got = [rec.read() for _ in gold['payloads']]
    assert got == gold['payloads']
    assert rec.read() is None
    rec.reset()
    assert rec.read() == gold['payloads'][0]
    rec.close()


def test_write_identical_bytes(gold, tmp_path):
    path = str(tmp_path / 'x.rec')
    rec = recordio.MXRecordIO(path, 'w')
    for p in gold['payloads']:
        rec.write(p)
    rec.close()
    with open(path, 'rb') as a, open(os.path.join(GOLD, 'plain.rec'), 'rb') as b:
        assert a.read() == b.read()


def test_split_record_layout(tmp_path):
    path = str(tmp_path / 's.rec')
    rec = recordio.MXRecordIO(path, 'w')
    rec.write(b'ABCD' + MAGIC + b'EFGHIJ')
    rec.close()
    raw = open(path, 'rb').read()
    assert struct.unpack('<II', raw[:8]) == (0xCED7230A, 0x20000004)
    assert struct.unpack('<II', raw[12:20]) == (0xCED7230A, 0x60000006)
    assert len(raw) == 28


def _pack_golden(gold, tmp_path):
    idx, path = str(tmp_path / 'i.idx'), str(tmp_path / 'i.rec')
    rec = recordio.MXIndexedRecordIO(idx, path, 'w')
    for i, (p, h) in enumerate(zip(gold['payloads'], gold['headers'])):
        rec.write_idx(i * 5, recordio.pack(recordio.IRHeader(0, h['label'], h['id'], h['id2']),
                                           p))
    rec.close()
    return idx, path


def test_indexed_golden_read(gold):
    rec = recordio.MXIndexedRecordIO(os.path.join(GOLD, 'indexed.idx'),
                                     os.path.join(GOLD, 'indexed.rec'), 'r')
    assert rec.keys == [5 * i for i in range(len(gold['payloads']))]
    for i in reversed(range(len(gold['payloads']))):
        header, s = recordio.unpack(rec.read_idx(5 * i))
        h = gold['headers'][i]
        assert s == gold['payloads'][i]
        assert (header.id, header.id2) == (h['id'], h['id2'])
        if isinstance(h['label'], list):
            assert header.flag == len(h['label'])
            np.testing.assert_array_equal(header.label, np.float32(h['label']))
        else:
            assert header.flag == 0 and header.label == np.float32(h['label'])
    rec.close()


def test_indexed_write_identical(gold, tmp_path):
    idx, path = _pack_golden(gold, tmp_path)
    for a, b in ((idx, 'indexed.idx'), (path, 'indexed.rec')):
        with open(a, 'rb') as fa, open(os.path.join(GOLD, b), 'rb') as fb:
            assert fa.read() == fb.read()


def test_pickle_reader(gold):
    rec = recordio.MXIndexedRecordIO(os.path.join(GOLD, 'indexed.idx'),
                                     os.path.join(GOLD, 'indexed.rec'), 'r')
    rec2 = pickle.loads(pickle.dumps(rec))
    assert recordio.unpack(rec2.read_idx(15))[1] == gold['payloads'][3]


def test_pack_unpack_img(tmp_path):
    img = (np.arange(8 * 6 * 3) % 251).astype(np.uint8).reshape(8, 6, 3)
    s = recordio.pack_img(recordio.IRHeader(0, 2.0, 9, 0), img, quality=3, img_fmt='.png')
    header, out = recordio.unpack_img(s)
    assert header == recordio.IRHeader(0, 2.0, 9, 0)
    np.testing.assert_array_equal(out, img)
    # MXNet 1.9.1 returns OpenCV's None for an undecodable image
    header, out = recordio.unpack_img(recordio.pack(recordio.IRHeader(0, 1, 4, 0), b'notanimage'))
    assert out is None and header.id == 4


def test_bad_magic(tmp_path):
    path = str(tmp_path / 'bad.rec')
    with open(path, 'wb') as f:
        f.write(struct.pack('<II', 0xCED7230A, 4) + b'abcd' + b'\x00' * 8)
    rec = recordio.MXRecordIO(path, 'r')
    assert rec.read() == b'abcd'
    with pytest.raises(MXNetError, match=r'bad\.rec.*magic.*offset 12'):
        rec.read()


def test_truncated(tmp_path):
    path = str(tmp_path / 't.rec')
    with open(path, 'wb') as f:
        f.write(struct.pack('<II', 0xCED7230A, 100) + b'abcd')
    with pytest.raises(MXNetError, match=r't\.rec.*truncated record at byte offset 0'):
        recordio.MXRecordIO(path, 'r').read()
    with open(path, 'wb') as f:
        f.write(struct.pack('<II', 0xCED7230A, (1 << 29) | 4) + b'abcd')
    with pytest.raises(MXNetError, match='split record'):
        recordio.MXRecordIO(path, 'r').read()
    with open(path, 'wb') as f:
        f.write(b'\x0a\x23')
    with pytest.raises(MXNetError, match='truncated record header'):
        recordio.MXRecordIO(path, 'r').read()


def test_idx_past_end(tmp_path):
    path, idx = str(tmp_path / 'p.rec'), str(tmp_path / 'p.idx')
    rec = recordio.MXIndexedRecordIO(idx, path, 'w')
    rec.write_idx(0, b'abc')
    rec.close()
    with open(idx, 'a') as f:
        f.write('1\t4096\n')
    with pytest.raises(MXNetError, match=r'p\.idx.*4096.*past the end'):
        recordio.MXIndexedRecordIO(idx, path, 'r')


def test_missing_file(tmp_path):
    with pytest.raises(MXNetError, match='nope.rec'):
        recordio.MXRecordIO(str(tmp_path / 'nope.rec'), 'r')
    with pytest.raises(ValueError):
        recordio.MXRecordIO(str(tmp_path / 'x.rec'), 'a')


def test_part_range_resync(gold, tmp_path):
    path = os.path.join(GOLD, 'plain.rec')
    seen = []
    for k in range(3):
        b, e = recordio._part_range(path, 3, k)
        with open(path, 'rb') as f:
            f.seek(b)
            while f.tell() < e:
                seen.append(recordio._read_record(f, path))
    assert seen == gold['payloads']


def test_read_idx_then_read_and_threads(gold):
    from concurrent.futures import ThreadPoolExecutor
    rec = recordio.MXIndexedRecordIO(os.path.join(GOLD, 'indexed.idx'),
                                     os.path.join(GOLD, 'indexed.rec'), 'r')
    rec.read_idx(10)
    assert recordio.unpack(rec.read())[1] == gold['payloads'][3]
    keys = rec.keys * 20
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda k: recordio.unpack(rec.read_idx(k))[1], keys))
    assert got == [gold['payloads'][k // 5] for k in keys]


def test_pread_truncated_split(tmp_path):
    path = str(tmp_path / 'x.rec')
    with open(path, 'wb') as f:
        f.write(struct.pack('<II', 0xCED7230A, (1 << 29) | 4) + b'abcd')
    with open(path, 'rb') as f:
        with pytest.raises(MXNetError, match='split record'):
            recordio._pread_record(f.fileno(), path, 0)


def test_unclosed_writer_published_at_exit(tmp_path):
    path = str(tmp_path / 'u.rec')
    r = recordio.MXIndexedRecordIO(path[:-4] + '.idx', path, 'w')
    r.write_idx(1, b'abc')
    assert not os.path.exists(path)
    recordio._close_open_writers()          # what the atexit hook runs
    rec = recordio.MXIndexedRecordIO(path[:-4] + '.idx', path, 'r')
    assert rec.read_idx(1) == b'abc'
    del r



def test_two_writers_of_one_path_do_not_share_a_temporary(tmp_path):
    # a leaked (never closed) writer finalized while a second writer of the same file is
    # open must not publish or remove the second writer's data (MXNet tutorial pattern:
    # `record = MXRecordIO(p, 'w')` rebound to a new writer of p)
    path = str(tmp_path / "t.rec")
    first = recordio.MXRecordIO(path, "w")
    second = recordio.MXRecordIO(path, "w")
    del first  # finalized: publishes its (empty) file
    for i in range(3):
        second.write(b"record_%d" % i)
    second.close()
    reader = recordio.MXRecordIO(path, "r")
    assert [reader.read() for _ in range(4)] == [b"record_0", b"record_1", b"record_2", None]
    idx = str(tmp_path / "t.idx")
    w1 = recordio.MXIndexedRecordIO(idx, path, "w")
    w2 = recordio.MXIndexedRecordIO(idx, path, "w")
    del w1
    w2.write_idx(7, b"x")
    w2.close()
    assert recordio.MXIndexedRecordIO(idx, path, "r").read_idx(7) == b"x"


def test_write_str_payload_is_a_type_error(tmp_path):
    # MXNet 1.9.1 passes the payload to ctypes.c_char_p: a str is refused
    r = recordio.MXRecordIO(str(tmp_path / "s.rec"), "w")
    with pytest.raises(TypeError, match="bytes or integer address expected"):
        r.write("record_0")
    r.write(b"ok")
    r.close()
