"""Data iterators: ``DataDesc``, ``DataBatch``, ``DataIter``, ``NDArrayIter``, ``ResizeIter``,
``PrefetchingIter`` (``mx.io``)."""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict, namedtuple
from typing import Any

import numpy as np
import torch

from ..base import MXNetError
from ..ndarray.ndarray import NDArray, array

__all__ = ['DataDesc', 'DataBatch', 'DataIter', 'NDArrayIter', 'ResizeIter', 'PrefetchingIter']


class DataDesc(namedtuple('DataDesc', ['name', 'shape'])):
    """Name, shape, dtype and layout of one data or label input.

    Examples
    --------
    >>> mx.io.DataDesc('data', (32, 3, 224, 224))
    DataDesc[data,(32, 3, 224, 224),<class 'numpy.float32'>,NCHW]
    """

    def __new__(cls, name: str, shape: tuple, dtype: Any = np.float32, layout: str = 'NCHW'):
        ret = super().__new__(cls, name, shape)
        ret.dtype = dtype
        ret.layout = layout
        return ret

    def __repr__(self) -> str:
        return "DataDesc[%s,%s,%s,%s]" % (self.name, self.shape, self.dtype, self.layout)

    @staticmethod
    def get_batch_axis(layout: str | None) -> int:
        """Axis of 'N' in ``layout`` (0 when layout is None, -1 when there is no N)."""
        if layout is None:
            return 0
        return layout.find('N')

    @staticmethod
    def get_list(shapes: list, types: list | None) -> list:
        """``DataDesc`` list from ``[(name, shape)]`` and optional ``[(name, dtype)]``."""
        if types is not None:
            tdict = dict(types)
            return [DataDesc(x[0], x[1], tdict[x[0]]) for x in shapes]
        return [DataDesc(x[0], x[1]) for x in shapes]


class DataBatch:
    """One batch: lists of data and label NDArrays, ``pad`` (padded examples at the end),
    ``index``, ``bucket_key``, ``provide_data``/``provide_label``.

    Examples
    --------
    >>> b = mx.io.DataBatch([mx.nd.ones((2, 3))], [mx.nd.zeros((2,))], pad=0)
    >>> print(b)
    DataBatch: data shapes: [(2, 3)] label shapes: [(2,)]
    """

    def __init__(self, data: list | None, label: list | None = None, pad: int | None = None,
                 index: Any = None, bucket_key: Any = None, provide_data: list | None = None,
                 provide_label: list | None = None) -> None:
        if data is not None:
            assert isinstance(data, (list, tuple)), "Data must be list of NDArrays"
        if label is not None:
            assert isinstance(label, (list, tuple)), "Label must be list of NDArrays"
        self.data = data
        self.label = label
        self.pad = pad
        self.index = index
        self.bucket_key = bucket_key
        self.provide_data = provide_data
        self.provide_label = provide_label

    def __str__(self) -> str:
        data_shapes = [d.shape for d in self.data]
        label_shapes = [lab.shape for lab in self.label] if self.label else None
        return "{}: data shapes: {} label shapes: {}".format(
            type(self).__name__, data_shapes, label_shapes)


class DataIter:
    """Base class of data iterators: ``next()`` returns a ``DataBatch`` or raises
    StopIteration; ``reset()`` starts over.

    Examples
    --------
    >>> it = mx.io.NDArrayIter(np.zeros((4, 2)), batch_size=2)
    >>> len(list(it))
    2
    """

    def __init__(self, batch_size: int = 0) -> None:
        self.batch_size = batch_size

    def __iter__(self) -> DataIter:
        return self

    def reset(self) -> None:
        """Go back to the beginning of the data."""

    def next(self) -> DataBatch:
        """Return the next batch (StopIteration at the end)."""
        if self.iter_next():
            return DataBatch(data=self.getdata(), label=self.getlabel(),
                             pad=self.getpad(), index=self.getindex())
        raise StopIteration

    def __next__(self) -> DataBatch:
        return self.next()

    def iter_next(self) -> bool:
        """Move to the next batch; False at the end."""
        return False

    def getdata(self) -> list | None:
        """Data of the current batch."""
        return None

    def getlabel(self) -> list | None:
        """Label of the current batch."""
        return None

    def getindex(self) -> Any:
        """Indices of the examples of the current batch (None if unknown)."""
        return None

    def getpad(self) -> int | None:
        """Number of padding examples in the current batch."""
        return None


