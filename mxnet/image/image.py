"""Image decoding, resizing, cropping and augmenters (``mx.image``), on OpenCV.

Images are HWC ``uint8`` NDArrays in RGB order (``to_rgb=True``) unless stated otherwise.
Interpolation codes are OpenCV's: 0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 Lanczos;
9 picks area/cubic/bilinear by the resize direction, 10 picks one at random.
"""
from __future__ import annotations

import os
import random
from typing import Any

import cv2
import numpy as np
import torch

from .. import _deferred
from .._image_guard import check_encoded_size as _check_encoded_size
from ..base import MXNetError, numeric_types
from ..context import Context
from ..ndarray.ndarray import NDArray
from ..ndarray.ndarray import array as _nd_array
from ..util import is_np_array
from . import _cv
from ._augment import (  # noqa: F401
    Augmenter,
    BrightnessJitterAug,
    CastAug,
    CenterCropAug,
    ColorJitterAug,
    ColorNormalizeAug,
    ContrastJitterAug,
    CreateAugmenter,
    ForceResizeAug,
    HorizontalFlipAug,
    HueJitterAug,
    LightingAug,
    RandomCropAug,
    RandomGrayAug,
    RandomOrderAug,
    RandomSizedCropAug,
    ResizeAug,
    SaturationJitterAug,
    SequentialAug,
)
from ._rotate import imrotate, random_rotate  # noqa: F401

__all__ = ['imread', 'imdecode', 'imresize', 'scale_down', 'copyMakeBorder', 'resize_short',
           'fixed_crop', 'random_crop', 'center_crop', 'color_normalize', 'random_size_crop',
           'Augmenter', 'SequentialAug', 'ResizeAug', 'ForceResizeAug', 'RandomCropAug',
           'RandomSizedCropAug', 'CenterCropAug', 'RandomOrderAug', 'BrightnessJitterAug',
           'ContrastJitterAug', 'SaturationJitterAug', 'HueJitterAug', 'ColorJitterAug',
           'LightingAug', 'ColorNormalizeAug', 'RandomGrayAug', 'HorizontalFlipAug', 'CastAug',
           'CreateAugmenter', 'imrotate', 'random_rotate']

_CPU = Context('cpu', 0)


def _wrap(arr: np.ndarray) -> NDArray:
    """A host image as an NDArray, or an ``mx.np`` array under ``npx.set_np()`` (as MXNet's
    ``_npi.cvimdecode``/``_npi.cvimresize``)."""
    cls = NDArray
    if is_np_array():
        from ..numpy import ndarray as cls
    return cls._wrap(torch.from_numpy(np.ascontiguousarray(arr)), _CPU)


def _np(src: Any) -> np.ndarray:
    if isinstance(src, NDArray):
        return src._t.detach().cpu().numpy()
    return np.asarray(src)


def _decode_np(buf: Any, flag: int = 1, to_rgb: bool = True, what: str = 'buffer') -> np.ndarray:
    """Decode encoded image bytes to an HWC uint8 NumPy array."""
    if flag < 0:  # MXNet's _cvimdecode/_cvimread parameter check
        raise MXNetError('value %d for Parameter flag should be greater equal to 0' % flag)
    if isinstance(buf, NDArray):
        buf = buf._t.detach().cpu().numpy()
    raw = np.frombuffer(buf, dtype=np.uint8) if not isinstance(buf, np.ndarray) \
        else buf.astype(np.uint8, copy=False).ravel()
    _check_encoded_size(raw, what)  # corrupt headers must not allocate gigabytes
    try:
        img = cv2.imdecode(raw, cv2.IMREAD_COLOR if flag else cv2.IMREAD_GRAYSCALE) \
            if raw.size else None
    except cv2.error:
        img = None
    if img is None:
        raise MXNetError('Decoding failed. Invalid image file (%s, %d bytes).' % (what, raw.size))
    if img.ndim == 2:
        img = img[:, :, None]
    elif to_rgb:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
    return img


