"""OpenCV resize with MXNet 1.9.1's results.

MXNet 1.9.1 shipped an OpenCV 3.4 whose 8-bit bicubic resize differs by one level on a few
percent of pixels from current OpenCV. :func:`resize` reproduces that fixed-point kernel
(float32 source coordinate, coefficients rounded to 1/2048, replicated borders, vertical
pass in float32 blocks of 8) for uint8
bicubic, and defers to ``cv2.resize`` for everything else (which already agrees).
"""
from __future__ import annotations

import math

import cv2
import numpy as np

__all__ = ['resize', 'warp_affine']

_A = np.float32(-0.75)
_ONE = np.float32(1.0)


def _cubic_taps(ssize: int, dsize: int) -> tuple[np.ndarray, np.ndarray]:
    scale = 1.0 / (float(dsize) / ssize)
    d = np.arange(dsize, dtype=np.float64)
    fx = ((d + 0.5) * scale - 0.5).astype(np.float32)
    sx = np.floor(fx).astype(np.int64)
    x = (fx - sx.astype(np.float32)).astype(np.float32)
    xp1 = x + _ONE
    c0 = ((_A * xp1 - 5 * _A) * xp1 + 8 * _A) * xp1 - 4 * _A
    c1 = ((_A + 2) * x - (_A + 3)) * x * x + _ONE
    omx = _ONE - x
    c2 = ((_A + 2) * omx - (_A + 3)) * omx * omx + _ONE
    c3 = _ONE - c0 - c1 - c2
    coef = np.stack([c0, c1, c2, c3], axis=1).astype(np.float32)
    weights = np.rint(coef * np.float32(2048)).astype(np.int32)
    idx = np.clip(sx[:, None] + np.arange(-1, 3)[None, :], 0, ssize - 1)
    return idx, weights


