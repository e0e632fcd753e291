"""A restricted unpickler for MXNet's pickle-based files (``.states``, Trainer states).

MXNet 1.x writes optimizer states (``Updater.get_states``, ``Module.save_optimizer_states``,
``KVStore.save_optimizer_states``, ``Trainer.save_states``) and pickled NDArrays with Python's
``pickle``.  A plain ``pickle.loads`` on a downloaded file runs whatever code the file names.
:func:`loads` only admits the classes and functions such files really contain:

* ``mxnet.ndarray.ndarray.NDArray`` (its payload is parsed by the bounded binary reader),
* the optimizer classes (every class in the optimizer registry, including user-registered
  ones that are already imported) and the ``mxnet.lr_scheduler`` schedulers,
* ``mxnet.context.Context``,
* NumPy arrays, dtypes and scalars (with a size check before any allocation),
* plain containers (``dict``, ``list``, ``tuple``, ``set``, ``frozenset``, ``slice``,
  ``complex``, ``bytearray`` from bytes, ``collections.OrderedDict``).

Anything else raises :class:`mxnet.base.MXNetError` naming the refused ``module.name``; any
malformed input (truncated, corrupt) raises :class:`MXNetError` too.

Examples
--------
>>> import pickle
>>> from mxnet import _safe_pickle
>>> _safe_pickle.loads(pickle.dumps({0: (1.0, [2, 3])}))
{0: (1.0, [2, 3])}
"""

from __future__ import annotations

import collections
import copyreg
import io
import pickle
import struct
from typing import Any, BinaryIO

import numpy as np

from .base import MXNetError

__all__ = ["loads", "load", "MAX_NUMPY_BYTES"]

# Largest NumPy array (in bytes) a pickle may ask ``_reconstruct`` to allocate up front (real
# pickles always ask for an empty (0,) array, then fill it from their own bytes).
MAX_NUMPY_BYTES = 1 << 20

_CONTAINERS: dict[tuple[str, str], Any] = {
    ("builtins", "dict"): dict,
    ("builtins", "list"): list,
    ("builtins", "tuple"): tuple,
    ("builtins", "set"): set,
    ("builtins", "frozenset"): frozenset,
    ("builtins", "slice"): slice,
    ("builtins", "complex"): complex,
    ("builtins", "object"): object,
    ("builtins", "int"): int,
    ("builtins", "float"): float,
    ("builtins", "bool"): bool,
    ("builtins", "str"): str,
    ("builtins", "bytes"): bytes,
    ("collections", "OrderedDict"): collections.OrderedDict,
}


_CONTAINERS.update({("__builtin__", k[1]): v for k, v in list(_CONTAINERS.items())
                    if k[0] == "builtins"})


def _safe_bytearray(*args):
    """``bytearray`` restricted to copying bytes/str (never ``bytearray(2**40)``)."""
    if not args:
        return bytearray()
    if isinstance(args[0], (bytes, bytearray)) and len(args) == 1:
        return bytearray(args[0])
    if isinstance(args[0], str) and len(args) == 2 and isinstance(args[1], str):
        return bytearray(args[0], args[1])
    raise MXNetError("bytearray(...) in a pickle may only copy bytes or a string")


def _safe_encode(obj, encoding="utf-8", errors="strict"):
    """``_codecs.encode`` as protocol-2 pickles of ``bytes`` use it (str -> bytes only)."""
    if not isinstance(obj, str) or not isinstance(encoding, str):
        raise MXNetError("_codecs.encode in a pickle may only encode a string")
    return obj.encode(encoding, errors)


def _shape_bytes(shape, dtype, who: str) -> int:
    dims = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    dt = np.dtype(dtype)
    n = 1
    for d in dims:
        if not isinstance(d, (int, np.integer)) or d < 0:
            raise MXNetError(f"{who}: invalid shape {shape!r}")
        n *= int(d)
    return n * dt.itemsize


def _check_shape(shape, dtype, who: str) -> None:
    nbytes = _shape_bytes(shape, dtype, who)
    if nbytes > MAX_NUMPY_BYTES:
        raise MXNetError(f"{who}: refusing to allocate {nbytes} bytes up front "
                         f"(limit {MAX_NUMPY_BYTES})")


def _safe_reconstruct(subtype, shape, dtype):
    """NumPy's ``_reconstruct`` for plain ``numpy.ndarray`` with a bounded initial shape."""
    if subtype is not np.ndarray:
        raise MXNetError(f"numpy _reconstruct of {subtype!r} is refused (only numpy.ndarray)")
    _check_shape(shape, dtype, "numpy _reconstruct")
    return np.ndarray.__new__(np.ndarray, shape, dtype)


def _safe_frombuffer(buf, dtype, shape, order):
    """NumPy's protocol-5 ``_frombuffer`` (the data comes from the pickle itself)."""
    arr = np.frombuffer(bytes(buf), dtype=np.dtype(dtype))
    return arr.reshape(shape, order=order).copy()


