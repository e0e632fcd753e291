"""``DataLoader``: mini-batches from a Dataset, optionally on worker processes or threads.

Worker processes return their batches pickled; large NDArrays travel through shared-memory
segments (copied out and unlinked by the receiver), small ones in-band.
"""
from __future__ import annotations

import io
import multiprocessing
import multiprocessing.pool
import pickle
import signal
from collections.abc import Callable, Iterator
from multiprocessing import resource_tracker, shared_memory
from multiprocessing.reduction import ForkingPickler
from typing import Any

import numpy as np
import torch

from ...base import MXNetError
from ...context import Context, cpu_pinned
from ...ndarray.ndarray import NDArray
from ...ndarray.ndarray import array as _nd_array
from . import sampler as _sampler

__all__ = ['DataLoader', 'DataLoaderV1']


_SHM_MIN_BYTES = 1 << 16


def _rebuild_inband(arr: np.ndarray, devtype: str, devid: int) -> NDArray:
    return NDArray._wrap(torch.from_numpy(arr), Context(devtype, devid))


def _rebuild_shm(name: str, shape: tuple, dtype: str, devtype: str, devid: int) -> NDArray:
    shm = shared_memory.SharedMemory(name=name)
    try:
        arr = np.ndarray(shape, np.dtype(dtype), buffer=shm.buf).copy()
    finally:
        shm.close()
        shm.unlink()
    return NDArray._wrap(torch.from_numpy(arr), Context(devtype, devid))


def _reduce_ndarray(arr: NDArray):
    """Worker-side pickling: large arrays go through a shared-memory segment that the
    receiving process copies out of and unlinks (the resource tracker reclaims any segment
    whose batch is never received)."""
    t = arr._t.detach()
    if t.device.type != 'cpu':
        t = t.cpu()
    devtype = arr._ctx.device_type  # batches arrive on cpu_shared(0), as in MXNet
    if t.dtype == torch.bfloat16:
        return _rebuild_ndarray_t, (t.clone(), devtype, arr._ctx.device_id)
    a = np.ascontiguousarray(t.numpy())
    if a.nbytes < _SHM_MIN_BYTES:
        return _rebuild_inband, (a, devtype, arr._ctx.device_id)
    shm = shared_memory.SharedMemory(create=True, size=a.nbytes)
    np.ndarray(a.shape, a.dtype, buffer=shm.buf)[...] = a
    name = shm.name
    shm.close()
    return _rebuild_shm, (name, a.shape, a.dtype.str, devtype, arr._ctx.device_id)


def _rebuild_ndarray_t(t: torch.Tensor, devtype: str, devid: int) -> NDArray:
    return NDArray._wrap(t, Context(devtype, devid))


class _WorkerPickler(ForkingPickler):
    pass


_WorkerPickler.register(NDArray, _reduce_ndarray)


def _rebuild_np(fn: Callable, args: tuple) -> NDArray:
    from ...numpy.multiarray import wrap

    return wrap(fn(*args))


def _reduce_np_ndarray(arr: NDArray):
    """``mx.np`` batches travel like NDArrays (keeping ``cpu_shared``) and stay ``mx.np``."""
    return _rebuild_np, _reduce_ndarray(arr)


def _register_np_pickler() -> None:
    from ...numpy.multiarray import ndarray as np_ndarray

    _WorkerPickler.register(np_ndarray, _reduce_np_ndarray)


def _stack(items: list) -> NDArray:
    first = items[0]
    shape = first._t.shape
    for i, x in enumerate(items):
        if x._t.shape != shape:  # MXNet's nd.stack fails (an MXNetError) on ragged samples
            raise MXNetError(
                "Error in operator stack: all inputs must have the same shape: input 0 has "
                "%s, input %d has %s" % (list(shape), i, list(x._t.shape))
            )
    return _np_or_nd(NDArray._wrap(torch.stack([x._t.detach() for x in items]), first._ctx))


