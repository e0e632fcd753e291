"""Device contexts: ``mx.cpu(i)``, ``mx.gpu(i)`` and the default-context stack."""

from __future__ import annotations

import threading
import warnings

import torch

from .base import MXNetError

__all__ = ["Context", "cpu", "gpu", "cpu_pinned", "current_context", "num_gpus", "gpu_memory_info"]


class _ClassProperty:
    """A property on the class itself (MXNet's ``classproperty``), settable with a setter."""

    def __init__(self, fget, fset=None):
        self.fget = fget
        self.fset = fset
        self.__doc__ = fget.__doc__

    def __get__(self, obj, cls=None):
        return self.fget(cls if cls is not None else type(obj))

    def __set__(self, obj, value):
        if self.fset is None:
            raise MXNetError(f"cannot use the setter: {getattr(obj, '__name__', obj)} to set "
                             "attribute")
        self.fset(obj if isinstance(obj, type) else type(obj), value)

    def setter(self, fset):
        self.fset = fset
        return self


class _ClassPropertyMeta(type):
    """Routes ``Cls.attr = value`` to a :class:`_ClassProperty`'s setter (as MXNet does)."""

    def __setattr__(cls, key, value):
        prop = cls.__dict__.get(key)
        if isinstance(prop, _ClassProperty):
            prop.__set__(cls, value)
            return
        super().__setattr__(key, value)


def _check_gpu(device_id: int) -> None:
    """MXNet's error (an ``MXNetError``, which scripts catch to fall back to the CPU) for a
    GPU context on a machine without one."""
    from .base import MXNetError

    if not torch.cuda.is_available():
        raise MXNetError("GPU is not enabled: no CUDA device is available to PyTorch (an "
                         "NVIDIA GPU and a CUDA build of torch are needed for mx.gpu())")
    if device_id >= torch.cuda.device_count():
        raise MXNetError(f"CUDA: invalid device ordinal: gpu({device_id}) requested, "
                         f"{torch.cuda.device_count()} GPU(s) present")


class Context(metaclass=_ClassPropertyMeta):
    """A device on which arrays live and operators run.

    ``cpu(i)`` for any ``i`` is host memory (distinct contexts, so multi-device code runs
    without GPUs); ``gpu(i)`` is CUDA device ``i``.

    Examples
    --------
    >>> import mxnet as mx
    >>> with mx.Context('cpu', 1):
    ...     print(mx.current_context())
    cpu(1)
    """

    _default_ctx = threading.local()
    devtype2str = {1: "cpu", 2: "gpu", 3: "cpu_pinned", 5: "cpu_shared"}
    devstr2type = {"cpu": 1, "gpu": 2, "cpu_pinned": 3, "cpu_shared": 5}
    __slots__ = ("device_typeid", "device_id", "_old_ctx", "_torch_device")

    def __init__(self, device_type, device_id: int = 0):
        if isinstance(device_type, Context):
            self.device_typeid = device_type.device_typeid
            self.device_id = device_type.device_id
        else:
            if device_type not in Context.devstr2type:  # MXNet raises KeyError here
                raise KeyError(f"Invalid device type '{device_type}': expected one of "
                               f"{sorted(Context.devstr2type)}")
            self.device_typeid = Context.devstr2type[device_type]
            self.device_id = int(device_id)
        self._old_ctx = None
        self._torch_device = None

    @property
    def device_type(self) -> str:
        return Context.devtype2str[self.device_typeid]

    @property
    def torch_device(self) -> torch.device:
        """The torch device that holds this context's memory."""
        dev = self._torch_device
        if dev is None:
            if self.device_typeid == 2:
                _check_gpu(self.device_id)
                dev = torch.device("cuda", self.device_id)
            else:
                dev = torch.device("cpu")
            self._torch_device = dev
        return dev

    def __hash__(self):
        return hash((self.device_typeid, self.device_id))

    def __eq__(self, other):
        return (isinstance(other, Context) and self.device_typeid == other.device_typeid
                and self.device_id == other.device_id)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __str__(self):
        return f"{self.device_type}({self.device_id})"

    __repr__ = __str__

    def __enter__(self):
        if not hasattr(Context._default_ctx, "value"):
            Context._default_ctx.value = Context("cpu", 0)
        stack = getattr(Context._default_ctx, "stack", None)
        if stack is None:
            stack = Context._default_ctx.stack = []
        stack.append(Context._default_ctx.value)  # a stack, so nesting the same ctx works
        Context._default_ctx.value = self
        return self

    def __exit__(self, ptype, value, trace):
        Context._default_ctx.value = Context._default_ctx.stack.pop()

    def __reduce__(self):
        return (Context, (self.device_type, self.device_id))

    def empty_cache(self):
        """Release cached GPU memory held by the allocator (no-op on CPU)."""
        if self.device_typeid == 2 and torch.cuda.is_available():
            with torch.cuda.device(self.device_id):
                torch.cuda.empty_cache()

    @_ClassProperty
    def default_ctx(cls):
        """The current thread's default context (a class-level property, as in MXNet 1.9).

        Assigning ``Context.default_ctx = ctx`` sets it for the current thread only.
        """
        if not hasattr(cls._default_ctx, "value"):
            cls._default_ctx.value = Context("cpu", 0)
        return cls._default_ctx.value

    @default_ctx.setter
    def default_ctx(cls, val):
        warnings.warn("Context.default_ctx has been deprecated. Please use "
                      "Context.current_context() instead. Please use "
                      "test_utils.set_default_context to set a default context",
                      DeprecationWarning, stacklevel=3)
        cls._default_ctx.value = val


def cpu(device_id: int = 0) -> Context:
    """Return a CPU context. ``cpu(0)`` and ``cpu(1)`` are distinct contexts on host memory.

    Examples
    --------
    >>> mx.cpu(1)
    cpu(1)
    """
    return Context("cpu", device_id)


def cpu_pinned(device_id: int = 0) -> Context:
    """Return a CPU pinned-memory context."""
    return Context("cpu_pinned", device_id)


def gpu(device_id: int = 0) -> Context:
    """Return a GPU context (CUDA device ``device_id``).

    Examples
    --------
    >>> mx.gpu(1)
    gpu(1)
    """
    return Context("gpu", device_id)


def num_gpus() -> int:
    """Number of visible CUDA devices."""
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def gpu_memory_info(device_id: int = 0) -> tuple[int, int]:
    """Return ``(free, total)`` bytes of GPU ``device_id``."""
    if device_id < 0 or device_id >= num_gpus():
        raise MXNetError(f"gpu_memory_info: invalid GPU device id {device_id} "
                         f"({num_gpus()} GPUs visible)")
    free, total = torch.cuda.mem_get_info(device_id)
    return free, total


def current_context() -> Context:
    """Return the current default context (``cpu(0)`` unless changed with ``with ctx:``)."""
    return Context.default_ctx
