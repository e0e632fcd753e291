"""MXNet 1.9.1's default detection augmenter (``aug_seq='det_aug_default'``) for
``ImageDetRecordIter``: random colour (HLS shifts, contrast), mirror, pad and crop samplers,
then the ``resize_mode`` resize, with the labels re-expressed in each new frame.

Randomness follows MXNet's decoding thread: one ``std::mt19937`` engine seeded with 233 whose
draws are consumed record after record (libstdc++'s float and integer distributions are
reproduced), so with one decoding thread the augmentations equal MXNet's. Each record is
first *planned* (all draws and the label transform, cheap, in record order), then the planned
image operations are *applied* (OpenCV, in worker threads).
"""
from __future__ import annotations

import ast
import struct
from typing import Any

import cv2
import numpy as np

from ..base import MXNetError

__all__ = ['DetRNG', 'DetAugmenter', 'parse_det_label', 'apply_ops', 'image_hw']

_F = np.float32
_TUPLE_PARAMS = ('min_crop_scales', 'max_crop_scales', 'min_crop_aspect_ratios',
                 'max_crop_aspect_ratios', 'min_crop_overlaps', 'max_crop_overlaps',
                 'min_crop_sample_coverages', 'max_crop_sample_coverages',
                 'min_crop_object_coverages', 'max_crop_object_coverages', 'max_crop_trials')
_HLS_LIMIT = np.array([180, 255, 255], dtype=np.int16)


class DetRNG:
    """``std::mt19937`` with libstdc++'s ``uniform_real_distribution<float>``,
    ``uniform_int_distribution`` (down-scaling) and ``std::shuffle``, as in MXNet 1.9.1.

    Examples
    --------
    >>> r = DetRNG(233)
    >>> 0.0 <= float(r.uniform(0.0, 1.0)) < 1.0
    True
    """

    def __init__(self, seed: int) -> None:
        self._bg = np.random.MT19937()
        self._bg._legacy_seeding(int(seed))
        self._buf = np.zeros(0, dtype=np.uint64)
        self._pos = 0

    def _ensure(self, n: int) -> None:
        if self._pos + n > self._buf.size:
            more = self._bg.random_raw(max(4096, n))
            self._buf = np.concatenate([self._buf[self._pos:], more])
            self._pos = 0

    def raw(self) -> int:
        self._ensure(1)
        self._pos += 1
        return int(self._buf[self._pos - 1])

    def peek_canonical(self, n: int) -> np.ndarray:
        """The next ``n`` draws of ``uniform_real_distribution<float>(0, 1)``, not consumed
        (``skip`` consumes them)."""
        self._ensure(n)
        u = self._buf[self._pos:self._pos + n].astype(np.float32) / _F(4294967296.0)
        return np.minimum(u, np.nextafter(_F(1), _F(0)))

    def skip(self, n: int) -> None:
        self._ensure(n)
        self._pos += n

    def canonical(self) -> np.float32:
        u = self.peek_canonical(1)[0]
        self._pos += 1
        return u

    def uniform(self, a: Any, b: Any) -> np.float32:
        a, b = _F(a), _F(b)
        return _F(self.canonical() * _F(b - a)) + a

    def randint(self, lo: int, hi: int) -> int:
        """An integer of ``[lo, hi]``."""
        span = hi - lo + 1
        scaling = 0xFFFFFFFF // span
        past = span * scaling
        x = self.raw()
        while x >= past:
            x = self.raw()
        return lo + x // scaling

    def shuffle(self, seq: list) -> None:
        """``std::shuffle`` as the libstdc++ MXNet 1.9.1 was built with: one draw of
        ``[0, i]`` per position ``i >= 1``."""
        for i in range(1, len(seq)):
            j = self.randint(0, i)
            seq[i], seq[j] = seq[j], seq[i]


_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def image_hw(payload: bytes) -> tuple | None:
    """(height, width) of a PNG or JPEG from its header, or None when decoding is needed
    (other formats, or a JPEG with Exif data, whose orientation may swap the sides).

    Examples
    --------
    >>> image_hw(b'GIF89a') is None
    True
    """
    if payload[:8] == b'\x89PNG\r\n\x1a\n' and len(payload) >= 24:
        w, h = struct.unpack('>II', payload[16:24])
        return h, w
    if payload[:2] != b'\xff\xd8':
        return None
    i, n = 2, len(payload)
    while i + 4 <= n:
        if payload[i] != 0xFF:
            return None
        m = payload[i + 1]
        if m == 0xFF:
            i += 1
            continue
        if m == 0x01 or 0xD0 <= m <= 0xD8:
            i += 2
            continue
        if m == 0xE1 and payload[i + 4:i + 8] == b'Exif':
            return None
        if m in _JPEG_SOF and i + 9 <= n:
            h, w = struct.unpack('>HH', payload[i + 5:i + 9])
            return h, w
        i += 2 + struct.unpack('>H', payload[i + 2:i + 4])[0]
    return None


