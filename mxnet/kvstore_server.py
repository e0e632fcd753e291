"""``python -m mxnet.kvstore_server``: run a ``dist_async`` parameter server.

The job is described by MXNet's ``DMLC_*`` variables (``DMLC_ROLE=server``,
``DMLC_SERVER_ID``, ``DMLC_NUM_SERVER``, ``DMLC_NUM_WORKER``, ``DMLC_PS_ROOT_URI``,
``DMLC_PS_ROOT_PORT``), as set by ``python -m mxnet.tools.launch -s N``.
"""

from .kvstore.kvstore_server import KVStoreServer, _init_kvstore_server_module

__all__ = ["KVStoreServer"]

if __name__ == "__main__":
    _init_kvstore_server_module()
