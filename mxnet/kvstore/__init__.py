"""Key-value stores for data-parallel and distributed training (``mx.kv``)."""

from .base import KVStoreBase, TestStore, create
from .kvstore import KVStore
from .kvstore_server import KVStoreServer

__all__ = ["KVStore", "KVStoreBase", "KVStoreServer", "TestStore", "create"]