class ResizeIter(DataIter):
    """Make ``data_iter`` last exactly ``size`` batches per epoch (restarting it as needed).

    Examples
    --------
    >>> it = mx.io.ResizeIter(mx.io.NDArrayIter(np.zeros((4, 2)), batch_size=2), 5)
    >>> len(list(it))
    5
    """

    def __init__(self, data_iter: DataIter, size: int, reset_internal: bool = True) -> None:
        super().__init__()
        self.data_iter = data_iter
        self.size = size
        self.reset_internal = reset_internal
        self.cur = 0
        self.current_batch: DataBatch | None = None
        self.provide_data = data_iter.provide_data
        self.provide_label = data_iter.provide_label
        self.batch_size = data_iter.batch_size
        if hasattr(data_iter, 'default_bucket_key'):
            self.default_bucket_key = data_iter.default_bucket_key

    def reset(self) -> None:
        self.cur = 0
        if self.reset_internal:
            self.data_iter.reset()

    def iter_next(self) -> bool:
        if self.cur == self.size:
            return False
        try:
            self.current_batch = self.data_iter.next()
        except StopIteration:
            self.data_iter.reset()
            self.current_batch = self.data_iter.next()
        self.cur += 1
        return True

    def getdata(self) -> list:
        return self.current_batch.data

    def getlabel(self) -> list:
        return self.current_batch.label

    def getindex(self) -> Any:
        return self.current_batch.index

    def getpad(self) -> int:
        return self.current_batch.pad


def _prefetch_loop(ref: weakref.ref, i: int, taken: threading.Event) -> None:
    """Prefetch thread of :class:`PrefetchingIter`; ends when it stops or is collected."""
    while True:
        taken.wait()
        it = ref()
        if it is None or not it.started:
            return
        it._prefetch(i)
        del it


