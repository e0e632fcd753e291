"""Basic definitions shared by every layer: the error type and small helpers."""

from __future__ import annotations

import ctypes
import numbers
import os
import sys

import numpy as _np

__all__ = [
    "MXNetError",
    "AbstractMethodError",
    "NotSupportedForSparseNDArray",
    "numeric_types",
    "integer_types",
    "string_types",
    "mx_real_t",
    "mx_uint",
    "mx_int",
    "mx_float",
    "data_dir",
    "data_dir_default",
]


class MXNetError(RuntimeError):
    """Error raised by MXNet operations (same base class as MXNet 1.9.1's).

    Examples
    --------
    >>> import mxnet as mx
    >>> try:
    ...     mx.nd.sum(mx.nd.ones((2,)), foo=1)
    ... except mx.base.MXNetError as e:
    ...     print("Cannot find argument 'foo'" in str(e))
    True
    """


class NotImplementedForSymbol(MXNetError):
    """Raised for NDArray-only operations (``+=``, ``asnumpy``...) called on a Symbol."""

    def __init__(self, function, alias, *args):
        super().__init__()
        self.function = getattr(function, "__name__", str(function))
        self.alias = alias
        self.args = [str(type(a)) for a in args]

    def __str__(self) -> str:
        msg = f"Function {self.function}"
        if self.alias:
            msg += f' (namely operator "{self.alias}")'
        if self.args:
            msg += " with arguments (" + ", ".join(self.args) + ")"
        return msg + " is not implemented for Symbol and only available in NDArray."


class AbstractMethodError(MXNetError, NotImplementedError):
    """A method that a subclass must define was called on the base class.

    It also derives from the built-in exception MXNet raises for these methods, so code
    catching that type keeps working.
    """


def abstract(owner, method: str) -> AbstractMethodError:
    """The error for ``owner.method()`` called without a subclass definition."""
    name = owner.__name__ if isinstance(owner, type) else type(owner).__name__
    return AbstractMethodError(f"{name}.{method}() must be defined by a subclass")


class MXNetNotSupportedError(MXNetError, NotImplementedError):
    """A case MXNet itself refuses with ``NotImplementedError`` (the message names it)."""


class MXNetIndexError(MXNetError, IndexError):
    """An index out of range inside an operator (MXNet raises ``IndexError`` there)."""


class NotSupportedForSparseNDArray(MXNetError):
    """Raised when a dense-only function is called on a sparse array."""

    def __init__(self, function, alias, *args):
        super().__init__()
        self.function = function.__name__
        self.alias = alias
        self.args = [str(type(a)) for a in args]

    def __str__(self):
        return f"Function {self.function} (namely operator {self.alias}) is not supported for SparseNDArray"


numeric_types = (float, int, _np.generic, numbers.Number)
integer_types = (int, _np.integer)
string_types = (str,)


def py_str(x) -> str:
    """Text from the bytes a C callback passes (MXNet's ``base.py_str``); text passes."""
    return x.decode("utf-8") if isinstance(x, (bytes, bytearray)) else str(x)


mx_real_t = _np.float32  # MXNet's default real type
# MXNet's C handle types; an NDArray passes for an ``NDArrayHandle`` in ``ctypes.cast``
NDArrayHandle = ctypes.c_void_p
SymbolHandle = ctypes.c_void_p
mx_uint = ctypes.c_uint
mx_int = ctypes.c_int
mx_float = ctypes.c_float
mx_float_p = ctypes.POINTER(mx_float)


def data_dir_default() -> str:
    """MXNet's default data folder: ``~/.mxnet`` (``%APPDATA%/mxnet`` on Windows)."""
    if sys.platform.startswith("win"):
        return os.path.join(os.environ.get("APPDATA", ""), "mxnet")
    return os.path.join(os.path.expanduser("~"), ".mxnet")


def _as_list(obj):
    """Return ``obj`` unchanged when it is a list or tuple, else ``[obj]``."""
    if isinstance(obj, (list, tuple)):
        return obj
    return [obj]


class _NullType:
    """Placeholder for arguments left at the operator's default (MXNet's ``_Null``)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "_Null"

    def __bool__(self) -> bool:
        return False


_Null = _NullType()


def check_call(ret):
    """Compatibility shim: MXNet's C-API return check. Nonzero means failure."""
    if ret != 0:
        lib = globals().get("_LIB")
        msg = lib._last_error if lib is not None else ""
        raise MXNetError(msg or f"C API call failed with code {ret}")


def data_dir() -> str:
    """Return ``$MXNET_HOME`` or ``~/.mxnet``, where datasets and models are cached."""
    import os

    return os.getenv("MXNET_HOME", os.path.join(os.path.expanduser("~"), ".mxnet"))


def classproperty(func):
    """A read-only property of the class itself (MXNet's ``base.classproperty``)."""

    class _ClassProperty:
        def __get__(self, obj, owner):
            return func(owner)

    return _ClassProperty()


def with_metaclass(meta, *bases):
    """A base class made with metaclass ``meta`` (MXNet's Python 2/3 helper)."""
    return meta("_WithMetaclassBase", bases or (object,), {})


# exception classes that an error message may name, by name (MXNet's ``base.error_types``;
# ``mxnet.error.register_error`` adds to it)
error_types: dict = {
    "NotImplementedForSymbol": NotImplementedForSymbol,
    "ValueError": ValueError,
    "TypeError": TypeError,
    "AttributeError": AttributeError,
    "IndexError": IndexError,
    "NotImplementedError": NotImplementedError,
}


def register_error(func_name=None, cls=None):
    """Register an exception class in :data:`error_types` (usable as a decorator).

    Examples
    --------
    >>> @register_error
    ... class MyError(MXNetError):
    ...     pass
    """
    if callable(func_name) and cls is None:
        cls, func_name = func_name, None
    if cls is None:
        return lambda c: register_error(func_name, c)
    error_types[func_name or cls.__name__] = cls
    return cls


# MXNet's ctypes/doc helpers and remaining handle types (defined after MXNetError, used there)
from ._base_ctypes import *  # noqa: E402,F403
from ._base_ctypes import __all__ as _ctypes_names  # noqa: E402

__all__ += list(_ctypes_names)


def __getattr__(name: str):
    """``_LIB``: MXNet's C library handle, here a stand-in (see :mod:`mxnet._capi`)."""
    if name == "_LIB":
        from ._capi import CLibrary

        lib = CLibrary()
        globals()["_LIB"] = lib
        return lib
    raise AttributeError(f"module 'mxnet.base' has no attribute {name!r}")
