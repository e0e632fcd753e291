"""Object-detection augmenters and ``ImageDetIter`` (``mx.image.detection``).

A detection label is an (N, 5+) array of objects ``[class, xmin, ymin, xmax, ymax, ...]`` with
coordinates normalized to [0, 1]. In record files it is stored flattened after a small header:
``[header_width, object_width, extra..., objects...]``.
"""
from __future__ import annotations

import json
import logging
import random
import warnings
from math import sqrt
from typing import Any

import numpy as np
import torch

from ..base import numeric_types
from ..io.io import DataBatch
from ..ndarray.ndarray import NDArray
from ..ndarray.ndarray import empty as _nd_empty
from ..ndarray.ndarray import zeros as _nd_zeros
from ..util import is_np_array
from ._augment import (
    Augmenter,
    CastAug,
    ColorJitterAug,
    ColorNormalizeAug,
    ForceResizeAug,
    HueJitterAug,
    LightingAug,
    RandomGrayAug,
    RandomOrderAug,  # noqa: F401  (MXNet's module namespace has it)
    ResizeAug,
)
from ._imageiter import ImageIter
from .image import copyMakeBorder, fixed_crop

__all__ = ['DetAugmenter', 'DetBorrowAug', 'DetRandomSelectAug', 'DetHorizontalFlipAug',
           'DetRandomCropAug', 'DetRandomPadAug', 'CreateMultiRandCropAugmenter',
           'CreateDetAugmenter', 'ImageDetIter']


def _as_range(v: Any, what: str, name: str) -> tuple:
    if isinstance(v, (tuple, list)):
        return tuple(v)
    assert isinstance(v, numeric_types)
    logging.info('Using fixed %s: %s in %s', what, str(v), name)
    return (v, v)


def _areas(boxes: np.ndarray) -> np.ndarray:
    """Areas of ``[xmin, ymin, xmax, ymax]`` rows (0 for empty boxes)."""
    return np.maximum(0, boxes[:, 3] - boxes[:, 1]) * np.maximum(0, boxes[:, 2] - boxes[:, 0])


class DetAugmenter:
    """Base class of detection augmenters: ``aug(src, label) -> (src, label)``.

    Examples
    --------
    >>> DetHorizontalFlipAug(0.5).dumps()
    '["dethorizontalflipaug", {"p": 0.5}]'
    """

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs
        for k, v in self._kwargs.items():
            if isinstance(v, NDArray):
                v = v.asnumpy()
            if isinstance(v, np.ndarray):
                self._kwargs[k] = v.tolist()

    def dumps(self) -> str:
        """JSON description ``[name, kwargs]``."""
        return json.dumps([type(self).__name__.lower(), self._kwargs])

    def __call__(self, src: NDArray, label: np.ndarray) -> tuple:
        raise TypeError('%s does not implement __call__' % type(self).__name__)


class DetBorrowAug(DetAugmenter):
    """Use an image-only ``Augmenter`` in a detection pipeline (labels unchanged)."""

    def __init__(self, augmenter: Augmenter) -> None:
        if not isinstance(augmenter, Augmenter):
            raise TypeError('Borrowing from invalid Augmenter')
        super().__init__(augmenter=augmenter.dumps())
        self.augmenter = augmenter

    def dumps(self) -> list:
        return [type(self).__name__.lower(), self.augmenter.dumps()]

    def __call__(self, src: NDArray, label: np.ndarray) -> tuple:
        return self.augmenter(src), label


class DetRandomSelectAug(DetAugmenter):
    """Apply one augmenter picked at random from ``aug_list``, or none with ``skip_prob``."""

    def __init__(self, aug_list: Any, skip_prob: float = 0) -> None:
        super().__init__(skip_prob=skip_prob)
        if not isinstance(aug_list, (list, tuple)):
            aug_list = [aug_list]
        for aug in aug_list:
            if not isinstance(aug, DetAugmenter):
                raise ValueError('Allow DetAugmenter in list only')
        if not aug_list:
            skip_prob = 1
        self.aug_list = aug_list
        self.skip_prob = skip_prob

    def dumps(self) -> list:
        return [type(self).__name__.lower(), [x.dumps() for x in self.aug_list]]

    def __call__(self, src: NDArray, label: np.ndarray) -> tuple:
        if random.random() < self.skip_prob:
            return src, label
        random.shuffle(self.aug_list)
        return self.aug_list[0](src, label)


