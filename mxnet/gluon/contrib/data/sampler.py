"""Experimental samplers: :class:`IntervalSampler`."""

from __future__ import annotations

from ...data.sampler import Sampler

__all__ = ["IntervalSampler"]


class IntervalSampler(Sampler):
    """Indices ``0, k, 2k, ...`` of ``range(length)``, then (with ``rollover``) the same
    walk started from ``1, 2, ..., k-1``.

    Parameters
    ----------
    length : int
        Number of elements.
    interval : int
        Step between consecutive indices.
    rollover : bool, default True
        Whether to continue from the next start offset once the end is reached.

    Examples
    --------
    >>> list(IntervalSampler(6, 3))
    [0, 3, 1, 4, 2, 5]
    >>> list(IntervalSampler(6, 3, rollover=False))
    [0, 3]
    """

    def __init__(self, length, interval, rollover=True):
        if interval > length:
            raise AssertionError(
                f"Interval {interval} must be smaller than or equal to length {length}"
            )
        self._length = length
        self._interval = interval
        self._rollover = rollover

    def __iter__(self):
        for start in range(self._interval if self._rollover else 1):
            yield from range(start, self._length, self._interval)

    def __len__(self):
        return self._length if self._rollover else len(range(0, self._length, self._interval))
