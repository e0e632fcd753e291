"""Compatibility path ``mxnet.kvstore_server`` (see :mod:`mxnet.kvstore.kvstore_server`)."""

from .kvstore.kvstore_server import KVStoreServer

__all__ = ["KVStoreServer"]
