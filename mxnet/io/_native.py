"""Base of the iterators that MXNet implemented in C++ (``MXDataIter``), plus ``CSVIter``
and ``MNISTIter``.

Batches are produced on a background thread into a bounded queue (``prefetch_buffer``), as
MXNet's C++ prefetcher did.
"""

from __future__ import annotations

import logging
import os
import queue
import struct
import sys
import threading
import time
import weakref
from typing import Any

import numpy as np
import torch

from ..base import MXNetError
from ..context import Context
from ..ndarray.ndarray import NDArray
from .io import DataBatch, DataDesc, DataIter

__all__ = ["MXDataIter", "CSVIter", "MNISTIter"]

_END = object()


def _to_nd(arr: np.ndarray, dev: str = "cpu") -> NDArray:
    return NDArray._wrap(torch.from_numpy(np.ascontiguousarray(arr)), Context(dev, 0))


def _parse_shape(shape: Any) -> tuple:
    if isinstance(shape, str):
        shape = [int(s) for s in shape.strip("()[] ").split(",") if s.strip()]
    if isinstance(shape, int):
        shape = (shape,)
    return tuple(int(s) for s in shape)


def _parse_bool(v: Any) -> bool:
    if isinstance(v, str):
        return v.strip().lower() in ("1", "true")
    return bool(v)


def _produce(ref: weakref.ref, q: queue.Queue, stop: threading.Event) -> None:
    """Prefetch loop of :class:`MXDataIter` (ends when stopped or the iterator is gone)."""
    while not stop.is_set():
        it = ref()
        if it is None:
            return
        try:
            item = it._next_batch()
        except BaseException as e:  # noqa: BLE001 - handed to the consumer
            item = e
        del it
        while not stop.is_set() and ref() is not None:
            try:
                q.put(item if item is not None else _END, timeout=0.1)
                break
            except queue.Full:
                continue
        if item is None or isinstance(item, BaseException):
            return


class MXDataIter(DataIter):
    """Iterator whose batches come from ``_next_batch()`` run on a prefetch thread.

    Subclasses implement ``_before_first()`` (rewind) and ``_next_batch()`` returning
    ``(data, label, pad, index)`` NumPy arrays or None at the end of the epoch.
    The first batch is read at construction to fill ``provide_data``/``provide_label``.

    Examples
    --------
    >>> it = mx.io.CSVIter(data_csv='d.csv', data_shape=(3,), batch_size=4)  # doctest: +SKIP
    >>> it.provide_data                                                      # doctest: +SKIP
    [DataDesc[data,(4, 3),<class 'numpy.float32'>,NCHW]]
    """

    #: device type of the batches ('cpu_pinned' for MXNet's prefetching image iterators)
    _out_dev = "cpu"

    def __init__(
        self, data_name: str = "data", label_name: str = "softmax_label", prefetch_buffer: int = 4
    ) -> None:
        super().__init__()
        self._qsize = max(1, int(prefetch_buffer))
        self._thread: threading.Thread | None = None
        self._queue: queue.Queue | None = None
        self._stop = threading.Event()
        self._current: DataBatch | None = None
        self._start()
        self.first_batch: DataBatch | None = None
        self.first_batch = self.next()
        data, label = self.first_batch.data[0], self.first_batch.label[0]
        self.provide_data = [DataDesc(data_name, data.shape, data.dtype)]
        self.provide_label = [DataDesc(label_name, label.shape, label.dtype)]
        self.batch_size = data.shape[0]

    # -- subclass hooks ------------------------------------------------------------
    def _before_first(self) -> None:
        raise TypeError("%s does not implement _before_first" % type(self).__name__)

    def _next_batch(self) -> tuple | None:
        raise TypeError("%s does not implement _next_batch" % type(self).__name__)

    # -- prefetch thread -----------------------------------------------------------
    def _start(self) -> None:
        self._stop = threading.Event()
        self._queue = queue.Queue(self._qsize)
        # the thread holds only a weak reference, so a dropped iterator is finalized
        self._thread = threading.Thread(
            target=_produce, args=(weakref.ref(self), self._queue, self._stop), daemon=True
        )
        self._thread.start()

    def _shutdown(self) -> None:
        if self._thread is None:
            return
        self._stop.set()
        if self._thread is threading.current_thread():
            self._thread = None
            return
        while self._thread.is_alive():
            try:
                self._queue.get(timeout=0.05)
            except queue.Empty:
                pass
        self._thread = None

    def __del__(self) -> None:
        try:
            self._shutdown()
        except Exception:  # noqa: BLE001 - never raise from a finalizer
            pass

    # -- DataIter API --------------------------------------------------------------
    def debug_skip_load(self) -> None:
        """Return the current batch again and again from now on (MXNet's way to time a
        network without the data loading)."""
        self._debug_skip_load = True
        logging.info("Set debug_skip_load to be true, will simply return first batch")

    def reset(self) -> None:
        self.first_batch = None
        self._current = None
        self._shutdown()
        self._before_first()
        self._start()

    def next(self) -> DataBatch:
        cur = self._current
        if getattr(self, "_debug_skip_load", False) and cur is not None:
            return DataBatch(data=cur.data, label=cur.label, pad=cur.pad, index=cur.index)
        if self.first_batch is not None:
            batch, self.first_batch = self.first_batch, None
            self._current = batch
            return batch
        if self._thread is None:
            raise StopIteration
        item = self._queue.get()
        if item is _END:
            self._thread.join()
            self._thread = None
            raise StopIteration
        if isinstance(item, BaseException):
            self._thread = None
            raise item
        data, label, pad, index = item
        dev = self._out_dev
        self._current = DataBatch(
            data=[_to_nd(data, dev)], label=[_to_nd(label, dev)], pad=pad, index=index
        )
        return self._current

    def iter_next(self) -> bool:
        try:
            self.next()
        except StopIteration:
            return False
        return True

    def getdata(self) -> NDArray:
        return self._current.data[0]

    def getlabel(self) -> NDArray:
        return self._current.label[0]

    def getindex(self) -> Any:
        return self._current.index

    def getpad(self) -> int:
        return self._current.pad