def imdecode(buf: Any, flag: int = 1, to_rgb: bool = True, out: NDArray | None = None) -> NDArray:
    """Decode an encoded image (bytes, bytearray, NumPy or NDArray of uint8) to HWC uint8.

    ``flag`` 1 gives 3 channels, 0 gives grayscale (H, W, 1); ``to_rgb`` swaps BGR to RGB.

    Examples
    --------
    >>> img = mx.image.imdecode(open('china.jpg', 'rb').read())  # doctest: +SKIP
    >>> img.shape                                                # doctest: +SKIP
    (427, 640, 3)
    """
    if not isinstance(buf, (NDArray, bytes, bytearray, np.ndarray, memoryview)):
        raise ValueError('buf must be of type bytes, bytearray or numpy.ndarray,'
                         'if you would like to input type str, please convert to bytes')
    res = _wrap(_decode_np(buf, flag, to_rgb))
    if out is not None:
        out._assign_tensor(res._t)
        return out
    return res


def imread(filename: str, flag: int = 1, to_rgb: bool = True,
           out: NDArray | None = None) -> NDArray:
    """Read and decode an image file (see :func:`imdecode`).

    Examples
    --------
    >>> mx.image.imread('china.jpg').shape  # doctest: +SKIP
    (427, 640, 3)
    """
    try:
        with open(filename, 'rb') as f:
            raw = f.read()
    except OSError as e:
        raise MXNetError("Imread: '%s' couldn't open file: %s" % (filename, e.strerror)) \
            from None
    res = _wrap(_decode_np(raw, flag, to_rgb, what=str(filename)))
    if out is not None:
        out._assign_tensor(res._t)
        return out
    return res


def _check_interp(interp: int) -> int:
    if interp not in (0, 1, 2, 3, 4):
        raise ValueError('Unknown interp method %d' % interp)
    return interp


def imresize(src: NDArray, w: int, h: int, interp: int = 1,
             out: NDArray | None = None) -> NDArray:
    """Resize an HWC image to width ``w`` and height ``h`` with OpenCV interpolation ``interp``.

    Examples
    --------
    >>> mx.image.imresize(mx.nd.zeros((4, 6, 3), dtype='uint8'), 3, 2).shape
    (2, 3, 3)
    """
    arr = _np(src)
    if w <= 0 or h <= 0:
        raise MXNetError('imresize: target size (%d, %d) must be positive' % (w, h))
    if interp not in (0, 1, 2, 3, 4, 5):  # 5: OpenCV's INTER_LINEAR_EXACT
        # MXNet's kernel passes the code to OpenCV, which fails while the operator runs: the
        # error surfaces when the result is read (asnumpy, wait_to_read, waitall)
        c = arr.shape[2] if arr.ndim == 3 else 1
        res = _wrap(np.zeros((int(h), int(w), c), dtype=arr.dtype))
        return _deferred.fail_later(
            res, "OpenCV(3.4.2) resize.cpp:3919: error: (-5:Bad argument) Unknown "
            "interpolation method in function 'resize' (imresize interp=%d)" % interp)
    res = _cv.resize(arr, int(w), int(h), interp)
    if res.ndim == 2:
        res = res[:, :, None]
    res = _wrap(res)
    if out is not None:
        out._assign_tensor(res._t)
        return out
    return res


def copyMakeBorder(src: NDArray, top: int, bot: int, left: int, right: int, type: int = 0,
                   value: float = 0.0, values: tuple = (), out: NDArray | None = None) -> NDArray:
    """Pad an HWC image with OpenCV's ``copyMakeBorder`` (``type`` 0 = constant ``value``).

    Examples
    --------
    >>> mx.image.copyMakeBorder(mx.nd.zeros((2, 2, 3)), 1, 1, 1, 1).shape
    (4, 4, 3)
    """
    arr = _np(src)
    if isinstance(values, numeric_types):  # MXNet takes a single number for every channel
        values = (values,)
    values = tuple(values) if values else ()
    # cv::Scalar semantics: the channels not given are 0
    fill = (values + (0.0,) * 4)[:4] if values else (value,) * 4
    res = cv2.copyMakeBorder(arr, int(top), int(bot), int(left), int(right), int(type),
                             value=fill)
    if res.ndim == 2:
        res = res[:, :, None]
    res = _wrap(res)
    if out is not None:
        out._assign_tensor(res._t)
        return out
    return res


