"""Parameter-server plumbing of ``dist_async``: wire format, key sharding, the worker client.

Servers (``python -m mxnet.kvstore_server``, or any process with ``DMLC_ROLE=server``)
publish their data address in a ``torch.distributed.TCPStore`` hosted by server 0 at
``DMLC_PS_ROOT_URI:DMLC_PS_ROOT_PORT`` (the role of MXNet's scheduler). Workers read the
addresses there, then talk to every server over one TCP connection each. A message is a
fixed 12-byte prefix (header length, payload length), a JSON header and raw tensor bytes.

Keys smaller than ``MXNET_KVSTORE_BIGARRAY_BOUND`` elements (default 1000000) live on one
server (chosen by a stable hash of the key); larger arrays are split into equal flat ranges,
one per server. Every socket operation and store look-up is bounded by
``MXNET_KVSTORE_TIMEOUT`` seconds.
"""

from __future__ import annotations

import datetime
import json
import os
import socket
import struct
import threading
import zlib

import torch

from ..base import MXNetError

__all__ = ["PSClient", "env_int", "kv_timeout", "shards"]

_PREFIX = struct.Struct("!IQ")
_MAX_HEADER = 1 << 20
MODE_KEY = "mxnet_ps/mode"


def kv_timeout() -> float:
    """``MXNET_KVSTORE_TIMEOUT`` in seconds (default 300)."""
    return float(os.getenv("MXNET_KVSTORE_TIMEOUT", "300"))


def env_int(*names: str, default: int | None = None) -> int:
    """The first of ``names`` set in the environment, as an int."""
    for n in names:
        if os.getenv(n, "") != "":
            return int(os.environ[n])
    if default is None:
        raise MXNetError(f"KVStore 'dist_async': none of {', '.join(names)} is set; start the "
                         "job with 'python -m mxnet.tools.launch -n WORKERS -s SERVERS ...'")
    return default


def open_store(host: str, port: int, is_master: bool, timeout: float):
    """The rendezvous store (server 0 hosts it)."""
    from torch.distributed import TCPStore

    return TCPStore(host, port, None, is_master, datetime.timedelta(seconds=timeout),
                    wait_for_workers=False)