class _BatchLoader:
    """MXNet's batch assembly of single instances: ``round_batch`` wraps the last batch
    around to the start and the next epoch continues after the wrapped examples; otherwise
    the padded tail keeps the previous batch's contents."""

    def __init__(self, n: int, batch_size: int, round_batch: bool) -> None:
        if n == 0:
            raise MXNetError("the data iterator has no examples")
        self.n, self.bs, self.round = n, batch_size, round_batch
        self.pos = 0
        self.overflow = 0
        self.buf: dict = {}

    def before_first(self) -> None:
        if not self.round or self.overflow == 0:
            self.pos = 0
        else:
            self.overflow = 0

    def next_indices(self) -> tuple[list, int] | None:
        """Instance indices of the next batch (entries None keep old contents) and pad."""
        if self.overflow:
            return None
        take = list(range(self.pos, min(self.pos + self.bs, self.n)))
        self.pos += len(take)
        if not take:
            return None
        if len(take) == self.bs:
            return take, 0
        if self.round:
            if self.n < self.bs - len(take):
                raise MXNetError("number of input must be bigger than batch size")
            extra = self.bs - len(take)
            self.overflow = extra
            self.pos = extra
            return take + list(range(extra)), extra
        return take + [None] * (self.bs - len(take)), self.bs - len(take)

    def fill(self, key: str, rows: list, src: np.ndarray, dtype: Any) -> np.ndarray:
        """Batch array of ``src[rows]``; None rows keep the previous batch's values."""
        buf = self.buf.get(key)
        if buf is None:
            buf = np.zeros((self.bs,) + src.shape[1:], dtype=dtype)
        else:
            buf = buf.copy()
        for i, r in enumerate(rows):
            if r is not None:
                buf[i] = src[r]
        self.buf[key] = buf
        return buf


