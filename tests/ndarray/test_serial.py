"""NDArray files and pickles: bit-for-bit against golden files written by MXNet 1.9.1."""

import json
import os
import pickle
import struct

import numpy as np
import pytest
import torch

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.ndarray import _serial
from mxnet.util import np_shape

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "ndarray")
with open(os.path.join(GOLDEN, "manifest.json"), encoding="utf-8") as _f:
    MANIFEST = json.load(_f)


def _np_from_spec(spec):
    dt = np.dtype(spec["dtype"]).newbyteorder("<")
    return np.frombuffer(bytes.fromhex(spec["hex"]), dtype=dt).astype(
        spec["dtype"]).reshape(spec["shape"])


def _ctx_from_str(s):
    kind, dev = s[:-1].split("(")
    return mx.Context(kind, int(dev))


def _nd_from_spec(spec):
    return mx.nd.array(_np_from_spec(spec), ctx=_ctx_from_str(spec["ctx"]), dtype=spec["dtype"])


def _check_loaded(arr, spec):
    assert isinstance(arr, mx.nd.NDArray)
    assert arr.shape == tuple(spec["shape"])
    assert np.dtype(arr.dtype).name == spec["dtype"]
    assert str(arr.context) == spec["ctx"]
    a = arr.asnumpy()
    assert a.astype(a.dtype.newbyteorder("<")).tobytes().hex() == spec["hex"]


@pytest.mark.parametrize("fname", sorted(MANIFEST["files"]))
def test_load_golden_bit_exact(fname):
    entry = MANIFEST["files"][fname]
    # V3 (NumPy-shape) files load only with NumPy-shape semantics on, as in MXNet
    with np_shape("v3" in fname):
        got = mx.nd.load(os.path.join(GOLDEN, fname))
    want = entry["loaded"]
    if entry["kind"] == "dict":
        assert isinstance(got, dict)
        assert list(got) == list(want)
        for k in want:
            _check_loaded(got[k], want[k])
    else:
        assert isinstance(got, list)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _check_loaded(g, w)


@pytest.mark.parametrize("fname", sorted(f for f, e in MANIFEST["files"].items()
                                         if f != "sparse.params"))
def test_save_byte_identical(fname, tmp_path):
    entry = MANIFEST["files"][fname]
    written = entry["written"]
    if entry["kind"] == "dict":
        data = {k: _nd_from_spec(v) for k, v in written.items()}
    else:
        data = [_nd_from_spec(v) for v in written]
    if fname == "single.params":
        data = data[0]
    out = tmp_path / fname
    with np_shape(bool(entry.get("np_shape"))):
        mx.nd.save(str(out), data)
    with open(os.path.join(GOLDEN, fname), "rb") as f:
        assert out.read_bytes() == f.read()


@pytest.mark.parametrize("fname", sorted(MANIFEST["pickles"]))
def test_pickle_golden(fname):
    entry = MANIFEST["pickles"][fname]
    with open(os.path.join(GOLDEN, fname), "rb") as f:
        blob = f.read()
    _check_loaded(pickle.loads(blob), entry["loaded"])
    arr = _nd_from_spec(entry["written"])
    with np_shape(bool(entry.get("np_shape"))):
        mine = pickle.dumps(arr, protocol=MANIFEST["pickle_protocol"])
    assert mine == blob


def test_pickle_class_path_and_state():
    a = mx.nd.array([1.0, 2.0])
    cls, args, st = a.__reduce__()
    assert (cls.__module__, cls.__name__) == ("mxnet.ndarray.ndarray", "NDArray")
    assert args == (None,)
    assert bytes(st["handle"]).hex() == ("c9fa93f9000000000100000002000000000000000100000000"
                                         "000000000000000000803f00000040")
    b = mx.nd.NDArray(None)
    b.__setstate__({"handle": bytes(st["handle"])})
    assert b.asnumpy().tolist() == [1.0, 2.0]


def test_roundtrip_dict_list_single(tmp_path):
    f = str(tmp_path / "x.params")
    d = {"a": mx.nd.array([[1, 2], [3, 4]]), "b": mx.nd.array([5], dtype="int64")}
    mx.nd.save(f, d)
    back = mx.nd.load(f)
    assert list(back) == ["a", "b"]
    assert back["b"].dtype == np.int64
    np.testing.assert_array_equal(back["a"].asnumpy(), d["a"].asnumpy())
    mx.nd.save(f, [d["a"]])
    assert isinstance(mx.nd.load(f), list)
    mx.nd.save(f, d["a"])
    assert mx.nd.load(f)[0].shape == (2, 2)
    with open(f, "rb") as fh:
        assert len(mx.nd.load_frombuffer(fh.read())) == 1


def test_save_bad_inputs(tmp_path):
    f = str(tmp_path / "x.params")
    with pytest.raises(TypeError):
        mx.nd.save(f, {1: mx.nd.ones((1,))})
    with pytest.raises(TypeError):
        mx.nd.save(f, [np.ones(2)])
    with pytest.raises(ValueError):
        mx.nd.save(f, 3)
    assert os.listdir(tmp_path) == []  # nothing written, no temp left behind


def test_bfloat16_roundtrip(tmp_path):
    f = str(tmp_path / "bf.params")
    a = mx.nd.NDArray._wrap(torch.tensor([1.5, -2.0], dtype=torch.bfloat16), mx.cpu())
    mx.nd.save(f, [a])
    raw = open(f, "rb").read()
    assert struct.unpack_from("<i", raw, 24 + 4 + 4 + 4 + 8 + 8)[0] == 12  # type code
    b = mx.nd.load(f)[0]
    assert b._t.dtype == torch.bfloat16
    assert b._t.float().tolist() == [1.5, -2.0]


