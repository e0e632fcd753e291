"""``KVStoreServer``: kept for scripts that start MXNet parameter servers.

``dist_sync`` stores here reduce among the workers over ``torch.distributed``: no server
process is needed, so :meth:`KVStoreServer.run` only logs and returns.
"""

from __future__ import annotations

import logging
import pickle

__all__ = ["KVStoreServer"]


class KVStoreServer:
    """The server side of a store; ``run()`` returns at once (no servers are used).

    Examples
    --------
    >>> server = mx.kv.KVStoreServer(mx.kv.create('local'))
    """

    def __init__(self, kvstore):
        self.kvstore = kvstore
        self.handle = None
        self.init_logginig = False

    def _controller(self):
        def server_controller(cmd_id, cmd_body, _):
            if cmd_id == 0:
                self.kvstore.set_optimizer(pickle.loads(cmd_body))
            else:
                logging.info("server %d, unknown command (%d, %s)", self.kvstore.rank, cmd_id,
                             cmd_body)

        return server_controller

    def run(self):
        logging.info("KVStoreServer: no parameter server is needed (dist_sync reduces among "
                     "the workers over torch.distributed); returning")