class PrefetchingIter(DataIter):
    """Read the next batch of one or several iterators on background threads.

    ``rename_data``/``rename_label``: one ``{old_name: new_name}`` dict per iterator.

    Examples
    --------
    >>> it = mx.io.PrefetchingIter(mx.io.NDArrayIter(np.zeros((4, 2)), batch_size=2))
    >>> len(list(it))
    2
    """

    def __init__(self, iters: Any, rename_data: list | None = None,
                 rename_label: list | None = None) -> None:
        super().__init__()
        if not isinstance(iters, list):
            iters = [iters]
        self.n_iter = len(iters)
        assert self.n_iter > 0
        self.iters = iters
        self.rename_data = rename_data
        self.rename_label = rename_label
        self.batch_size = self.provide_data[0][1][0]
        self.data_ready = [threading.Event() for _ in range(self.n_iter)]
        self.data_taken = [threading.Event() for _ in range(self.n_iter)]
        for ev in self.data_taken:
            ev.set()
        self.started = True
        self.current_batch: DataBatch | None = None
        self.next_batch: list = [None] * self.n_iter
        self._errors: list = [None] * self.n_iter
        # the threads hold only a weak reference, so a dropped iterator is finalized (and
        # its threads stopped) instead of leaking them
        self.prefetch_threads = [threading.Thread(target=_prefetch_loop,
                                                  args=(weakref.ref(self), i, self.data_taken[i]),
                                                  daemon=True)
                                 for i in range(self.n_iter)]
        for th in self.prefetch_threads:
            th.start()

    def _prefetch(self, i: int) -> None:
        """Read the next batch of iterator ``i`` (run by its prefetch thread)."""
        try:
            self.next_batch[i] = self.iters[i].next()
        except StopIteration:
            self.next_batch[i] = None
        except Exception as e:  # noqa: BLE001 - re-raised in the consumer
            self.next_batch[i] = None
            self._errors[i] = e
        self.data_taken[i].clear()
        self.data_ready[i].set()

    def __del__(self) -> None:
        self.started = False
        for ev in getattr(self, 'data_taken', []):
            ev.set()
        for th in getattr(self, 'prefetch_threads', []):
            if th is not threading.current_thread():
                th.join(timeout=5)

    def _renamed(self, renames: list | None, attr: str) -> list:
        if renames is None:
            return sum([getattr(it, attr) for it in self.iters], [])
        return sum([[DataDesc(r[x.name], x.shape, x.dtype) if isinstance(x, DataDesc)
                     else DataDesc(*x) for x in getattr(it, attr)]
                    for r, it in zip(renames, self.iters)], [])

    @property
    def provide_data(self) -> list:
        return self._renamed(self.rename_data, 'provide_data')

    @property
    def provide_label(self) -> list:
        return self._renamed(self.rename_label, 'provide_label')

    def _raise_errors(self) -> None:
        for i, err in enumerate(self._errors):
            if err is not None:
                self._errors[i] = None
                raise err

    def reset(self) -> None:
        for ev in self.data_ready:
            ev.wait()
        for it in self.iters:
            it.reset()
        for ev in self.data_ready:
            ev.clear()
        for ev in self.data_taken:
            ev.set()

    def iter_next(self) -> bool:
        for ev in self.data_ready:
            ev.wait()
        self._raise_errors()
        if self.next_batch[0] is None:
            for b in self.next_batch:
                assert b is None, "Number of entry mismatches between iterators"
            return False
        for b in self.next_batch:
            assert b.pad == self.next_batch[0].pad, \
                "Number of entry mismatches between iterators"
        self.current_batch = DataBatch(sum([b.data for b in self.next_batch], []),
                                       sum([b.label for b in self.next_batch], []),
                                       self.next_batch[0].pad, self.next_batch[0].index,
                                       provide_data=self.provide_data,
                                       provide_label=self.provide_label)
        for ev in self.data_ready:
            ev.clear()
        for ev in self.data_taken:
            ev.set()
        return True

    def next(self) -> DataBatch:
        if self.iter_next():
            return self.current_batch
        raise StopIteration

    def getdata(self) -> list:
        return self.current_batch.data

    def getlabel(self) -> list:
        return self.current_batch.label

    def getindex(self) -> Any:
        return self.current_batch.index

    def getpad(self) -> int:
        return self.current_batch.pad


def _is_scipy_csr(v: Any) -> bool:
    return type(v).__module__.startswith('scipy.sparse') and getattr(v, 'format', '') == 'csr'


def _csr(dense: Any, ctx: Any = None) -> NDArray:
    from ..ndarray import sparse
    return sparse.csr_matrix(np.asarray(dense), ctx=ctx)


def _is_csr(v: Any) -> bool:
    return getattr(v, 'stype', 'default') == 'csr'


def _is_h5py_dataset(v: Any) -> bool:
    """True for an ``h5py.Dataset`` (read lazily, a batch at a time, as MXNet does)."""
    return type(v).__name__ == 'Dataset' and type(v).__module__.startswith('h5py')


def _init_data(data: Any, allow_empty: bool, default_name: str) -> list:
    """Canonical ``[(name, NDArray)]`` list, sorted by name."""
    assert (data is not None) or allow_empty
    if data is None:
        data = []
    if isinstance(data, (np.ndarray, NDArray)) or _is_h5py_dataset(data):
        data = [data]
    if isinstance(data, list):
        if not allow_empty:
            assert len(data) > 0
        if len(data) == 1:
            data = OrderedDict([(default_name, data[0])])
        else:
            data = OrderedDict([('_%d_%s' % (i, default_name), d) for i, d in enumerate(data)])
    if not isinstance(data, dict):
        raise TypeError("Input must be NDArray, numpy.ndarray, h5py.Dataset "
                        "a list of them or dict with them as values")
    out = {}
    for k, v in data.items():
        if _is_scipy_csr(v):
            v = _csr(v.toarray())
        elif not isinstance(v, NDArray) and not _is_h5py_dataset(v):
            try:
                v = array(v)
            except Exception:  # noqa: BLE001 - reported as MXNet does
                raise TypeError(("Invalid type '%s' for %s, " % (type(v), k))
                                + "should be NDArray, numpy.ndarray or h5py.Dataset") from None
        out[k] = v
    return sorted(out.items())


