"""The key-value store used for data-parallel training (``mx.kv.create``).

Values pushed for one key (one per device) are summed; with an optimizer set
(``set_optimizer``) the sum is applied to the stored weight as a gradient, otherwise it
replaces the stored value. ``dist_sync`` stores also sum across worker processes
(:mod:`._dist`); ``dist_async`` stores send pushes to parameter servers and pull their
latest values (:mod:`._ps`). See the :mod:`mxnet.kvstore` docstring for running jobs.
"""

from __future__ import annotations

import os
import pickle

import torch

from .. import optimizer as opt
from ..base import MXNetError
from ..ndarray import NDArray
from .base import KVStoreBase

__all__ = ["KVStore"]

_DIST_UNSUPPORTED = {
    "horovod": "Horovod is not available; use 'dist_sync' (torch.distributed allreduce)",
    "byteps": "BytePS is not available; use 'dist_sync' (torch.distributed allreduce)",
}


_LAZY_CLONE = getattr(torch, "_lazy_clone", None)


def _shared_copy(t: torch.Tensor) -> torch.Tensor:
    """A copy of ``t`` that moves no bytes until one side is written (torch's copy-on-write
    clone: the side written first gets its own memory); a plain clone where torch lacks it."""
    return _LAZY_CLONE(t) if _LAZY_CLONE is not None else t.clone()


def _shape_str(shape) -> str:
    return "[" + ",".join(str(s) for s in shape) + "]"


def _flatten(keys, vals):
    """``[(key, value), ...]`` from MXNet's key/value argument forms."""
    if isinstance(keys, (tuple, list)):
        assert len(keys) == len(vals)
        out, kinds = [], set()
        for k, v in zip(keys, vals):
            part = _flatten(k, v)
            kinds.add(isinstance(k, str))
            out += part
        assert len(kinds) <= 1, "inconsistent types of keys detected."
        return out
    assert isinstance(keys, (int, str)), "unexpected type for keys: " + str(type(keys))
    if isinstance(vals, NDArray):
        return [(keys, vals)]
    for v in vals:
        assert isinstance(v, NDArray)
    return [(keys, v) for v in vals]


def _grouped(pairs):
    """Values grouped by key, keys in first-seen order."""
    groups: dict = {}
    for k, v in pairs:
        groups.setdefault(k, []).append(v)
    return groups


def _updater_grad(merged: torch.Tensor, vals, ctx) -> NDArray:
    """The reduced gradient the store's optimizer sees: row_sparse (the union of the pushed
    rows) when the pushed values are row_sparse, so lazy updates touch only those rows."""
    if not vals or any(getattr(v, "stype", "default") != "row_sparse" for v in vals):
        return NDArray._wrap(merged, ctx)
    from ..ndarray import sparse

    rows = torch.unique(torch.cat([v.indices._t.to(merged.device).long() for v in vals]))
    data = NDArray._wrap(merged[rows], ctx)
    return sparse.row_sparse_array(
        (data, NDArray._wrap(rows, ctx)), shape=tuple(merged.shape), ctx=ctx
    )


