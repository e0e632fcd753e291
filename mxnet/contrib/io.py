"""``mx.contrib.io``: adapters between Gluon data loading and ``mx.io`` iterators."""
from __future__ import annotations

from typing import Any

from .. import ndarray as nd
from ..io import DataDesc, DataIter

__all__ = ['DataLoaderIter', 'DataIter', 'DataDesc', 'nd']


class DataLoaderIter(DataIter):
    """Expose a ``gluon.data.DataLoader`` yielding ``(data, label)`` batches as an
    ``mx.io.DataIter`` (for Module). A short last batch is padded up to the batch size
    (``getpad`` tells by how much); values are cast to ``dtype``.

    Parameters
    ----------
    loader : gluon.data.DataLoader
        The loader; its first batch fixes the batch size and shapes.
    data_name, label_name : str
        Names in ``provide_data`` / ``provide_label``.
    dtype : str
        Output dtype ('float32' or 'float16').

    Examples
    --------
    >>> ds = mx.gluon.data.ArrayDataset(mx.nd.ones((10, 2)), mx.nd.zeros((10,)))
    >>> it = DataLoaderIter(mx.gluon.data.DataLoader(ds, 4))
    >>> it.provide_data[0].shape
    (4, 2)
    """

    def __init__(self, loader: Any, data_name: str = 'data',
                 label_name: str = 'softmax_label', dtype: str = 'float32') -> None:
        super().__init__()
        self._loader = loader
        self._iter = iter(loader)
        data, label = next(self._iter)
        self.batch_size = data.shape[0]
        self.dtype = dtype
        self.provide_data = [DataDesc(data_name, data.shape, dtype)]
        self.provide_label = [DataDesc(label_name, label.shape, dtype)]
        self._current_batch = None
        self.reset()

    def reset(self) -> None:
        self._iter = iter(self._loader)

    def iter_next(self) -> bool:
        self._current_batch = next(self._iter, None)
        return self._current_batch is not None

    def _part(self, i: int) -> list:
        arr = self._current_batch[i].astype(self.dtype)
        if arr.shape[0] < self.batch_size:
            full = nd.zeros((self.batch_size,) + tuple(arr.shape[1:]), dtype=self.dtype)
            full[:arr.shape[0]] = arr
            arr = full
        return [arr]

    def getdata(self) -> list:
        return self._part(0)

    def getlabel(self) -> list:
        return self._part(1)

    def getpad(self) -> int:
        return self.batch_size - self._current_batch[0].shape[0]

    def getindex(self):
        return None
