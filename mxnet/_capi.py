"""``mxnet.base._LIB``: the few MXNet C-API entry points that Python code calls through ctypes.

MXNet 1.x programs and tests sometimes reach past the Python API into the C library, e.g.
``mx.base._LIB.MXListAllOpNames(ctypes.byref(size), ctypes.byref(names))`` or
``check_call(_LIB.MXGetVersion(ctypes.byref(v)))``. mxnet-ng has no C library, so this module
gives an object whose attributes are Python functions taking the same ctypes arguments
(``ctypes.byref(x)`` or ``ctypes.pointer(x)`` for outputs, ``ctypes.c_int``/plain ints for
inputs), writing results through the pointers and returning 0 as MXNet's functions do.

Any other C function name raises :class:`CAPIFunctionMissing` (an ``MXNetError`` and an
``AttributeError``, so ``hasattr(_LIB, name)`` is False, as for a missing symbol of a CDLL).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

from .base import MXNetError

__all__ = ["CAPIFunctionMissing", "CLibrary"]


class CAPIFunctionMissing(MXNetError, AttributeError):
    """A C-API function that mxnet-ng's ``_LIB`` does not provide."""


def _target(arg: Any) -> Any:
    """The ctypes object an output argument points at (``byref(x)`` or ``pointer(x)``)."""
    obj = getattr(arg, "_obj", None)  # ctypes.byref(...) result
    if obj is not None:
        return obj
    if isinstance(arg, ctypes._Pointer):
        return arg.contents
    raise MXNetError(
        "mx.base._LIB: an output argument must be ctypes.byref(x) or ctypes.pointer(x), "
        f"got {type(arg).__name__}"
    )


def _value(arg: Any) -> Any:
    """The Python value of an input argument (a ctypes scalar or a plain number)."""
    return arg.value if isinstance(arg, ctypes._SimpleCData) else arg


def _point_at(ptr_obj: Any, array: Any) -> None:
    """Make the ctypes pointer object ``ptr_obj`` hold the address of ``array``."""
    slot = ctypes.cast(ctypes.addressof(ptr_obj), ctypes.POINTER(ctypes.c_void_p))
    slot[0] = ctypes.addressof(array)


class CLibrary:
    """Stand-in for MXNet's ``ctypes.CDLL`` handle (``mx.base._LIB``)."""

    def __init__(self) -> None:
        self._funcs: dict[str, Callable[..., Any]] = {}
        # keeps returned string tables alive, as MXNet's thread-local return buffers do
        self._keep: dict[str, Any] = {}
        self._last_error = ""
        for name in dir(self):
            if name.startswith("_MX"):
                fn = getattr(self, name)

                # plain function objects, so callers may set .restype/.argtypes on them;
                # a failure returns -1 and leaves its message for MXGetLastError, as MXNet
                def call(*args: Any, _fn: Callable[..., Any] = fn) -> Any:
                    try:
                        return _fn(*args)
                    except MXNetError as err:
                        self._last_error = str(err)
                        return -1

                call.__name__ = name[1:]
                self._funcs[name[1:]] = call

    def __getattr__(self, name: str) -> Callable[..., Any]:
        funcs = self.__dict__.get("_funcs", {})
        if name in funcs:
            return funcs[name]
        raise CAPIFunctionMissing(
            f"mx.base._LIB.{name}: mxnet-ng has no MXNet C library; this C-API function is "
            f"not available (provided: {', '.join(sorted(funcs))})"
        )

    def __repr__(self) -> str:
        return "<mxnet-ng C-API stand-in (mx.base._LIB)>"

    # ---- the functions (each returns 0 like MXNet's C API on success) ----

    def _MXListAllOpNames(self, out_size: Any, out_array: Any) -> int:
        from .operator import get_all_registered_operators

        names = [n.encode("utf-8") for n in sorted(get_all_registered_operators())]
        table = (ctypes.c_char_p * max(len(names), 1))(*names)
        self._keep["MXListAllOpNames"] = table
        _target(out_size).value = len(names)
        _point_at(_target(out_array), table)
        return 0

    def _MXGetVersion(self, out: Any) -> int:
        from . import __version__

        major, minor, patch = (int(p) for p in __version__.split(".")[:3])
        _target(out).value = major * 10000 + minor * 100 + patch
        return 0

    def _MXGetGPUCount(self, out: Any) -> int:
        from .context import num_gpus

        _target(out).value = num_gpus()
        return 0

    def _MXNDArrayWaitAll(self) -> int:
        from .ndarray import waitall

        waitall()
        return 0

    def _MXRandomSeed(self, seed: Any) -> int:
        from .random import seed as _seed

        _seed(int(_value(seed)))
        return 0

    def _MXSetNumOMPThreads(self, num: Any) -> int:
        import torch

        n = int(_value(num))
        if n > 0:
            torch.set_num_threads(n)
        return 0

    def _MXIsNumpyShape(self, out: Any) -> int:
        from .util import is_np_shape

        _target(out).value = int(is_np_shape())
        return 0

    def _MXSetIsNumpyShape(self, flag: Any, prev: Any) -> int:
        from .util import set_np_shape

        _target(prev).value = int(set_np_shape(bool(_value(flag))))
        return 0

    def _MXEngineSetBulkSize(self, size: Any, prev: Any) -> int:
        from .engine import set_bulk_size

        _target(prev).value = int(set_bulk_size(int(_value(size))))
        return 0

    def _MXGetLastError(self) -> bytes:
        return self._last_error.encode("utf-8")

    def _MXAutogradSetIsRecording(self, flag: Any, prev: Any) -> int:
        from .autograd import set_recording

        _target(prev).value = int(set_recording(bool(_value(flag))))
        return 0

    def _MXAutogradSetIsTraining(self, flag: Any, prev: Any) -> int:
        from .autograd import set_training

        _target(prev).value = int(set_training(bool(_value(flag))))
        return 0

    def _MXAutogradIsRecording(self, out: Any) -> int:
        from .autograd import is_recording

        _target(out).value = is_recording()
        return 0

    def _MXAutogradIsTraining(self, out: Any) -> int:
        from .autograd import is_training

        _target(out).value = is_training()
        return 0

    def _MXGetGPUMemoryInformation64(self, dev: Any, free: Any, total: Any) -> int:
        from .context import gpu_memory_info

        free_b, total_b = gpu_memory_info(int(_value(dev)))
        _target(free).value = free_b
        _target(total).value = total_b
        return 0

    def _MXNotifyShutdown(self) -> int:
        return 0