class DetHorizontalFlipAug(DetAugmenter):
    """Flip image and boxes left-right with probability ``p``."""

    def __init__(self, p: float) -> None:
        super().__init__(p=p)
        self.p = p

    def __call__(self, src: NDArray, label: np.ndarray) -> tuple:
        if random.random() < self.p:
            src = NDArray._wrap(torch.flip(src._t, dims=(1,)), src._ctx)
            xmin = 1.0 - label[:, 3]
            label[:, 3] = 1.0 - label[:, 1]
            label[:, 1] = xmin
        return src, label


class DetRandomCropAug(DetAugmenter):
    """Random crop that keeps at least ``min_object_covered`` of every kept object; objects
    covered less than ``min_eject_coverage`` are dropped.

    Examples
    --------
    >>> aug = DetRandomCropAug(min_object_covered=0.5)
    """

    def __init__(self, min_object_covered: float = 0.1, aspect_ratio_range: Any = (0.75, 1.33),
                 area_range: Any = (0.05, 1.0), min_eject_coverage: float = 0.3,
                 max_attempts: int = 50) -> None:
        aspect_ratio_range = _as_range(aspect_ratio_range, 'aspect ratio', 'DetRandomCropAug')
        area_range = _as_range(area_range, 'area range', 'DetRandomCropAug')
        super().__init__(min_object_covered=min_object_covered,
                         aspect_ratio_range=aspect_ratio_range, area_range=area_range,
                         min_eject_coverage=min_eject_coverage, max_attempts=max_attempts)
        self.min_object_covered = min_object_covered
        self.min_eject_coverage = min_eject_coverage
        self.max_attempts = max_attempts
        self.aspect_ratio_range = aspect_ratio_range
        self.area_range = area_range
        self.enabled = False
        if area_range[1] <= 0 or area_range[0] > area_range[1]:
            warnings.warn('Skip DetRandomCropAug due to invalid area_range: %s' % (area_range,),
                          stacklevel=2)
        elif aspect_ratio_range[0] > aspect_ratio_range[1] or aspect_ratio_range[0] <= 0:
            warnings.warn('Skip DetRandomCropAug due to invalid aspect_ratio_range: %s'
                          % (aspect_ratio_range,), stacklevel=2)
        else:
            self.enabled = True

    def __call__(self, src: NDArray, label: np.ndarray) -> tuple:
        crop = self._random_crop_proposal(label, src.shape[0], src.shape[1])
        if crop:
            x, y, w, h, label = crop
            src = fixed_crop(src, x, y, w, h, None)
        return src, label

    @staticmethod
    def _intersect(boxes: np.ndarray, xmin: float, ymin: float, xmax: float,
                   ymax: float) -> np.ndarray:
        out = boxes.copy()
        out[:, 0] = np.maximum(boxes[:, 0], xmin)
        out[:, 1] = np.maximum(boxes[:, 1], ymin)
        out[:, 2] = np.minimum(boxes[:, 2], xmax)
        out[:, 3] = np.minimum(boxes[:, 3], ymax)
        empty = np.logical_or(out[:, 0] >= out[:, 2], out[:, 1] >= out[:, 3])
        out[empty, :] = 0
        return out

    def _satisfied(self, label: np.ndarray, box: tuple, width: int, height: int) -> bool:
        xmin, ymin, xmax, ymax = box
        if (xmax - xmin) * (ymax - ymin) < 2:
            return False
        areas = _areas(label[:, 1:])
        valid = np.where(areas * width * height > 2)[0]
        if valid.size < 1:
            return False
        inter = self._intersect(label[valid, 1:], xmin / width, ymin / height, xmax / width,
                                ymax / height)
        cover = _areas(inter) / areas[valid]
        cover = cover[cover > 0]
        return cover.size > 0 and np.amin(cover) > self.min_object_covered

    def _update_labels(self, label: np.ndarray, box: tuple, height: int,
                       width: int) -> np.ndarray | None:
        x0, y0 = float(box[0]) / width, float(box[1]) / height
        w, h = float(box[2]) / width, float(box[3]) / height
        out = label.copy()
        out[:, (1, 3)] = (out[:, (1, 3)] - x0) / w
        out[:, (2, 4)] = (out[:, (2, 4)] - y0) / h
        out[:, 1:5] = np.clip(out[:, 1:5], 0, 1)
        cover = _areas(out[:, 1:]) * w * h / _areas(label[:, 1:])
        keep = np.logical_and(out[:, 3] > out[:, 1], out[:, 4] > out[:, 2])
        keep = np.where(np.logical_and(keep, cover > self.min_eject_coverage))[0]
        if keep.size < 1:
            return None
        return out[keep, :]

    def _random_crop_proposal(self, label: np.ndarray, height: int, width: int) -> tuple:
        if not self.enabled or height <= 0 or width <= 0:
            return ()
        min_area = self.area_range[0] * height * width
        max_area = self.area_range[1] * height * width
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            if ratio <= 0:
                continue
            h = int(round(sqrt(min_area / ratio)))
            max_h = int(round(sqrt(max_area / ratio)))
            if round(max_h * ratio) > width:
                max_h = int((width + 0.4999999) / ratio)
            max_h = min(max_h, height)
            h = min(h, max_h)
            if h < max_h:
                h = random.randint(h, max_h)
            w = int(round(h * ratio))
            area = w * h
            if area < min_area:
                h += 1
                w = int(round(h * ratio))
                area = w * h
            if area > max_area:
                h -= 1
                w = int(round(h * ratio))
                area = w * h
            if not (min_area <= area <= max_area and 0 <= w <= width and 0 <= h <= height):
                continue
            y = random.randint(0, max(0, height - h))
            x = random.randint(0, max(0, width - w))
            if self._satisfied(label, (x, y, x + w, y + h), width, height):
                new_label = self._update_labels(label, (x, y, w, h), height, width)
                if new_label is not None:
                    return x, y, w, h, new_label
        return ()


