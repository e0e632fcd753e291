"""``ImageRecordIter`` / ``ImageRecordUInt8Iter``: batches of decoded, augmented images from
an image RecordIO file, decoded on a pool of worker threads (OpenCV releases the GIL)."""

from __future__ import annotations

import bisect
import os
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import cv2
import numpy as np

from .. import recordio
from .._image_guard import check_encoded_size
from ..base import MXNetError
from ..image import _cv
from ._det_aug import DetRNG
from ._image_mean import hls_shift, load_mean_img, save_mean_img
from ._native import MXDataIter, _BatchLoader, _decode_threads, _log_info, _parse_bool, _parse_shape

__all__ = [
    "ImageRecordIter",
    "ImageRecordUInt8Iter",
    "ImageRecordInt8Iter",
    "ImageRecordIter_v1",
    "ImageRecordUInt8Iter_v1",
]

_PARAMS = dict(
    path_imglist="",
    path_imgrec="",
    path_imgidx="",
    aug_seq="aug_default",
    label_width=1,
    data_shape=None,
    preprocess_threads=4,
    verbose=True,
    num_parts=1,
    part_index=0,
    device_id=0,
    shuffle_chunk_size=0,
    shuffle_chunk_seed=0,
    seed_aug=None,
    shuffle=False,
    seed=0,
    batch_size=None,
    round_batch=True,
    prefetch_buffer=4,
    ctx="gpu",
    dtype=None,
    resize=-1,
    rand_crop=False,
    random_resized_crop=False,
    max_rotate_angle=0,
    max_aspect_ratio=0.0,
    min_aspect_ratio=None,
    max_shear_ratio=0.0,
    max_crop_size=-1,
    min_crop_size=-1,
    max_random_scale=1.0,
    min_random_scale=1.0,
    max_random_area=1.0,
    min_random_area=1.0,
    max_img_size=1e10,
    min_img_size=0.0,
    brightness=0.0,
    contrast=0.0,
    saturation=0.0,
    pca_noise=0.0,
    random_h=0,
    random_s=0,
    random_l=0,
    rotate=-1,
    fill_value=255,
    inter_method=1,
    pad=0,
    mirror=False,
    rand_mirror=False,
    mean_img="",
    mean_r=0.0,
    mean_g=0.0,
    mean_b=0.0,
    mean_a=0.0,
    std_r=1.0,
    std_g=1.0,
    std_b=1.0,
    std_a=1.0,
    scale=1.0,
    max_random_contrast=0.0,
    max_random_illumination=0.0,
    data_name="data",
    label_name="softmax_label",
)
_GRAY = np.array([0.299, 0.587, 0.114], dtype=np.float32).reshape(3, 1, 1)
_EIGVAL = np.array([55.46, 4.794, 1.148])
_EIGVEC = np.array(
    [[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]]
)


_RAND_MAGIC = 111  # MXNet's ImageRecordIOParser2 seeds its shuffle engine with 111 + seed
_CHUNK_BYTES = 8 << 20  # its record reader loads (and shuffles within) ~8 MB chunks


def _chunk_bounds(offsets: list, end: int) -> list:
    """[first, last) record indices of the chunks MXNet reads: the records starting in the
    next 8 MB but the last one of them, or all records up to ``end``."""
    bounds, i, n = [], 0, len(offsets)
    while i < n:
        limit = offsets[i] + _CHUNK_BYTES
        j = i
        while j < n and offsets[j] < limit:
            j += 1
        if end > limit and j - i > 1:
            j -= 1
        bounds.append((i, j))
        i = j
    return bounds


class _SeedAugRNG:
    """MXNet's per-record augmentation engine under ``seed_aug``: ``mt19937(idx + seed_aug +
    111)`` with libstdc++'s distributions, behind the ``random.Random`` methods the
    augmenters call (``random``/``uniform`` are float draws, ``coin`` the mirror's
    ``bernoulli_distribution(0.5)``)."""

    def __init__(self, seed: int) -> None:
        self._r = DetRNG(seed)

    def randint(self, a: int, b: int) -> int:
        return self._r.randint(int(a), int(b))

    def random(self) -> float:
        return float(self._r.canonical())

    def uniform(self, a: float, b: float) -> float:
        return float(a) + (float(b) - float(a)) * float(self._r.canonical())

    def coin(self) -> bool:
        lo, hi = self._r.raw(), self._r.raw()
        return (lo + hi * 4294967296.0) / 18446744073709551616.0 < 0.5

    def shuffle(self, seq: list) -> None:
        self._r.shuffle(seq)

    def gauss(self, mu: float, sigma: float) -> float:
        u1, u2 = max(self.random(), 1e-12), self.random()
        return mu + sigma * float(np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2))


