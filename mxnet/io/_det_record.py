"""``ImageDetRecordIter``: detection batches from an image RecordIO file.

Each output label row is ``[3, height, width, n, raw label (n values)...]`` padded with
``label_pad_value`` to the widest label of the file (or ``label_pad_width + 4``), as MXNet's
C++ iterator produced; ``height``/``width`` are those of the resized image.
"""
from __future__ import annotations

import os
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import cv2
import numpy as np

from .. import recordio
from ..base import MXNetError
from ..image import _cv
from ._image_record import _scan_offsets
from ._native import MXDataIter, _BatchLoader, _parse_bool, _parse_shape

__all__ = ['ImageDetRecordIter']

_PARAMS = dict(
    path_imglist='', path_imgrec='./data/imgrec.rec', aug_seq='det_aug_default', label_width=-1,
    data_shape=None, preprocess_threads=4, verbose=True, num_parts=1, part_index=0,
    shuffle_chunk_size=0, shuffle_chunk_seed=0, label_pad_width=0, label_pad_value=-1.0,
    shuffle=False, seed=0, batch_size=None, round_batch=True, prefetch_buffer=4, ctx='gpu',
    dtype=None, resize=-1, rand_crop_prob=0.0, min_crop_scales=(0.0,), max_crop_scales=(1.0,),
    min_crop_aspect_ratios=(1.0,), max_crop_aspect_ratios=(1.0,), min_crop_overlaps=(0.0,),
    max_crop_overlaps=(1.0,), min_crop_sample_coverages=(0.0,),
    max_crop_sample_coverages=(1.0,), min_crop_object_coverages=(0.0,),
    max_crop_object_coverages=(1.0,), num_crop_sampler=1, crop_emit_mode='center',
    emit_overlap_thresh=0.3, max_crop_trials=(25,), rand_pad_prob=0.0, max_pad_scale=1.0,
    max_random_hue=0, random_hue_prob=0.0, max_random_saturation=0,
    random_saturation_prob=0.0, max_random_illumination=0, random_illumination_prob=0.0,
    max_random_contrast=0.0, random_contrast_prob=0.0, rand_mirror_prob=0.0, fill_value=127,
    inter_method=1, resize_mode='force', mean_img='', mean_r=0.0, mean_g=0.0, mean_b=0.0,
    mean_a=0.0, std_r=0.0, std_g=0.0, std_b=0.0, std_a=0.0, scale=1.0,
    data_name='data', label_name='softmax_label')
_UNSUPPORTED = ('rand_crop_prob', 'rand_pad_prob', 'random_hue_prob',
                'random_saturation_prob', 'random_illumination_prob', 'random_contrast_prob',
                'mean_img', 'path_imglist')


