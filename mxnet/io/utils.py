"""Helpers of the data iterators (``mxnet.io.utils``, as in MXNet 1.9.1).

``_init_data`` turns the ``data``/``label`` argument of ``NDArrayIter`` into a sorted list of
``(name, array)``; the others work on such lists.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..ndarray.ndarray import NDArray, array
from .io import _init_data, _is_csr, _is_h5py_dataset

__all__: list[str] = []


def _has_instance(data: list, dtype: Any) -> bool:
    """Whether any array of an ``_init_data`` list is an instance of ``dtype``."""
    return any(isinstance(arr, dtype) for _, arr in data)


def _getdata_by_idx(data: list, idx: Any) -> list:
    """The ``(name, array)`` list with every array's rows taken in ``idx`` order (h5py
    datasets are kept as they are: they are read through the index later)."""
    out = []
    for name, arr in data:
        if _is_h5py_dataset(arr):
            out.append((name, arr))
        elif _is_csr(arr):
            from ..ndarray import sparse

            out.append((name, sparse.csr_matrix(arr.asscipy()[idx], ctx=arr.context)))
        else:
            out.append((name, array(np.asarray(arr.asnumpy())[idx], arr.context)))
    return out


def _slice_along_batch_axis(data: NDArray, s: slice, batch_axis: int) -> NDArray:
    """``data[s]`` along ``batch_axis``."""
    return data.slice_axis(axis=batch_axis, begin=s.start, end=s.stop)


_init_data = _init_data