def scale_down(src_size: tuple, size: tuple) -> tuple[int, int]:
    """Shrink crop ``size`` (w, h) to fit ``src_size`` (w, h), keeping its aspect ratio.

    Examples
    --------
    >>> mx.image.scale_down((640, 480), (720, 120))
    (640, 106)
    """
    w, h = size
    sw, sh = src_size
    if sh < h:
        w, h = float(w * sh) / h, sh
    if sw < w:
        w, h = sw, float(h * sw) / w
    return int(w), int(h)


def _get_interp_method(interp: int, sizes: tuple = ()) -> int:
    """Resolve the automatic codes 9 and 10 into an OpenCV interpolation code."""
    if interp == 9:
        if sizes:
            assert len(sizes) == 4
            oh, ow, nh, nw = sizes
            if nh > oh and nw > ow:
                return 2
            if nh < oh and nw < ow:
                return 3
            return 1
        return 2
    if interp == 10:
        return random.randint(0, 4)
    return _check_interp(interp)


def resize_short(src: NDArray, size: int, interp: int = 2) -> NDArray:
    """Resize so that the shorter side is ``size``, keeping the aspect ratio.

    Examples
    --------
    >>> mx.image.resize_short(mx.nd.zeros((20, 40, 3), dtype='uint8'), 10).shape
    (10, 20, 3)
    """
    h, w, _ = src.shape
    if h > w:
        new_h, new_w = size * h // w, size
    else:
        new_h, new_w = size, size * w // h
    return imresize(src, new_w, new_h, interp=_get_interp_method(interp, (h, w, new_h, new_w)))


def fixed_crop(src: NDArray, x0: int, y0: int, w: int, h: int, size: tuple | None = None,
               interp: int = 2) -> NDArray:
    """Crop the box (x0, y0, w, h); resize it to ``size`` (w, h) when given.

    Examples
    --------
    >>> mx.image.fixed_crop(mx.nd.zeros((8, 8, 3)), 1, 2, 4, 3).shape
    (3, 4, 3)
    """
    out = type(src)._wrap(src._t[y0:y0 + h, x0:x0 + w].contiguous(), src._ctx)
    if size is not None and (w, h) != tuple(size):
        sizes = (h, w, size[1], size[0])
        out = imresize(out, *size, interp=_get_interp_method(interp, sizes))
    return out


def random_crop(src: NDArray, size: tuple, interp: int = 2) -> tuple[NDArray, tuple]:
    """Crop a random box of ``size`` (scaled down to fit); returns ``(image, (x0, y0, w, h))``.

    Examples
    --------
    >>> out, box = mx.image.random_crop(mx.nd.zeros((8, 8, 3)), (4, 4))
    >>> out.shape
    (4, 4, 3)
    """
    h, w, _ = src.shape
    new_w, new_h = scale_down((w, h), size)
    x0 = random.randint(0, w - new_w)
    y0 = random.randint(0, h - new_h)
    return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)


def center_crop(src: NDArray, size: tuple, interp: int = 2) -> tuple[NDArray, tuple]:
    """Crop the central box of ``size`` (w, h); returns ``(image, (x0, y0, w, h))``.

    Examples
    --------
    >>> mx.image.center_crop(mx.nd.zeros((8, 8, 3)), (4, 2))[1]
    (2, 3, 4, 2)
    """
    h, w, _ = src.shape
    new_w, new_h = scale_down((w, h), size)
    x0 = int((w - new_w) / 2)
    y0 = int((h - new_h) / 2)
    return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)


