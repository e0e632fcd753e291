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
    assert lib.MXGetVersion(3) == -1  # bad argument: failure code, message kept
    assert b"byref" in lib.MXGetLastError()


def test_base_ctypes_helpers():
    from mxnet.base import (
        KVStoreHandle,
        c_array,
        c_array_buf,
        c_handle_array,
        c_str,
        c_str_array,
        ctypes2buffer,
        ctypes2numpy_shared,
        mx_float,
        mx_uint,
    )

    assert c_str("héllo").value == b"h\xc3\xa9llo"
    a = c_array(mx_uint, [3, 4, 5])
    assert isinstance(a, mx_uint * 3) and list(a) == [3, 4, 5]
    s = c_str_array(["a", "bc"])
    assert [s[0], s[1]] == [b"a", b"bc"]
    import array

    buf = array.array("f", [1.0, 2.0])
    view = c_array_buf(mx_float, buf)
    view[1] = 7.0
    assert buf[1] == 7.0  # shares the buffer
    raw = ctypes.create_string_buffer(b"abcd")
    assert ctypes2buffer(ctypes.cast(raw, ctypes.POINTER(ctypes.c_char)), 3) == bytearray(b"abc")
    f = (ctypes.c_float * 6)(*range(6))
    arr = ctypes2numpy_shared(ctypes.cast(f, ctypes.POINTER(ctypes.c_float)), (2, 3))
    f[5] = 50.0
    assert arr.shape == (2, 3) and arr[1, 2] == 50.0
    assert KVStoreHandle is ctypes.c_void_p
    with pytest.raises(MXNetError, match="c_handle_array"):
        c_handle_array([mx.nd.ones(1)])


def test_build_param_doc():
    doc = mx.base.build_param_doc(
        ["data", "num_args", "data", "axis"],
        ["NDArray", "int", "NDArray", "int"],
        ["input", "", "dup", ""],
    )
    assert doc == "Parameters\n----------\ndata : NDArray\n    input\naxis : int\n"


def test_autograd_state_and_failure_protocol():
    lib = mx.base._LIB
    prev = ctypes.c_int(-1)
    flag = ctypes.c_bool()
    try:
        assert lib.MXAutogradSetIsRecording(ctypes.c_int(1), ctypes.byref(prev)) == 0
        assert prev.value == 0 and mx.autograd.is_recording()
        lib.MXAutogradIsRecording(ctypes.byref(flag))
        assert flag.value is True
        lib.MXAutogradSetIsTraining(ctypes.c_int(1), ctypes.byref(prev))
        assert prev.value == 0 and mx.autograd.is_training()
    finally:
        lib.MXAutogradSetIsRecording(ctypes.c_int(0), ctypes.byref(prev))
        lib.MXAutogradSetIsTraining(ctypes.c_int(0), ctypes.byref(prev))
    assert prev.value == 1 and not mx.autograd.is_training()
    # a failing call returns -1; the message is kept for MXGetLastError and check_call
    free, total = ctypes.c_uint64(), ctypes.c_uint64()
    bad = mx.context.num_gpus() + 5
    assert lib.MXGetGPUMemoryInformation64(bad, ctypes.byref(free), ctypes.byref(total)) == -1
    lib.MXGetLastError.restype = ctypes.c_char_p
    assert b"gpu" in lib.MXGetLastError().lower()
    with pytest.raises(MXNetError, match="(?i)gpu"):
        check_call(lib.MXGetGPUMemoryInformation64(bad, ctypes.byref(free), ctypes.byref(total)))