class KVStore(KVStoreBase):
    """A key-value store of one process (``local``, ``device``, ``nccl``), of a group of
    worker processes (``dist_sync``, ``dist_device_sync``) or of workers and parameter
    servers (``dist_async``).

    Examples
    --------
    >>> kv = mx.kv.create('local')
    >>> kv.init(3, mx.nd.ones((2, 3)))
    >>> kv.push(3, [mx.nd.ones((2, 3)), mx.nd.ones((2, 3))])
    >>> out = mx.nd.zeros((2, 3))
    >>> kv.pull(3, out=out)
    >>> out.asnumpy()[0].tolist()
    [2.0, 2.0, 2.0]
    """

    def __init__(self, name: str = "local"):
        if name in _DIST_UNSUPPORTED:
            raise MXNetError(f"KVStore '{name}': {_DIST_UNSUPPORTED[name]}")
        self._type = "dist_sync" if name == "dist" else name
        self._store: dict = {}
        # key -> (pushed tensor, its copy-on-write clone held as the stored value) (pushpull)
        self._cow: dict = {}
        self._init_stypes: dict = {}
        self._key_is_str: bool | None = None
        self._updater = None
        self._compression: dict | None = None
        self._residual: dict = {}
        self._group = None
        self._ps = None
        self._merge_buf: dict = {}
        self._is_p3 = os.getenv("DMLC_PS_VAN_TYPE", "") == "p3"
        if self._type == "dist_async":
            from ._ps import PSClient

            self._ps = PSClient(self._type)
        elif self._type.startswith("dist"):
            from ._dist import Group

            self._group = Group(self._type)

    # -- keys -------------------------------------------------------------------------
    def _check_key_type(self, key) -> None:
        is_str = isinstance(key, str)
        if self._key_is_str is None:
            self._key_is_str = is_str
        elif self._key_is_str != is_str:
            raise MXNetError(f"Check failed: key_type_ == key_type ({int(is_str)} vs. "
                             f"{int(self._key_is_str)}) : Mixed key types are not allowed")

    def _stored(self, key) -> NDArray:
        self._check_key_type(key)
        val = self._store.get(key)
        if val is None:
            raise MXNetError(f"key {key} has not been inited")
        return val

    # -- API --------------------------------------------------------------------------
    def init(self, key, value):
        """Initialize each key once with a value (rank 0's value in distributed stores)."""
        for k, v in _flatten(key, value):
            self._check_key_type(k)
            if k in self._store:
                raise MXNetError(f"duplicate init of key {k}. Please double check if you "
                                 "called kv.init or kv.broadcast with this key multiple times")
            t = v._t.detach().clone()
            if self._group is not None:
                self._group.broadcast(t, f"init of key {k}")
            elif self._ps is not None:
                self._ps.init(k, t)
            self._store[k] = NDArray._wrap(t, v.context)
            self._init_stypes[k] = getattr(v, "stype", "default")

    def push(self, key, value, priority=0):
        """Sum the values of each key (across devices and workers) into the store."""
        self._push(key, value)

    def _push(self, key, value, in_place: bool = False) -> set:
        """``push``; ``in_place``: the workers' sum may also be written into the (single)
        pushed value itself (``pushpull`` without ``out``), saving a copy. Returns the keys
        whose pushed value now holds the stored value.

        ``dist_sync`` stores start the reductions of all keys first, then finish them in
        order: the update (or copy) of one key overlaps the communication of the next."""
        done, pending = set(), []
        for k, vals in _grouped(_flatten(key, value)).items():
            stored = self._stored(k)
            finish = self._start_dist_push(k, vals, stored, in_place)
            if finish is not None:
                pending.append((k, finish))
                continue
            merged = self._reduce(k, vals, stored)
            if self._ps is not None:
                self._ps.push(k, merged)  # the servers apply it (optimizer or assignment)
            elif self._updater is not None:
                # MXNet hands str keys to the updater as bytes (a C char*)
                ukey = k.encode() if k.__class__ is str else k
                self._updater(ukey, _updater_grad(merged, vals, stored.context), stored)
            elif tuple(merged.shape) == stored.shape and merged.dtype == stored._t.dtype:
                stored._t.copy_(merged)
            else:
                stored._t = merged.clone()
        for k, finish in pending:
            if finish():
                done.add(k)
        return done

    def _start_dist_push(self, key, vals, stored, in_place: bool):
        """One value of a ``dist_sync`` key: start a chunked allreduce straight into the
        stored value (or the updater's buffer, or, ``in_place``, the pushed value itself).
        Returns ``finish()`` (True when the pushed value holds the sum), or None when the
        general path is needed (several values, compression, dtype/shape/device changes)."""
        group = self._group
        if group is None or len(vals) != 1 or self._compression is not None:
            return None
        src, dst = vals[0]._t.detach(), stored._t
        if (src.dtype != dst.dtype or tuple(src.shape) != tuple(dst.shape)
                or src.device != dst.device or not group.can_pipeline(dst)
                or not dst.is_contiguous()):
            return None
        what = f"push of key {key}"
        if self._updater is not None:
            buf = self._merge_buf.get(key)
            if buf is None or buf.shape != dst.shape or buf.dtype != dst.dtype:
                buf = self._merge_buf[key] = torch.empty_like(dst)
            works = group.start_allreduce(src, buf, what)

            def update() -> bool:
                group.finish(works, what)
                ukey = key.encode() if key.__class__ is str else key
                self._updater(ukey, NDArray._wrap(buf, stored.context), stored)
                return False

            return update
        if in_place and src.is_contiguous() and not vals[0]._t.requires_grad:
            src = vals[0]._t  # (the array's own tensor: the store's clone is keyed on it)
            dst = None  # (no reference to the store's clone may outlive _unshare)
            self._unshare(key, stored, src)
            try:
                works = group.start_allreduce(src, src, what)
            except BaseException:
                self._share(key, stored, src)
                raise

            def keep() -> bool:
                try:
                    group.finish(works, what)
                finally:
                    self._share(key, stored, src)
                return True

            return keep
        works = group.start_allreduce(src, dst, what)
        return lambda: group.finish(works, what) or False

    def _reduce(self, key, vals, stored) -> torch.Tensor:
        for v in vals:
            if tuple(v.shape) != tuple(stored.shape):
                raise MXNetError(
                    "Check failed: from.shape() == to.shape(): operands shape mismatch "
                    f"from.shape = {_shape_str(v.shape)} to.shape={_shape_str(stored.shape)} "
                    f"(push of key {key})"
                )
        dev = stored._t.device
        comp = self._compression
        parts = []
        for i, v in enumerate(vals):
            t = v._t.detach()
            if comp is not None and self._group is None:
                t = self._quantize((key, i), t)
            parts.append(t.to(dev))
        if len(parts) == 1 and self._group is None and (self._updater is None or self._ps):
            return parts[0]  # copied into the stored value by push
        merged = parts[0].clone()
        for p in parts[1:]:
            merged += p
        if self._group is not None:
            if comp is not None:
                merged = self._quantize((key, "dist"), merged)
            self._group.allreduce(merged, f"push of key {key}")
        return merged

    def _quantize(self, slot, t: torch.Tensor) -> torch.Tensor:
        """2-bit compression with error feedback: send +-threshold or 0, keep the rest."""
        thr = self._compression["threshold"]
        res = self._residual.get(slot)
        if res is None or res.shape != t.shape:
            res = torch.zeros_like(t)
        r = res + t
        q = torch.where(r >= thr, torch.full_like(r, thr),
                        torch.where(r <= -thr, torch.full_like(r, -thr), torch.zeros_like(r)))
        self._residual[slot] = r - q
        return q

    def pull(self, key, out=None, priority=0, ignore_sparse=True):
        """Copy the stored value of each key into ``out`` (one or more arrays per key).

        With ``ignore_sparse`` (the default) row_sparse outputs are left untouched, as in
        MXNet 1.9.1: use ``row_sparse_pull`` for them.
        """
        assert out is not None
        fresh: set = set()
        for k, o in _flatten(key, out):
            stored = self._latest(k, fresh)
            if ignore_sparse and getattr(o, "stype", "default") == "row_sparse":
                continue
            if o.shape != stored.shape:
                raise MXNetError(f"Check failed: from.shape() == to.shape(): operands shape "
                                 f"mismatch from.shape = {_shape_str(stored.shape)} "
                                 f"to.shape={_shape_str(o.shape)} (pull of key {k})")
            o._assign_tensor(stored._t.to(o._t.device, o._t.dtype))

    def _latest(self, key, fresh: set) -> NDArray:
        """The stored value; ``dist_async`` stores fetch the servers' value once per call."""
        stored = self._stored(key)
        if self._ps is not None and key not in fresh:
            stored._t = self._ps.pull(key, stored._t).to(stored._t.device)
            fresh.add(key)
        return stored

    def pushpull(self, key, value, out=None, priority=0):
        """``push`` then ``pull`` (into ``value`` itself when ``out`` is None)."""
        if out is None and value.__class__ is NDArray and self._fast_pushpull(key, value):
            return
        done = self._push(key, value, in_place=out is None and self._updater is None)
        pairs = [(k, o) for k, o in _flatten(key, value if out is None else out)
                 if k not in done]
        if pairs:
            self.pull([k for k, _ in pairs], [o for _, o in pairs], priority)

    def _fast_pushpull(self, key, value: NDArray) -> bool:
        """The common ``dist_sync`` call, ``pushpull(key, array)`` with no optimizer on the
        store: one blocking allreduce in the array itself, which the store then keeps as a
        copy-on-write clone (see :meth:`_share`). Returns False (nothing done) off this
        path."""
        group = self._group
        if (group is None or self._updater is not None or self._compression is not None
                or key.__class__ not in (int, str)):
            return False
        stored = self._store.get(key)
        if stored is None or (key.__class__ is str) is not self._key_is_str:
            return False  # the general path raises the right error
        src, dst = value._t, stored._t
        if (src.requires_grad or src.dtype != dst.dtype or src.shape != dst.shape
                or src.device != dst.device or not src.is_contiguous()
                or not dst.is_contiguous() or not group.can_pipeline(src)):
            return False
        if src.numel() * src.element_size() > group.chunk_bytes:
            return False
        dst = None  # (no reference to the store's clone may outlive _unshare)
        self._unshare(key, stored, src)
        try:
            group.allreduce_one_chunk(src, f"push of key {key}")
        finally:
            self._share(key, stored, src)
        return True

    def _unshare(self, key, stored: NDArray, src: torch.Tensor) -> None:
        """Before ``src`` is summed in place: if the stored value of ``key`` is still a
        copy-on-write clone of ``src`` (nothing wrote ``src`` since the last ``pushpull``),
        drop that clone, which is about to be replaced, so that the sum does not copy it."""
        held = self._cow.pop(key, None)
        if held is not None and held[0] is src and held[1] is stored._t:
            stored._t = src
        del held  # (the clone's last reference)
        # take ownership of src's memory here, once: left to the collectives, each chunk's
        # thread would resolve the copy-on-write state concurrently
        src.data_ptr()

    def _share(self, key, stored: NDArray, src: torch.Tensor) -> None:
        """After ``src`` holds the workers' sum: store it as a copy-on-write clone (the bytes
        move only if the caller later writes ``src`` in place, e.g. the next backward)."""
        stored._t = _shared_copy(src)
        self._cow[key] = (src, stored._t)

    def broadcast(self, key, value, out, priority=0):
        """``init`` each key with ``value`` then ``pull`` it into ``out``."""
        self.init(key, value)
        self.pull(key, out, priority)

    def row_sparse_pull(self, key, out=None, priority=0, row_ids=None):
        """Pull only the rows in ``row_ids`` (the other rows of ``out`` become 0)."""
        assert out is not None
        assert row_ids is not None
        if isinstance(row_ids, NDArray):
            row_ids = [row_ids]
        assert isinstance(row_ids, list), "row_ids should be NDArray or list of NDArray"
        single = len(row_ids) == 1 and isinstance(out, list)
        first = [out[0]] if single else out
        pairs = _flatten(key, first)
        ids = [r for _, r in _flatten(key, row_ids)]
        assert len(ids) == len(pairs), "the number of row_ids doesn't match the number of values"
        fresh: set = set()
        for (k, o), rid in zip(pairs, ids):
            if getattr(o, "stype", "default") != "row_sparse":
                raise MXNetError("Check failed: val_stype == kRowSparseStorage: Expected "
                                 "row_sparse storage type for row_sparse_pull values, but "
                                 f"detected storage type {o.stype}")
            if self._init_stypes.get(k, "row_sparse") != "row_sparse":
                raise MXNetError(f"PullRowSparse expects row_sparse src NDArray: key {k} was "
                                 f"initialized with storage type {self._init_stypes[k]}")
            stored = self._latest(k, fresh)
            if o.shape != stored.shape:
                raise MXNetError(f"row_sparse_pull of key {k}: out shape "
                                 f"{_shape_str(o.shape)} != stored {_shape_str(stored.shape)}")
            st = stored._t
            idx = rid._t.to(torch.int64).reshape(-1).unique().to(st.device)
            if getattr(o, "stype", "default") == "row_sparse":  # keep the requested rows
                dev = o._ctx.torch_device
                o._sdata = st[idx].to(dev, o._sdata.dtype, copy=True)
                o._saux = (idx.to(dev),)
                continue
            res = torch.zeros_like(st)
            res[idx] = st[idx]
            o._assign_tensor(res.to(o._t.device, o._t.dtype))
        if single:
            for o in out[1:]:
                out[0].copyto(o)

    def set_gradient_compression(self, compression_params):
        """Enable 2-bit gradient compression (``{'type': '2bit', 'threshold': 0.5}``) for
        ``device`` and ``dist`` stores; quantization errors are fed back into the next push.
        """
        if "device" not in self.type and "dist" not in self.type:
            raise Exception("Gradient compression is not supported for this type of kvstore")
        params = {str(k): str(v) for k, v in compression_params.items()}
        if "type" not in params:
            raise MXNetError("Required parameter type of string is not presented")
        unknown = set(params) - {"type", "threshold"}
        if unknown:
            raise MXNetError(f"Cannot find argument '{sorted(unknown)[0]}' for gradient "
                             "compression (arguments: type, threshold)")
        kind = params["type"]
        if kind == "none":
            self._compression = None
            return
        if kind != "2bit":
            raise MXNetError(f"Unknown type for gradient compression {kind}")
        thr = float(params.get("threshold", 0.5))
        if thr <= 0:
            raise MXNetError(f"Check failed: params.threshold > 0 ({thr:g} vs. 0) : threshold "
                             "must be greater than 0")
        self._compression = {"type": kind, "threshold": thr}
        self._residual.clear()

    def set_optimizer(self, optimizer):
        """Apply ``optimizer`` to every push (the pushed sum is the gradient).

        ``dist_async`` stores send it (pickled) to the servers, which apply it there.
        """
        if self._ps is not None:
            self._send_command_to_servers(0, pickle.dumps(optimizer))
            return
        self._set_updater(opt.get_updater(optimizer))

    def _set_updater(self, updater):
        """Set ``updater(key, pushed_sum, stored)``, called on every push (str keys come as
        bytes, as in MXNet 1.9.1)."""
        self._updater = updater

    set_updater = _set_updater

    def save_optimizer_states(self, fname, dump_optimizer=False):
        """Write the updater's states (a ``.states`` pickle) atomically."""
        assert self._updater is not None, "Cannot save states for distributed training"
        data = self._updater.get_states(dump_optimizer)
        tmp = f"{fname}.tmp{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, fname)

    def load_optimizer_states(self, fname):
        """Load states written by :meth:`save_optimizer_states` (or by MXNet)."""
        assert self._updater is not None, "Cannot load states for distributed training"
        with open(fname, "rb") as f:
            data = f.read()
        try:
            self._updater.set_states(data)
        except MXNetError as e:
            raise MXNetError(f"{fname}: {e}") from None

    def is_capable(self, capability):
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return not self._is_p3
        raise ValueError(f"Unknown capability: {capability}")

    @property
    def type(self):
        return self._type

    @property
    def rank(self):
        if self._ps is not None:
            return self._ps.rank
        return self._group.rank if self._group is not None else 0

    @property
    def num_workers(self):
        if self._ps is not None:
            return self._ps.num_workers
        return self._group.size if self._group is not None else 1

    def _barrier(self):
        """Wait for every worker (no-op in a single process)."""
        if self._group is not None:
            self._group.barrier()
        elif self._ps is not None:
            self._ps.barrier()

    barrier = _barrier

    def _send_command_to_servers(self, head, body):
        """Send ``(head, body)`` to every server (``dist_async``; head 0: an optimizer).

        Stores without servers ignore it, as MXNet 1.9.1's do."""
        if self._ps is None:
            return
        self._ps.command(head, body if isinstance(body, bytes) else str(body).encode())