class CSVIter(MXDataIter):
    """Batches from CSV files: each row of ``data_csv`` reshaped to ``data_shape``.

    Parameters
    ----------
    data_csv : str
    data_shape : tuple
    label_csv : str, default 'NULL' (labels are zeros)
    label_shape : tuple, default (1,)
    batch_size : int
    round_batch : bool, default True
    prefetch_buffer : int, default 4
    dtype : str, default float32

    Examples
    --------
    >>> it = mx.io.CSVIter(data_csv='d.csv', data_shape=(3,), batch_size=4)  # doctest: +SKIP
    """

    def __init__(
        self,
        data_csv: str,
        data_shape: Any,
        batch_size: int,
        label_csv: str = "NULL",
        label_shape: Any = (1,),
        round_batch: bool = True,
        prefetch_buffer: int = 4,
        ctx: str = "gpu",
        dtype: Any = None,
        data_name: str = "data",
        label_name: str = "softmax_label",
        **kwargs,
    ) -> None:
        # like MXNet's C++ iterators, unknown keyword arguments are ignored
        del kwargs
        dshape, lshape = _parse_shape(data_shape), _parse_shape(label_shape)
        self._dtype = np.dtype(dtype if dtype not in (None, "None") else np.float32)
        self._data = self._load(data_csv, dshape)
        if label_csv in (None, "NULL", ""):
            self._label = np.zeros((len(self._data),) + lshape, dtype=self._dtype)
        else:
            self._label = self._load(label_csv, lshape)
        if len(self._label) != len(self._data):
            raise MXNetError(
                "CSVIter: %s has %d rows but %s has %d"
                % (data_csv, len(self._data), label_csv, len(self._label))
            )
        if lshape == (1,):
            self._label = self._label.reshape(len(self._label))
        self._loader = _BatchLoader(len(self._data), int(batch_size), _parse_bool(round_batch))
        super().__init__(data_name, label_name, prefetch_buffer)

    def _load(self, path: str, shape: tuple) -> np.ndarray:
        width = int(np.prod(shape))
        if self._dtype == np.float32:
            # float32 values are read as MXNet reads them (dmlc's strtof, not correctly
            # rounded); every row must hold exactly the values of one example
            from ._strtonum import parse_csv_float32

            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    values, lengths = parse_csv_float32(f.read())
            except OSError as e:
                raise MXNetError("CSVIter: cannot read %s: %s" % (path, e)) from None
            for n in lengths:
                if n != width:
                    raise MXNetError(
                        "Check failed: row.length == shape.Size() (%d vs. %d) : The data size "
                        "in CSV do not match size of shape: specified shape=[%s], the csv "
                        "row-length=%d" % (n, width, ",".join(map(str, shape)), n)
                    )
            return values.reshape((len(lengths),) + shape)
        try:
            rows = np.loadtxt(path, delimiter=",", dtype=np.float64, ndmin=2)
        except (OSError, ValueError) as e:
            raise MXNetError("CSVIter: cannot read %s: %s" % (path, e)) from None
        if rows.shape[1] != width:
            raise MXNetError(
                "CSVIter: %s has rows of %d values, data shape %s needs %d"
                % (path, rows.shape[1], shape, width)
            )
        return rows.astype(self._dtype).reshape((len(rows),) + shape)

    def _before_first(self) -> None:
        self._loader.before_first()

    def _next_batch(self) -> tuple | None:
        nxt = self._loader.next_indices()
        if nxt is None:
            return None
        rows, pad = nxt
        data = self._loader.fill("data", rows, self._data, self._dtype)
        label = self._loader.fill("label", rows, self._label, self._dtype)
        index = np.array([r if r is not None else 0 for r in rows], dtype=np.uint64)
        return data, label, pad, index


def _read_idx(path: str, magic: int, ndim: int) -> np.ndarray:
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise MXNetError("MNISTIter: cannot open %s: %s" % (path, e)) from None
    head = 4 * (1 + ndim)
    if len(raw) >= 4 and struct.unpack(">I", raw[:4])[0] != magic:
        raise MXNetError(
            "MNISTIter: %s has magic number %d at byte offset 0, expected %d"
            % (path, struct.unpack(">I", raw[:4])[0], magic)
        )
    if len(raw) < head:
        raise MXNetError("MNISTIter: %s is truncated (%d bytes)" % (path, len(raw)))
    vals = struct.unpack(">%dI" % (1 + ndim), raw[:head])
    shape = vals[1:]
    need = head + int(np.prod(shape))
    if len(raw) < need:
        raise MXNetError(
            "MNISTIter: %s is truncated: header announces %d bytes, file has %d"
            % (path, need, len(raw))
        )
    return np.frombuffer(raw, np.uint8, int(np.prod(shape)), head).reshape(shape)


def _log_info(msg: str) -> None:
    """One line on stderr the way MXNet's C++ ``LOG(INFO)`` writes it (``[HH:MM:SS] msg``)."""
    sys.stderr.write("[%s] %s\n" % (time.strftime("%H:%M:%S"), msg))


