"""The worker group of ``dist_sync`` stores: a ``torch.distributed`` process group.

Processes are started by ``torchrun`` (or ``python -m mxnet.tools.launch``), which set
``RANK``, ``WORLD_SIZE``, ``MASTER_ADDR`` and ``MASTER_PORT``; MXNet's own ``DMLC_*``
variables are mapped onto those when present.
"""

from __future__ import annotations

import atexit
import datetime
import os

import torch

from ..base import MXNetError

_DMLC = (("DMLC_PS_ROOT_URI", "MASTER_ADDR"), ("DMLC_NUM_WORKER", "WORLD_SIZE"),
         ("DMLC_WORKER_ID", "RANK"))


def _map_dmlc_env(env) -> None:
    """Fill the ``torchrun`` variables from MXNet's ``DMLC_*`` ones where missing.

    With servers in the job (``DMLC_NUM_SERVER > 0``) server 0 holds ``DMLC_PS_ROOT_PORT``,
    so the workers' group meets at the next port.
    """
    for src, dst in _DMLC:
        if src in env and dst not in env:
            env[dst] = env[src]
    if "DMLC_PS_ROOT_PORT" in env and "MASTER_PORT" not in env:
        servers = int(env.get("DMLC_NUM_SERVER", "0") or 0)
        env["MASTER_PORT"] = str(int(env["DMLC_PS_ROOT_PORT"]) + (1 if servers else 0))


_CHUNK_BYTES = int(os.getenv("MXNET_KVSTORE_CHUNK_BYTES", str(4 << 20)))


def _leave_group() -> None:
    import torch.distributed as dist

    try:
        if dist.is_initialized():
            dist.destroy_process_group()
    except Exception:  # noqa: BLE001 - exiting anyway; a dead peer must not block it
        pass


def _timeout() -> float:
    return float(os.getenv("MXNET_KVSTORE_TIMEOUT", "300"))