def _np_or_nd(arr: NDArray) -> NDArray:
    """``arr`` as an ``mx.np`` array under ``npx.set_np()`` (same storage)."""
    from ...util import is_np_array

    if is_np_array():
        from ...numpy.multiarray import wrap

        return wrap(arr)
    return arr


def default_batchify_fn(data: list) -> Any:
    """Stack a list of samples into a batch.

    NDArrays are stacked along a new first axis, tuples are batched element-wise (a list
    comes back), anything else goes through ``np.asarray`` and keeps its dtype.

    Examples
    --------
    >>> default_batchify_fn([(1, 2.0), (3, 4.0)])[0].asnumpy()
    array([1, 3])
    """
    first = data[0]
    if isinstance(first, NDArray):
        return _stack(data)
    if isinstance(first, tuple):
        return [default_batchify_fn(list(col)) for col in zip(*data)]
    arr = np.asarray(data)
    return _np_or_nd(_nd_array(arr, dtype=arr.dtype))


def default_mp_batchify_fn(data: list) -> Any:
    """Batchify in a worker process (the batch then travels through shared memory).

    Arrays are made on ``cpu_shared(0)`` whatever the default context is, as in MXNet (a
    forked worker must never touch a GPU).
    """
    from ...context import Context

    with Context("cpu_shared", 0):
        return _on_shared(default_batchify_fn(data))


def _on_shared(data: Any) -> Any:
    """Stacked NDArrays of a worker batch live on ``cpu_shared(0)`` (storage unchanged)."""
    if isinstance(data, NDArray):
        data._ctx = Context("cpu_shared", 0)
        return data
    if isinstance(data, list):
        return [_on_shared(d) for d in data]
    return data


def _as_in_context(data: Any, ctx: Context) -> Any:
    if isinstance(data, NDArray):
        return data.as_in_context(ctx)
    if isinstance(data, (list, tuple)):
        return [_as_in_context(d, ctx) for d in data]
    return data


_worker_dataset: Any = None


def _worker_initializer(dataset: Any) -> None:
    global _worker_dataset
    _worker_dataset = dataset
    torch.set_num_threads(1)
    Context._default_ctx.value = Context("cpu", 0)  # a forked worker never touches a GPU


def _worker_fn(samples: list, batchify_fn: Callable, dataset: Any = None) -> bytes:
    batch = batchify_fn([_worker_dataset[i] for i in samples])
    buf = io.BytesIO()
    _WorkerPickler(buf, pickle.HIGHEST_PROTOCOL).dump(batch)
    return buf.getvalue()


def _thread_worker_fn(samples: list, batchify_fn: Callable, dataset: Any) -> Any:
    return batchify_fn([dataset[i] for i in samples])


def _discard(payload: bytes) -> None:
    """Unpickle and drop a worker's batch so that its shared-memory segments are unlinked."""
    try:
        pickle.loads(payload)
    except Exception:  # noqa: BLE001 - best effort cleanup
        pass


