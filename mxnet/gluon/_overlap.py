"""Start the reduction of each gradient while backward is still running (``dist_sync``).

MXNet's engine starts a key's push as soon as its gradient is written, so communication
overlaps the rest of backward. Here every trainable parameter's gradient buffer gets a
callback (``NDArray._on_grad``, called by autograd right after it writes the buffer). One
round of steps records the order in which backward produces the gradients; rank 0's order
(keys never produced appended) is broadcast, and from then on each key's reduction starts as
soon as it and every key before it in that order are ready. All workers thus issue the same
collectives in the same order whatever the timing, and a key whose gradient never arrives
(an unused parameter) is started at ``step``, still in that order.

A key written twice before ``step`` (two ``backward`` calls with ``grad_req='write'``) makes
the round fall back to the plain reduction of the final gradients. ``MXNET_KVSTORE_OVERLAP=0``
turns the mechanism off.
"""

from __future__ import annotations

import os

import torch

from ..base import MXNetError

__all__ = ["GradOverlap", "overlap_possible"]


def overlap_possible(trainer) -> bool:
    """Whether ``trainer``'s store and parameters allow overlapped reduction."""
    from ..kvstore.kvstore import KVStore

    if os.environ.get("MXNET_KVSTORE_OVERLAP", "1") in ("0", "false", "False"):
        return False
    kv = trainer._kvstore
    if not isinstance(kv, KVStore) or getattr(kv, "_group", None) is None:
        return False
    if kv._compression is not None or "async" in kv.type:
        return False
    return not (trainer._contains_sparse_weight or trainer._contains_sparse_grad)


class GradOverlap:
    """Overlapped ``dist_sync`` reduction of one trainer's gradients."""

    def __init__(self, trainer):
        self.trainer = trainer
        self.kv = trainer._kvstore
        self.keys: list[int] = []
        self._arrays: dict[int, object] = {}
        self._bufs: dict[int, torch.Tensor] = {}
        self._install()

    def _live(self) -> list[tuple[int, object]]:
        out = []
        for i, p in enumerate(self.trainer._params):
            if p.grad_req == "null":
                continue
            if (p.grad_req != "write" or p._data is None or len(p._data) != 1
                    or p._stype != "default"):
                return []  # several devices or accumulation: the plain path
            out.append((i, p))
        return out

    def _install(self) -> None:
        live = self._live()
        self.keys = [i for i, _ in sorted(live, key=lambda kp: -kp[0])]
        self.active = False  # the first round only records the order of the gradients
        self._seen: list[int] = []
        self._arrays = {}
        for i, p in live:
            arr = p._data[0]
            arr._on_grad = self._make_cb(i)
            self._arrays[i] = arr
        self._reset()

    def _make_cb(self, key: int):
        def ready() -> None:
            self._ready(key)

        return ready

    def _reset(self) -> None:
        self._ready_keys: set[int] = set()
        self._next = 0
        self._pending: dict[int, object] = {}
        self._dirty = False

    def _ready(self, key: int) -> None:
        if not self.active:
            if key not in self._seen:
                self._seen.append(key)
            return
        if key in self._ready_keys:
            self._dirty = True  # written again before step: reduce the final values later
            return
        self._ready_keys.add(key)
        if self._dirty:
            return
        while self._next < len(self.keys) and self.keys[self._next] in self._ready_keys:
            self._start(self.keys[self._next])
            self._next += 1

    def _start(self, key: int) -> None:
        src = self.trainer._params[key]._grad[0]._t.detach()
        group = self.kv._group
        if not (group.can_pipeline(src) and src.is_contiguous()):
            self._pending[key] = None  # reduced by the plain path in finish()
            return
        buf = self._bufs.get(key)
        if buf is None or buf.shape != src.shape or buf.dtype != src.dtype:
            buf = self._bufs[key] = torch.empty_like(src)
        self._pending[key] = group.start_allreduce(src, buf, f"push of key {key}")

    def usable(self) -> bool:
        """Whether the installed callbacks still match the trainer's parameters."""
        live = self._live()
        if not live:
            return False
        if sorted(i for i, _ in live) != sorted(self.keys):
            return False
        return all(p._data[0] is self._arrays.get(i) for i, p in live)

    def establish(self) -> None:
        """After the recording round: adopt rank 0's order of the gradients."""
        order = self._seen + [k for k in self.keys if k not in self._seen]
        t = torch.tensor(order, dtype=torch.int64)
        self.kv._group.broadcast(t, "order of the gradient reductions")
        if sorted(t.tolist()) != sorted(self.keys):
            raise MXNetError("KVStore 'dist_sync': workers train different parameter sets "
                             f"(rank 0: keys {sorted(t.tolist())}, here: {sorted(self.keys)})")
        self.keys = t.tolist()
        self.active = True
        self._reset()

    def finish(self) -> None:
        """Complete this round: start what backward did not, wait, deliver the results."""
        from ..ndarray.ndarray import NDArray

        trainer, kv = self.trainer, self.kv
        try:
            if not self._dirty:
                while self._next < len(self.keys):
                    self._start(self.keys[self._next])
                    self._next += 1
            for key in self.keys:
                works = self._pending.pop(key, None)
                if works is not None:
                    kv._group.finish(works, f"push of key {key}")
                grad = trainer._params[key]._grad[0]
                if works is None or self._dirty:
                    kv._push(key, [grad])  # the final gradient, reduced the plain way
                    continue
                stored, buf = kv._stored(key), self._bufs[key]
                if kv._updater is not None:
                    kv._updater(key, NDArray._wrap(buf, stored.context), stored)
                else:
                    stored._t.copy_(buf)
            for key in self.keys:
                p = trainer._params[key]
                out = p._data if trainer._update_on_kvstore else p._grad
                kv.pull(key, out=out[0], priority=-key)
        finally:
            self._reset()


