"""``ImageIter``: a Python image iterator over RecordIO files or image lists."""
from __future__ import annotations

import logging
import os
import random
from typing import Any

import numpy as np
import torch

from .. import recordio
from ..io.io import DataBatch, DataIter
from ..ndarray.ndarray import NDArray
from ..ndarray.ndarray import empty as _nd_empty
from ..ndarray.ndarray import zeros as _nd_zeros
from ..util import is_np_array
from . import image as _image
from ._augment import CreateAugmenter

__all__ = ['ImageIter']


class ImageIter(DataIter):
    """Image data iterator with augmentation, over a ``.rec`` (optionally indexed), a ``.lst``
    image list or a Python ``imglist``.

    Parameters
    ----------
    batch_size : int
    data_shape : tuple
        (3, H, W).
    label_width : int
    path_imgrec, path_imgidx, path_imglist, path_root : str
    shuffle : bool
    part_index, num_parts : int
    aug_list : list of Augmenter
        Defaults to ``CreateAugmenter(data_shape, **kwargs)``.
    imglist : list
        ``[label(s)..., path]`` entries.
    data_name, label_name : str
    dtype : str
        Label dtype.
    last_batch_handle : {'pad', 'discard', 'roll_over'}

    Examples
    --------
    >>> it = mx.image.ImageIter(4, (3, 32, 32), path_imgrec='data.rec')  # doctest: +SKIP
    """

    def __init__(self, batch_size: int, data_shape: tuple, label_width: int = 1,
                 path_imgrec: str | None = None, path_imglist: str | None = None,
                 path_root: str | None = None, path_imgidx: str | None = None,
                 shuffle: bool = False, part_index: int = 0, num_parts: int = 1,
                 aug_list: list | None = None, imglist: list | None = None,
                 data_name: str = 'data', label_name: str = 'softmax_label',
                 dtype: str = 'float32', last_batch_handle: str = 'pad', **kwargs: Any) -> None:
        super().__init__()
        assert path_imgrec or path_imglist or isinstance(imglist, list)
        assert dtype in ['int32', 'float32', 'int64', 'float64'], dtype + ' label not supported'
        name = type(self).__name__
        self.imgidx: list | None = None
        if path_imgrec:
            logging.info('%s: loading recordio %s...', name, path_imgrec)
            if path_imgidx:
                self.imgrec = recordio.MXIndexedRecordIO(path_imgidx, path_imgrec, 'r')
                self.imgidx = list(self.imgrec.keys)
            else:
                self.imgrec = recordio.MXRecordIO(path_imgrec, 'r')
        else:
            self.imgrec = None
        imgkeys: list = []
        if path_imglist:
            logging.info('%s: loading image list %s...', name, path_imglist)
            self.imglist, imgkeys = _image._imglist_from_file(path_imglist, dtype)
        elif isinstance(imglist, list):
            self.imglist, imgkeys = _image._imglist_from_list(imglist, dtype)
        else:
            self.imglist = None
        self.path_root = path_root
        self.check_data_shape(data_shape)
        self.provide_data = [(data_name, (batch_size,) + tuple(data_shape))]
        if label_width > 1:
            self.provide_label = [(label_name, (batch_size, label_width))]
        else:
            self.provide_label = [(label_name, (batch_size,))]
        self.batch_size = batch_size
        self.data_shape = tuple(data_shape)
        self.label_width = label_width
        self.shuffle = shuffle
        if self.imgrec is None:
            self.seq = imgkeys
        elif shuffle or num_parts > 1 or path_imgidx:
            assert self.imgidx is not None
            self.seq = self.imgidx
        else:
            self.seq = None
        if num_parts > 1:
            assert part_index < num_parts
            per = len(self.seq) // num_parts
            self.seq = self.seq[part_index * per:(part_index + 1) * per]
        self.auglist = CreateAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        self.cur = 0
        self._allow_read = True
        self.last_batch_handle = last_batch_handle
        self.num_image = len(self.seq) if self.seq is not None else None
        self._cache_data: NDArray | None = None
        self._cache_label: NDArray | None = None
        self._cache_idx: int | None = None
        self.reset()

    def reset(self) -> None:
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.last_batch_handle != 'roll_over' or self._cache_data is None:
            if self.imgrec is not None:
                self.imgrec.reset()
            self.cur = 0
            self._allow_read = True

    def hard_reset(self) -> None:
        """Start over, dropping rolled-over samples."""
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.imgrec is not None:
            self.imgrec.reset()
        self.cur = 0
        self._allow_read = True
        self._cache_data = self._cache_label = self._cache_idx = None

    def next_sample(self) -> tuple:
        """``(label, encoded image bytes)`` of the next sample."""
        if not self._allow_read:
            raise StopIteration
        if self.seq is not None:
            if self.cur >= self.num_image:
                if self.last_batch_handle != 'discard':
                    self.cur = 0
                raise StopIteration
            idx = self.seq[self.cur]
            self.cur += 1
            if self.imgrec is not None:
                header, img = recordio.unpack(self.imgrec.read_idx(idx))
                if self.imglist is None:
                    return header.label, img
                return self.imglist[idx][0], img
            label, fname = self.imglist[idx]
            return label, self.read_image(fname)
        s = self.imgrec.read()
        if s is None:
            if self.last_batch_handle != 'discard':
                self.imgrec.reset()
            raise StopIteration
        header, img = recordio.unpack(s)
        return header.label, img

    def _batchify(self, batch_data: NDArray, batch_label: NDArray, start: int = 0) -> int:
        i = start
        try:
            while i < self.batch_size:
                label, s = self.next_sample()
                data = self.imdecode(s)
                try:
                    self.check_valid_image(data)
                except RuntimeError as e:
                    logging.debug('Invalid image, skipping:  %s', str(e))
                    continue
                data = self.augmentation_transform(data)
                batch_data._t[i] = self.postprocess_data(data)._t
                lab = label.asnumpy() if isinstance(label, NDArray) else np.asarray(label)
                row = batch_label._t[i]
                # numpy broadcasting, as MXNet's batch_label[i] = label (a scalar fills the
                # row; a wrong width is numpy's ValueError)
                shape = tuple(row.shape)
                if lab.size == row.numel():
                    lab = lab.reshape(shape)
                else:
                    lab = np.broadcast_to(lab, shape)
                row.copy_(torch.from_numpy(np.array(lab)))  # (ascontiguousarray makes 0-d 1-d)
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def next(self) -> DataBatch:
        c, h, w = self.data_shape
        if self._cache_data is not None:
            batch_data, batch_label = self._cache_data, self._cache_label
            i = self._cache_idx
        else:
            batch_data = _nd_zeros((self.batch_size, c, h, w))
            batch_label = _nd_empty(self.provide_label[0][1])
            if is_np_array():  # MXNet builds the batch with mx.np under npx.set_np()
                batch_data, batch_label = batch_data.as_np_ndarray(), batch_label.as_np_ndarray()
            i = self._batchify(batch_data, batch_label)
        pad = self.batch_size - i
        if pad:
            if self.last_batch_handle == 'discard':
                raise StopIteration
            if self.last_batch_handle == 'roll_over' and self._cache_data is None:
                self._cache_data, self._cache_label, self._cache_idx = \
                    batch_data, batch_label, i
                raise StopIteration
            self._batchify(batch_data, batch_label, i)
            if self.last_batch_handle == 'pad':
                self._allow_read = False
            else:
                self._cache_data = self._cache_label = self._cache_idx = None
        return DataBatch([batch_data], [batch_label], pad=pad)

    def check_data_shape(self, data_shape: tuple) -> None:
        """Require a (3, H, W) shape."""
        if not len(data_shape) == 3:
            raise ValueError('data_shape should have length 3, with dimensions CxHxW')
        if not data_shape[0] == 3:
            raise ValueError('This iterator expects inputs to have 3 channels.')

    def check_valid_image(self, data: NDArray) -> None:
        """Raise RuntimeError for an empty image."""
        if len(data[0].shape) == 0:
            raise RuntimeError('Data shape is wrong')

    def imdecode(self, s: bytes) -> NDArray:
        """Decode one image; errors name the file or record."""
        try:
            return _image.imdecode(s)
        except Exception as e:  # noqa: BLE001 - re-raised with the location
            n = self.num_image or 0
            if self.seq is not None and n:
                idx = self.seq[self.cur % n - 1]
            else:
                idx = self.cur % n - 1 if n else self.cur - 1
            if self.imglist is not None:
                where = 'filename: {}'.format(self.imglist[idx][1])
            else:
                where = 'index: {}'.format(idx)
            raise RuntimeError('Broken image {}, {}'.format(where, e)) from None

    def read_image(self, fname: str) -> bytes:
        """Raw bytes of ``path_root/fname``."""
        return _image._read_file(os.path.join(self.path_root or '', fname))

    def augmentation_transform(self, data: NDArray) -> NDArray:
        """Apply ``auglist``."""
        for aug in self.auglist:
            data = aug(data)
        return data

    def postprocess_data(self, datum: NDArray) -> NDArray:
        """HWC -> CHW."""
        return NDArray._wrap(datum._t.permute(2, 0, 1), datum._ctx)
