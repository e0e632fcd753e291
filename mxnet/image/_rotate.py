"""Rotation of CHW / NCHW float32 images (``mx.image.imrotate``, ``mx.image.random_rotate``).

The sampling grid is the pixel grid centred on the image, rotated, normalised to [-1, 1] per
axis (after the rotation, so the aspect ratio is kept) and read with ``BilinearSampler``
(zeros outside the image), as MXNet 1.9.1 does.
"""
from __future__ import annotations

from numbers import Number
from typing import Any

import numpy as np

from ..ndarray.ndarray import NDArray

__all__ = ['imrotate', 'random_rotate']


def _zoom_scale(rad: np.ndarray, h: int, w: int, zoom_out: bool) -> np.ndarray:
    """Per-image grid scale so that no padding (zoom in) or the whole image (zoom out) shows."""
    rho = np.float32(np.sqrt(h * h + w * w))
    corner = np.float32(np.arctan(np.float32(h) / np.float32(w)))
    a = np.abs(rad)
    x1, y1 = np.abs(rho * np.cos(corner + a)), np.abs(rho * np.sin(corner + a))
    x2, y2 = np.abs(rho * np.cos(corner - a)), np.abs(rho * np.sin(corner - a))
    max_x, max_y = np.maximum(x1, x2), np.maximum(y1, y2)
    if zoom_out:
        return np.maximum(max_x / w, max_y / h).astype(np.float32)
    return np.minimum(w / max_x, h / max_y).astype(np.float32)


def imrotate(src: NDArray, rotation_degrees: Any, zoom_in: bool = False,
             zoom_out: bool = False) -> NDArray:
    """Rotate a CHW image or an NCHW batch (float32) counter-clockwise by ``rotation_degrees``,
    keeping its shape; uncovered pixels are 0.

    Parameters
    ----------
    src : NDArray
        float32 image (C, H, W) or batch (N, C, H, W).
    rotation_degrees : float or NDArray
        One angle, or (batch input only) one angle per image.
    zoom_in : bool
        Scale so that no padding shows.
    zoom_out : bool
        Scale so that the whole input stays visible.

    Examples
    --------
    >>> out = mx.image.imrotate(mx.nd.ones((3, 4, 4)), 90)
    >>> out.shape
    (3, 4, 4)
    """
    from .. import ndarray as nd

    if zoom_in and zoom_out:
        raise ValueError("`zoom_in` and `zoom_out` cannot be both True")
    if src.dtype is not np.float32:
        raise TypeError("Only `float32` images are supported by this function")
    single = src.ndim == 3
    if single:
        if not isinstance(rotation_degrees, Number):
            raise TypeError("When a single image is passed the rotation angle is "
                            "required to be a scalar.")
        src = src.expand_dims(axis=0)
    elif src.ndim != 4:
        raise ValueError("Only 3D and 4D are supported by this function")
    n, _, h, w = src.shape
    if isinstance(rotation_degrees, Number):
        degrees = np.full((n,), rotation_degrees, dtype=np.float32)
    else:
        degrees = np.asarray(rotation_degrees.asnumpy() if isinstance(rotation_degrees, NDArray)
                             else rotation_degrees, dtype=np.float32).reshape(-1)
    if degrees.shape[0] != n:
        raise ValueError("The number of images must be equal to the number of rotation angles")
    rad = (np.float32(np.pi) * degrees / np.float32(180)).astype(np.float32)[:, None, None]
    hs, ws = np.float32((h - 1) / 2.0), np.float32((w - 1) / 2.0)
    ys = (np.arange(h, dtype=np.float32)[:, None] - hs) * np.ones((1, w), np.float32)
    xs = (np.arange(w, dtype=np.float32)[None, :] - ws) * np.ones((h, 1), np.float32)
    cos, sin = np.cos(rad), np.sin(rad)
    gx = (xs * cos - ys * sin) / ws
    gy = (xs * sin + ys * cos) / hs
    grid = np.stack([gx, gy], axis=1).astype(np.float32)
    if zoom_in or zoom_out:
        grid = grid * _zoom_scale(rad, h, w, zoom_out)[:, :, :, None]
    out = nd.BilinearSampler(src, nd.array(grid, ctx=src.context))
    return out[0] if single else out


def random_rotate(src: NDArray, angle_limits: tuple, zoom_in: bool = False,
                  zoom_out: bool = False) -> NDArray:
    """Rotate by an angle drawn uniformly from ``angle_limits`` (one per image of a batch),
    with NumPy's global random generator (see :func:`imrotate`).

    Examples
    --------
    >>> mx.image.random_rotate(mx.nd.ones((3, 4, 4)), (-10, 10)).shape
    (3, 4, 4)
    """
    if src.ndim == 3:
        degrees: Any = np.random.uniform(*angle_limits)
    else:
        degrees = np.random.uniform(*angle_limits, size=src.shape[0])
    return imrotate(src, degrees, zoom_in=zoom_in, zoom_out=zoom_out)