def _index_offsets(path: Any) -> list | None:
    """Sorted record offsets of an ``.idx`` file (``key\toffset`` lines), or None."""
    if not path or path in ("None",) or not os.path.isfile(os.fspath(path)):
        return None
    offsets = []
    with open(os.fspath(path)) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2:
                offsets.append(int(parts[1]))
    return sorted(set(offsets))


def _scan_offsets(path: str, begin: int, end: int) -> list:
    """Start offsets of the records in byte range [begin, end) of a ``.rec`` file."""
    offsets = []
    with open(path, "rb") as f:
        pos = begin
        while pos < end:
            f.seek(pos)
            start = pos
            while True:
                head = f.read(8)
                if len(head) < 8:
                    raise MXNetError(
                        "Invalid RecordIO file %s: truncated record header at "
                        "byte offset %d" % (path, pos)
                    )
                magic, lrec = recordio._HEAD.unpack(head)
                if magic != recordio._MAGIC:
                    raise MXNetError(
                        "Invalid RecordIO file %s: bad magic word 0x%08x at byte "
                        "offset %d" % (path, magic, pos)
                    )
                pos += 8 + (((lrec & recordio._LEN_MASK) + 3) & ~3)
                if lrec >> 29 in (0, 3):
                    break
                f.seek(pos)
            if pos > os.path.getsize(path):
                raise MXNetError(
                    "Invalid RecordIO file %s: truncated record at byte offset %d" % (path, start)
                )
            offsets.append(start)
    return offsets


