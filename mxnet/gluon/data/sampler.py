"""Samplers: iterables of dataset indices (``mx.gluon.data``)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

__all__ = ['Sampler', 'SequentialSampler', 'RandomSampler', 'FilterSampler', 'BatchSampler',
           'IntervalSampler']

_LAST_BATCH = ('keep', 'discard', 'rollover')


class Sampler:
    """Base class of samplers: subclasses define ``__iter__`` and ``__len__``."""

    def __iter__(self) -> Iterator:
        raise TypeError('%s does not implement __iter__' % type(self).__name__)

    def __len__(self) -> int:
        raise TypeError('%s does not implement __len__' % type(self).__name__)


class SequentialSampler(Sampler):
    """Indices ``start, start+1, ..., start+length-1`` in order.

    Examples
    --------
    >>> list(SequentialSampler(3, 2))
    [2, 3, 4]
    """

    def __init__(self, length: int, start: int = 0) -> None:
        self._length = length
        self._start = start

    def __iter__(self) -> Iterator[int]:
        return iter(range(self._start, self._start + self._length))

    def __len__(self) -> int:
        return self._length


class RandomSampler(Sampler):
    """A fresh permutation of ``range(length)`` per epoch (NumPy's global RNG).

    Examples
    --------
    >>> sorted(RandomSampler(4))
    [0, 1, 2, 3]
    """

    def __init__(self, length: int) -> None:
        self._length = length

    def __iter__(self) -> Iterator[int]:
        order = np.arange(self._length)
        np.random.shuffle(order)
        return iter(order)

    def __len__(self) -> int:
        return self._length


class FilterSampler(Sampler):
    """Indices of the samples of ``dataset`` for which ``fn(sample)`` is true.

    Examples
    --------
    >>> list(FilterSampler(lambda x: x % 2 == 0, [1, 2, 4, 5]))
    [1, 2]
    """

    def __init__(self, fn: Callable[[Any], bool], dataset: Any) -> None:
        self._fn = fn
        self._dataset = dataset
        self._indices = [i for i in range(len(dataset)) if fn(dataset[i])]

    def __iter__(self) -> Iterator[int]:
        return iter(self._indices)

    def __len__(self) -> int:
        return len(self._indices)


class IntervalSampler(Sampler):
    """Indices ``0, interval, 2*interval, ..., 1, 1+interval, ...`` (all when ``rollover``).

    Examples
    --------
    >>> list(IntervalSampler(6, interval=3))
    [0, 3, 1, 4, 2, 5]
    """

    def __init__(self, length: int, interval: int, rollover: bool = True) -> None:
        assert interval < length, \
            "Interval {} must be smaller than length {}".format(interval, length)
        self._length = length
        self._interval = interval
        self._rollover = rollover

    def __iter__(self) -> Iterator[int]:
        starts = range(self._interval) if self._rollover else range(1)
        for s in starts:
            yield from range(s, self._length, self._interval)

    def __len__(self) -> int:
        if self._rollover:
            return self._length
        return len(range(0, self._length, self._interval))


def _check_last_batch(last_batch: str) -> None:
    if last_batch not in _LAST_BATCH:
        raise ValueError("last_batch must be one of 'keep', 'discard', or 'rollover', "
                         "but got %s" % last_batch)


class BatchSampler(Sampler):
    """Group the indices of ``sampler`` into lists of ``batch_size``.

    ``last_batch``: 'keep' yields the short tail, 'discard' drops it, 'rollover' carries it
    over to the start of the next epoch.

    Examples
    --------
    >>> list(BatchSampler(SequentialSampler(10), 3, 'keep'))
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    """

    def __init__(self, sampler: Any, batch_size: int, last_batch: str = 'keep') -> None:
        self._sampler = sampler
        self._batch_size = batch_size
        self._last_batch = last_batch
        self._prev: list = []

    def __iter__(self) -> Iterator[list]:
        batch, self._prev = self._prev, []
        for idx in self._sampler:
            batch.append(idx)
            if len(batch) == self._batch_size:
                yield batch
                batch = []
        if batch:
            _check_last_batch(self._last_batch)
            if self._last_batch == 'keep':
                yield batch
            elif self._last_batch == 'rollover':
                self._prev = batch

    def __len__(self) -> int:
        _check_last_batch(self._last_batch)
        n = len(self._sampler)
        if self._last_batch == 'keep':
            return (n + self._batch_size - 1) // self._batch_size
        if self._last_batch == 'discard':
            return n // self._batch_size
        return (len(self._prev) + n) // self._batch_size
