"""ImageRecordIter helpers: HLS colour shifts (``random_h/s/l``) and the mean image
(``mean_img``), following MXNet 1.9.1's default augmenter and normalizer."""
from __future__ import annotations

import os
import random

import cv2
import numpy as np

from ..base import MXNetError

_HLS_LIMIT = np.array([180, 255, 255], dtype=np.int16)


def hls_shift(img: np.ndarray, p: dict, rng: random.Random) -> np.ndarray:
    """Shift hue, lightness and saturation of a uint8 BGR image by integers drawn uniformly
    from ``[-random_h, random_h]``, ``[-random_l, random_l]``, ``[-random_s, random_s]``
    (truncated toward zero), clamping H to [0, 180] and L, S to [0, 255] in OpenCV's HLS."""
    if img.ndim != 3 or img.shape[2] != 3:
        raise MXNetError('ImageRecordIter: random_h/random_s/random_l need 3-channel images, '
                         'got shape %s' % (img.shape,))
    rh, rs, rl = float(p['random_h']), float(p['random_s']), float(p['random_l'])
    dh = int(rng.random() * rh * 2 - rh)
    ds = int(rng.random() * rs * 2 - rs)
    dl = int(rng.random() * rl * 2 - rl)
    hls = cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_BGR2HLS).astype(np.int16)
    hls += np.array([dh, dl, ds], dtype=np.int16)
    np.clip(hls, 0, _HLS_LIMIT, out=hls)
    return cv2.cvtColor(hls.astype(np.uint8), cv2.COLOR_HLS2BGR)


def load_mean_img(path: str, shape: tuple) -> np.ndarray:
    """The (C, H, W) float32 mean image stored (``mx.nd.save``) in ``path``."""
    from ..ndarray import load

    try:
        arrays = load(path)
    except MXNetError as e:
        raise MXNetError('ImageRecordIter: cannot read mean image %s: %s' % (path, e)) from None
    values = list(arrays.values()) if isinstance(arrays, dict) else list(arrays)
    if len(values) != 1:
        raise MXNetError('Invalid mean image file format: %s holds %d arrays, expected 1'
                         % (path, len(values)))
    mean = values[0].asnumpy().astype(np.float32)
    if mean.shape != tuple(shape):
        raise MXNetError('ImageRecordIter: mean image %s has shape %s but data_shape is %s'
                         % (path, mean.shape, tuple(shape)))
    return mean


def save_mean_img(path: str, mean: np.ndarray) -> None:
    """Write ``mean`` as ``{'mean_img': NDArray}`` (MXNet's file), atomically."""
    from ..ndarray import array, save

    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, '.%s.tmp%d' % (os.path.basename(path), os.getpid()))
    save(tmp, {'mean_img': array(mean, dtype='float32')})
    os.replace(tmp, path)
