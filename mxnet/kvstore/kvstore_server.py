"""``KVStoreServer``: the parameter-server process of ``dist_async`` jobs.

A server owns shards of the keys (see :mod:`mxnet.kvstore._ps`), applies each push as soon
as it arrives (through the optimizer that rank 0 sends with ``set_optimizer``, else by
storing the pushed value) and answers pulls with its current values. It exits when every
worker that connected has disconnected, when the job turns out to be ``dist_sync`` (whose
workers reduce among themselves), or with an error when no worker arrives within
``MXNET_KVSTORE_TIMEOUT`` seconds.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time

from ..base import MXNetError
from . import _ps

__all__ = ["KVStoreServer"]

_log = logging.getLogger("mxnet.kvstore_server")


class _State:
    """The values, optimizer and connection counts of one server."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.values: dict = {}
        self.updater = None
        self.controller = None
        self.connected = 0
        self.closed = 0


class KVStoreServer:
    """Serve the keys of a ``dist_async`` job (``DMLC_*`` variables describe the job).

    Parameters
    ----------
    kvstore : KVStore or None
        Kept for MXNet's interface; the server keeps its own state.

    Examples
    --------
    >>> server = mx.kv.KVStoreServer(None)   # doctest: +SKIP
    >>> server.run()                          # blocks until the workers finish
    """

    def __init__(self, kvstore=None):
        self.kvstore = kvstore
        self.handle = None
        self.init_logginig = False
        self._state = _State()

    def _controller(self):
        """``controller(head, body)``: head 0 sets the optimizer (a pickle), others log."""
        def server_controller(cmd_id, cmd_body, _=None):
            if cmd_id == 0:
                from .. import _safe_pickle
                from .. import optimizer as opt

                optimizer = _safe_pickle.loads(bytes(cmd_body), "optimizer sent to the server")
                self._state.updater = opt.get_updater(optimizer)
            else:
                _log.info("server: unknown command (%d, %d bytes)", cmd_id, len(cmd_body))

        return server_controller

    # -- requests ------------------------------------------------------------------------
    def _handle(self, header: dict, payload) -> tuple[dict, object]:
        from ..context import Context
        from ..ndarray import NDArray

        st, op = self._state, header.get("op")
        if op == "hello":
            return {"ok": True, "pid": os.getpid()}, b""
        if op == "command":
            with st.lock:
                self._controller()(header["head"], payload)
            return {"ok": True}, b""
        key = header["key"]
        if op == "init":
            with st.lock:
                if key in st.values:
                    return {"ok": False, "error": f"duplicate init of key {key}"}, b""
                st.values[key] = _ps.bytes_tensor(payload, header["dtype"], header["shape"])
            return {"ok": True}, b""
        with st.lock:
            stored = st.values.get(key)
            if stored is None:
                return {"ok": False, "error": f"key {key} has not been inited"}, b""
            if op == "pull":
                return ({"ok": True, "dtype": _ps.dtype_name(stored),
                         "shape": list(stored.shape)}, _ps.tensor_bytes(stored))
            if op != "push":
                return {"ok": False, "error": f"unknown request {op!r}"}, b""
            grad = _ps.bytes_tensor(payload, header["dtype"], header["shape"])
            if tuple(grad.shape) != tuple(stored.shape):
                return {"ok": False, "error": f"push of key {key}: shape {list(grad.shape)} "
                        f"does not match the stored {list(stored.shape)}"}, b""
            if st.updater is not None:
                cpu = Context("cpu", 0)
                st.updater(key, NDArray._wrap(grad.to(stored.dtype), cpu),
                           NDArray._wrap(stored, cpu))
            else:
                stored.copy_(grad)
        return {"ok": True}, b""

    def _serve_conn(self, conn: socket.socket) -> None:
        st = self._state
        try:
            conn.settimeout(None)  # workers may compute for long between requests
            while True:
                header, payload = _ps.recv_msg(conn)
                try:
                    answer, data = self._handle(header, payload)
                except Exception as e:  # noqa: BLE001 - report to the worker, keep serving
                    answer, data = {"ok": False, "error": f"server: {type(e).__name__}: {e}"}, b""
                _ps.send_msg(conn, answer, data)
        except (OSError, ConnectionError, ValueError):
            pass
        finally:
            conn.close()
            with st.lock:
                st.closed += 1

    # -- main loop -------------------------------------------------------------------------
    def run(self) -> None:
        """Serve until the workers are done (see the module docstring)."""
        self._serve(_ps.env_int("DMLC_SERVER_ID", default=0), _ps.env_int("DMLC_NUM_WORKER"),
                    os.getenv("DMLC_PS_ROOT_URI", "127.0.0.1"), _ps.env_int("DMLC_PS_ROOT_PORT"),
                    _ps.kv_timeout())

    def _serve(self, sid: int, num_workers: int, root: str, port: int, timeout: float) -> None:
        loopback = root in ("localhost", "::1") or root.startswith("127.")
        try:
            store = _ps.open_store(root, port, sid == 0, timeout)
        except Exception as e:  # noqa: BLE001
            raise MXNetError(f"KVStoreServer {sid}: cannot reach the rendezvous at "
                             f"{root}:{port} within {timeout:.0f}s: {e}") from None
        lsock = socket.socket()
        lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        lsock.bind(("127.0.0.1" if loopback else "0.0.0.0", 0))
        lsock.listen(64)
        lsock.settimeout(0.2)
        host = "127.0.0.1" if loopback else (os.getenv("DMLC_NODE_HOST")
                                            or socket.gethostbyname(socket.gethostname()))
        store.set(f"mxnet_ps/server/{sid}", f"{host}:{lsock.getsockname()[1]}")
        _log.info("server %d listening on %s:%d", sid, host, lsock.getsockname()[1])
        self._loop(lsock, store, sid, num_workers, timeout)

    def _loop(self, lsock, store, sid: int, num_workers: int, timeout: float) -> None:
        st, start = self._state, time.time()
        idle_since = None  # when the last connected worker left (some never came)
        threads = []
        try:
            while True:
                if store is not None and not st.connected:
                    try:
                        if store.check([_ps.MODE_KEY]) and store.get(_ps.MODE_KEY) == b"sync":
                            _log.info("server %d: dist_sync job, no server needed", sid)
                            return
                    except Exception:  # noqa: BLE001 - rendezvous host gone
                        store = None
                with st.lock:
                    done = st.connected >= num_workers and st.closed >= st.connected
                    idle = st.connected and st.closed >= st.connected
                if idle and store is None:
                    done = True
                idle_since = (idle_since or time.time()) if idle else None
                if idle_since is not None and time.time() - idle_since > timeout:
                    _log.warning("server %d: %d of %d workers came and all left; exiting",
                                 sid, st.connected, num_workers)
                    done = True
                if done:
                    return
                if not st.connected and time.time() - start > timeout:
                    raise MXNetError(f"KVStoreServer {sid}: no worker connected within "
                                     f"{timeout:.0f}s (MXNET_KVSTORE_TIMEOUT)")
                try:
                    conn, _ = lsock.accept()
                except TimeoutError:
                    continue
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                with st.lock:
                    st.connected += 1
                t = threading.Thread(target=self._serve_conn, args=(conn,), daemon=True)
                t.start()
                threads.append(t)
        finally:
            lsock.close()
            for t in threads:
                t.join(timeout=1)


def _init_kvstore_server_module() -> None:
    """Run a server, then exit, when this process has ``DMLC_ROLE=server`` (MXNet runs this
    at ``import mxnet``, so that any script started as a server serves)."""
    if os.getenv("DMLC_ROLE") == "server":
        logging.basicConfig(level=logging.INFO if os.getenv("PS_VERBOSE") else logging.WARNING)
        KVStoreServer(None).run()
        sys.exit(0)