class DetRandomPadAug(DetAugmenter):
    """Random expansion (zoom out): place the image on a larger ``pad_val`` canvas.

    Examples
    --------
    >>> aug = DetRandomPadAug(area_range=(1.0, 2.0))
    """

    def __init__(self, aspect_ratio_range: Any = (0.75, 1.33), area_range: Any = (1.0, 3.0),
                 max_attempts: int = 50, pad_val: Any = (128, 128, 128)) -> None:
        if not isinstance(pad_val, (list, tuple)):
            assert isinstance(pad_val, numeric_types)
        aspect_ratio_range = _as_range(aspect_ratio_range, 'aspect ratio', 'DetRandomPadAug')
        area_range = _as_range(area_range, 'area range', 'DetRandomPadAug')
        super().__init__(aspect_ratio_range=aspect_ratio_range, area_range=area_range,
                         max_attempts=max_attempts, pad_val=pad_val)
        self.pad_val = pad_val
        self.aspect_ratio_range = aspect_ratio_range
        self.area_range = area_range
        self.max_attempts = max_attempts
        self.enabled = False
        if area_range[1] <= 1.0 or area_range[0] > area_range[1]:
            warnings.warn('Skip DetRandomPadAug due to invalid parameters: %s' % (area_range,),
                          stacklevel=2)
        elif aspect_ratio_range[0] <= 0 or aspect_ratio_range[0] > aspect_ratio_range[1]:
            warnings.warn('Skip DetRandomPadAug due to invalid aspect_ratio_range: %s'
                          % (aspect_ratio_range,), stacklevel=2)
        else:
            self.enabled = True

    def __call__(self, src: NDArray, label: np.ndarray) -> tuple:
        height, width, _ = src.shape
        pad = self._random_pad_proposal(label, height, width)
        if pad:
            x, y, w, h, label = pad
            vals = tuple(self.pad_val) if isinstance(self.pad_val, (list, tuple)) \
                else (self.pad_val,)
            src = copyMakeBorder(src, y, h - y - height, x, w - x - width, 16, values=vals)
        return src, label

    @staticmethod
    def _update_labels(label: np.ndarray, box: tuple, height: int, width: int) -> np.ndarray:
        out = label.copy()
        out[:, (1, 3)] = (out[:, (1, 3)] * width + box[0]) / box[2]
        out[:, (2, 4)] = (out[:, (2, 4)] * height + box[1]) / box[3]
        return out

    def _random_pad_proposal(self, label: np.ndarray, height: int, width: int) -> tuple:
        if not self.enabled or height <= 0 or width <= 0:
            return ()
        min_area = self.area_range[0] * height * width
        max_area = self.area_range[1] * height * width
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            if ratio <= 0:
                continue
            h = int(round(sqrt(min_area / ratio)))
            max_h = int(round(sqrt(max_area / ratio)))
            if round(h * ratio) < width:
                h = int((width + 0.499999) / ratio)
            h = max(h, height)
            h = min(h, max_h)
            if h < max_h:
                h = random.randint(h, max_h)
            w = int(round(h * ratio))
            if h - height < 2 or w - width < 2:
                continue
            y = random.randint(0, max(0, h - height))
            x = random.randint(0, max(0, w - width))
            return x, y, w, h, self._update_labels(label, (x, y, w, h), height, width)
        return ()