def _float_tuple(name: str, v: Any, cast: type = float) -> list:
    if isinstance(v, str):
        s = v.strip()
        try:
            v = ast.literal_eval(s if s[:1] in '([' else '(%s,)' % s)
        except (ValueError, SyntaxError):
            raise MXNetError('ImageDetRecordIter: invalid value %r for parameter %s'
                             % (v, name)) from None
    vals = list(v) if isinstance(v, (tuple, list)) else [v]
    try:
        return [cast(x) for x in vals]
    except (TypeError, ValueError):
        raise MXNetError('ImageDetRecordIter: invalid value %r for parameter %s'
                         % (v, name)) from None


def parse_det_label(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split ``[header_width, object_width, extra header..., objects...]`` into the header
    and an ``(n, object_width)`` array of the valid objects (xmax > xmin, ymax > ymin)."""
    raw = np.asarray(raw, dtype=np.float32).ravel()
    if raw.size < 7:
        raise MXNetError('ImageDetRecordIter: a detection label needs at least 7 values '
                         '(2 header + 5 for one object), got %d' % raw.size)
    hw, ow = int(raw[0]), int(raw[1])
    if hw < 2:
        raise MXNetError('ImageDetRecordIter: label header width %d is smaller than 2' % hw)
    if ow < 5:
        raise MXNetError('ImageDetRecordIter: label object width %d is smaller than 5' % ow)
    if (raw.size - hw) % ow:
        raise MXNetError('ImageDetRecordIter: label of %d values does not hold whole objects '
                         '(header width %d, object width %d)' % (raw.size, hw, ow))
    objs = raw[hw:].reshape(-1, ow)
    keep = (objs[:, 3] > objs[:, 1]) & (objs[:, 4] > objs[:, 2])
    return raw[:hw].copy(), objs[keep].copy()


def _project(objs: np.ndarray, x: Any, y: Any, w: Any, h: Any) -> np.ndarray:
    out = objs.copy()
    out[:, 1] = np.maximum(_F(0), (objs[:, 1] - _F(x)) / _F(w))
    out[:, 2] = np.maximum(_F(0), (objs[:, 2] - _F(y)) / _F(h))
    out[:, 3] = np.minimum(_F(1), (objs[:, 3] - _F(x)) / _F(w))
    out[:, 4] = np.minimum(_F(1), (objs[:, 4] - _F(y)) / _F(h))
    return out


def _gt_rects(objs: np.ndarray) -> tuple:
    """OpenCV ``Rect_<float>`` of each object: (x, y, width, height)."""
    return objs[:, 1], objs[:, 2], objs[:, 3] - objs[:, 1], objs[:, 4] - objs[:, 2]


class DetAugmenter:
    """The parameters of MXNet's ``det_aug_default`` augmenter, validated as MXNet does, and
    the per-record planning of its random operations.

    Examples
    --------
    >>> aug = DetAugmenter(dict(rand_mirror_prob=1.0, data_shape=(3, 8, 8)))  # doctest: +SKIP
    """

    def __init__(self, p: dict) -> None:
        self.p = p
        n = int(p['num_crop_sampler'])
        self.n_sampler = n
        self.t: dict = {}
        for k in _TUPLE_PARAMS:
            vals = _float_tuple(k, p[k], int if k == 'max_crop_trials' else float)
            if n == 1 and len(vals) != 1:
                raise MXNetError('ImageDetRecordIter: %s needs 1 value for num_crop_sampler=1, '
                                 'got %d' % (k, len(vals)))
            if n > 1 and len(vals) == 1:
                vals = vals * n
            elif n > 1 and len(vals) != n:
                raise MXNetError('ImageDetRecordIter: # of parameters/crop_samplers mismatch: '
                                 '%s has %d values for num_crop_sampler=%d' % (k, len(vals), n))
            self.t[k] = [v if k == 'max_crop_trials' else _F(v) for v in vals]
        t = self.t
        for i in range(max(n, 0)):
            checks = ((t['min_crop_scales'][i] >= 0, 'min_crop_scales >= 0'),
                      (t['max_crop_scales'][i] <= 1, 'max_crop_scales <= 1'),
                      (t['max_crop_scales'][i] > t['min_crop_scales'][i],
                       'max_crop_scales > min_crop_scales'),
                      (t['min_crop_aspect_ratios'][i] >= 0, 'min_crop_aspect_ratios >= 0'),
                      (t['max_crop_aspect_ratios'][i] >= t['min_crop_aspect_ratios'][i],
                       'max_crop_aspect_ratios >= min_crop_aspect_ratios'),
                      (t['max_crop_overlaps'][i] >= t['min_crop_overlaps'][i],
                       'max_crop_overlaps >= min_crop_overlaps'),
                      (t['max_crop_sample_coverages'][i] >= t['min_crop_sample_coverages'][i],
                       'max_crop_sample_coverages >= min_crop_sample_coverages'),
                      (t['max_crop_object_coverages'][i] >= t['min_crop_object_coverages'][i],
                       'max_crop_object_coverages >= min_crop_object_coverages'))
            for ok, what in checks:
                if not ok:
                    raise MXNetError('ImageDetRecordIter: crop sampler %d needs %s' % (i, what))
        if float(p['emit_overlap_thresh']) < 0:
            raise MXNetError('ImageDetRecordIter: emit_overlap_thresh must be >= 0')
        im = int(p['inter_method'])
        if not (0 <= im <= 4 or im in (9, 10)):
            raise MXNetError('ImageDetRecordIter: invalid inter_method %d: valid value '
                             '0,1,2,3,9,10' % im)
        if p['crop_emit_mode'] not in ('center', 'overlap'):
            raise MXNetError("ImageDetRecordIter: crop_emit_mode must be 'center' or "
                             "'overlap', got %r" % (p['crop_emit_mode'],))
        if p['resize_mode'] not in ('force', 'fit', 'shrink'):
            raise MXNetError("ImageDetRecordIter: resize_mode must be 'force', 'fit' or "
                             "'shrink', got %r" % (p['resize_mode'],))
        self.colour = any(float(p[k]) > 0 for k in (
            'random_hue_prob', 'random_saturation_prob', 'random_illumination_prob',
            'random_contrast_prob'))

    def _interp(self, ow: int, oh: int, nw: int, nh: int, rng: DetRNG) -> int:
        im = int(self.p['inter_method'])
        if im == 9:
            return 2 if (nw > ow and nh > oh) else 3 if (nw < ow and nh < oh) else 1
        return rng.randint(0, 4) if im == 10 else im

    def plan(self, h: int, w: int, raw_label: np.ndarray,
             rng: DetRNG) -> tuple[list, int, int, np.ndarray]:
        """Draw this record's augmentations: (ops, final height, final width, label)."""
        p, ops = self.p, []
        if int(p['resize']) != -1:
            r = int(p['resize'])
            nh, nw = (r * h // w, r) if h > w else (r, r * w // h)
            ops.append(('resize', nw, nh, self._interp(w, h, nw, nh, rng)))
            h, w = nh, nw
        header, objs = parse_det_label(raw_label)
        if self.colour:
            draws = [rng.uniform(-1.0, 1.0) for _ in range(4)]
            dh = int(draws[0] * _F(int(p['max_random_hue'])))
            ds = int(draws[1] * _F(int(p['max_random_saturation'])))
            dl = int(draws[2] * _F(int(p['max_random_illumination'])))
            c = _F(draws[3] * _F(p['max_random_contrast']))
            dh = dh if rng.canonical() < _F(p['random_hue_prob']) else 0
            ds = ds if rng.canonical() < _F(p['random_saturation_prob']) else 0
            dl = dl if rng.canonical() < _F(p['random_illumination_prob']) else 0
            c = c if rng.canonical() < _F(p['random_contrast_prob']) else _F(0)
            if dh or ds or dl:
                ops.append(('hls', dh, dl, ds))
            if abs(float(c)) > 1e-3:
                ops.append(('contrast', _F(c + _F(1))))
        mirror = _F(p['rand_mirror_prob'])
        if mirror > 0 and rng.canonical() < mirror:
            xmin = _F(1) - objs[:, 3]
            objs[:, 3] = _F(1) - objs[:, 1]
            objs[:, 1] = xmin
            ops.append(('flip',))
        max_pad = _F(p['max_pad_scale'])
        if _F(p['rand_pad_prob']) > 0 and max_pad > 1:
            if rng.canonical() < _F(p['rand_pad_prob']):
                scale = rng.uniform(1.0, max_pad)
                if scale >= _F(1.05):
                    x0 = rng.uniform(0.0, scale - _F(1))
                    y0 = rng.uniform(0.0, scale - _F(1))
                    objs = _project(objs, -x0, -y0, scale, scale)
                    left, top = int(x0 * _F(w)), int(y0 * _F(h))
                    right = int((scale - x0 - _F(1)) * _F(w))
                    bot = int((scale - y0 - _F(1)) * _F(h))
                    ops.append(('pad', top, bot, left, right))
                    h, w = h + top + bot, w + left + right
        if _F(p['rand_crop_prob']) > 0 and self.n_sampler > 0:
            if rng.canonical() < _F(p['rand_crop_prob']):
                crop = self._crop(objs, h, w, rng)
                if crop is not None:
                    objs, (cx, cy, cw, ch) = crop
                    ops.append(('crop', cx, cy, cw, ch))
                    h, w = ch, cw
        h, w = self._final_resize(ops, h, w, rng)
        label = np.concatenate([header, objs.ravel()]).astype(np.float32)
        return ops, h, w, label

    def _crop(self, objs: np.ndarray, h: int, w: int, rng: DetRNG) -> tuple | None:
        t = self.t
        order = list(range(self.n_sampler))
        rng.shuffle(order)
        aspect = _F(w) / _F(h)
        for i in order:
            n = int(t['max_crop_trials'][i])
            if n <= 0:
                continue
            # each trial takes 4 draws: evaluate them all, consume up to the first success
            boxes = self._crop_boxes(i, aspect, rng.peek_canonical(4 * n).reshape(n, 4))
            first, new = self._try_crops(i, boxes, objs)
            rng.skip(4 * (n if first is None else first + 1))
            if first is not None:
                x, y, bw, bh = (v[first] for v in boxes)
                return new, (int(x * _F(w)), int(y * _F(h)), int(bw * _F(w)),
                             int(bh * _F(h)))
        return None

    def _crop_boxes(self, i: int, aspect: np.float32, u: np.ndarray) -> tuple:
        """Crop boxes (x, y, width, height arrays) of trials drawing ``u`` (trials x 4)."""
        t = self.t
        lo_s, hi_s = t['min_crop_scales'][i], t['max_crop_scales'][i]
        scale = (u[:, 0] * _F(hi_s - lo_s) + lo_s).astype(np.float32) + _F(1e-12)
        s64 = scale.astype(np.float64)
        lo = np.maximum(_F(t['min_crop_aspect_ratios'][i] / aspect), scale * scale)
        hi = np.minimum(_F(t['max_crop_aspect_ratios'][i] / aspect),
                        (1.0 / (s64 * s64)).astype(np.float32))
        ratio = np.sqrt(u[:, 1] * (hi - lo) + lo)
        bw = np.minimum(_F(1), scale * ratio)
        bh = np.minimum(_F(1), scale / ratio)
        x0 = u[:, 2] * (_F(1) - bw)
        y0 = u[:, 3] * (_F(1) - bh)
        return x0, y0, bw, bh

    def _try_crops(self, i: int, boxes: tuple, objs: np.ndarray) -> tuple:
        """(index of the first box MXNet accepts or None, the objects in its frame)."""
        if len(objs) == 0:
            return 0, objs
        t = self.t
        lims = [(t['min_crop_overlaps'][i], t['max_crop_overlaps'][i]),
                (t['min_crop_sample_coverages'][i], t['max_crop_sample_coverages'][i]),
                (t['min_crop_object_coverages'][i], t['max_crop_object_coverages'][i])]
        x, y, bw, bh = (v[:, None] for v in boxes)
        gx, gy, gw, gh = (v[None, :] for v in _gt_rects(objs))
        iw = np.minimum(x + bw, gx + gw) - np.maximum(gx, x)
        ih = np.minimum(y + bh, gy + gh) - np.maximum(gy, y)
        inter = np.where((iw > 0) & (ih > 0), iw * ih, _F(0))
        gt_area = gw * gh
        ok = np.ones(inter.shape[0], dtype=bool)
        # a crop is valid when one object meets every constraint that is set
        active = [lo > 0 or hi < 1 for lo, hi in lims]
        if any(active):
            crop_area = bw * bh
            union = crop_area + gt_area - inter
            iou = np.where(inter > 0, inter / np.where(union > 0, union, _F(1)), _F(0))
            good = np.ones(inter.shape, dtype=bool)
            for v, (lo, hi), on in zip((iou, inter / crop_area, inter / gt_area), lims,
                                       active):
                if on:
                    good &= (v >= lo) & (v <= hi)
            ok = good.any(axis=1)
        if self.p['crop_emit_mode'] == 'center':
            cx = (objs[:, 1] + objs[:, 3]) * _F(0.5)
            cy = (objs[:, 2] + objs[:, 4]) * _F(0.5)
            keep = (cx >= x) & (cx < x + bw) & (cy >= y) & (cy < y + bh)
        else:
            keep = inter / gt_area > _F(self.p['emit_overlap_thresh'])
        ok &= keep.any(axis=1)
        hits = np.flatnonzero(ok)
        if hits.size == 0:
            return None, None
        k = int(hits[0])
        return k, _project(objs[keep[k]], x[k, 0], y[k, 0], bw[k, 0], bh[k, 0])

    def _try_crop(self, i: int, box: tuple, objs: np.ndarray) -> np.ndarray | None:
        """One crop box: the objects in its frame, or None when MXNet rejects it."""
        return self._try_crops(i, tuple(np.array([v], np.float32) for v in box), objs)[1]

    def _final_resize(self, ops: list, h: int, w: int, rng: DetRNG) -> tuple[int, int]:
        mode = self.p['resize_mode']
        _, th, tw = self.p['_shape']
        if mode == 'force':
            nh, nw = th, tw
        else:
            if mode == 'shrink' and not (h > th or w > tw):
                return h, w
            ratio = min(_F(th) / _F(h), _F(tw) / _F(w))
            nh, nw = int(ratio * _F(h)), int(ratio * _F(w))
        ops.append(('resize', nw, nh, self._interp(w, h, nw, nh, rng)))
        return nh, nw


def _hls_lut(deltas: tuple) -> np.ndarray:
    """A (256, 1, 3) table adding (dh, dl, ds) with MXNet's clamping to [0, 180/255/255]."""
    v = np.arange(256, dtype=np.int16)[:, None] + np.array(deltas, dtype=np.int16)
    return np.clip(v, 0, _HLS_LIMIT).astype(np.uint8).reshape(256, 1, 3)


def _pad_crop(img: np.ndarray, pad: tuple, crop: tuple | None, fill: int) -> np.ndarray:
    """``img`` on a ``fill`` canvas grown by ``pad`` = (top, bottom, left, right), cut to
    ``crop`` = (x, y, w, h) of that canvas if given, without building the whole canvas."""
    top, bot, left, right = pad
    ih, iw, c = img.shape
    value = [fill] * min(c, 3) + [0] * (c - 3)
    if crop is None:
        out = cv2.copyMakeBorder(np.ascontiguousarray(img), top, bot, left, right,
                                 cv2.BORDER_CONSTANT, value=value)
        return out[:, :, None] if out.ndim == 2 else out
    x, y, w, h = crop
    if w <= 0 or h <= 0:
        raise MXNetError('ImageDetRecordIter: random crop produced an empty image')
    if c <= 3:
        out = np.full((h, w, c), fill, np.uint8)
    else:
        out = np.empty((h, w, c), np.uint8)
        out[...] = np.array(value, dtype=np.uint8)
    # image rows/cols inside the crop window, in canvas coordinates
    y0, y1 = max(y, top), min(y + h, top + ih)
    x0, x1 = max(x, left), min(x + w, left + iw)
    if y1 > y0 and x1 > x0:
        out[y0 - y:y1 - y, x0 - x:x1 - x] = img[y0 - top:y1 - top, x0 - left:x1 - left]
    return out


def apply_ops(img: np.ndarray, ops: list, fill: int) -> np.ndarray:
    """Run planned operations on an HWC uint8 BGR(A)/gray image."""
    from ..image import _cv

    k = 0
    while k < len(ops):
        op = ops[k]
        kind = op[0]
        if kind == 'resize':
            img = _cv.resize(np.ascontiguousarray(img), op[1], op[2], op[3])
            img = img[:, :, None] if img.ndim == 2 else img
        elif kind == 'hls':
            if img.shape[2] != 3:
                raise MXNetError('ImageDetRecordIter: random hue/saturation/illumination need '
                                 '3-channel images, got %d channels' % img.shape[2])
            hls = cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_BGR2HLS)
            img = cv2.cvtColor(cv2.LUT(hls, _hls_lut(op[1:])), cv2.COLOR_HLS2BGR)
        elif kind == 'contrast':
            lut = np.clip(np.rint(np.arange(256, dtype=np.float32) * op[1]), 0, 255)
            img = lut.astype(np.uint8)[img]
        elif kind == 'flip':
            img = img[:, ::-1]
        elif kind == 'pad':
            crop = None
            if k + 1 < len(ops) and ops[k + 1][0] == 'crop':
                crop = ops[k + 1][1:]
                k += 1
            img = _pad_crop(img, op[1:], crop, fill)
        else:
            x, y, w, h = op[1:]
            if w <= 0 or h <= 0:
                raise MXNetError('ImageDetRecordIter: random crop produced an empty image')
            img = img[y:y + h, x:x + w]
        k += 1
    return np.ascontiguousarray(img)