class Group:
    """Sum/broadcast/barrier over every worker process (Gloo on CPU, NCCL on GPU)."""

    def __init__(self, kv_type: str):
        import torch.distributed as dist

        self._dist = dist
        self.kv_type = kv_type
        if not dist.is_available():
            raise MXNetError(f"KVStore '{kv_type}' needs torch.distributed, which this torch "
                             "build does not provide")
        if not dist.is_initialized():
            env = os.environ
            _map_dmlc_env(env)
            missing = [k for k in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")
                       if k not in env]
            if missing:
                raise MXNetError(
                    f"KVStore '{kv_type}' needs a torch.distributed worker group, but "
                    f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not set: start "
                    "the script with torchrun or 'python -m mxnet.tools.launch -n N ...'")
            backend = "nccl" if "device" in kv_type and torch.cuda.is_available() else "gloo"
            try:
                dist.init_process_group(backend, init_method="env://",
                                        timeout=datetime.timedelta(seconds=_timeout()))
            except Exception as e:  # noqa: BLE001 - rendezvous failures of any kind
                raise MXNetError(f"KVStore '{kv_type}': joining the worker group failed "
                                 f"within {_timeout():.0f}s: {e}") from None
            # a group left to the interpreter's teardown sometimes aborts the finished
            # process ('terminate called without an active exception', exit code -6)
            atexit.register(_leave_group)
        self.backend = dist.get_backend()
        if self.rank == 0 and int(os.getenv("DMLC_NUM_SERVER", "0") or 0) > 0:
            from ._ps import release_servers

            release_servers()  # servers started for this job are not needed by dist_sync

    @property
    def rank(self) -> int:
        return self._dist.get_rank()

    @property
    def size(self) -> int:
        return self._dist.get_world_size()

    def _failed(self, what: str, e: Exception) -> MXNetError:
        return MXNetError(f"KVStore '{self.kv_type}': {what} failed (a worker may have died or "
                          f"timed out after {_timeout():.0f}s): {e}")

    def _run(self, what, fn, t: torch.Tensor) -> torch.Tensor:
        dev = t.device
        work = t.cpu() if self.backend == "gloo" and dev.type != "cpu" else t
        try:
            fn(work)
        except Exception as e:  # noqa: BLE001 - a dead peer surfaces as RuntimeError/timeout
            raise self._failed(what, e) from None
        if work is not t:
            t.copy_(work.to(dev))
        return t

    def allreduce(self, t: torch.Tensor, what: str = "allreduce") -> torch.Tensor:
        """Sum ``t`` in place across workers (chunked like :meth:`allreduce_into`, so every
        path of the store issues the same sequence of collectives for a key)."""
        if self.can_pipeline(t) and t.is_contiguous():
            self.allreduce_into(t, t, what)
            return t
        dev = "cuda" if self.backend == "nccl" else "cpu"
        work = t.detach().to(dev).contiguous()
        self.allreduce_into(work, work, what)
        t.copy_(work.to(t.device))
        return t

    def can_pipeline(self, t: torch.Tensor) -> bool:
        """Whether :meth:`allreduce_into` can reduce ``t`` where it lies."""
        return t.device.type == ("cuda" if self.backend == "nccl" else "cpu")

    def start_allreduce(self, src: torch.Tensor, dst: torch.Tensor, what: str) -> list:
        """Copy ``src`` into ``dst`` (unless they are one tensor) chunk by chunk, starting an
        asynchronous sum of each chunk (``MXNET_KVSTORE_CHUNK_BYTES``, default 4 MiB) as soon
        as it is in place; :meth:`finish` waits for them."""
        same = src is dst
        flat_src, flat_dst = src.reshape(-1), dst.view(-1)
        step = max(1, _CHUNK_BYTES // max(1, dst.element_size()))
        works = []
        try:
            for a in range(0, flat_dst.numel(), step):
                part = flat_dst[a:a + step]
                if not same:
                    part.copy_(flat_src[a:a + step])
                works.append((a, a + part.numel(),
                              self._dist.all_reduce(part, async_op=True)))
        except Exception as e:  # noqa: BLE001 - a dead peer surfaces as RuntimeError/timeout
            raise self._failed(what, e) from None
        return works

    def finish(self, works: list, what: str, after=None) -> None:
        """Wait for :meth:`start_allreduce`'s chunks, calling ``after(start, stop)`` on each
        finished one while the later ones are still being reduced."""
        try:
            for a, b, work in works:
                work.wait()
                if after is not None:
                    after(a, b)
        except MXNetError:
            raise
        except Exception as e:  # noqa: BLE001
            raise self._failed(what, e) from None

    chunk_bytes = _CHUNK_BYTES

    def allreduce_one_chunk(self, t: torch.Tensor, what: str) -> bool:
        """Sum ``t`` in place with one blocking collective when it fits one chunk (the same
        collective :meth:`start_allreduce` would issue); False when it does not fit."""
        if t.numel() * t.element_size() > _CHUNK_BYTES:
            return False
        try:
            self._dist.all_reduce(t)
        except Exception as e:  # noqa: BLE001 - a dead peer surfaces as RuntimeError/timeout
            raise self._failed(what, e) from None
        return True

    def allreduce_into(self, src: torch.Tensor, dst: torch.Tensor, what: str,
                       after=None) -> None:
        """``dst[:] =`` the sum of ``src`` over workers (``dst`` may be ``src``); see
        :meth:`start_allreduce` and :meth:`finish`."""
        self.finish(self.start_allreduce(src, dst, what), what, after)

    def broadcast(self, t: torch.Tensor, what: str = "broadcast") -> torch.Tensor:
        """Overwrite ``t`` with rank 0's value."""
        return self._run(what, lambda x: self._dist.broadcast(x, src=0), t)

    def barrier(self) -> None:
        try:
            self._dist.barrier()
        except Exception as e:  # noqa: BLE001
            raise MXNetError(f"KVStore '{self.kv_type}': barrier failed: {e}") from None