def CreateMultiRandCropAugmenter(min_object_covered: Any = 0.1,
                                 aspect_ratio_range: Any = (0.75, 1.33),
                                 area_range: Any = (0.05, 1.0), min_eject_coverage: Any = 0.3,
                                 max_attempts: Any = 50, skip_prob: float = 0) -> DetAugmenter:
    """A ``DetRandomSelectAug`` over several ``DetRandomCropAug``; list-valued arguments give
    one crop augmenter per entry (scalars are repeated).

    Examples
    --------
    >>> aug = CreateMultiRandCropAugmenter(min_object_covered=[0.1, 0.5])
    >>> len(aug.aug_list)
    2
    """
    params = [min_object_covered, aspect_ratio_range, area_range, min_eject_coverage,
              max_attempts]
    lists = [p if isinstance(p, list) else [p] for p in params]
    num = max(len(p) for p in lists)
    for k, p in enumerate(lists):
        if len(p) != num:
            assert len(p) == 1
            lists[k] = p * num
    augs = [DetRandomCropAug(min_object_covered=moc, aspect_ratio_range=arr, area_range=ar,
                             min_eject_coverage=mec, max_attempts=ma)
            for moc, arr, ar, mec, ma in zip(*lists)]
    return DetRandomSelectAug(augs, skip_prob=skip_prob)


def CreateDetAugmenter(data_shape: tuple, resize: int = 0, rand_crop: float = 0,
                       rand_pad: float = 0, rand_gray: float = 0, rand_mirror: bool = False,
                       mean: Any = None, std: Any = None, brightness: float = 0,
                       contrast: float = 0, saturation: float = 0, pca_noise: float = 0,
                       hue: float = 0, inter_method: int = 2, min_object_covered: Any = 0.1,
                       aspect_ratio_range: Any = (0.75, 1.33), area_range: Any = (0.05, 3.0),
                       min_eject_coverage: Any = 0.3, max_attempts: Any = 50,
                       pad_val: Any = (127, 127, 127)) -> list:
    """The standard detection augmenter list used by ``ImageDetIter``.

    Examples
    --------
    >>> [type(a).__name__ for a in CreateDetAugmenter((3, 300, 300))]
    ['DetBorrowAug', 'DetBorrowAug']
    """
    augs: list = []
    if resize > 0:
        augs.append(DetBorrowAug(ResizeAug(resize, inter_method)))
    if rand_crop > 0:
        augs.append(CreateMultiRandCropAugmenter(min_object_covered, aspect_ratio_range,
                                                 area_range, min_eject_coverage, max_attempts,
                                                 skip_prob=1 - rand_crop))
    if rand_mirror > 0:
        augs.append(DetHorizontalFlipAug(0.5))
    if rand_pad > 0:
        pad = DetRandomPadAug(aspect_ratio_range, (1.0, area_range[1]), max_attempts, pad_val)
        augs.append(DetRandomSelectAug([pad], 1 - rand_pad))
    augs.append(DetBorrowAug(ForceResizeAug((data_shape[2], data_shape[1]), inter_method)))
    augs.append(DetBorrowAug(CastAug()))
    if brightness or contrast or saturation:
        augs.append(DetBorrowAug(ColorJitterAug(brightness, contrast, saturation)))
    if hue:
        augs.append(DetBorrowAug(HueJitterAug(hue)))
    if pca_noise > 0:
        eigval = np.array([55.46, 4.794, 1.148])
        eigvec = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140],
                           [-0.5836, -0.6948, 0.4203]])
        augs.append(DetBorrowAug(LightingAug(pca_noise, eigval, eigvec)))
    if rand_gray > 0:
        augs.append(DetBorrowAug(RandomGrayAug(rand_gray)))
    if mean is True:
        mean = np.array([123.68, 116.28, 103.53])
    elif mean is not None:
        assert isinstance(mean, np.ndarray) and mean.shape[0] in [1, 3]
    if std is True:
        std = np.array([58.395, 57.12, 57.375])
    elif std is not None:
        assert isinstance(std, np.ndarray) and std.shape[0] in [1, 3]
    if mean is not None or std is not None:
        augs.append(DetBorrowAug(ColorNormalizeAug(mean, std)))
    return augs