def _decode_threads(requested: Any) -> int:
    """The decoding threads MXNet's record iterators report: the request, capped by MXNet's
    OpenMP thread limit (half the logical CPUs, taken as the physical cores)."""
    return max(1, min(int(requested), (os.cpu_count() or 1) // 2))


def _std_shuffle_order(n: int, seed: int) -> np.ndarray:
    """The order ``std::shuffle(v, std::mt19937(seed))`` gives ``v = 0..n-1`` in MXNet 1.9.1's
    builds (libstdc++'s one-swap-per-step loop, ``uniform_int_distribution`` by downscaling
    with rejection), so MNISTIter batches come in MXNet's order for a given ``seed``."""
    # NumPy's legacy RandomState seeds MT19937 exactly as std::mt19937(seed) does
    rs = np.random.RandomState(seed & 0xFFFFFFFF)
    buf, pos = rs.randint(0, 2**32, size=max(n, 1), dtype=np.uint32).tolist(), 0
    order = list(range(n))
    top = 0xFFFFFFFF
    for i in range(1, n):
        span = i + 1
        scaling = top // span
        past = span * scaling
        while True:
            if pos == len(buf):
                buf, pos = rs.randint(0, 2**32, size=64, dtype=np.uint32).tolist(), 0
            r = buf[pos]
            pos += 1
            if r < past:
                break
        j = r // scaling
        order[i], order[j] = order[j], order[i]
    return np.asarray(order, dtype=np.int64)


class MNISTIter(MXDataIter):
    """Batches from MNIST idx-ubyte files; pixels scaled by 1/256 like MXNet.

    The incomplete last batch is dropped. ``shuffle`` permutes once at construction.

    Examples
    --------
    >>> it = mx.io.MNISTIter(image='train-images-idx3-ubyte',
    ...                      label='train-labels-idx1-ubyte', batch_size=100)  # doctest: +SKIP
    """

    def __init__(
        self,
        image: str = "./train-images-idx3-ubyte",
        label: str = "./train-labels-idx1-ubyte",
        batch_size: int = 128,
        shuffle: bool = True,
        flat: bool = False,
        seed: int = 0,
        silent: bool = False,
        num_parts: int = 1,
        part_index: int = 0,
        prefetch_buffer: int = 4,
        ctx: str = "gpu",
        dtype: Any = None,
        data_name: str = "data",
        label_name: str = "softmax_label",
        **kwargs,
    ) -> None:
        # like MXNet's C++ iterators, unknown keyword arguments are ignored
        del kwargs
        img = _read_idx(os.fspath(image), 2051, 3)
        lab = _read_idx(os.fspath(label), 2049, 1)
        if len(img) != len(lab):
            raise MXNetError(
                "MNISTIter: %s has %d images but %s has %d labels"
                % (image, len(img), label, len(lab))
            )
        num_parts, part_index = int(num_parts), int(part_index)
        n = len(img)
        begin, end = n * part_index // num_parts, n * (part_index + 1) // num_parts
        img, lab = img[begin:end], lab[begin:end]
        if _parse_bool(shuffle):
            perm = _std_shuffle_order(len(img), int(seed))
            img, lab = img[perm], lab[perm]
        self._img = img
        self._lab = lab.astype(np.float32)
        self._bs = int(batch_size)
        self._flat = _parse_bool(flat)
        if not _parse_bool(silent):
            # MXNet prints the flat batch shape as an mshadow Shape2 "(b,784)" and the 4-D
            # one as a TShape "[b,1,28,28]"
            dims = (self._bs, img[0].size) if self._flat else (self._bs, 1, *img.shape[1:])
            text = ",".join(str(d) for d in dims)
            _log_info(
                "MNISTIter: load %d images, shuffle=%d, shape=%s"
                % (len(img), int(_parse_bool(shuffle)), f"({text})" if self._flat else f"[{text}]")
            )
        self._loc = 0
        super().__init__(data_name, label_name, prefetch_buffer)

    def _before_first(self) -> None:
        self._loc = 0

    def _next_batch(self) -> tuple | None:
        if self._loc + self._bs > len(self._img):
            return None
        sl = slice(self._loc, self._loc + self._bs)
        self._loc += self._bs
        data = self._img[sl].astype(np.float32) * np.float32(1.0 / 256.0)
        if self._flat:
            data = data.reshape(self._bs, -1)
        else:
            data = data.reshape(self._bs, 1, *self._img.shape[1:])
        return data, self._lab[sl].copy(), 0, np.zeros(self._bs, dtype=np.uint64)