class ImageDetRecordIter(MXDataIter):
    """Detection batches (float32 NCHW images, padded label rows) from an image ``.rec``.

    Supports ``resize_mode`` force/fit/shrink, ``rand_mirror_prob``, mean/std/scale,
    ``label_pad_width``/``label_pad_value``, sharding and shuffling; the random crop/pad
    samplers and colour distortions of MXNet's detection augmenter raise MXNetError.

    Examples
    --------
    >>> it = mx.io.ImageDetRecordIter(path_imgrec='det.rec', data_shape=(3, 300, 300),
    ...                               batch_size=32)  # doctest: +SKIP
    """

    def __init__(self, **kwargs: Any) -> None:
        # unknown keyword arguments are ignored, as by MXNet's C++ iterators
        p = dict(_PARAMS, **{k: v for k, v in kwargs.items() if k in _PARAMS})
        for req in ('data_shape', 'batch_size'):
            if p[req] is None:
                raise MXNetError('Required parameter %s of ImageDetRecordIter is not presented'
                                 % req)
        for k in _UNSUPPORTED:
            if p[k] not in (0, 0.0, '', None, False):
                raise MXNetError('ImageDetRecordIter: parameter %s=%r is not supported'
                                 % (k, p[k]))
        if p['resize_mode'] not in ('force', 'fit', 'shrink'):
            raise MXNetError("ImageDetRecordIter: resize_mode must be 'force', 'fit' or "
                             "'shrink', got %r" % (p['resize_mode'],))
        self._path = os.fspath(p['path_imgrec'])
        if not os.path.exists(self._path):
            raise MXNetError("ImageDetRecordIter: cannot open '%s'" % self._path)
        self._p = p
        self._shape = _parse_shape(p['data_shape'])
        self._bs = int(p['batch_size'])
        begin, end = recordio._part_range(self._path, int(p['num_parts']), int(p['part_index']))
        self._offsets = _scan_offsets(self._path, begin, end)
        self._order = list(range(len(self._offsets)))
        self._rng = random.Random(int(p['seed']))
        self._shuffle = _parse_bool(p['shuffle'])
        if self._shuffle:
            self._rng.shuffle(self._order)
        self._loader = _BatchLoader(len(self._offsets), self._bs, _parse_bool(p['round_batch']))
        self._label_w = self._label_width()
        c = self._shape[0]
        mean = [p['mean_r'], p['mean_g'], p['mean_b'], p['mean_a']][:c]
        std = [s if s != 0 else 1.0 for s in (p['std_r'], p['std_g'], p['std_b'], p['std_a'])]
        self._mean = np.array(mean, dtype=np.float32).reshape(-1, 1, 1)
        self._std = np.array(std[:c], dtype=np.float32).reshape(-1, 1, 1)
        self._scale = np.float32(p['scale'])
        self._pool = ThreadPoolExecutor(max(1, int(p['preprocess_threads'])))
        super().__init__(p['data_name'], p['label_name'], int(p['prefetch_buffer']))

    def _label_width(self) -> int:
        widest = 0
        with open(self._path, 'rb') as f:
            for off in self._offsets:
                header, _ = recordio.unpack(recordio._pread_record(f.fileno(), self._path,
                                                                   off)[0])
                widest = max(widest, max(int(header.flag), 1))
        pad = int(self._p['label_pad_width'])
        if pad > 0:
            if pad < widest:
                raise MXNetError('ImageDetRecordIter: label_pad_width=%d is smaller than the '
                                 'widest label (%d values) in %s' % (pad, widest, self._path))
            widest = pad
        return widest + 4

    def _before_first(self) -> None:
        self._loader.before_first()
        if self._shuffle:
            self._rng.shuffle(self._order)

    def _resize(self, img: np.ndarray) -> np.ndarray:
        c, h, w = self._shape
        ih, iw = img.shape[:2]
        mode, interp = self._p['resize_mode'], int(self._p['inter_method'])
        if mode == 'force':
            nw, nh = w, h
        else:
            if mode == 'shrink' and iw <= w and ih <= h:
                return img
            if w * ih <= h * iw:
                nw, nh = w, int(ih * w / iw)
            else:
                nw, nh = int(iw * h / ih), h
        if (nw, nh) == (iw, ih):
            return img
        out = _cv.resize(img, nw, nh, interp)
        return out[:, :, None] if out.ndim == 2 else out

    def _decode(self, raw: bytes, idx: int, out: np.ndarray, labels: np.ndarray,
                slot: int, seed: int) -> int:
        header, payload = recordio.unpack(raw)
        c = self._shape[0]
        img = cv2.imdecode(np.frombuffer(payload, np.uint8),
                           cv2.IMREAD_GRAYSCALE if c == 1 else cv2.IMREAD_COLOR)
        if img is None:
            raise MXNetError('ImageDetRecordIter: cannot decode the image of record %d (id %d) '
                             'at byte offset %d of %s' % (idx, header.id,
                                                          self._offsets[self._order[idx]],
                                                          self._path))
        if img.ndim == 2:
            img = img[:, :, None]
        raw_label = np.atleast_1d(np.asarray(header.label, dtype=np.float32)).copy()
        img = self._resize(img)
        if float(self._p['rand_mirror_prob']) > 0 and \
                random.Random(seed).random() < float(self._p['rand_mirror_prob']):
            img = img[:, ::-1]
            if raw_label.size >= 2:
                hw, ow = int(raw_label[0]), int(raw_label[1])
                objs = raw_label[hw:].reshape(-1, ow) if ow > 0 else raw_label[:0]
                xmin = 1.0 - objs[:, 3].copy()
                objs[:, 3] = 1.0 - objs[:, 1]
                objs[:, 1] = xmin
        ih, iw = img.shape[:2]
        chw = np.transpose(img, (2, 0, 1))
        if c >= 3:
            chw = chw[2::-1] if c == 3 else chw[[2, 1, 0, 3]]
        dst = out[slot]
        dst[...] = 0
        region = dst[:, :ih, :iw]
        np.subtract(chw, self._mean, out=region, dtype=np.float32)
        np.divide(region, self._std, out=region)
        if self._scale != 1:
            np.multiply(region, self._scale, out=region)
        row = labels[slot]
        row[:4] = (3, ih, iw, raw_label.size)
        row[4:4 + raw_label.size] = raw_label
        return header.id

    def _next_batch(self) -> tuple | None:
        nxt = self._loader.next_indices()
        if nxt is None:
            return None
        rows, pad = nxt
        data = np.zeros((self._bs,) + self._shape, dtype=np.float32)
        labels = np.full((self._bs, self._label_w), float(self._p['label_pad_value']),
                         dtype=np.float32)
        index = np.zeros(self._bs, dtype=np.uint64)
        with open(self._path, 'rb') as f:
            raws = [(slot, r, recordio._pread_record(
                f.fileno(), self._path, self._offsets[self._order[r]])[0])
                for slot, r in enumerate(rows) if r is not None]
        base = self._rng.getrandbits(32)
        futs = [(slot, self._pool.submit(self._decode, raw, r, data, labels, slot,
                                         hash((base, r)) & 0xFFFFFFFF))
                for slot, r, raw in raws]
        for slot, fut in futs:
            index[slot] = fut.result()
        return data, labels, pad, index

    def __del__(self) -> None:
        super().__del__()
        pool = getattr(self, '_pool', None)
        if pool is not None:
            pool.shutdown(wait=False)