class ImageDetIter(ImageIter):
    """Detection iterator: batches of images and (batch, max_objects, object_width) labels
    padded with -1.

    Examples
    --------
    >>> it = ImageDetIter(8, (3, 300, 300), path_imgrec='det.rec')  # doctest: +SKIP
    """

    def __init__(self, batch_size: int, data_shape: tuple, path_imgrec: str | None = None,
                 path_imglist: str | None = None, path_root: str | None = None,
                 path_imgidx: str | None = None, shuffle: bool = False, part_index: int = 0,
                 num_parts: int = 1, aug_list: list | None = None, imglist: list | None = None,
                 data_name: str = 'data', label_name: str = 'label',
                 last_batch_handle: str = 'pad', **kwargs: Any) -> None:
        super().__init__(batch_size=batch_size, data_shape=data_shape, path_imgrec=path_imgrec,
                         path_imglist=path_imglist, path_root=path_root,
                         path_imgidx=path_imgidx, shuffle=shuffle, part_index=part_index,
                         num_parts=num_parts, aug_list=[], imglist=imglist,
                         data_name=data_name, label_name=label_name,
                         last_batch_handle=last_batch_handle)
        self.auglist = CreateDetAugmenter(data_shape, **kwargs) if aug_list is None \
            else aug_list
        label_shape = self._estimate_label_shape()
        self.provide_label = [(label_name, (self.batch_size,) + tuple(label_shape))]
        self.label_shape = label_shape

    def _check_valid_label(self, label: np.ndarray) -> None:
        if len(label.shape) != 2 or label.shape[1] < 5:
            raise RuntimeError('Label with shape (1+, 5+) required, %s received.' % str(label))
        ok = np.logical_and(label[:, 0] >= 0, label[:, 3] > label[:, 1])
        if not np.any(np.logical_and(ok, label[:, 4] > label[:, 2])):
            raise RuntimeError('Invalid label occurs.')

    def _estimate_label_shape(self) -> tuple:
        max_count, width = 0, 5
        self.reset()
        try:
            while True:
                label, _ = self.next_sample()
                label = self._parse_label(label)
                max_count = max(max_count, label.shape[0])
                width = label.shape[1]
        except StopIteration:
            pass
        self.reset()
        return max_count, width

    def _parse_label(self, label: Any) -> np.ndarray:
        if isinstance(label, NDArray):
            label = label.asnumpy()
        raw = np.asarray(label).ravel()
        if raw.size < 7:
            raise RuntimeError('Label shape is invalid: ' + str(raw.shape))
        header_width, obj_width = int(raw[0]), int(raw[1])
        if (raw.size - header_width) % obj_width != 0:
            raise RuntimeError('Label shape %s inconsistent with annotation width %d.'
                               % (str(raw.shape), obj_width))
        out = np.reshape(raw[header_width:], (-1, obj_width))
        valid = np.where(np.logical_and(out[:, 3] > out[:, 1], out[:, 4] > out[:, 2]))[0]
        if valid.size < 1:
            raise RuntimeError('Encounter sample with no valid label.')
        return out[valid, :]

    def reshape(self, data_shape: tuple | None = None, label_shape: tuple | None = None) -> None:
        """Change the data and/or label shape of later batches."""
        if data_shape is not None:
            self.check_data_shape(data_shape)
            self.provide_data = [(self.provide_data[0][0], (self.batch_size,) + data_shape)]
            self.data_shape = data_shape
        if label_shape is not None:
            self.check_label_shape(label_shape)
            self.provide_label = [(self.provide_label[0][0], (self.batch_size,) + label_shape)]
            self.label_shape = label_shape

    def _batchify(self, batch_data: NDArray, batch_label: NDArray, start: int = 0) -> int:
        i = start
        try:
            while i < self.batch_size:
                label, s = self.next_sample()
                data = self.imdecode(s)
                try:
                    self.check_valid_image([data])
                    label = self._parse_label(label)
                    data, label = self.augmentation_transform(data, label)
                    self._check_valid_label(label)
                except RuntimeError as e:
                    logging.debug('Invalid image, skipping:  %s', str(e))
                    continue
                batch_data._t[i] = self.postprocess_data(data)._t
                n = label.shape[0]
                batch_label._t[i, :n] = torch.from_numpy(np.ascontiguousarray(label)).to(
                    batch_label._t.dtype)
                batch_label._t[i, n:] = -1
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def next(self) -> DataBatch:
        c, h, w = self.data_shape
        if self._cache_data is not None:
            batch_data, batch_label, i = self._cache_data, self._cache_label, self._cache_idx
        else:
            batch_data = _nd_zeros((self.batch_size, c, h, w))
            batch_label = _nd_empty(self.provide_label[0][1])
            if is_np_array():  # MXNet builds the batch with mx.np under npx.set_np()
                batch_data, batch_label = batch_data.as_np_ndarray(), batch_label.as_np_ndarray()
            batch_label._t.fill_(-1)
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

    def augmentation_transform(self, data: NDArray, label: np.ndarray) -> tuple:
        """Apply the detection augmenters."""
        for aug in self.auglist:
            data, label = aug(data, label)
        return data, label

    def check_label_shape(self, label_shape: tuple) -> None:
        """Require (max_objects, object_width) not smaller than the current one."""
        if not len(label_shape) == 2:
            raise ValueError('label_shape should have length 2')
        if label_shape[0] < self.label_shape[0]:
            raise ValueError('Attempts to reduce label count from %d to %d, not allowed.'
                             % (self.label_shape[0], label_shape[0]))
        if label_shape[1] != self.provide_label[0][1][2]:
            raise ValueError('label_shape object width inconsistent: %d vs %d.'
                             % (self.provide_label[0][1][2], label_shape[1]))

    def draw_next(self, color: Any = None, thickness: int = 2, mean: Any = None,
                  std: Any = None, clip: bool = True, waitKey: int | None = None,
                  window_name: str = 'draw_next', id2labels: dict | None = None):
        """Yield the next images (BGR uint8 HWC NumPy arrays) with their boxes drawn.

        See :func:`mxnet.image._det_draw.draw_next` for the parameters.
        """
        from ._det_draw import draw_next

        return draw_next(self, color, thickness, mean, std, clip, waitKey, window_name,
                         id2labels)

    def sync_label_shape(self, it: ImageDetIter, verbose: bool = False) -> ImageDetIter:
        """Give this iterator and ``it`` the same label shape (the larger object count)."""
        assert isinstance(it, ImageDetIter), 'Synchronize with invalid iterator.'
        mine, theirs = self.label_shape, it.label_shape
        assert mine[1] == theirs[1], 'object width mismatch.'
        count = max(mine[0], theirs[0])
        if count > mine[0]:
            self.reshape(None, (count, mine[1]))
        if count > theirs[0]:
            it.reshape(None, (count, theirs[1]))
        if verbose and count > min(mine[0], theirs[0]):
            logging.info('Resized label_shape to (%d, %d).', count, mine[1])
        return it