def color_normalize(src: NDArray, mean: Any, std: Any = None) -> NDArray:
    """Subtract ``mean`` and divide by ``std`` (in place on ``src``, which is returned).

    Examples
    --------
    >>> mx.image.color_normalize(mx.nd.ones((1, 1, 3)), mx.nd.array([1, 0, 0])).asnumpy()
    array([[[0., 1., 1.]]], dtype=float32)
    """
    if mean is not None:
        src -= mean
    if std is not None:
        src /= std
    return src


def random_size_crop(src: NDArray, size: tuple, area: Any, ratio: tuple, interp: int = 2,
                     **kwargs: Any) -> tuple[NDArray, tuple]:
    """Crop a random box covering ``area`` (fraction or range) of the image with aspect ratio
    in ``ratio``, resized to ``size``; falls back to a center crop after 10 tries.

    Examples
    --------
    >>> out, _ = mx.image.random_size_crop(mx.nd.zeros((8, 8, 3), dtype='uint8'), (4, 4),
    ...                                    0.5, (0.75, 1.33))
    >>> out.shape
    (4, 4, 3)
    """
    h, w, _ = src.shape
    src_area = h * w
    if 'min_area' in kwargs:
        import warnings
        warnings.warn('`min_area` is deprecated. Please use `area` instead.',
                      DeprecationWarning, stacklevel=2)
        area = kwargs.pop('min_area')
    assert not kwargs, "unexpected keyword arguments for `random_size_crop`."
    if isinstance(area, numeric_types):
        area = (area, 1.0)
    for _ in range(10):
        target_area = random.uniform(area[0], area[1]) * src_area
        log_ratio = (np.log(ratio[0]), np.log(ratio[1]))
        new_ratio = np.exp(random.uniform(*log_ratio))
        new_w = int(round(np.sqrt(target_area * new_ratio)))
        new_h = int(round(np.sqrt(target_area / new_ratio)))
        if new_w <= w and new_h <= h:
            x0 = random.randint(0, w - new_w)
            y0 = random.randint(0, h - new_h)
            return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)
    return center_crop(src, size, interp)


def _read_file(path: str) -> bytes:
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError as e:
        raise MXNetError("cannot read image file '%s': %s" % (path, e.strerror)) from None


def _label_array(values: Any, dtype: str) -> NDArray:
    return _nd_array(np.asarray(values, dtype=np.float64).ravel(), dtype=dtype)


def _imglist_from_file(path: str, dtype: str) -> tuple[dict, list]:
    imglist, keys = {}, []
    with open(path) as fin:
        for lineno, line in enumerate(fin, 1):
            parts = line.strip().split('\t')
            if len(parts) < 3:
                if line.strip():
                    raise MXNetError('%s line %d: expected "index<TAB>label(s)<TAB>path", '
                                     'got %r' % (path, lineno, line))
                continue
            key = int(parts[0])
            imglist[key] = (_label_array([float(x) for x in parts[1:-1]], dtype), parts[-1])
            keys.append(key)
    return imglist, keys


def _imglist_from_list(items: list, dtype: str) -> tuple[dict, list]:
    imglist, keys = {}, []
    for i, img in enumerate(items, 1):
        key = str(i)
        if len(img) > 2:
            label = _label_array(img[:-1], dtype)
        elif isinstance(img[0], numeric_types):
            label = _label_array([img[0]], dtype)
        else:
            label = _label_array(img[0], dtype)
        imglist[key] = (label, img[-1])
        keys.append(key)
    return imglist, keys


def _abs_path(root: str | None, fname: str) -> str:
    return os.path.join(root, fname) if root else fname


# MXNet's public path for the augmenters (reprs, pickles): mxnet.image.image.<Name>
for _name in __all__:
    _obj = globals().get(_name)
    if isinstance(_obj, type):
        _obj.__module__ = __name__
