"""mx.base._LIB: the ctypes C-API entry points MXNet 1.x code calls (MXListAllOpNames...)."""

import ctypes

import pytest

import mxnet as mx
from mxnet.base import MXNetError, check_call


def test_list_all_op_names_through_ctypes():
    # the form of MXNet's amp coverage test
    plist = ctypes.POINTER(ctypes.c_char_p)()
    size = ctypes.c_uint()
    assert mx.base._LIB.MXListAllOpNames(ctypes.byref(size), ctypes.byref(plist)) == 0
    names = [plist[i].decode("utf-8") for i in range(size.value)]
    assert names == sorted(mx.operator.get_all_registered_operators())
    assert "FullyConnected" in names and "elemwise_add" in names


def test_from_import_and_check_call():
    from mxnet.base import _LIB

    v = ctypes.c_int()
    check_call(_LIB.MXGetVersion(ctypes.byref(v)))
    assert v.value == 10901  # MXNet 1.9.1
    n = ctypes.c_int(-1)
    check_call(_LIB.MXGetGPUCount(ctypes.pointer(n)))
    assert n.value == mx.context.num_gpus()


def test_np_shape_flag_round_trip():
    prev = ctypes.c_int(-1)
    try:
        assert mx.base._LIB.MXSetIsNumpyShape(ctypes.c_int(1), ctypes.byref(prev)) == 0
        assert prev.value == 0 and mx.util.is_np_shape()
        cur = ctypes.c_int()
        mx.base._LIB.MXIsNumpyShape(ctypes.byref(cur))
        assert cur.value == 1
    finally:
        mx.base._LIB.MXSetIsNumpyShape(0, ctypes.byref(prev))
    assert prev.value == 1 and not mx.util.is_np_shape()


def test_bulk_size_and_seed():
    prev = ctypes.c_int()
    old = mx.engine.set_bulk_size(5)
    try:
        mx.base._LIB.MXEngineSetBulkSize(ctypes.c_int(9), ctypes.byref(prev))
        assert prev.value == 5
        assert mx.engine.set_bulk_size(old) == 9
    finally:
        mx.engine.set_bulk_size(old)
    mx.base._LIB.MXRandomSeed(ctypes.c_int(7))
    a = mx.nd.random.uniform(shape=(3,)).asnumpy()
    mx.random.seed(7)
    assert (mx.nd.random.uniform(shape=(3,)).asnumpy() == a).all()


def test_restype_settable_and_missing_function():
    lib = mx.base._LIB
    lib.MXGetLastError.restype = ctypes.c_char_p
    assert mx.base.py_str(lib.MXGetLastError()) == ""
    assert not hasattr(lib, "MXNoSuchFunction")
    with pytest.raises(MXNetError, match="MXSymbolCreateFromJSON"):
        getattr(lib, "MXSymbolCreateFromJSON")  # noqa: B009
    with pytest.raises(MXNetError, match="byref"):
        lib.MXGetVersion(3)
