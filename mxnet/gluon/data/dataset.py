"""Dataset containers for Gluon (``mx.gluon.data``)."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

__all__ = ['Dataset', 'SimpleDataset', 'ArrayDataset', 'RecordFileDataset']


class Dataset:
    """Base class of all datasets: ``__getitem__`` returns sample ``idx``, ``__len__`` the size.

    Examples
    --------
    >>> ds = SimpleDataset([1, 2, 3]).transform(lambda x: x * 10)
    >>> ds[2]
    30
    """

    def __getitem__(self, idx: int) -> Any:
        raise TypeError('%s does not implement __getitem__' % type(self).__name__)

    def __len__(self) -> int:
        raise TypeError('%s does not implement __len__' % type(self).__name__)

    def filter(self, fn: Callable[[Any], bool]) -> Dataset:
        """Keep only the samples for which ``fn(sample)`` is true."""
        from .sampler import FilterSampler
        return _SampledDataset(self, FilterSampler(fn, self))

    def shard(self, num_shards: int, index: int) -> Dataset:
        """Return the contiguous ``index``-th of ``num_shards`` near-equal parts."""
        assert index < num_shards, 'Shard index of out bound: %d out of %d' % (index, num_shards)
        assert num_shards > 0, 'Number of shards must be greater than 0'
        assert index >= 0, 'Index must be non-negative'
        base, extra = divmod(len(self), num_shards)
        begin = base * index + min(index, extra)
        size = base + (1 if index < extra else 0)
        from .sampler import SequentialSampler
        return _SampledDataset(self, SequentialSampler(size, begin))

    def take(self, count: int | None) -> Dataset:
        """Return the first ``count`` samples (all of them when ``count`` is None)."""
        n = len(self)
        if count is None or count > n:
            count = n
        from .sampler import SequentialSampler
        return _SampledDataset(self, SequentialSampler(count))

    def sample(self, sampler) -> Dataset:
        """Return the samples chosen by ``sampler`` (a ``gluon.data.Sampler``)."""
        from .sampler import Sampler
        if not isinstance(sampler, Sampler):
            raise TypeError('Invalid sampler type: %s. Expected gluon.data.Sampler instead.'
                            % type(sampler))
        return _SampledDataset(self, sampler)

    def transform(self, fn: Callable, lazy: bool = True) -> Dataset:
        """Apply ``fn`` to every sample (tuples are unpacked into arguments)."""
        out = _LazyTransformDataset(self, fn)
        if lazy:
            return out
        return SimpleDataset([out[i] for i in range(len(out))])

    def transform_first(self, fn: Callable, lazy: bool = True) -> Dataset:
        """Apply ``fn`` to the first element of every sample only."""
        return self.transform(_TransformFirstClosure(fn), lazy)


class SimpleDataset(Dataset):
    """Wrap any object with ``len()`` and ``[]`` (a list, an array) as a Dataset.

    Examples
    --------
    >>> len(SimpleDataset(list(range(5))))
    5
    """

    def __init__(self, data: Any) -> None:
        self._data = data

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, idx: int) -> Any:
        return self._data[idx]


class _LazyTransformDataset(Dataset):
    def __init__(self, data: Any, fn: Callable) -> None:
        self._data = data
        self._fn = fn

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, idx: int) -> Any:
        item = self._data[idx]
        if isinstance(item, tuple):
            return self._fn(*item)
        return self._fn(item)


class _TransformFirstClosure:
    """Picklable ``transform_first`` wrapper (worker processes receive it)."""

    def __init__(self, fn: Callable) -> None:
        self._fn = fn

    def __call__(self, x: Any, *rest: Any) -> Any:
        if rest:
            return (self._fn(x),) + rest
        return self._fn(x)


class _SampledDataset(Dataset):
    def __init__(self, dataset: Any, sampler) -> None:
        self._dataset = dataset
        self._sampler = sampler
        self._indices = list(iter(sampler))

    def __len__(self) -> int:
        return len(self._sampler)

    def __getitem__(self, idx: int) -> Any:
        return self._dataset[self._indices[idx]]


class ArrayDataset(Dataset):
    """Zip several equally long dataset-like objects: sample ``i`` is ``(a[i], b[i], ...)``.

    A single argument yields its items directly. 1-D NDArrays are converted to NumPy so
    that items are scalars.

    Examples
    --------
    >>> ds = ArrayDataset([1, 2], ['a', 'b'])
    >>> ds[1]
    (2, 'b')
    """

    def __init__(self, *args: Any) -> None:
        assert len(args) > 0, "Needs at least 1 arrays"
        from ...ndarray.ndarray import NDArray
        self._length = len(args[0])
        self._data = []
        for i, arr in enumerate(args):
            assert len(arr) == self._length, \
                "All arrays must have the same length; array[0] has length %d " \
                "while array[%d] has %d." % (self._length, i + 1, len(arr))
            if isinstance(arr, NDArray) and arr.ndim == 1:
                arr = arr.asnumpy()
            self._data.append(arr)

    def __getitem__(self, idx: int) -> Any:
        if len(self._data) == 1:
            return self._data[0][idx]
        return tuple(arr[idx] for arr in self._data)

    def __len__(self) -> int:
        return self._length


class RecordFileDataset(Dataset):
    """Samples are the raw byte strings of the records of a ``.rec`` file (with its ``.idx``).

    Examples
    --------
    >>> ds = RecordFileDataset('data.rec')  # doctest: +SKIP
    >>> raw = ds[0]                          # doctest: +SKIP
    """

    def __init__(self, filename: str) -> None:
        from ... import recordio
        self.idx_file = os.path.splitext(filename)[0] + '.idx'
        self.filename = filename
        self._record = recordio.MXIndexedRecordIO(self.idx_file, self.filename, 'r')

    def __getitem__(self, idx: int) -> bytes:
        return self._record.read_idx(self._record.keys[idx])

    def __len__(self) -> int:
        return len(self._record.keys)


class _DownloadedDataset(Dataset):
    """Base of the datasets stored under a root folder (MNIST, CIFAR...)."""

    def __init__(self, root: str, transform: Callable | None) -> None:
        self._transform = transform
        self._data: Any = None
        self._label: Any = None
        root = os.path.expanduser(root)
        self._root = root
        if not os.path.isdir(root):
            os.makedirs(root, exist_ok=True)
        self._get_data()

    def __getitem__(self, idx: int) -> Any:
        if self._transform is not None:
            return self._transform(self._data[idx], self._label[idx])
        return self._data[idx], self._label[idx]

    def __len__(self) -> int:
        return len(self._label)

    def _get_data(self) -> None:
        raise TypeError('%s does not implement _get_data' % type(self).__name__)
