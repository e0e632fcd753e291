"""``ImageDetRecordIter``: detection batches from an image RecordIO file.

Each output label row is ``[channels, height, width, n, label (n values)...]`` padded with
``label_pad_value`` to the widest label of the file (or ``label_pad_width + 4``), as MXNet's
C++ iterator produced; ``height``/``width`` are those of the augmented image and the label is
``[header..., objects...]`` after augmentation (invalid or cropped-out objects dropped).
The augmenter itself lives in ``_det_aug``.
"""

from __future__ import annotations

import os
import struct
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import cv2
import numpy as np

from .. import recordio
from ..base import MXNetError
from ._det_aug import DetAugmenter, DetRNG, apply_ops, image_hw
from ._image_mean import load_mean_img, save_mean_img
from ._image_record import _scan_offsets
from ._native import MXDataIter, _BatchLoader, _decode_threads, _log_info, _parse_bool, _parse_shape

__all__ = ["ImageDetRecordIter"]

_PARAMS = dict(
    path_imglist="",
    path_imgrec="./data/imgrec.rec",
    aug_seq="det_aug_default",
    label_width=-1,
    data_shape=None,
    preprocess_threads=4,
    verbose=True,
    num_parts=1,
    part_index=0,
    shuffle_chunk_size=0,
    shuffle_chunk_seed=0,
    label_pad_width=0,
    label_pad_value=-1.0,
    shuffle=False,
    seed=0,
    batch_size=None,
    round_batch=True,
    prefetch_buffer=4,
    ctx="gpu",
    dtype=None,
    resize=-1,
    rand_crop_prob=0.0,
    min_crop_scales=(0.0,),
    max_crop_scales=(1.0,),
    min_crop_aspect_ratios=(1.0,),
    max_crop_aspect_ratios=(1.0,),
    min_crop_overlaps=(0.0,),
    max_crop_overlaps=(1.0,),
    min_crop_sample_coverages=(0.0,),
    max_crop_sample_coverages=(1.0,),
    min_crop_object_coverages=(0.0,),
    max_crop_object_coverages=(1.0,),
    num_crop_sampler=1,
    crop_emit_mode="center",
    emit_overlap_thresh=0.3,
    max_crop_trials=(25,),
    rand_pad_prob=0.0,
    max_pad_scale=1.0,
    max_random_hue=0,
    random_hue_prob=0.0,
    max_random_saturation=0,
    random_saturation_prob=0.0,
    max_random_illumination=0,
    random_illumination_prob=0.0,
    max_random_contrast=0.0,
    random_contrast_prob=0.0,
    rand_mirror_prob=0.0,
    fill_value=127,
    inter_method=1,
    resize_mode="force",
    mean_img="",
    mean_r=0.0,
    mean_g=0.0,
    mean_b=0.0,
    mean_a=0.0,
    std_r=0.0,
    std_g=0.0,
    std_b=0.0,
    std_a=0.0,
    scale=1.0,
    data_name="data",
    label_name="softmax_label",
)
_RAND_MAGIC = 233  # MXNet seeds decoding thread i's engine with (i + 1) * 233
_CHUNK_BYTES = 8 << 20  # MXNet's record reader loads 8 MB chunks
_PEEK_BYTES = 1 << 16  # bytes read to find an image's size in its header