def _record(shape, data: bytes, code=0, magic=_serial.V2_MAGIC):
    return (struct.pack("<Ii", magic, 0) + struct.pack(f"<i{len(shape)}q", len(shape), *shape)
            + struct.pack("<iii", 1, 0, code) + data)


def _listfile(records, names=()):
    out = struct.pack("<QQQ", 0x112, 0, len(records)) + b"".join(records)
    out += struct.pack("<Q", len(names))
    for n in names:
        out += struct.pack("<Q", len(n)) + n.encode()
    return out


def test_read_v1_and_legacy_records():
    data = np.arange(6, dtype=np.float32).tobytes()
    v1 = struct.pack("<Ii2q", _serial.V1_MAGIC, 2, 2, 3) + struct.pack("<iii", 1, 0, 0) + data
    legacy = struct.pack("<I2I", 2, 3, 2) + struct.pack("<iii", 1, 0, 0) + data
    got = mx.nd.load_frombuffer(_listfile([v1, legacy]))
    assert got[0].shape == (2, 3) and got[1].shape == (3, 2)
    np.testing.assert_array_equal(got[1].asnumpy().ravel(), np.arange(6))


def test_read_none_record_and_v3_in_nd_mode():
    none = struct.pack("<Iii", _serial.V2_MAGIC, 0, 0)
    got = mx.nd.load_frombuffer(_listfile([none]))
    assert got[0].size == 0
    v3 = _record((), np.float32(7).tobytes(), magic=_serial.V3_MAGIC)
    with pytest.raises(MXNetError, match="saved in np shape semantics"):
        mx.nd.load_frombuffer(_listfile([v3]))  # MXNet: V3 needs NumPy-shape semantics
    with np_shape(True):
        got = mx.nd.load_frombuffer(_listfile([v3]))
        assert got[0].shape == () and got[0].asnumpy() == 7
        with pytest.raises(MXNetError, match="not saved in np shape semantics"):
            mx.nd.load_frombuffer(_listfile([none]))


@pytest.mark.parametrize("mutate, msg", [
    (lambda b: b[:-3], "truncated"),
    (lambda b: b[:10], "truncated"),
    (lambda b: b"\x00" * 8 + b[8:], "bad list magic"),
    (lambda b: b[:24] + struct.pack("<I", 0xDEADBEEF) + b[28:], "invalid number of dimensions"),
])
def test_corrupt_files(tmp_path, mutate, msg):
    good = _listfile([_record((2, 2), np.ones(4, np.float32).tobytes())], ["w"])
    f = tmp_path / "bad.params"
    f.write_bytes(mutate(good))
    with pytest.raises(MXNetError, match=msg) as ei:
        mx.nd.load(str(f))
    assert "bad.params" in str(ei.value) and "byte offset" in str(ei.value)


def test_lying_header_checked_before_allocating():
    huge = _record((2 ** 20, 2 ** 20), b"\x00" * 16)
    with pytest.raises(MXNetError, match="needs 4398046511104 data bytes"):
        mx.nd.load_frombuffer(_listfile([huge]))
    many = struct.pack("<QQQ", 0x112, 0, 2 ** 40)
    with pytest.raises(MXNetError, match="array count"):
        mx.nd.load_frombuffer(many)
    bad_dtype = _record((1,), b"\x00" * 4, code=99)
    with pytest.raises(MXNetError, match="unknown dtype code 99"):
        mx.nd.load_frombuffer(_listfile([bad_dtype]))
    names = _listfile([_record((1,), b"\x00" * 4)])[:-8] + struct.pack("<QQ", 1, 2 ** 50)
    with pytest.raises(MXNetError, match="name 0"):
        mx.nd.load_frombuffer(names)


def test_missing_file():
    with pytest.raises(MXNetError, match="nope.params"):
        mx.nd.load("/nonexistent/nope.params")


def test_atomic_write_keeps_mode(tmp_path):
    f = tmp_path / "m.params"
    mx.nd.save(str(f), [mx.nd.ones((1,))])
    mask = os.umask(0)
    os.umask(mask)
    assert (f.stat().st_mode & 0o777) == (0o666 & ~mask)
    assert [p.name for p in tmp_path.iterdir()] == ["m.params"]


# MXNet 1.9.1 writes mx.nd.array(3) (0-d, outside NumPy-shape mode) as a V2 record with ndim 0
# followed by ctx, dtype and the element (and cannot read it back itself).
ORACLE_0D_LIST = ("120100000000000000000000000000000100000000000000c9fa93f9000000000000000001"
                  "0000000000000000000000000040400000000000000000")
ORACLE_0D_PICKLE = ("80049573000000000000008c156d786e65742e6e6461727261792e6e646172726179948c07"
                    "4e4441727261799493944e859452947d948c0668616e646c65948c086275696c74696e7394"
                    "8c09627974656172726179949394431cc9fa93f900000000000000000100000000000000000"
                    "00000000040409485945294 73622e").replace(" ", "")


def test_zero_d_written_like_mxnet_and_read_back(tmp_path):
    f = tmp_path / "s.params"
    mx.nd.save(str(f), [mx.nd.array(3)])
    assert f.read_bytes().hex() == ORACLE_0D_LIST
    back = mx.nd.load(str(f))[0]
    assert back.shape == () and back.asscalar() == 3
    assert pickle.dumps(mx.nd.array(3), protocol=4).hex() == ORACLE_0D_PICKLE
    assert pickle.loads(bytes.fromhex(ORACLE_0D_PICKLE)).asscalar() == 3


def test_trailing_bytes_ignored_like_mxnet():
    good = _listfile([_record((1,), b"\x00" * 4)])
    assert mx.nd.load_frombuffer(good + b"\x01\x02")[0].shape == (1,)
