"""MXNet's ``mxnet.base`` ctypes helpers and doc helpers, re-exported by :mod:`mxnet.base`.

Code written against MXNet 1.x imports these from ``mxnet.base`` (``c_str``, ``c_array``,
``c_str_array``, the ``*Handle`` types...), usually together with ``_LIB``; they build the same
ctypes objects as MXNet's, so such code keeps working with :mod:`mxnet._capi`.
"""

from __future__ import annotations

import ctypes
import inspect
import sys
from collections.abc import Sequence
from typing import Any

import numpy as _np

from .base import MXNetError

__all__ = [
    "basestring",
    "long",
    "mx_int64",
    "c_str",
    "c_str_array",
    "c_array",
    "c_array_buf",
    "c_handle_array",
    "ctypes2buffer",
    "ctypes2numpy_shared",
    "build_param_doc",
    "add_fileline_to_docstring",
    "get_last_ffi_error",
    "FunctionHandle",
    "OpHandle",
    "CachedOpHandle",
    "ExecutorHandle",
    "DataIterCreatorHandle",
    "DataIterHandle",
    "KVStoreHandle",
    "RecordIOHandle",
    "RtcHandle",
    "CudaModuleHandle",
    "CudaKernelHandle",
    "ProfileHandle",
    "DLPackHandle",
]

basestring = str
long = int
mx_int64 = ctypes.c_int64

# MXNet's opaque C handle types (all ``void *``)
FunctionHandle = ctypes.c_void_p
OpHandle = ctypes.c_void_p
CachedOpHandle = ctypes.c_void_p
ExecutorHandle = ctypes.c_void_p
DataIterCreatorHandle = ctypes.c_void_p
DataIterHandle = ctypes.c_void_p
KVStoreHandle = ctypes.c_void_p
RecordIOHandle = ctypes.c_void_p
RtcHandle = ctypes.c_void_p
CudaModuleHandle = ctypes.c_void_p
CudaKernelHandle = ctypes.c_void_p
ProfileHandle = ctypes.c_void_p
DLPackHandle = ctypes.c_void_p


def c_str(string: str) -> ctypes.c_char_p:
    """A ``char *`` holding the UTF-8 bytes of ``string``.

    Examples
    --------
    >>> c_str("Hello").value
    b'Hello'
    """
    return ctypes.c_char_p(string.encode("utf-8"))


def c_str_array(strings: Sequence[str]) -> Any:
    """A ``const char **`` (``c_char_p`` array) of the UTF-8 encoded ``strings``."""
    arr = (ctypes.c_char_p * len(strings))()
    arr[:] = [s.encode("utf-8") for s in strings]
    return arr


def c_array(ctype: Any, values: Sequence[Any]) -> Any:
    """A ctypes array of ``ctype`` filled with ``values``.

    Examples
    --------
    >>> x = c_array(ctypes.c_float, [1, 2, 3])
    >>> len(x), x[1]
    (3, 2.0)
    """
    out = (ctype * len(values))()
    out[:] = values
    return out


def c_array_buf(ctype: Any, buf: Any) -> Any:
    """A ctypes array of ``ctype`` sharing the memory of the writable buffer ``buf``."""
    return (ctype * len(buf)).from_buffer(buf)


def c_handle_array(objs: Sequence[Any]) -> Any:
    """MXNet's ``void **`` of object handles; mxnet-ng objects have no C handles."""
    raise MXNetError(
        "mx.base.c_handle_array: mxnet-ng has no MXNet C library, so NDArrays and Symbols "
        "have no C handles to pass"
    )


def ctypes2buffer(cptr: Any, length: int) -> bytearray:
    """Copy ``length`` bytes from a ``POINTER(c_char)`` into a new bytearray."""
    if not isinstance(cptr, ctypes.POINTER(ctypes.c_char)):
        raise TypeError("expected char pointer")
    res = bytearray(length)
    dst = (ctypes.c_char * length).from_buffer(res)
    ctypes.memmove(dst, cptr, length)
    return res


def ctypes2numpy_shared(cptr: Any, shape: Sequence[int]) -> _np.ndarray:
    """A float32 NumPy array of ``shape`` that shares memory with a ``POINTER(c_float)``."""
    if not isinstance(cptr, ctypes.POINTER(ctypes.c_float)):
        raise RuntimeError("expected float pointer")
    size = 1
    for s in shape:
        size *= s
    buf = (ctypes.c_float * size).from_address(ctypes.addressof(cptr.contents))
    return _np.frombuffer(buf, dtype=_np.float32).reshape(shape)


def build_param_doc(
    arg_names: Sequence[str],
    arg_types: Sequence[str],
    arg_descs: Sequence[str],
    remove_dup: bool = True,
) -> str:
    """A NumPy-style ``Parameters`` section from argument names, types and descriptions
    (``num_args`` left out, repeated names once when ``remove_dup``)."""
    seen: set[str] = set()
    lines = []
    for key, type_info, desc in zip(arg_names, arg_types, arg_descs):
        if (key in seen and remove_dup) or key == "num_args":
            continue
        seen.add(key)
        entry = f"{key} : {type_info}"
        if desc:
            entry += "\n    " + desc
        lines.append(entry)
    return "Parameters\n----------\n" + "\n".join(lines) + "\n"


def add_fileline_to_docstring(module: Any, incursive: bool = True) -> None:
    """Append ``From:<file>:<line>`` to the docstring of each function and class of
    ``module`` (a module or its name); with ``incursive``, to class methods too."""

    def add(obj: Any) -> None:
        doc = getattr(obj, "__doc__", None)
        if doc is None or "From:" in doc:
            return
        try:
            fname = inspect.getsourcefile(obj)
            line = inspect.getsourcelines(obj)[-1]
        except (OSError, TypeError):
            return
        if fname is None:
            return
        obj.__doc__ = doc + f"\n\nFrom:{fname}:{line}"

    if isinstance(module, str):
        module = sys.modules[module]
    for _, obj in inspect.getmembers(module):
        if inspect.isbuiltin(obj):
            continue
        if inspect.isfunction(obj):
            add(obj)
        if inspect.ismethod(obj):
            add(obj.__func__)
        if inspect.isclass(obj) and incursive:
            add_fileline_to_docstring(obj, False)


def get_last_ffi_error() -> MXNetError:
    """The error of the last failed C-API call: none can fail here, so an empty one."""
    return MXNetError("")