class _Augment:
    """MXNet's default image augmenter (resize, crops, scale/aspect, mirror, colour)."""

    def __init__(self, p: dict, shape: tuple) -> None:
        self.p = p
        self.c, self.h, self.w = shape
        self._hls = any(float(p[k]) != 0 for k in ("random_h", "random_s", "random_l"))
        interp = int(p["inter_method"])
        self.interp = interp
        self._affine = (
            float(p["max_rotate_angle"]) > 0
            or float(p["max_shear_ratio"]) > 0
            or int(p["rotate"]) > 0
            or float(p["max_random_scale"]) != 1.0
            or float(p["min_random_scale"]) != 1.0
            # with random_resized_crop the aspect ratio range belongs to the crop, not the warp
            # (MXNet 1.9.1: checked on the oracle)
            or (float(p["max_aspect_ratio"]) != 0.0 and not _parse_bool(p["random_resized_crop"]))
            or float(p["max_img_size"]) != 1e10
            or float(p["min_img_size"]) != 0.0
        )
        # MXNet 1.9.1's default augmenter checks the code only where it resizes (0-4, 9, 10)
        # or warps (1-4, 9, 10)
        warps = self._affine or bool(str(p.get("rotate_list") or "").strip("[]() "))
        lowest = 1 if warps else 0
        if (warps or int(p["resize"]) != -1) and not (lowest <= interp <= 4 or interp in (9, 10)):
            raise MXNetError(
                "Check failed: (param_.inter_method >= %d && param_.inter_method <= 4) || "
                "(param_.inter_method >= 9 && param_.inter_method <= 10): invalid inter_method: "
                "valid value 0,1,2,3,9,10" % lowest
            )

    def _interp(self, rng: random.Random, ow: int, oh: int, nw: int, nh: int) -> int:
        if self.interp == 9:
            if nw > ow and nh > oh:
                return cv2.INTER_CUBIC
            if nw < ow and nh < oh:
                return cv2.INTER_AREA
            return cv2.INTER_LINEAR
        if self.interp == 10:
            return rng.randint(0, 4)
        return self.interp

    def __call__(self, img: np.ndarray, rng: random.Random) -> tuple[np.ndarray, bool]:
        """The augmented HWC image and whether it was mirrored."""
        p = self.p
        if p["resize"] > 0:
            r = int(p["resize"])
            ih, iw = img.shape[:2]
            nh, nw = (ih * r // iw, r) if ih > iw else (r, iw * r // ih)
            img = _cv.resize(img, nw, nh, self._interp(rng, iw, ih, nw, nh))
        if self._affine:
            img = self._warp(img, rng)
        if p["pad"] > 0:
            pd = int(p["pad"])
            img = cv2.copyMakeBorder(
                img, pd, pd, pd, pd, cv2.BORDER_CONSTANT, value=(p["fill_value"],) * 3 + (0,)
            )
        img = self._crop(img, rng)
        if self._hls:
            img = hls_shift(img, p, rng)
        coin = getattr(rng, "coin", None)
        mirrored = _parse_bool(p["rand_mirror"]) and (
            coin() if coin is not None else rng.random() < 0.5
        )
        mirrored = mirrored or _parse_bool(p["mirror"])
        return (img[:, ::-1] if mirrored else img), mirrored

    def _warp(self, img: np.ndarray, rng: random.Random) -> np.ndarray:
        """Random rotation, shear, scale and aspect ratio in one affine warp (MXNet's
        default augmenter, its float32 arithmetic), filling uncovered pixels with
        ``fill_value``."""
        p = self.p
        f32 = np.float32
        shear = f32(rng.uniform(-1, 1) * float(p["max_shear_ratio"]))
        max_angle = int(p["max_rotate_angle"])
        angle = rng.randint(-max_angle, max_angle) if max_angle > 0 else 0
        if int(p["rotate"]) > 0:
            angle = int(p["rotate"])
        a, b = f32(np.cos(angle / 180.0 * np.pi)), f32(np.sin(angle / 180.0 * np.pi))
        scale = f32(rng.uniform(float(p["min_random_scale"]), float(p["max_random_scale"])))
        a_hi, a_lo = float(p["max_aspect_ratio"]), p["min_aspect_ratio"]
        if _parse_bool(p["random_resized_crop"]):
            ratio = f32(1.0)
        elif a_lo not in (None, "None"):
            ratio = f32(rng.uniform(float(a_lo), a_hi) if a_hi > 0 else 1.0)
        else:
            ratio = f32(1.0 + rng.uniform(-a_hi, a_hi))
        hs = f32(2) * scale / (f32(1) + ratio)
        ws = ratio * hs
        ih, iw = img.shape[:2]
        lo, hi = f32(p["min_img_size"]), f32(p["max_img_size"])
        nw = max(lo, min(hi, scale * f32(iw)))
        nh = max(lo, min(hi, scale * f32(ih)))
        m = np.array(
            [[hs * a - shear * b * ws, hs * b + shear * a * ws, 0.0], [-b * ws, a * ws, 0.0]],
            dtype=np.float32,
        )
        m[0, 2] = (nw - (m[0, 0] * f32(iw) + m[0, 1] * f32(ih))) / f32(2)
        m[1, 2] = (nh - (m[1, 0] * f32(iw) + m[1, 1] * f32(ih))) / f32(2)
        nw, nh = max(int(nw), 1), max(int(nh), 1)
        return _cv.warp_affine(
            img, m, nw, nh, self._interp(rng, iw, ih, nw, nh), float(p["fill_value"])
        )

    def has_color(self) -> bool:
        """Whether any colour augmentation is requested."""
        p = self.p
        return any(float(p[k]) > 0 for k in ("brightness", "contrast", "saturation", "pca_noise"))

    def color(self, chw: np.ndarray, rng: random.Random) -> np.ndarray:
        """Random brightness/contrast/saturation and PCA lighting on a float32 CHW RGB
        image."""
        p = self.p
        x = chw.astype(np.float32)
        jitters = []
        if p["brightness"] > 0:
            jitters.append("b")
        if p["contrast"] > 0:
            jitters.append("c")
        if p["saturation"] > 0:
            jitters.append("s")
        rng.shuffle(jitters)
        rgb = x.shape[0] >= 3
        for j in jitters:
            v = float(p[{"b": "brightness", "c": "contrast", "s": "saturation"}[j]])
            alpha = np.float32(1.0 + rng.uniform(-v, v))
            if j == "b":
                x *= alpha
            elif rgb:
                gray = (x[:3] * _GRAY).sum(axis=0, keepdims=True)
                if j == "c":
                    gray = gray.mean()
                x = x * alpha + gray * (1 - alpha)
        if p["pca_noise"] > 0 and rgb:
            a = np.array([rng.gauss(0, float(p["pca_noise"])) for _ in range(3)])
            x[:3] += np.dot(_EIGVEC * a, _EIGVAL).astype(np.float32).reshape(3, 1, 1)
        return x

    def _crop(self, img: np.ndarray, rng: random.Random) -> np.ndarray:
        p, h, w = self.p, self.h, self.w
        ih, iw = img.shape[:2]
        # MXNet 1.9.1 leaves random_resized_crop idle with the default area and aspect ranges
        # (a square image is then center-cropped, not resized whole: checked on the oracle)
        rrc_idle = (
            float(p["min_random_area"]) == 1.0
            and float(p["max_random_area"]) == 1.0
            and float(p["max_aspect_ratio"]) == 0.0
            and p["min_aspect_ratio"] in (None, "None")
        )
        if _parse_bool(p["random_resized_crop"]) and not rrc_idle:
            area = ih * iw
            for _ in range(10):
                target = rng.uniform(p["min_random_area"], p["max_random_area"]) * area
                lo = (
                    p["min_aspect_ratio"]
                    if p["min_aspect_ratio"] not in (None, "None")
                    else 1.0 - float(p["max_aspect_ratio"])
                )
                hi = (
                    1.0 + float(p["max_aspect_ratio"])
                    if p["min_aspect_ratio"] in (None, "None")
                    else float(p["max_aspect_ratio"])
                )
                ratio = np.exp(rng.uniform(np.log(max(lo, 1e-6)), np.log(max(hi, 1e-6))))
                cw = int(round(np.sqrt(target * ratio)))
                ch = int(round(np.sqrt(target / ratio)))
                if 0 < cw <= iw and 0 < ch <= ih:
                    x0, y0 = rng.randint(0, iw - cw), rng.randint(0, ih - ch)
                    crop = img[y0 : y0 + ch, x0 : x0 + cw]
                    return _cv.resize(
                        np.ascontiguousarray(crop), w, h, self._interp(rng, cw, ch, w, h)
                    )
        if p["max_crop_size"] != -1 or p["min_crop_size"] != -1:
            lo, hi = int(p["min_crop_size"]), int(p["max_crop_size"])
            if iw < hi or ih < hi or hi < lo:
                raise MXNetError(
                    "Check failed: res.cols >= param_.max_crop_size && res.rows >= "
                    "param_.max_crop_size && param_.max_crop_size >= param_.min_crop_size: "
                    "input image size smaller than max_crop_size"
                )
            size = rng.randint(lo, hi) if _parse_bool(p["rand_crop"]) else (lo + hi) // 2
            size = min(size, ih, iw)
            y0, x0 = (
                (rng.randint(0, ih - size), rng.randint(0, iw - size))
                if _parse_bool(p["rand_crop"])
                else ((ih - size) // 2, (iw - size) // 2)
            )
            crop = np.ascontiguousarray(img[y0 : y0 + size, x0 : x0 + size])
            return _cv.resize(crop, w, h, self._interp(rng, size, size, w, h))
        if ih < h or iw < w:
            # smaller than data_shape: MXNet 1.9.1 scales up in two steps (keeping the aspect
            # ratio, sizes floored): first the height to h, then, if still narrower, the width
            # to w (checked against the oracle pixel for pixel)
            if ih < h:
                nw, nh = iw * h // ih, h
                img = _cv.resize(
                    np.ascontiguousarray(img), nw, nh, self._interp(rng, iw, ih, nw, nh)
                )
                ih, iw = nh, nw
            if iw < w:
                nw, nh = w, ih * w // iw
                img = _cv.resize(
                    np.ascontiguousarray(img), nw, nh, self._interp(rng, iw, ih, nw, nh)
                )
                ih, iw = nh, nw
        if _parse_bool(p["rand_crop"]):
            y0, x0 = rng.randint(0, ih - h), rng.randint(0, iw - w)
        else:
            y0, x0 = (ih - h) // 2, (iw - w) // 2
        return img[y0 : y0 + h, x0 : x0 + w]


class ImageRecordIter(MXDataIter):
    """Batches of images from an image RecordIO file (see ``im2rec``), as float32 NCHW,
    normalized as ``(pixel - mean) / std * scale``.

    Takes MXNet's parameters: ``path_imgrec``, ``path_imgidx``, ``data_shape``,
    ``batch_size``, ``label_width``, ``shuffle``, ``resize``, ``rand_crop``, ``rand_mirror``,
    ``mirror``, ``mean_r/g/b/a``, ``std_r/g/b/a``, ``scale``, ``max/min_random_scale``,
    ``max/min_aspect_ratio``, ``random_resized_crop``, ``inter_method``,
    ``preprocess_threads``, ``prefetch_buffer``, ``num_parts``, ``part_index``,
    ``round_batch``, ``seed``, ``random_h/s/l`` (HLS shifts), ``mean_img`` (a per-pixel mean
    file, created from one pass over the data when missing), ``dtype`` ('float32', 'uint8' or
    'int8')... Unknown keyword arguments are ignored, as by MXNet.

    Examples
    --------
    >>> it = mx.io.ImageRecordIter(path_imgrec='train.rec', data_shape=(3, 224, 224),
    ...                            batch_size=32, rand_crop=True, rand_mirror=True)  # doctest: +SKIP
    """

    _out_dtype: Any = np.float32

    # MXNet 1.9.1's prefetching iterator gives pinned-memory batches and leaves index at 0
    _out_dev = "cpu_pinned"
    _fill_index = False

    def __init__(self, **kwargs: Any) -> None:
        # unknown keyword arguments are ignored, as by MXNet's C++ iterators
        p = dict(_PARAMS, **{k: v for k, v in kwargs.items() if k in _PARAMS})
        for req in ("data_shape", "batch_size"):
            if p[req] is None:
                raise MXNetError(
                    "Required parameter %s of %s is not presented" % (req, type(self).__name__)
                )
        if not p["path_imgrec"]:
            raise MXNetError("%s: path_imgrec must be given" % type(self).__name__)
        self._path = os.fspath(p["path_imgrec"])
        if not os.path.exists(self._path):
            raise MXNetError("%s: cannot open '%s'" % (type(self).__name__, self._path))
        shape = _parse_shape(p["data_shape"])
        if len(shape) != 3 or shape[0] not in (1, 3, 4):
            raise MXNetError(
                "data_shape must be (channels, height, width) with 1, 3 or 4 "
                "channels, got %s" % (shape,)
            )
        self._shape = shape
        self._bs = int(p["batch_size"])
        self._label_width = int(p["label_width"])
        self._aug = _Augment(p, shape)
        self._p = p
        self._shuffle = _parse_bool(p["shuffle"])
        self._rng = random.Random(int(p["seed"]))
        seed_aug = p["seed_aug"]
        self._aug_seed = int(seed_aug) if seed_aug not in (None, "None") else None
        self._epoch = 0
        nparts, part = int(p["num_parts"]), int(p["part_index"])
        # MXNet shuffles with std::shuffle and one mt19937(111 + seed) engine that carries
        # on from pass to pass: each ~8 MB chunk of records, or (with an index file) the
        # whole part, whose records are then split by count rather than by bytes
        self._shuffle_rng = DetRNG(_RAND_MAGIC + int(p["seed"]))
        idx_offsets = _index_offsets(p["path_imgidx"])
        if idx_offsets is not None:
            step = (len(idx_offsets) + nparts - 1) // nparts
            lo = min(step * part, len(idx_offsets))
            self._offsets = idx_offsets[lo : min(lo + step, len(idx_offsets))]
            self._chunks = [(0, len(self._offsets))] if self._offsets else []
            self._indexed = True
        else:
            self._indexed = False
            begin, end = recordio._part_range(self._path, nparts, part)
            self._offsets = _scan_offsets(self._path, begin, end)
            self._chunks = _chunk_bounds(self._offsets, end)
        self._order = self._pass_order()
        self._next_order: list | None = None  # the next pass, once a wrapped batch reads it
        # batch position at which the current / next pass started (a wrapped batch starts
        # the next pass in its middle): MXNet's seed_aug engines are seeded from it
        self._pass_base = 0
        self._next_pass_base = 0
        self._chunk_starts = [a for a, _ in self._chunks]
        self._round = _parse_bool(p["round_batch"])
        self._loader = _BatchLoader(len(self._offsets), self._bs, self._round)
        dt = p["dtype"]
        if type(self)._out_dtype == np.float32 and dt not in (None, "None"):
            # MXNet's ImageRecordIter makes float32, uint8 or int8 batches
            names = {"float32": np.float32, "uint8": np.uint8, "int8": np.int8}
            key = np.dtype(dt).name if not isinstance(dt, str) else dt
            if key not in names:
                raise MXNetError("unknown dtype for ImageRecordIter2: %s" % (dt,))
            self._out_dtype = names[key]
        mean = [p["mean_r"], p["mean_g"], p["mean_b"], p["mean_a"]][: shape[0]]
        std = [p["std_r"], p["std_g"], p["std_b"], p["std_a"]][: shape[0]]
        self._mean = np.array(mean, dtype=np.float32).reshape(-1, 1, 1)
        self._std = np.array(std, dtype=np.float32).reshape(-1, 1, 1)
        self._scale = np.float32(p["scale"])
        self._jitter = (float(p["max_random_contrast"]), float(p["max_random_illumination"]))
        self._mean_img = None
        self._normalize = self._out_dtype == np.float32 and (
            any(mean)
            or any(s != 1 for s in std)
            or p["scale"] != 1
            or bool(p["mean_img"])
            or any(self._jitter)
        )
        self._color = self._aug.has_color()
        self._lst = (
            self._load_list(p["path_imglist"], self._label_width) if p["path_imglist"] else None
        )
        self._pool = ThreadPoolExecutor(max(1, int(p["preprocess_threads"])))
        if _parse_bool(p["verbose"]):  # MXNet's LOG(INFO) line
            _log_info(
                "ImageRecordIOParser2: %s, use %d threads for decoding.."
                % (self._path, _decode_threads(p["preprocess_threads"]))
            )
        self._local = {}
        if self._out_dtype != np.uint8 and p["mean_img"]:
            path = os.fspath(p["mean_img"])
            if os.path.exists(path):
                self._mean_img = load_mean_img(path, shape)
            elif self._out_dtype == np.int8:
                raise MXNetError(
                    "ImageRecordInt8Iter: mean image %s not found (it can only "
                    "be created by a float32 iterator)" % path
                )
            else:
                self._mean_img = self._create_mean_img(path)
        super().__init__(p["data_name"], p["label_name"], int(p["prefetch_buffer"]))

    def _create_mean_img(self, path: str) -> np.ndarray:
        """Average of one pass of (augmented, normalized) images, saved to ``path``."""
        total = np.zeros(self._shape, dtype=np.float32)
        count = 0
        while True:
            batch = self._next_batch()
            if batch is None:
                break
            data, _, pad, _ = batch
            for img in data[: self._bs - pad]:  # float32, one image at a time (as MXNet)
                total += img
            count += self._bs - pad
        if count == 0:
            raise MXNetError(
                "ImageRecordIter: cannot create mean image %s: no images in %s" % (path, self._path)
            )
        mean = total * np.float32(1.0 / count)
        save_mean_img(path, mean)
        self._loader = _BatchLoader(len(self._offsets), self._bs, self._round)
        return mean

    @staticmethod
    def _load_list(path: str, label_width: int = 0) -> dict:
        table = {}
        try:
            with open(path) as fin:
                for lineno, line in enumerate(fin, 1):
                    parts = line.strip().split("\t")
                    if len(parts) < 3:
                        continue
                    try:
                        # MXNet reads the first label_width values after the index
                        labels = parts[1:-1][:label_width] if label_width else parts[1:-1]
                        table[int(parts[0])] = np.array(
                            [float(x) for x in labels], dtype=np.float32
                        )
                    except ValueError:
                        raise MXNetError(
                            "%s line %d: bad image list entry %r" % (path, lineno, line)
                        ) from None
        except OSError as e:
            raise MXNetError(
                "ImageRecordIter: cannot read image list '%s': %s" % (path, e.strerror)
            ) from None
        return table

    def _pass_order(self) -> list:
        """Record indices of a new pass over the file (shuffled chunk by chunk)."""
        if not self._shuffle:
            return list(range(len(self._offsets)))
        order: list = []
        for a, b in self._chunks:
            idx = list(range(a, b))
            self._shuffle_rng.shuffle(idx)
            order += idx
        return order

    def _before_first(self) -> None:
        wrapped = self._loader.overflow > 0
        self._loader.before_first()
        self._epoch += 1
        if wrapped and self._next_order is not None:
            self._order = self._next_order  # the wrapped batch already started this pass
            self._pass_base = self._next_pass_base
        else:
            self._order = self._pass_order()
            self._pass_base = 0
        self._next_order = None

    def _seed_aug_index(self, pos: int, rec: int, base: int) -> int:
        """MXNet's ``idx`` of a record under ``seed_aug``: its place in the parsed chunk,
        counted from the batch position where that chunk was parsed (the batch size for
        shuffled files, whose chunks are parsed aside)."""
        bs = self._bs
        if self._indexed:  # the indexed reader hands out chunks of batch_size records
            return base + pos % bs
        k = bisect.bisect_right(self._chunk_starts, rec) - 1
        a = self._chunk_starts[k] if k >= 0 else 0
        if self._shuffle:
            return bs + rec - a
        return (base + a) % bs + rec - a

    def _read(self, f, rec: int) -> bytes:
        return recordio._pread_record(f.fileno(), self._path, self._offsets[rec])[0]

    def _decode(
        self, raw: bytes, idx: int, out: np.ndarray, slot: int, rng_seed: int, exact: bool = False
    ) -> Any:
        header, payload = recordio.unpack(raw)
        c = self._shape[0]
        where = "record %d of %s" % (idx, self._path)
        check_encoded_size(payload, where)  # corrupt headers must not allocate gigabytes
        try:
            # MXNet decodes 4-channel data as stored (IMREAD_UNCHANGED) and requires BGRA
            flag = {1: cv2.IMREAD_GRAYSCALE, 4: cv2.IMREAD_UNCHANGED}.get(c, cv2.IMREAD_COLOR)
            img = cv2.imdecode(np.frombuffer(payload, np.uint8), flag)
        except cv2.error:
            img = None
        if img is not None and c == 4 and (img.ndim != 3 or img.shape[2] != 4):
            raise MXNetError(
                "Check failed: res.channels() == 4: Invalid image with index %d. Expected 4 "
                "channels, got %d" % (header.id, 1 if img.ndim == 2 else img.shape[2])
            )
        if img is None:
            raise MXNetError(
                "ImageRecordIter: cannot decode the image of record %d (id %d) "
                "at byte offset %d of %s" % (idx, header.id, self._offsets[idx], self._path)
            )
        if img.ndim == 2:
            img = img[:, :, None]
        rng = _SeedAugRNG(rng_seed) if exact else random.Random(rng_seed)
        img, mirrored = self._aug(img, rng)
        if img.ndim == 2:
            img = img[:, :, None]
        # HWC BGR -> CHW RGB as a view; the copy into the batch is the only pass over pixels
        chw = np.transpose(img, (2, 0, 1))
        if c >= 3:
            chw = chw[2::-1] if c == 3 else chw[[2, 1, 0, 3]]
        dst = out[slot]
        if self._color:
            chw = self._aug.color(chw, rng)
            if not self._normalize:
                chw = np.clip(np.rint(chw), 0, 255) if dst.dtype == np.uint8 else chw
        if self._normalize:
            self._normalize_into(dst, chw, mirrored, rng)
        elif dst.dtype == np.int8:
            mean = self._mean
            if self._mean_img is not None:
                mean = self._mean_img[:, :, ::-1] if mirrored else self._mean_img
            mean = np.sign(mean) * np.floor(np.abs(mean) + 0.5)  # C's round()
            np.clip(np.rint(chw) - mean, -128, 127, out=dst, casting="unsafe")
        else:
            dst[...] = chw
        label = header.label
        if self._lst is not None:
            if header.id not in self._lst:
                raise MXNetError(
                    "ImageRecordIter: image id %d of record %d is not in %s"
                    % (header.id, idx, self._p["path_imglist"])
                )
            label = self._lst[header.id]
        elif header.flag == 0:
            label = np.array([label], dtype=np.float32)
        if label.size != self._label_width:
            raise MXNetError(
                "ImageRecordIter: record %d (id %d) of %s has %d labels but "
                "label_width is %d" % (idx, header.id, self._path, label.size, self._label_width)
            )
        return label, header.id

    def _normalize_into(
        self, dst: np.ndarray, chw: np.ndarray, mirrored: bool, rng: random.Random
    ) -> None:
        """``dst = ((chw - mean) * c * scale + i * scale) / std`` with c, i the random
        contrast / illumination; the mean image is taken at the pre-mirror positions."""
        mean = self._mean
        if self._mean_img is not None:
            mean = self._mean_img[:, :, ::-1] if mirrored else self._mean_img
        mc, mi = self._jitter
        exact = isinstance(rng, _SeedAugRNG)  # MXNet draws both, even for 0 ranges
        cu = rng.uniform(-mc, mc) if (mc or exact) else 0.0
        iu = rng.uniform(-mi, mi) if (mi or exact) else 0.0
        contrast = np.float32((1 + cu if mc else 1.0) * self._scale)
        np.subtract(chw, mean, out=dst, dtype=np.float32)
        if contrast != 1:
            np.multiply(dst, contrast, out=dst)
        if mi:
            np.add(dst, np.float32(iu * self._scale), out=dst)
        np.divide(dst, self._std, out=dst)

    def _next_batch(self) -> tuple | None:
        nxt = self._loader.next_indices()
        if nxt is None:
            return None
        rows, pad = nxt
        if not self._round and pad:
            rows = [r if i < self._bs - pad else None for i, r in enumerate(rows)]
            pad = 0
        data = np.zeros((self._bs,) + self._shape, dtype=self._out_dtype)
        labels = np.zeros((self._bs, self._label_width), dtype=np.float32)
        index = np.zeros(self._bs, dtype=np.uint64)
        recs, aug_idx = [], []
        for slot, r in enumerate(rows):
            if r is None:
                recs.append(None)
                aug_idx.append(None)
            elif pad and slot >= self._bs - pad:  # a wrapped batch reads the next pass
                if self._next_order is None:
                    self._next_order = self._pass_order()
                self._next_pass_base = self._bs - pad
                recs.append(self._next_order[r])
                aug_idx.append(self._seed_aug_index(r, recs[-1], self._bs - pad))
            else:
                recs.append(self._order[r])
                aug_idx.append(self._seed_aug_index(r, recs[-1], self._pass_base))
        with open(self._path, "rb") as f:
            raws = [(slot, r, self._read(f, r)) for slot, r in enumerate(recs) if r is not None]
        seed_aug = self._aug_seed
        if seed_aug is not None:  # MXNet reseeds mt19937(idx + seed_aug + 111) per record
            seeds = {
                slot: (aug_idx[slot] + seed_aug + _RAND_MAGIC) & 0xFFFFFFFF for slot, _, _ in raws
            }
        else:
            base = self._rng.getrandbits(32)
            seeds = {slot: hash((base, self._epoch, r)) & 0xFFFFFFFF for slot, r, _ in raws}
        exact = seed_aug is not None
        futures = [
            (slot, self._pool.submit(self._decode, raw, r, data, slot, seeds[slot], exact))
            for slot, r, raw in raws
        ]
        for slot, fut in futures:
            lab, rid = fut.result()
            labels[slot] = lab
            if self._fill_index:
                index[slot] = rid
        if self._label_width == 1:
            labels = labels.reshape(self._bs)
        return data, labels, pad, index

    def __del__(self) -> None:
        super().__del__()
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.shutdown(wait=False)


class ImageRecordUInt8Iter(ImageRecordIter):
    """Like :class:`ImageRecordIter`, returning uint8 pixels without normalization.

    Examples
    --------
    >>> it = mx.io.ImageRecordUInt8Iter(path_imgrec='train.rec', data_shape=(3, 32, 32),
    ...                                 batch_size=8)  # doctest: +SKIP
    """

    _out_dtype = np.uint8


class ImageRecordInt8Iter(ImageRecordIter):
    """Like :class:`ImageRecordIter`, returning int8 pixels minus the (rounded) mean,
    saturated to [-128, 127] (MXNet deprecates it for ``ImageRecordIter(dtype='int8')``).

    Examples
    --------
    >>> it = mx.io.ImageRecordInt8Iter(path_imgrec='train.rec', data_shape=(3, 32, 32),
    ...                                batch_size=8, mean_r=128)  # doctest: +SKIP
    """

    _out_dtype = np.int8


class ImageRecordIter_v1(ImageRecordIter):  # noqa: N801 (MXNet's name)
    """MXNet's legacy name of :class:`ImageRecordIter` (same parameters and batches)."""

    _out_dev = "cpu"
    _fill_index = True


class ImageRecordUInt8Iter_v1(ImageRecordUInt8Iter):  # noqa: N801 (MXNet's name)
    """MXNet's legacy name of :class:`ImageRecordUInt8Iter`."""

    _out_dev = "cpu"
    _fill_index = True