class ImageDetRecordIter(MXDataIter):
    """Detection batches (float32 NCHW images, padded label rows) from an image ``.rec``.

    Runs MXNet's ``det_aug_default`` augmenter: random colour (``random_hue_prob`` ...),
    ``rand_mirror_prob``, random pad (``rand_pad_prob``, ``max_pad_scale``, ``fill_value``),
    random crop samplers (``rand_crop_prob``, ``num_crop_sampler`` sets of scale / aspect /
    overlap / coverage ranges, ``crop_emit_mode``), then ``resize_mode``; labels may come from
    ``path_imglist``; normalisation by ``mean_r/g/b/a`` or ``mean_img``, ``std_*``, ``scale``.

    The random draws replay MXNet's decoding engines (``std::mt19937`` seeded 233 per
    decoding thread, whatever ``seed`` is; min(cores - 1, ``preprocess_threads``) threads,
    each owning a byte slice of every 8 MB chunk), record after record across epochs.
    With ``shuffle=True`` each pass is augmented in file order up front (image sizes read
    from the PNG/JPEG headers), then shuffled within 8 MB chunks by ``std::shuffle`` with
    MXNet's ``mt19937(233 + seed)``: the same batches as MXNet.

    Examples
    --------
    >>> it = mx.io.ImageDetRecordIter(path_imgrec='det.rec', data_shape=(3, 300, 300),
    ...                               batch_size=32, rand_crop_prob=0.5)  # doctest: +SKIP
    """

    def __init__(self, **kwargs: Any) -> None:
        # unknown keyword arguments are ignored, as by MXNet's C++ iterators
        p = dict(_PARAMS, **{k: v for k, v in kwargs.items() if k in _PARAMS})
        for req in ("data_shape", "batch_size"):
            if p[req] is None:
                raise MXNetError(
                    "Required parameter %s of ImageDetRecordIter is not presented" % req
                )
        self._shape = _parse_shape(p["data_shape"])
        if len(self._shape) != 3 or self._shape[0] not in (1, 3, 4):
            raise MXNetError("ImageDetRecordIter: invalid data_shape %s" % (self._shape,))
        p["_shape"] = self._shape
        self._aug = DetAugmenter(p)
        self._path = os.fspath(p["path_imgrec"])
        if not os.path.exists(self._path):
            raise MXNetError("ImageDetRecordIter: cannot open '%s'" % self._path)
        self._p = p
        self._bs = int(p["batch_size"])
        self._labels = self._load_list(os.fspath(p["path_imglist"])) if p["path_imglist"] else None
        begin, end = recordio._part_range(self._path, int(p["num_parts"]), int(p["part_index"]))
        self._offsets = _scan_offsets(self._path, begin, end)
        self._order = list(range(len(self._offsets)))
        self._plans: dict = {}
        self._chunks = self._chunk_bounds(end)
        self._shuffle_rng = DetRNG(_RAND_MAGIC + int(p["seed"]))
        # MXNet decodes with min(cores - 1, preprocess_threads) threads, thread t owning the
        # records that start in the t-th equal byte slice of each chunk and its own engine
        cores = (
            len(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else (os.cpu_count() or 1)
        )
        n_eng = max(1, min(cores - 1, int(p["preprocess_threads"])))
        self._engines = [DetRNG((t + 1) * _RAND_MAGIC) for t in range(n_eng)]
        self._engine_of = self._record_engines(end, n_eng)
        self._rng_lock = threading.Lock()
        self._shuffle = _parse_bool(p["shuffle"])
        if self._shuffle:
            self._order = self._pass_order()
        self._loader = _BatchLoader(len(self._offsets), self._bs, _parse_bool(p["round_batch"]))
        self._label_w = self._label_width()
        c = self._shape[0]
        means = [float(p[k]) for k in ("mean_r", "mean_g", "mean_b", "mean_a")]
        stds = [float(p[k]) for k in ("std_r", "std_g", "std_b", "std_a")]
        chan = [0] if c == 1 else [0, 1, 2] if c == 3 else [0, 1, 2, 3]
        # MXNet subtracts the channel means only when one of them is positive
        self._mean = (
            np.array([means[i] for i in chan], np.float32).reshape(-1, 1, 1)
            if any(m > 0 for m in means)
            else None
        )
        self._std = np.array([stds[i] if stds[i] > 0 else 1.0 for i in chan], np.float32).reshape(
            -1, 1, 1
        )
        self._scale = np.float32(p["scale"])
        self._mean_img = None
        self._pool = ThreadPoolExecutor(max(1, int(p["preprocess_threads"])))
        if _parse_bool(p["verbose"]):  # MXNet's LOG(INFO) line
            _log_info(
                "ImageDetRecordIOParser: %s, use %d threads for decoding.."
                % (self._path, _decode_threads(p["preprocess_threads"]))
            )
        if p["mean_img"]:
            # created (one augmented pass) or loaded even when the channel means take over
            path = os.fspath(p["mean_img"])
            if os.path.exists(path):
                mean_img = load_mean_img(path, self._shape)
            else:
                mean_img = self._create_mean_img(path)
                if self._shuffle:  # that pass used the first shuffled pass's draws
                    self._order = self._pass_order()
            self._mean_img = mean_img if self._mean is None else None
        super().__init__(p["data_name"], p["label_name"], int(p["prefetch_buffer"]))

    @staticmethod
    def _load_list(path: str) -> dict:
        """``{image index: label}`` from a detection .lst (index, labels..., image path)."""
        if not os.path.exists(path):
            raise MXNetError("ImageDetRecordIter: cannot open image list '%s'" % path)
        out: dict = {}
        with open(path) as f:
            for ln, line in enumerate(f, 1):
                tok = line.split()
                if not tok:
                    continue
                try:
                    vals = [float(t) for t in tok[1:-1]]
                    idx = int(float(tok[0]))
                except ValueError:
                    raise MXNetError(
                        "ImageDetRecordIter: bad image list format in %s line %d" % (path, ln)
                    ) from None
                if not vals:
                    raise MXNetError("Bad ImageList format: empty label in %s line %d" % (path, ln))
                out[idx] = np.array(vals, dtype=np.float32)
        return out

    def _label_width(self) -> int:
        widest = 0
        lw = int(self._p["label_width"])
        if self._labels is not None:
            if lw > 0:
                for k, v in self._labels.items():
                    if v.size < lw:
                        raise MXNetError(
                            "Bad ImageList format: image %d has %d labels, "
                            "label_width is %d" % (k, v.size, lw)
                        )
                    self._labels[k] = v[:lw]
            widest = max((v.size for v in self._labels.values()), default=0)
        else:
            with open(self._path, "rb") as f:
                for off in self._offsets:
                    header, _ = recordio.unpack(
                        recordio._pread_record(f.fileno(), self._path, off)[0]
                    )
                    n = max(int(header.flag), 1)
                    if lw > 0 and n != lw:
                        raise MXNetError(
                            "rec file provide %d-dimensional label but label_width "
                            "is set to %d" % (n, lw)
                        )
                    widest = max(widest, n)
        pad = int(self._p["label_pad_width"])
        if pad > 0:
            if pad < widest:
                raise MXNetError(
                    "ImageDetRecordIter: label_pad_width=%d is smaller than the "
                    "widest label (%d values) in %s" % (pad, widest, self._path)
                )
            widest = pad
        return widest + 4

    def _chunk_bounds(self, end: int) -> list:
        """[first, last) record indices of the 8 MB chunks MXNet reads (and shuffles within):
        the records starting in the next 8 MB but the last one, or all up to ``end``."""
        bounds, i, n = [], 0, len(self._offsets)
        while i < n:
            limit = self._offsets[i] + _CHUNK_BYTES
            j = i
            while j < n and self._offsets[j] < limit:
                j += 1
            if end > limit and j - i > 1:
                j -= 1
            bounds.append((i, j))
            i = j
        return bounds

    def _record_engines(self, end: int, n_eng: int) -> list:
        """Index of the decoding thread (engine) of each record."""
        out = []
        for a, b in self._chunks:
            start = self._offsets[a]
            size = (self._offsets[b] if b < len(self._offsets) else end) - start
            step = max(4, ((size + n_eng - 1) // n_eng + 3) // 4 * 4)
            out += [min((self._offsets[i] - start) // step, n_eng - 1) for i in range(a, b)]
        return out

    def _pass_order(self) -> list:
        """A new pass's record order: each chunk shuffled by ``std::shuffle`` with MXNet's
        ``mt19937(233 + seed)`` engine, which carries on from pass to pass."""
        order: list = []
        for a, b in self._chunks:
            idx = list(range(a, b))
            self._shuffle_rng.shuffle(idx)
            order += idx
        self._plans = self._plan_pass()
        return order

    def _plan_pass(self) -> dict:
        """MXNet augments a chunk's records in file order before shuffling them: draw every
        record's augmentation of this pass now (sizes from the image headers)."""
        plans = {}
        with open(self._path, "rb") as f, self._rng_lock:
            for i, off in enumerate(self._offsets):
                header, payload, hw = self._peek_record(f.fileno(), off)
                if hw is None:
                    header, payload = recordio.unpack(
                        recordio._pread_record(f.fileno(), self._path, off)[0]
                    )
                    hw = self._decode(recordio.pack(header, payload), i)[1].shape[:2]
                label = self._raw_label(header)
                ops, _, _, out = self._aug.plan(
                    hw[0], hw[1], label, self._engines[self._engine_of[i]]
                )
                plans[i] = (ops, out)
        return plans

    def _before_first(self) -> None:
        continues = self._loader.round and self._loader.overflow > 0
        self._loader.before_first()
        if self._shuffle and not continues:
            self._order = self._pass_order()

    def _decode(self, raw: bytes, idx: int) -> tuple:
        header, payload = recordio.unpack(raw)
        c = self._shape[0]
        flag = (
            cv2.IMREAD_GRAYSCALE if c == 1 else cv2.IMREAD_COLOR if c == 3 else cv2.IMREAD_UNCHANGED
        )
        img = cv2.imdecode(np.frombuffer(payload, np.uint8), flag)
        if img is None:
            raise MXNetError(
                "ImageDetRecordIter: cannot decode the image of record %d (id %d) "
                "at byte offset %d of %s" % (idx, header.id, self._offsets[idx], self._path)
            )
        if img.ndim == 2:
            img = img[:, :, None]
        if img.shape[2] != c:
            raise MXNetError(
                "Invalid image with index %d. Expected %d channels, got %d"
                % (header.id, c, img.shape[2])
            )
        return header.id, img, self._raw_label(header)

    @staticmethod
    def _peek_record(fd: int, off: int) -> tuple:
        """(header, leading image bytes, image (height, width) or None) from the first
        64 KB of the record at ``off``; None sizes ask for a full read and decode."""
        head = os.pread(fd, _PEEK_BYTES, off)
        if len(head) < 8:
            return None, b"", None
        lrec = struct.unpack("<I", head[4:8])[0]
        if lrec >> 29:  # a record split in parts
            return None, b"", None
        try:
            header, payload = recordio.unpack(head[8 : 8 + (lrec & ((1 << 29) - 1))])
        except MXNetError:
            return None, b"", None
        return header, payload, image_hw(payload)

    def _raw_label(self, header: Any) -> np.ndarray:
        if self._labels is None:
            return np.atleast_1d(np.asarray(header.label, dtype=np.float32))
        label = self._labels.get(int(header.id))
        if label is None:
            raise MXNetError("fail to find imagelabel for id %d" % header.id)
        return label

    def _finish(
        self, img: np.ndarray, ops: list, label: np.ndarray, dst: np.ndarray, row: np.ndarray
    ) -> None:
        img = apply_ops(img, ops, int(self._p["fill_value"]))
        ih, iw = img.shape[:2]
        th, tw = self._shape[1:]
        if ih > th or iw > tw:
            raise MXNetError(
                "ImageDetRecordIter: augmented image %dx%d exceeds data_shape %s"
                % (ih, iw, self._shape)
            )
        chw = np.transpose(img, (2, 0, 1))
        c = self._shape[0]
        if c >= 3:
            chw = chw[2::-1] if c == 3 else chw[[2, 1, 0, 3]]
        dst[...] = 0
        dst[:, :ih, :iw] = chw
        if self._mean is not None:
            dst -= self._mean
        elif self._mean_img is not None:
            dst -= self._mean_img
        dst /= self._std
        if self._scale != 1:
            dst *= self._scale
        if label.size + 4 > row.size:
            raise MXNetError(
                "ImageDetRecordIter: label of %d values exceeds the padded label "
                "width %d" % (label.size, row.size - 4)
            )
        row[:4] = (c, ih, iw, label.size)
        row[4 : 4 + label.size] = label

    def _process(self, raws: list, data: np.ndarray, labels: np.ndarray) -> list:
        """Decode (threads), plan the random augmentations in record order (one engine, as
        MXNet's decoding thread), then augment and normalise (threads); returns the ids."""
        decoded = list(self._pool.map(lambda a: self._decode(a[2], a[1]), raws))
        # raws: (slot, file index, record bytes, planned augmentation or None)
        plans = []
        with self._rng_lock:
            for (_, fidx, _, plan), (_, img, label) in zip(raws, decoded):
                if plan is None:
                    ops, _, _, out_label = self._aug.plan(
                        img.shape[0], img.shape[1], label, self._engines[self._engine_of[fidx]]
                    )
                    plan = (ops, out_label)
                plans.append(plan)
        futs = [
            self._pool.submit(self._finish, img, ops, lab, data[slot], labels[slot])
            for (slot, _, _, _), (_, img, _), (ops, lab) in zip(raws, decoded, plans)
        ]
        for fut in futs:
            fut.result()
        return [d[0] for d in decoded]

    def _create_mean_img(self, path: str) -> np.ndarray:
        """Average of every (augmented, std-divided, scaled) image of one pass, saved to
        ``path`` as MXNet does when the mean image file is missing."""
        total = np.zeros(self._shape, dtype=np.float64)
        step = max(1, self._bs)
        with open(self._path, "rb") as f:
            for start in range(0, len(self._offsets), step):
                idx = range(start, min(start + step, len(self._offsets)))
                raws = [
                    (
                        i - start,
                        i,
                        recordio._pread_record(f.fileno(), self._path, self._offsets[i])[0],
                        self._plans.get(i) if self._shuffle else None,
                    )
                    for i in idx
                ]
                data = np.zeros((len(raws),) + self._shape, dtype=np.float32)
                labels = np.zeros((len(raws), self._label_w), dtype=np.float32)
                self._process(raws, data, labels)
                total += data.sum(axis=0, dtype=np.float64)
        mean = (total * np.float32(1.0 / len(self._offsets))).astype(np.float32)
        save_mean_img(path, mean)
        return mean

    def _next_batch(self) -> tuple | None:
        nxt = self._loader.next_indices()
        if nxt is None:
            return None
        rows, pad = nxt
        files = [None if r is None else self._order[r] for r in rows]
        plans = [self._plans.get(i) if self._shuffle and i is not None else None for i in files]
        if self._shuffle and self._loader.round and self._loader.overflow > 0:
            # the batch wrapped into the next pass, which MXNet reshuffles
            self._order = self._pass_order()
            for k in range(len(rows) - self._loader.overflow, len(rows)):
                files[k] = self._order[rows[k]]
                plans[k] = self._plans[files[k]]
        data = np.zeros((self._bs,) + self._shape, dtype=np.float32)
        labels = np.full(
            (self._bs, self._label_w), float(self._p["label_pad_value"]), dtype=np.float32
        )
        index = np.zeros(self._bs, dtype=np.uint64)
        with open(self._path, "rb") as f:
            raws = [
                (
                    slot,
                    i,
                    recordio._pread_record(f.fileno(), self._path, self._offsets[i])[0],
                    plans[slot],
                )
                for slot, i in enumerate(files)
                if i is not None
            ]
        for (slot, _, _, _), rid in zip(raws, self._process(raws, data, labels)):
            index[slot] = rid
        return data, labels, pad, index

    def __del__(self) -> None:
        super().__del__()
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.shutdown(wait=False)