def _safe_scalar(dtype, *args):
    """NumPy's ``scalar(dtype, bytes)`` for non-object dtypes."""
    if not isinstance(dtype, np.dtype) or dtype.hasobject:
        raise MXNetError("numpy scalar in a pickle must have a plain (non-object) dtype")
    raw = args[0] if len(args) == 1 else None
    if isinstance(raw, str):  # Python 2 pickles, read with encoding='latin1'
        raw = raw.encode("latin1")
    if not isinstance(raw, bytes) or len(raw) != dtype.itemsize:
        raise MXNetError("numpy scalar in a pickle must carry exactly its dtype's bytes")
    return np.frombuffer(raw, dtype=dtype)[0]


def _safe_dtype(obj, align=False, copy=False):
    """``numpy.dtype`` as pickles call it: ``dtype('f4', False, True)``."""
    if not isinstance(obj, str) or not isinstance(align, bool) or not isinstance(copy, bool):
        raise MXNetError("numpy.dtype in a pickle takes a type string and two booleans")
    return np.dtype(obj, align, copy)


def _numpy_names() -> dict[tuple[str, str], Any]:
    names: dict[tuple[str, str], Any] = {}
    for core in ("numpy.core", "numpy._core"):
        names[(f"{core}.multiarray", "_reconstruct")] = _safe_reconstruct
        names[(f"{core}.multiarray", "scalar")] = _safe_scalar
        names[(f"{core}.numeric", "_frombuffer")] = _safe_frombuffer
    names[("numpy", "ndarray")] = np.ndarray
    names[("numpy", "dtype")] = _safe_dtype
    for tname in ("float16", "float32", "float64", "int8", "int16", "int32", "int64",
                  "uint8", "uint16", "uint32", "uint64", "bool_", "complex64", "complex128"):
        if hasattr(np, tname):
            names[("numpy", tname)] = getattr(np, tname)
    return names


def _mxnet_names() -> dict[tuple[str, str], Any]:
    """MXNet classes that appear in state pickles, resolved when first needed."""
    from . import lr_scheduler
    from .context import Context
    from .ndarray.ndarray import NDArray
    from .optimizer import optimizer as _opt_mod

    names: dict[tuple[str, str], Any] = {
        ("mxnet.ndarray.ndarray", "NDArray"): NDArray,
        ("mxnet.context", "Context"): Context,
        ("mxnet.device", "Device"): Context,
    }
    for cls_name in ("LRScheduler", "FactorScheduler", "MultiFactorScheduler",
                     "PolyScheduler", "CosineScheduler"):
        cls = getattr(lr_scheduler, cls_name, None)
        if cls is not None:
            names[("mxnet.lr_scheduler", cls_name)] = cls
    opt_base = _opt_mod.Optimizer
    registry = getattr(opt_base, "opt_registry", {})
    for cls in list(registry.values()) + [opt_base]:
        if isinstance(cls, type) and issubclass(cls, opt_base):
            names[(cls.__module__, cls.__qualname__)] = cls
            names[("mxnet.optimizer.optimizer", cls.__name__)] = cls
    return names


_STATIC: dict[tuple[str, str], Any] = {
    **_CONTAINERS,
    **_numpy_names(),
    ("builtins", "bytearray"): _safe_bytearray,
    ("__builtin__", "bytearray"): _safe_bytearray,
    ("_codecs", "encode"): _safe_encode,
    ("copyreg", "_reconstructor"): copyreg._reconstructor,
    ("copy_reg", "_reconstructor"): copyreg._reconstructor,
}

# Callables a REDUCE opcode may call; classes other than these are only instantiated
# without arguments (``cls.__new__(cls)``) and then filled by ``__setstate__``.
_REDUCE_OK = {dict, list, tuple, set, frozenset, slice, complex, int, float, bool, str,
              collections.OrderedDict, _safe_dtype, _safe_bytearray, _safe_encode,
              _safe_reconstruct, _safe_frombuffer, _safe_scalar, copyreg._reconstructor}
_NEWOBJ_BUILTINS = {dict, list, tuple, set, frozenset, object, collections.OrderedDict,
                    complex, int, float, str}