class _MultiWorkerIter:
    """Keeps ``prefetch`` batches in flight on the pool and returns them in order."""

    def __init__(self, pool, batchify_fn: Callable, batch_sampler, pin_memory: bool,
                 pin_device_id: int, worker_fn: Callable, prefetch: int, dataset: Any,
                 timeout: float) -> None:
        self._pool = pool
        self._batchify_fn = batchify_fn
        self._batch_sampler = batch_sampler
        self._pending: dict = {}
        self._rcvd_idx = 0
        self._sent_idx = 0
        self._iter = iter(batch_sampler)
        self._worker_fn = worker_fn
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._dataset = dataset
        self._timeout = timeout
        self._state = {'abandoned': False}
        for _ in range(prefetch):
            self._push_next()

    def __len__(self) -> int:
        return len(self._batch_sampler)

    def _push_next(self) -> None:
        r = next(self._iter, None)
        if r is None:
            return
        callback = None
        if self._dataset is None:
            state = self._state

            def callback(payload: bytes, state: dict = state) -> None:
                # a batch that arrives after its iterator was dropped frees its shared memory
                if state['abandoned']:
                    _discard(payload)
        self._pending[self._sent_idx] = self._pool.apply_async(
            self._worker_fn, (r, self._batchify_fn, self._dataset), callback=callback)
        self._sent_idx += 1

    def __next__(self) -> Any:
        self._push_next()
        if self._rcvd_idx == self._sent_idx:
            raise StopIteration
        ret = self._pending.pop(self._rcvd_idx)
        try:
            batch = ret.get(self._timeout)
        except multiprocessing.TimeoutError:
            msg = ('DataLoader worker timed out after {} seconds waiting for batch {}: a '
                   'worker is stuck or died, or the transform is slower than `timeout`.'
                   .format(self._timeout, self._rcvd_idx))
            if not isinstance(self._pool, multiprocessing.pool.ThreadPool):
                msg += ' For worker processes, also check available shared memory.'
            raise multiprocessing.TimeoutError(msg) from None
        if self._dataset is None:
            batch = pickle.loads(batch)
        if self._pin_memory:
            batch = _as_in_context(batch, cpu_pinned(self._pin_device_id))
        self._rcvd_idx += 1
        return batch

    next = __next__

    def __del__(self) -> None:
        state = getattr(self, '_state', None)
        if state is None or self._dataset is not None:
            return
        state['abandoned'] = True
        for ret in self._pending.values():
            if ret.ready() and ret.successful():
                _discard(ret.get())
        self._pending = {}

    def __iter__(self) -> _MultiWorkerIter:
        return self