def shards(key, numel: int, num_servers: int) -> list[tuple[int, int, int]]:
    """``[(server, start, stop), ...]``: the flat element ranges of ``key`` per server."""
    bound = int(os.getenv("MXNET_KVSTORE_BIGARRAY_BOUND", "1000000"))
    if num_servers == 1 or numel < bound:
        return [(zlib.crc32(repr(key).encode()) % num_servers, 0, numel)]
    return [(i, numel * i // num_servers, numel * (i + 1) // num_servers)
            for i in range(num_servers)]


# -- wire format ---------------------------------------------------------------------------
def tensor_bytes(t: torch.Tensor) -> memoryview:
    t = t.detach().cpu().contiguous().reshape(-1)
    return memoryview(t.view(torch.uint8).numpy()) if t.numel() else memoryview(b"")


def bytes_tensor(buf, dtype: str, shape) -> torch.Tensor:
    dt = getattr(torch, dtype)
    if not buf:
        return torch.zeros(shape, dtype=dt)
    return torch.frombuffer(buf, dtype=torch.uint8).view(dt).reshape(shape).clone()


def dtype_name(t: torch.Tensor) -> str:
    return str(t.dtype).replace("torch.", "")


def send_msg(sock: socket.socket, header: dict, payload=b"") -> None:
    h = json.dumps(header).encode()
    sock.sendall(_PREFIX.pack(len(h), len(payload)) + h)
    if len(payload):
        sock.sendall(payload)


def _recv_exact(sock: socket.socket, n: int) -> bytearray:
    buf = bytearray(n)
    view, got = memoryview(buf), 0
    while got < n:
        k = sock.recv_into(view[got:], n - got)
        if k == 0:
            raise ConnectionError("connection closed by peer")
        got += k
    return buf


def recv_msg(sock: socket.socket) -> tuple[dict, bytearray]:
    hl, pl = _PREFIX.unpack(_recv_exact(sock, _PREFIX.size))
    if hl > _MAX_HEADER:
        raise ConnectionError(f"malformed message (header of {hl} bytes)")
    header = json.loads(_recv_exact(sock, hl))
    return header, (_recv_exact(sock, pl) if pl else bytearray())


# -- worker side ---------------------------------------------------------------------------
class PSClient:
    """A worker's connections to the servers of a ``dist_async`` job."""

    _created = 0  # stores made by this process: every worker makes them in the same order

    def __init__(self, kv_type: str = "dist_async"):
        PSClient._created += 1
        self._id = PSClient._created
        self.kv_type = kv_type
        self.timeout = kv_timeout()
        self.rank = env_int("DMLC_WORKER_ID", "RANK")
        self.num_workers = env_int("DMLC_NUM_WORKER", "WORLD_SIZE")
        self.num_servers = env_int("DMLC_NUM_SERVER", default=0)
        if self.num_servers < 1:
            raise MXNetError(f"KVStore '{kv_type}' needs parameter servers, but "
                             "DMLC_NUM_SERVER is 0: launch with 'python -m mxnet.tools.launch "
                             "-n WORKERS -s SERVERS ...' (or use 'dist_sync', which needs none)")
        host = os.getenv("DMLC_PS_ROOT_URI") or os.getenv("MASTER_ADDR")
        if not host:
            raise MXNetError(f"KVStore '{kv_type}': DMLC_PS_ROOT_URI is not set")
        port = env_int("DMLC_PS_ROOT_PORT")
        self._lock = threading.Lock()
        self._barriers = 0
        try:
            self.store = open_store(host, port, False, self.timeout)
            if self.rank == 0:
                self.store.set(MODE_KEY, "async")
            addrs = [self.store.get(f"mxnet_ps/server/{i}").decode()
                     for i in range(self.num_servers)]
        except Exception as e:  # noqa: BLE001 - rendezvous failures of any kind
            raise MXNetError(f"KVStore '{kv_type}': finding the {self.num_servers} server(s) "
                             f"at {host}:{port} failed within {self.timeout:.0f}s: {e}") from None
        self.addrs = addrs
        self.socks: list[socket.socket] = []
        for i, addr in enumerate(addrs):
            h, _, p = addr.rpartition(":")
            try:
                s = socket.create_connection((h, int(p)), timeout=self.timeout)
            except OSError as e:
                self.close()
                raise MXNetError(f"KVStore '{kv_type}': cannot connect to server {i} at {addr}: "
                                 f"{e}") from None
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.socks.append(s)
        hello = self._call([(i, {"op": "hello", "rank": self.rank}, b"")
                            for i in range(len(addrs))], "connection")
        self.server_pids = [h.get("pid") for h, _ in hello]

    def close(self) -> None:
        for s in self.socks:
            try:
                s.close()
            except OSError:
                pass
        self.socks = []

    def _call(self, requests, what: str) -> list[tuple[dict, bytearray]]:
        """Send every ``(server, header, payload)`` then read one answer each, in order."""
        if not self.socks and requests:
            raise MXNetError(f"KVStore '{self.kv_type}': {what} after the connections to the "
                             "servers were closed (by an earlier failure)")
        with self._lock:
            answers, srv = [], 0
            try:
                for srv, header, payload in requests:
                    send_msg(self.socks[srv], header, payload)
                for srv, _, _ in requests:
                    answers.append(recv_msg(self.socks[srv]))
            except (OSError, ConnectionError, ValueError) as e:
                self.close()  # answers may be half read: no later request may reuse them
                raise MXNetError(
                    f"KVStore '{self.kv_type}': {what} failed: server {srv} at "
                    f"{self.addrs[srv]} is gone or did not answer within {self.timeout:.0f}s "
                    f"(MXNET_KVSTORE_TIMEOUT): {type(e).__name__}: {e}") from None
        for header, _ in answers:
            if not header.get("ok"):
                raise MXNetError(header.get("error", f"{what} failed on a server"))
        return answers

    def _requests(self, op: str, key, t: torch.Tensor | None, numel: int, shape, dtype):
        flat = t.detach().reshape(-1) if t is not None else None
        reqs = []
        for srv, start, stop in shards(key, numel, self.num_servers):
            whole = start == 0 and stop == numel
            header = {"op": op, "key": key, "dtype": dtype,
                      "shape": list(shape) if whole else [stop - start]}
            payload = tensor_bytes(flat[start:stop]) if flat is not None else b""
            reqs.append((srv, header, payload))
        return reqs

    def init(self, key, t: torch.Tensor) -> None:
        """Store the initial value (rank 0 sends it; the others wait at a barrier)."""
        if self.rank == 0:
            self._call(self._requests("init", key, t, t.numel(), t.shape, dtype_name(t)),
                       f"init of key {key}")
        self.barrier()

    def push(self, key, t: torch.Tensor) -> None:
        """Send a gradient (or value); servers apply it as soon as it arrives."""
        self._call(self._requests("push", key, t, t.numel(), t.shape, dtype_name(t)),
                   f"push of key {key}")

    def pull(self, key, like: torch.Tensor) -> torch.Tensor:
        """The servers' current value of ``key`` (shape and dtype of ``like``)."""
        reqs = self._requests("pull", key, None, like.numel(), like.shape, dtype_name(like))
        parts = [bytes_tensor(p, h["dtype"], h["shape"]).reshape(-1)
                 for h, p in self._call(reqs, f"pull of key {key}")]
        out = parts[0] if len(parts) == 1 else torch.cat(parts)
        return out.reshape(like.shape)

    def command(self, head: int, body: bytes) -> None:
        """Send a command to every server (head 0: a pickled optimizer), then barrier."""
        if self.rank == 0:
            self._call([(i, {"op": "command", "head": int(head)}, body)
                        for i in range(self.num_servers)], "sending a command to the servers")
        self.barrier()

    def barrier(self) -> None:
        """Wait until every worker reaches the same barrier (bounded by the timeout)."""
        self._barriers += 1
        key = f"mxnet_ps/barrier/{self._id}/{self._barriers}"
        try:
            if self.store.add(key, 1) == self.num_workers:
                self.store.set(key + "/done", "1")
            self.store.wait([key + "/done"], datetime.timedelta(seconds=self.timeout))
        except Exception as e:  # noqa: BLE001 - store timeouts/disconnects
            raise MXNetError(f"KVStore '{self.kv_type}': barrier failed (a worker may have died "
                             f"or timed out after {self.timeout:.0f}s): {e}") from None


def release_servers(timeout: float = 10.0) -> None:
    """Tell the servers of a ``dist_sync`` job that they are not needed (best effort)."""
    host = os.getenv("DMLC_PS_ROOT_URI")
    port = os.getenv("DMLC_PS_ROOT_PORT")
    if not host or not port:
        return
    try:
        open_store(host, int(port), False, timeout).set(MODE_KEY, "sync")
    except Exception:  # noqa: BLE001 - servers gone already: nothing to release
        pass