class _RestrictedUnpickler(pickle._Unpickler):  # the pure-Python unpickler: opcodes hookable
    dispatch = dict(pickle._Unpickler.dispatch)

    def __init__(self, file: BinaryIO, what: str):
        super().__init__(file, encoding="latin1")
        self._what = what
        self._allowed = {**_STATIC, **_mxnet_names()}

    def find_class(self, module: str, name: str) -> Any:
        obj = self._allowed.get((module, name))
        if obj is None:
            raise MXNetError(f"{self._what}: refusing to load '{module}.{name}': only NDArray, "
                             "optimizer, lr_scheduler, Context, NumPy array and builtin "
                             "container types are allowed in MXNet state pickles")
        return obj

    def _check_reduce(self, func, args) -> None:
        from .context import Context
        from .ndarray.ndarray import NDArray

        if func is NDArray:
            if tuple(args) not in ((), (None,)):
                raise MXNetError(f"{self._what}: NDArray(...) in a pickle takes no handle")
            return
        if func is Context:
            return
        if func in _REDUCE_OK:
            if func is copyreg._reconstructor and len(args) == 3:
                cls, base = args[0], args[1]
                if base is not object and base not in _NEWOBJ_BUILTINS:
                    raise MXNetError(f"{self._what}: copyreg._reconstructor base {base!r} "
                                     "is refused")
                if not isinstance(cls, type):
                    raise MXNetError(f"{self._what}: copyreg._reconstructor needs a class")
            return
        raise MXNetError(f"{self._what}: calling {getattr(func, '__name__', func)!r} "
                         "is not allowed in MXNet state pickles")

    def load_reduce(self) -> None:
        args = self.stack.pop()
        func = self.stack[-1]
        self._check_reduce(func, args)
        self.stack[-1] = func(*args)

    dispatch[pickle.REDUCE[0]] = load_reduce

    def _check_newobj(self, cls) -> None:
        if not isinstance(cls, type):
            raise MXNetError(f"{self._what}: NEWOBJ needs a class, got {cls!r}")
        if cls in _NEWOBJ_BUILTINS:
            return
        if cls.__new__ is not object.__new__:
            raise MXNetError(f"{self._what}: creating {cls.__qualname__} objects is refused")

    def load_newobj(self) -> None:
        args = self.stack.pop()
        cls = self.stack.pop()
        self._check_newobj(cls)
        self.append(cls.__new__(cls, *args))

    dispatch[pickle.NEWOBJ[0]] = load_newobj

    def load_newobj_ex(self) -> None:
        kwargs = self.stack.pop()
        args = self.stack.pop()
        cls = self.stack.pop()
        self._check_newobj(cls)
        self.append(cls.__new__(cls, *args, **kwargs))

    dispatch[pickle.NEWOBJ_EX[0]] = load_newobj_ex

    def load_build(self) -> None:
        state = self.stack[-1]
        inst = self.stack[-2]
        if isinstance(inst, np.ndarray):
            self._check_ndarray_state(state)
        super().load_build()

    dispatch[pickle.BUILD[0]] = load_build

    def _check_ndarray_state(self, state) -> None:
        """A NumPy array's ``__setstate__`` must carry exactly its own raw bytes."""
        ok = isinstance(state, tuple) and len(state) in (4, 5)
        if ok:
            shape, dtype, raw = state[-4], state[-3], state[-1]
            ok = (isinstance(dtype, np.dtype) and not dtype.hasobject
                  and isinstance(raw, (bytes, bytearray, str))
                  and _shape_bytes(shape, dtype, self._what) == len(raw))
        if not ok:
            raise MXNetError(f"{self._what}: malformed or non-plain NumPy array state")

    def load_obj(self) -> None:  # protocol 0/1 class instantiation (calls __init__): refused
        raise MXNetError(f"{self._what}: the OBJ/INST opcodes are not allowed")

    dispatch[pickle.OBJ[0]] = load_obj
    dispatch[pickle.INST[0]] = load_obj

    def persistent_load(self, pid):
        raise MXNetError(f"{self._what}: persistent ids are not allowed")


def loads(data: bytes | bytearray | memoryview, what: str = "MXNet state pickle") -> Any:
    """Unpickle ``data`` admitting only the types MXNet state files contain.

    Parameters
    ----------
    data : bytes
        The pickle bytes (e.g. the contents of a ``.states`` file).
    what : str
        What is being loaded (a file name), used in error messages.

    Returns
    -------
    object
        The unpickled object.

    Raises
    ------
    MXNetError
        If the pickle names a refused class or function, or is truncated or corrupt.

    Examples
    --------
    >>> import pickle, mxnet as mx
    >>> from mxnet import _safe_pickle
    >>> _safe_pickle.loads(pickle.dumps(mx.nd.ones((2,)))).shape
    (2,)
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"{what}: expected bytes, got {type(data).__name__}")
    try:
        return _RestrictedUnpickler(io.BytesIO(bytes(data)), what).load()
    except MXNetError as err:
        if str(err).startswith(what):
            raise
        raise MXNetError(f"{what}: {err}") from None
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, KeyError, IndexError,
            AttributeError, struct.error, OverflowError, MemoryError, RecursionError,
            UnicodeError, ImportError, AssertionError, LookupError, SystemError) as err:
        raise MXNetError(f"{what}: corrupt or truncated pickle "
                         f"({type(err).__name__}: {err})") from None


def load(file: str | BinaryIO, what: str | None = None) -> Any:
    """Read a pickle from a path or binary file object through :func:`loads`.

    Examples
    --------
    >>> import pickle
    >>> from mxnet import _safe_pickle
    >>> with open('/tmp/s.pkl', 'wb') as f:
    ...     pickle.dump([1, 2], f)
    >>> _safe_pickle.load('/tmp/s.pkl')
    [1, 2]
    """
    if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
        with open(file, "rb") as f:
            data = f.read()
        return loads(data, what or str(file))
    return loads(file.read(), what or getattr(file, "name", "MXNet state pickle"))