class DataLoader:
    """Load mini-batches from a dataset.

    Parameters
    ----------
    dataset : Dataset
        Source dataset (NumPy and MXNet arrays also work).
    batch_size : int
        Samples per batch (required unless ``batch_sampler`` is given).
    shuffle : bool
        Random order every epoch (not with ``sampler``).
    sampler : Sampler
        Order of the samples.
    last_batch : {'keep', 'discard', 'rollover'}
        What to do with a short last batch (default 'keep').
    batch_sampler : Sampler
        Yields lists of indices; excludes batch_size/shuffle/sampler/last_batch.
    batchify_fn : callable
        Merges a list of samples into a batch (default: stack into NDArrays).
    num_workers : int
        Worker processes (0: load in the calling thread).
    pin_memory, pin_device_id
        Return batches in ``cpu_pinned(pin_device_id)`` memory.
    prefetch : int
        Batches in flight (default ``2 * num_workers``).
    thread_pool : bool
        Use threads instead of processes.
    timeout : int
        Seconds to wait for one batch from a worker before raising.
    auto_reload : bool
        Start prefetching the next epoch when one ends.

    Examples
    --------
    >>> from mxnet.gluon.data import ArrayDataset
    >>> dl = DataLoader(ArrayDataset(np.arange(5), np.arange(5) * 2), batch_size=2)
    >>> [d.shape for d, l in dl]
    [(2,), (2,), (1,)]
    """

    def __init__(self, dataset: Any, batch_size: int | None = None, shuffle: bool = False,
                 sampler=None, last_batch: str | None = None, batch_sampler=None,
                 batchify_fn: Callable | None = None, num_workers: int = 0,
                 pin_memory: bool = False, pin_device_id: int = 0,
                 prefetch: int | None = None, thread_pool: bool = False, timeout: int = 120,
                 auto_reload: bool = False) -> None:
        self._dataset = dataset
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._thread_pool = thread_pool
        self._timeout = timeout
        assert timeout > 0, "timeout must be positive, given {}".format(timeout)
        if batch_sampler is None:
            if batch_size is None:
                raise ValueError("batch_size must be specified unless "
                                 "batch_sampler is specified")
            if sampler is None:
                sampler = (_sampler.RandomSampler(len(dataset)) if shuffle
                           else _sampler.SequentialSampler(len(dataset)))
            elif shuffle:
                raise ValueError("shuffle must not be specified if sampler is specified")
            batch_sampler = _sampler.BatchSampler(sampler, batch_size,
                                                  last_batch if last_batch else 'keep')
        elif (batch_size is not None or shuffle or sampler is not None
              or last_batch is not None):
            raise ValueError("batch_size, shuffle, sampler and last_batch must "
                             "not be specified if batch_sampler is specified.")
        self._batch_sampler = batch_sampler
        self._num_workers = num_workers if num_workers >= 0 else 0
        self._worker_pool = None
        self._prefetch = max(0, int(prefetch) if prefetch is not None
                             else 2 * self._num_workers)
        if self._num_workers > 0:
            _register_np_pickler()
            if self._thread_pool:
                self._worker_pool = multiprocessing.pool.ThreadPool(self._num_workers)
            else:
                resource_tracker.ensure_running()
                old = signal.signal(signal.SIGINT, signal.SIG_IGN)
                try:
                    self._worker_pool = multiprocessing.Pool(
                        self._num_workers, initializer=_worker_initializer,
                        initargs=[self._dataset])
                finally:
                    signal.signal(signal.SIGINT, old)
        if batchify_fn is None:
            batchify_fn = default_mp_batchify_fn if num_workers > 0 else default_batchify_fn
        self._batchify_fn = batchify_fn
        self.auto_reload = auto_reload
        self._iter: Any = None
        if self.auto_reload:
            self.refresh()

    def __iter__(self) -> Iterator:
        if self._iter is None:
            self.refresh()
        it = self._iter
        self._iter = None
        yield from it
        if self._iter is None and self.auto_reload:
            self.refresh()

    def _same_process_iter(self) -> Iterator:
        for batch in self._batch_sampler:
            ret = self._batchify_fn([self._dataset[idx] for idx in batch])
            if self._pin_memory:
                ret = _as_in_context(ret, cpu_pinned(self._pin_device_id))
            yield ret

    def _prefetch_iter(self) -> Iterator:
        if self._num_workers == 0:
            return self._same_process_iter()
        return _MultiWorkerIter(
            self._worker_pool, self._batchify_fn, self._batch_sampler,
            pin_memory=self._pin_memory, pin_device_id=self._pin_device_id,
            worker_fn=_thread_worker_fn if self._thread_pool else _worker_fn,
            prefetch=self._prefetch,
            dataset=self._dataset if self._thread_pool else None, timeout=self._timeout)

    def __len__(self) -> int:
        return len(self._batch_sampler)

    def __del__(self) -> None:
        pool = getattr(self, '_worker_pool', None)
        if pool is not None:
            pool.terminate()
            self._worker_pool = None

    def refresh(self) -> None:
        """Start a new epoch's iterator (prefetching begins now)."""
        self._iter = self._prefetch_iter()

    def clean(self) -> None:
        """Drop the prefetched iterator; prefetching restarts at the next ``__iter__``."""
        self._iter = None


class DataLoaderV1(DataLoader):
    """MXNet's first-generation loader API (no ``prefetch``/``thread_pool``/``timeout``);
    batches are produced as by :class:`DataLoader`.

    Examples
    --------
    >>> loader = DataLoaderV1(mx.gluon.data.ArrayDataset(mx.nd.ones((4, 2))), batch_size=2)
    >>> [b.shape for b in loader]
    [(2, 2), (2, 2)]
    """

    def __init__(self, dataset: Any, batch_size: int | None = None, shuffle: bool = False,
                 sampler=None, last_batch: str | None = None, batch_sampler=None,
                 batchify_fn: Callable | None = None, num_workers: int = 0,
                 pin_memory: bool = False, pin_device_id: int = 0) -> None:
        super().__init__(dataset, batch_size, shuffle, sampler, last_batch, batch_sampler,
                         batchify_fn, num_workers, pin_memory, pin_device_id)