def _cubic_u8(src: np.ndarray, w: int, h: int) -> np.ndarray:
    squeeze = src.ndim == 2
    if squeeze:
        src = src[:, :, None]
    xi, xw = _cubic_taps(src.shape[1], w)
    yi, yw = _cubic_taps(src.shape[0], h)
    # horizontal pass: exact integer sums (fit in int32)
    tmp = np.einsum('hwkc,wk->hwc', src[:, xi, :].astype(np.int32), xw, dtype=np.int64)
    rows = tmp.astype(np.int32)[yi].reshape(h, 4, -1)        # (h, 4, w*c)
    width = rows.shape[2]
    out = np.empty((h, width), dtype=np.int64)
    # vertical pass: OpenCV 3.4 runs blocks of 8 values in float32 (SSE), the tail in ints
    vec = (width // 8) * 8
    if vec:
        beta = yw.astype(np.float32) * np.float32(1.0 / (2048 * 2048))
        f = rows[:, :, :vec].astype(np.float32)
        acc = f[:, 0] * beta[:, 0, None]
        for k in range(1, 4):
            acc = acc + f[:, k] * beta[:, k, None]
        out[:, :vec] = np.rint(acc)
    if vec < width:
        tail = np.einsum('hkw,hk->hw', rows[:, :, vec:].astype(np.int64), yw.astype(np.int64))
        out[:, vec:] = (tail + (1 << 21)) >> 22
    out = np.clip(out, 0, 255).astype(np.uint8).reshape(h, w, -1)
    return out[:, :, 0] if squeeze else out


def resize(src: np.ndarray, w: int, h: int, interp: int) -> np.ndarray:
    """Resize an HW or HWC NumPy image to (w, h) with OpenCV interpolation code ``interp``."""
    if interp == cv2.INTER_CUBIC and src.dtype == np.uint8 and math.prod(src.shape[:2]) > 0:
        return _cubic_u8(src, int(w), int(h))
    return cv2.resize(src, (int(w), int(h)), interpolation=interp)


def _cubic_tab() -> np.ndarray:
    """OpenCV 3.4's 32x32 table of 4x4 fixed-point bicubic weights (sum exactly 32768)."""
    t = np.arange(32, dtype=np.float32) * np.float32(1.0 / 32)
    xp1, omx = t + _ONE, _ONE - t
    c0 = ((_A * xp1 - 5 * _A) * xp1 + 8 * _A) * xp1 - 4 * _A
    c1 = ((_A + 2) * t - (_A + 3)) * t * t + _ONE
    c2 = ((_A + 2) * omx - (_A + 3)) * omx * omx + _ONE
    c1d = np.stack([c0, c1, c2, _ONE - c0 - c1 - c2], axis=1).astype(np.float32)
    tab = np.empty((32, 32, 4, 4), dtype=np.int64)
    for i in range(32):
        for j in range(32):
            w = np.rint((c1d[i][:, None] * c1d[j][None, :]) * np.float32(32768))
            w = np.clip(w, -32768, 32767).astype(np.int64)
            diff = int(w.sum()) - 32768
            if diff:
                mk = Mk = (2, 2)   # OpenCV searches rows/cols ksize/2 .. ksize/2 + 1
                for k1 in (2, 3):
                    for k2 in (2, 3):
                        if w[k1, k2] < w[mk]:
                            mk = (k1, k2)
                        elif w[k1, k2] > w[Mk]:
                            Mk = (k1, k2)
                if diff < 0:
                    w[Mk] -= diff
                else:
                    w[mk] -= diff
            tab[i, j] = w
    return tab


_CUBIC_TAB: list = []


def warp_affine(src: np.ndarray, m: np.ndarray, w: int, h: int, interp: int,
                fill: float) -> np.ndarray:
    """``cv2.warpAffine`` with a constant border as in OpenCV 3.4 (MXNet 1.9.1's build).

    For uint8 images with nearest, bilinear (area is bilinear there) or bicubic sampling it
    follows OpenCV 3.4's fixed-point kernel: the inverse map in 1/1024 pixel steps, positions
    rounded to 1/32 pixel, interpolation weights in 1/32768 units; other cases use ``cv2``.
    The border value is ``fill`` in the first three channels and 0 in a fourth.
    """
    squeeze = src.ndim == 2
    img = src[:, :, None] if squeeze else src
    c = img.shape[2]
    border = np.array([fill, fill, fill, 0.0][:c] + [0.0] * max(0, c - 4))
    if src.dtype != np.uint8 or interp not in (cv2.INTER_NEAREST, cv2.INTER_LINEAR,
                                              cv2.INTER_AREA, cv2.INTER_CUBIC):
        return cv2.warpAffine(np.ascontiguousarray(src), m, (w, h), flags=interp,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=tuple(border[:4]))
    border = np.clip(np.rint(border), 0, 255).astype(np.int64)
    m = m.astype(np.float64)
    det = m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]
    det = 1.0 / det if det != 0 else 0.0
    a00, a11 = m[1, 1] * det, m[0, 0] * det
    a01, a10 = -m[0, 1] * det, -m[1, 0] * det
    b0 = -a00 * m[0, 2] - a01 * m[1, 2]
    b1 = -a10 * m[0, 2] - a11 * m[1, 2]
    xs, ys = np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64)
    nearest = interp == cv2.INTER_NEAREST
    delta = 512 if nearest else 16
    x = (np.rint(a01 * ys * 1024 + b0 * 1024).astype(np.int64)[:, None] + delta
         + np.rint(a00 * xs * 1024).astype(np.int64)[None, :])
    y = (np.rint(a11 * ys * 1024 + b1 * 1024).astype(np.int64)[:, None] + delta
         + np.rint(a10 * xs * 1024).astype(np.int64)[None, :])
    if interp == cv2.INTER_CUBIC:
        if not _CUBIC_TAB:
            _CUBIC_TAB.append(_cubic_tab())
        x, y = x >> 5, y >> 5
        wts = _CUBIC_TAB[0][y & 31, x & 31]          # (h, w, 4, 4)
        # one pixel of border value around the image; outside positions clip onto it
        ih, iw = img.shape[:2]
        padded = np.empty((ih + 2, iw + 2, c), dtype=np.int64)
        padded[...] = border
        padded[1:-1, 1:-1] = img
        taps = np.arange(-1, 3)
        yy = np.clip((y >> 5)[:, :, None] + taps, -1, ih) + 1
        xx = np.clip((x >> 5)[:, :, None] + taps, -1, iw) + 1
        acc = np.einsum('hwijc,hwij->hwc', padded[yy[:, :, :, None], xx[:, :, None, :]], wts)
        out = np.clip((acc + (1 << 14)) >> 15, 0, 255).astype(np.uint8)
        return out[:, :, 0] if squeeze else out
    # OpenCV's remap with fixed-point maps (int16 positions + 1/32 fraction index) runs the
    # same kernels as 3.4's warpAffine for nearest and bilinear sampling
    lo, hi = min(int(x.min()), int(y.min())) >> 10, max(int(x.max()), int(y.max())) >> 10
    map1 = np.empty((h, w, 2), dtype=np.int16)
    if nearest:
        pos = (x >> 10, y >> 10)
        map2 = None
    else:
        x, y = x >> 5, y >> 5
        pos = (x >> 5, y >> 5)
        map2 = ((y & 31) << 5 | (x & 31)).astype(np.uint16)
    for k in (0, 1):
        map1[:, :, k] = np.clip(pos[k], -32768, 32767) if lo < -32768 or hi > 32767 else pos[k]
    value = tuple(int(v) for v in border[:4])
    out = cv2.remap(np.ascontiguousarray(img), map1, map2,
                    cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_CONSTANT, borderValue=value)
    if squeeze or out.ndim == 3:
        return out
    return out[:, :, None]
