"""``KVStoreBase`` (the interface and registry of store classes) and ``create``."""

from __future__ import annotations

import warnings

from ..base import MXNetError, abstract
from ..ndarray import NDArray

__all__ = ["create", "KVStoreBase"]

_BUILTIN = ("local", "local_update_cpu", "local_allreduce_cpu", "local_allreduce_device",
            "device", "nccl", "dist_sync", "dist_device_sync", "dist_sync_device", "dist_async",
            "dist", "horovod", "byteps")


class KVStoreBase:
    """Interface of key-value stores; subclasses registered with :meth:`register` can be
    created by (lower-cased) class name.

    Examples
    --------
    >>> @mx.kv.KVStoreBase.register
    ... class MyStore(mx.kv.KVStoreBase):
    ...     pass
    """

    OPTIMIZER = "optimizer"
    kv_registry: dict = {}

    def broadcast(self, key, value, out, priority=0):
        raise abstract(self, "broadcast")

    def pushpull(self, key, value, out=None, priority=0):
        raise abstract(self, "pushpull")

    def set_optimizer(self, optimizer):
        raise abstract(self, "set_optimizer")

    def is_capable(self, capability):
        raise abstract(self, "is_capable")

    def save_optimizer_states(self, fname, dump_optimizer=False):
        raise abstract(self, "save_optimizer_states")

    def load_optimizer_states(self, fname):
        raise abstract(self, "load_optimizer_states")

    @property
    def type(self):
        raise abstract(self, "type")

    @property
    def rank(self):
        raise abstract(self, "rank")

    @property
    def num_workers(self):
        raise abstract(self, "num_workers")

    @staticmethod
    def register(klass):
        """Register a store class under its lower-cased name (a decorator)."""
        assert isinstance(klass, type)
        name = klass.__name__.lower()
        if name in KVStoreBase.kv_registry:
            old = KVStoreBase.kv_registry[name]
            warnings.warn(f"WARNING: New kvstore {klass.__module__}.{klass.__name__} is "
                          f"overriding existing kvstore {old.__module__}.{old.__name__}")
        KVStoreBase.kv_registry[name] = klass
        return klass


@KVStoreBase.register
class TestStore(KVStoreBase):
    """A minimal in-process store (MXNet's reference implementation of the interface)."""

    def broadcast(self, key, value, out, priority=0):
        for o in out if isinstance(out, list) else [out]:
            o[:] = value

    def pushpull(self, key, value, out=None, priority=0):
        if isinstance(value, NDArray):
            if out is not None:
                for o in out if isinstance(out, list) else [out]:
                    o[:] = value
            return
        ctx = value[0].context
        reduced = value[0].as_in_context(ctx).copy()
        for v in value[1:]:
            reduced += v.as_in_context(ctx)
        targets = value if out is None else (out if isinstance(out, list) else [out])
        for o in targets:
            o[:] = reduced

    @staticmethod
    def is_capable(capability):
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return False
        raise ValueError(f"Unknown capability: {capability}")

    @property
    def type(self):
        return "teststore"

    @property
    def rank(self):
        return 0

    @property
    def num_workers(self):
        return 1

    def set_optimizer(self, optimizer):
        raise abstract(self, "set_optimizer")

    def save_optimizer_states(self, fname, dump_optimizer=False):
        raise abstract(self, "save_optimizer_states")

    def load_optimizer_states(self, fname):
        raise abstract(self, "load_optimizer_states")


def create(name="local"):
    """Create a key-value store.

    ``local``/``device``/``nccl`` reduce across the contexts of this process;
    ``dist_sync``/``dist_device_sync`` also sum across the worker processes of a
    ``torch.distributed`` group (started by ``torchrun`` or ``mxnet.tools.launch``);
    ``dist_async`` uses parameter servers (``mxnet.tools.launch -s N``).

    Examples
    --------
    >>> kv = mx.kv.create('local')
    >>> kv.type
    'local'
    """
    if not isinstance(name, str):
        raise TypeError("name must be a string")
    name = name.lower()
    if name in KVStoreBase.kv_registry:
        return KVStoreBase.kv_registry[name]()
    if name not in _BUILTIN and "dist" in name:
        # like MXNet, any other name without "dist" is a single-process (local) store
        raise MXNetError(f"Unknown KVStore type '{name}': expected one of {list(_BUILTIN)} or "
                         f"a registered store {sorted(KVStoreBase.kv_registry)}")
    from .kvstore import KVStore

    return KVStore(name)
