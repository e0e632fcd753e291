"""The order MXNet 1.9.1's CPU ``topk``/``sort``/``argsort`` give to equal values.

MXNet sorts each row's indices with the C++ standard library (``std::sort`` when
``k * 8 > n``, else ``std::partial_sort``) under a plain ``<`` (ascending) or ``>``
(descending) comparison of the values. Neither algorithm is stable: equal values come
out in an order that depends on the whole row (GluonCV's RCNN sampler argsorts a mask of
three values; CenterNet's decoder takes the top-k of a heatmap with many equal entries).
The torch sort we use otherwise is stable, which agrees with MXNet whenever the values
that reach the output are distinct, and for rows of at most 16 elements (insertion sort).

This module replays the GNU libstdc++ algorithms (introsort with median-of-three pivots
and a final insertion sort; heap selection for the partial sort), which MXNet's Linux
wheels were built with, on the rows whose result depends on how ties are ordered.
It runs in Python, so it is used only for rows of at most ``MAX_FULL`` elements (full
sorts) or ``MAX_PARTIAL`` elements (partial sorts, which cost about one comparison per
element).

Examples
--------
>>> from mxnet._op._sort_ties import gnu_sort_order
>>> gnu_sort_order([1.0] * 20, 20, False)[:4]
[0, 19, 18, 17]
"""

from __future__ import annotations

import math

import torch

__all__ = ["gnu_sort_order", "tie_aware_indices", "MAX_FULL", "MAX_PARTIAL"]

# rows longer than these keep torch's stable order (the replay is Python: a full sort of
# 2**16 tied elements takes ~0.3 s, a partial sort of 2**20 about as long)
MAX_FULL = 1 << 16
MAX_PARTIAL = 1 << 20
_THRESHOLD = 16  # libstdc++'s _S_threshold


def gnu_sort_order(vals: list, k: int, ascend: bool) -> list[int]:
    """Positions ``0..n-1`` ordered as MXNet's CPU TopKSort leaves them (the first ``k``
    are the result): ``std::sort`` when ``k * 8 > n``, else ``std::partial_sort``."""
    n = len(vals)
    a = list(range(n))
    if ascend:

        def less(i, j):
            return vals[i] < vals[j]
    else:

        def less(i, j):
            return vals[i] > vals[j]

    if k * 8 > n:
        if n > 1:
            _introsort(a, 0, n, 2 * int(math.log2(n)), less)
            _final_insertion_sort(a, 0, n, less)
    else:
        _partial_sort(a, 0, k, n, less)
    return a


# --- heap routines (std::__adjust_heap, __push_heap, __make_heap, __pop_heap) -----------


def _push_heap(a, first, hole, top, value, less):
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _adjust_heap(a, first, hole, length, value, less):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    _push_heap(a, first, hole, top, value, less)


def _make_heap(a, first, last, less):
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(a, first, parent, length, a[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a, first, last, result, less):
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _partial_sort(a, first, middle, last, less):
    """std::__partial_sort: heap selection of the first ``middle - first``, then sort_heap."""
    _make_heap(a, first, middle, less)
    for i in range(middle, last):
        if less(a[i], a[first]):
            _pop_heap(a, first, middle, i, less)
    while middle - first > 1:
        middle -= 1
        _pop_heap(a, first, middle, middle, less)


# --- introsort ------------------------------------------------------------------------


def _move_median_to_first(a, result, x, y, z, less):
    ax, ay, az = a[x], a[y], a[z]
    if less(ax, ay):
        if less(ay, az):
            m = y
        elif less(ax, az):
            m = z
        else:
            m = x
    elif less(ax, az):
        m = x
    elif less(ay, az):
        m = z
    else:
        m = y
    a[result], a[m] = a[m], a[result]


def _unguarded_partition(a, first, last, pivot, less):
    while True:
        while less(a[first], a[pivot]):
            first += 1
        last -= 1
        while less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _introsort(a, first, last, depth, less):
    while last - first > _THRESHOLD:
        if depth == 0:
            _partial_sort(a, first, last, last, less)
            return
        depth -= 1
        mid = first + (last - first) // 2
        _move_median_to_first(a, first, first + 1, mid, last - 1, less)
        cut = _unguarded_partition(a, first + 1, last, first, less)
        _introsort(a, cut, last, depth, less)
        last = cut


def _linear_insert(a, pos, less):
    val = a[pos]
    nxt = pos - 1
    while less(val, a[nxt]):
        a[pos] = a[nxt]
        pos = nxt
        nxt -= 1
    a[pos] = val


def _insertion_sort(a, first, last, less):
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            val = a[i]
            a[first + 1 : i + 1] = a[first:i]
            a[first] = val
        else:
            _linear_insert(a, i, less)


def _final_insertion_sort(a, first, last, less):
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):
            _linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


# --- tensor entry point ---------------------------------------------------------------


def tie_aware_indices(data: torch.Tensor, ax: int, k: int, ascend: bool) -> torch.Tensor:
    """The first ``k`` sorted positions along ``ax`` (int64), in MXNet's CPU order.

    Torch's stable sort gives them; rows where equal values reach the first ``k`` (and
    that are short enough, without NaN) are redone with :func:`gnu_sort_order`.
    """
    vals, idx = torch.sort(data, dim=ax, descending=not ascend, stable=True)
    n = data.shape[ax]
    idx = idx.narrow(ax, 0, k)
    cap = MAX_FULL if k * 8 > n else MAX_PARTIAL
    if n <= _THRESHOLD or n > cap or data.numel() == 0 or data.dtype == torch.bool:
        return idx
    sv = vals.movedim(ax, -1).reshape(-1, n)
    m = min(k + 1, n)
    tied = (sv[:, 1:m] == sv[:, : m - 1]).any(1)
    if data.is_floating_point():
        tied &= ~torch.isnan(sv).any(1)
    rows = torch.nonzero(tied).flatten().tolist()
    if not rows:
        return idx
    flat = data.movedim(ax, -1).reshape(-1, n).cpu()
    out = idx.movedim(ax, -1).reshape(-1, k).clone()
    for r in rows:
        order = gnu_sort_order(flat[r].tolist(), k, ascend)[:k]
        out[r] = torch.tensor(order, dtype=out.dtype)
    shape = list(data.movedim(ax, -1).shape[:-1]) + [k]
    return out.reshape(shape).movedim(-1, ax).to(idx.device)