class NDArrayIter(DataIter):
    """Iterate over in-memory arrays (NDArray or NumPy; single, list or dict).

    Parameters
    ----------
    data, label : array, list of arrays or dict of name to array
    batch_size : int
    shuffle : bool
        Shuffle (with NumPy's global RNG) at every reset.
    last_batch_handle : {'pad', 'discard', 'roll_over'}
        'pad' fills the last batch from the beginning, 'discard' drops it, 'roll_over'
        carries it to the next epoch.
    data_name, label_name : str
    layout : str
        Position of 'N' gives the batch axis.

    Examples
    --------
    >>> it = mx.io.NDArrayIter(np.arange(10).reshape(5, 2), np.arange(5), batch_size=2)
    >>> [b.pad for b in it]
    [0, 0, 1]
    """

    def __init__(self, data: Any, label: Any = None, batch_size: int = 1, shuffle: bool = False,
                 last_batch_handle: str = 'pad', data_name: str = 'data',
                 label_name: str = 'softmax_label', layout: str = 'NCHW') -> None:
        super().__init__(batch_size)
        self.data = _init_data(data, allow_empty=False, default_name=data_name)
        self.label = _init_data(label, allow_empty=True, default_name=label_name)
        # MXNet 1.9.1 takes any other value and then drops the last partial batch
        if any(_is_csr(v) for _, v in self.data + self.label) and \
                last_batch_handle != 'discard':
            from ..base import MXNetNotSupportedError

            raise MXNetNotSupportedError("`NDArrayIter` only supports ``CSRNDArray`` with "
                                         "`last_batch_handle` set to `discard`.")
        self.idx = np.arange(self.data[0][1].shape[0])
        self.shuffle = shuffle
        self.last_batch_handle = last_batch_handle
        self.batch_size = batch_size
        self.cursor = -self.batch_size
        self.num_data = self.idx.shape[0]
        self.layout = layout
        self._cache_data: list | None = None
        self._cache_label: list | None = None
        self.reset()
        self.data_list = [x[1] for x in self.data] + [x[1] for x in self.label]
        self.num_source = len(self.data_list)

    def _descs(self, source: list) -> list:
        ax = self.layout.find('N')
        return [DataDesc(k, tuple(list(v.shape[:ax]) + [self.batch_size]
                                  + list(v.shape[ax + 1:])), v.dtype, layout=self.layout)
                for k, v in source]

    @property
    def provide_data(self) -> list:
        """``DataDesc`` of each data input (batch-sized)."""
        return self._descs(self.data)

    @property
    def provide_label(self) -> list:
        """``DataDesc`` of each label input (batch-sized)."""
        return self._descs(self.label)

    def hard_reset(self) -> None:
        """Start over, dropping any rolled-over examples."""
        if self.shuffle:
            self._shuffle_data()
        self.cursor = -self.batch_size
        self._cache_data = None
        self._cache_label = None

    def reset(self) -> None:
        if self.shuffle:
            self._shuffle_data()
        if self.last_batch_handle == 'roll_over' and \
                self.num_data - self.batch_size < self.cursor < self.num_data:
            self.cursor = self.cursor - self.num_data - self.batch_size
        else:
            self.cursor = -self.batch_size

    def iter_next(self) -> bool:
        self.cursor += self.batch_size
        return self.cursor < self.num_data

    def next(self) -> DataBatch:
        if not self.iter_next():
            raise StopIteration
        data = self.getdata()
        label = self.getlabel()
        if data[0].shape[self.layout.find('N')] != self.batch_size:
            self._cache_data = data
            self._cache_label = label
            raise StopIteration
        return DataBatch(data=data, label=label, pad=self.getpad(), index=None)

    def _getdata(self, source: list, start: int | None = None, end: int | None = None) -> list:
        start = 0 if start is None else start
        if end is None:
            end = source[0][1].shape[0] if source else 0
        ax = self.layout.find('N')
        out = []
        for _, v in source:
            if _is_h5py_dataset(v):
                out.append(self._h5py_rows(v, start, end))
                continue
            t = v._t
            n = t.shape[ax]
            if end > n and ax == 0:  # e.g. fewer labels than data: MXNet's slice check
                raise MXNetError("Check failed: *end <= axis_size: Invalid end for end=%d as "
                                 "axis_size is %d" % (end, n))
            s, e = max(0, min(start, n)), max(0, min(end, n))
            if _is_csr(v):  # MXNet 1.9.1 slices with slice_axis: a dense batch (fallback)
                out.append(v[s:e].tostype('default'))
                continue
            out.append(NDArray._wrap(t.narrow(ax, s, max(0, e - s)).clone(), v._ctx))
        return out

    def _h5py_rows(self, v: Any, start: int, end: int) -> NDArray:
        """Rows for ``idx[start:end]`` of an h5py dataset, read in increasing order.

        MXNet 1.9.1 then reorders the sorted rows by ``argsort(idx[start:end])`` (not by its
        inverse), so a shuffled batch of an h5py dataset comes in that order; kept as is, so
        data and labels read from h5py pair up exactly as they do in MXNet.
        """
        rows = self.idx[max(0, start):max(0, end)]
        picked = np.asarray(v[np.sort(rows).tolist()])
        return array(picked[np.argsort(rows, kind='stable')])

    def _concat(self, first: list, second: list) -> list:
        if not first or not second:
            return first if first else second
        assert len(first) == len(second), 'data source should contain the same size'
        ax = self.layout.find('N')
        return [NDArray._wrap(torch.cat([a._t, b._t], dim=ax), a._ctx)
                for a, b in zip(first, second)]

    @staticmethod
    def _tile(data: list, repeats: int) -> list:
        out = []
        for d in data:
            reps = [1] * d.ndim
            reps[0] = repeats
            out.append(NDArray._wrap(d._t.repeat(*reps), d._ctx))
        return out

    def _batchify(self, source: list) -> list:
        assert self.cursor < self.num_data, 'DataIter needs reset.'
        bs, n = self.batch_size, self.num_data
        if self.last_batch_handle == 'roll_over' and -bs < self.cursor < 0:
            assert self._cache_data is not None or self._cache_label is not None, \
                'next epoch should have cached data'
            cache = self._cache_data if self._cache_data is not None else self._cache_label
            second = self._getdata(source, end=self.cursor + bs)
            if self._cache_data is not None:
                self._cache_data = None
            else:
                self._cache_label = None
            return self._concat(cache, second)
        if self.last_batch_handle == 'pad' and self.cursor + bs > n:
            pad = bs - n + self.cursor
            first = self._getdata(source, start=self.cursor)
            if pad > n:
                second = self._tile(self._getdata(source, end=n), pad // n)
                if pad % n:
                    second = self._concat(second, self._getdata(source, end=pad % n))
            else:
                second = self._getdata(source, end=pad)
            return self._concat(first, second)
        end = min(self.cursor + bs, n)
        return self._getdata(source, self.cursor, end)

    def getdata(self) -> list:
        return self._batchify(self.data)

    def getlabel(self) -> list:
        return self._batchify(self.label)

    def getpad(self) -> int:
        if self.last_batch_handle == 'pad' and self.cursor + self.batch_size > self.num_data:
            return self.cursor + self.batch_size - self.num_data
        if self.last_batch_handle == 'roll_over' and -self.batch_size < self.cursor < 0:
            return -self.cursor
        return 0

    def _shuffle_data(self) -> None:
        np.random.shuffle(self.idx)
        perm = torch.from_numpy(self.idx.copy())

        def take(v: Any) -> Any:
            if _is_h5py_dataset(v):  # read through self.idx at batch time
                return v
            if _is_csr(v):
                return _csr(v.asnumpy()[self.idx], v.context)
            return NDArray._wrap(v._t[perm], v._ctx)

        self.data = [(k, take(v)) for k, v in self.data]
        self.label = [(k, take(v)) for k, v in self.label]
