"""Small helpers MXNet code imports from ``mxnet.util``: NumPy-semantics switches and env.

NumPy-shape semantics (``set_np_shape``/``np_shape``) change how 0-d arrays and unknown
shapes are treated and make ``nd.save`` write V3 records. NumPy-array semantics
(``set_np``/``use_np``) are recorded here so that code testing them behaves as in MXNet.
"""

from __future__ import annotations

import functools
import inspect
import os
import threading

import torch

__all__ = ["is_np_shape", "is_np_array", "set_np_shape", "set_np", "reset_np", "np_shape",
           "np_array", "use_np_shape", "use_np_array", "use_np", "set_module", "getenv",
           "setenv", "get_gpu_count", "get_gpu_memory", "get_cuda_compute_capability"]


class _NpState(threading.local):
    def __init__(self):
        self.shape = _global["shape"]
        self.array = _global["array"]


_global = {"shape": False, "array": False}
_state = _NpState()


def _cur(kind: str) -> bool:
    return getattr(_state, kind)


def is_np_shape() -> bool:
    """Whether NumPy-shape semantics are on (0-d arrays are scalars, V3 records)."""
    return _cur("shape")


def is_np_array() -> bool:
    """Whether NumPy-array semantics (``mx.np``) are on."""
    return _cur("array")


def set_np_shape(active: bool) -> bool:
    """Turn NumPy-shape semantics on or off; return the previous state.

    Examples
    --------
    >>> from mxnet.util import set_np_shape, is_np_shape
    >>> prev = set_np_shape(True); is_np_shape()
    True
    >>> _ = set_np_shape(prev)
    """
    if not active and is_np_array():
        raise ValueError("NumPy Shape semantics is required in using NumPy array semantics.")
    prev = _cur("shape")
    _state.shape = bool(active)
    _global["shape"] = bool(active)
    return prev


def _set_np_array(active: bool) -> bool:
    prev = _cur("array")
    _state.array = bool(active)
    _global["array"] = bool(active)
    return prev


def set_np(shape: bool = True, array: bool = True) -> None:
    """Turn NumPy shape and array semantics on (MXNet's ``npx.set_np``)."""
    if not shape and array:
        raise ValueError("NumPy Shape semantics is required in using NumPy array semantics.")
    _set_np_array(array)
    set_np_shape(shape)


def reset_np() -> None:
    """Turn both NumPy semantics off."""
    set_np(shape=False, array=False)


class _Scope:
    def __init__(self, kind: str, active: bool):
        self._kind = kind
        self._active = bool(active)
        self._prev = None

    def __enter__(self):
        self._prev = _cur(self._kind)
        setattr(_state, self._kind, self._active)
        return self

    def __exit__(self, *exc):
        setattr(_state, self._kind, self._prev)


class _NumpyArrayScope:
    """MXNet's scope object for NumPy-array semantics (what ``np_array`` enters).

    ``_is_np_array`` is the setting it applies; the state itself is per thread.
    """

    _current = threading.local()

    def __init__(self, is_np_array: bool):
        self._old_scope = None
        self._is_np_array = bool(is_np_array)
        self._scope = _Scope("array", is_np_array)

    def __enter__(self):
        self._scope.__enter__()
        return self

    def __exit__(self, *exc):
        self._scope.__exit__(*exc)


def np_shape(active: bool = True) -> _Scope:
    """Scope with NumPy-shape semantics set to ``active``."""
    return _Scope("shape", active)


def np_array(active: bool = True) -> _Scope:
    """Scope with NumPy-array semantics set to ``active``."""
    return _Scope("array", active)


def _wrap_scoped(func, scope_factory):
    if inspect.isclass(func):
        # every method and property, inherited ones included (a @use_np HybridBlock's
        # forward/__call__ come from Block), as MXNet wraps them
        for name, member in inspect.getmembers(func):
            if name.startswith("__") and name not in ("__init__", "__call__"):
                continue
            if inspect.isfunction(member):
                setattr(func, name, _wrap_scoped(member, scope_factory))
            elif isinstance(member, property):
                setattr(func, name, property(
                    _wrap_scoped(member.fget, scope_factory) if member.fget else None,
                    _wrap_scoped(member.fset, scope_factory) if member.fset else None,
                    member.fdel, member.__doc__))
        return func
    if not callable(func):
        raise TypeError(f"use_np expects a function or class, got {type(func).__name__}")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with scope_factory():
            return func(*args, **kwargs)

    return wrapper


def use_np_shape(func):
    """Decorator: run ``func`` (or every method of a class) with NumPy-shape semantics."""
    return _wrap_scoped(func, lambda: np_shape(True))


def use_np_array(func):
    """Decorator: run ``func`` (or every method of a class) with NumPy-array semantics."""
    return _wrap_scoped(func, lambda: np_array(True))


def use_np(func):
    """Decorator: NumPy shape and array semantics for ``func`` (MXNet's ``use_np``)."""
    return use_np_shape(use_np_array(func))


def set_module(module: str):
    """Decorator that sets ``__module__`` of a public function or class."""
    def decorator(func):
        if module is not None:
            func.__module__ = module
        return func

    return decorator


def getenv(name: str):
    """Value of environment variable ``name`` (``None`` when unset)."""
    return os.environ.get(name)


def setenv(name: str, value) -> None:
    """Set environment variable ``name`` (``None`` removes it)."""
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = str(value)


def get_gpu_count() -> int:
    """Number of visible CUDA devices."""
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def get_gpu_memory(gpu_dev_id: int) -> tuple[int, int]:
    """``(free, total)`` bytes of GPU ``gpu_dev_id``."""
    from .context import gpu_memory_info

    return gpu_memory_info(gpu_dev_id)


def get_cuda_compute_capability(ctx) -> int:
    """Compute capability of ``ctx``'s GPU as an int (``80`` for 8.0)."""
    from .base import MXNetError

    if ctx.device_type != "gpu":
        raise ValueError(f"Expecting a gpu context to get cuda compute capability, "
                         f"while received ctx {ctx}")
    if not torch.cuda.is_available():
        raise MXNetError("get_cuda_compute_capability: CUDA is not available")
    major, minor = torch.cuda.get_device_capability(ctx.device_id)
    return major * 10 + minor
