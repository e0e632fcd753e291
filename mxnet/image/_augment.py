"""Image augmenters of ``mx.image`` and ``CreateAugmenter``."""
from __future__ import annotations

import json
import random
import warnings
from typing import Any

import numpy as np
import torch

from ..ndarray.ndarray import NDArray
from ..ndarray.ndarray import array as _nd_array

__all__ = ['Augmenter', 'SequentialAug', 'ResizeAug', 'ForceResizeAug', 'RandomCropAug',
           'RandomSizedCropAug', 'CenterCropAug', 'RandomOrderAug', 'BrightnessJitterAug',
           'ContrastJitterAug', 'SaturationJitterAug', 'HueJitterAug', 'ColorJitterAug',
           'LightingAug', 'ColorNormalizeAug', 'RandomGrayAug', 'HorizontalFlipAug', 'CastAug',
           'CreateAugmenter']

_GRAY = torch.tensor([0.299, 0.587, 0.114])
_EIGVAL = np.array([55.46, 4.794, 1.148])
_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140],
                    [-0.5836, -0.6948, 0.4203]])


def _img():
    from . import image
    return image


def _set(src: NDArray, t: torch.Tensor) -> NDArray:
    """Write ``t`` into ``src`` when dtypes allow (MXNet's augmenters work in place)."""
    if t.dtype == src._t.dtype and t.shape == src._t.shape:
        src._t.copy_(t)
        return src
    return NDArray._wrap(t.to(src._t.dtype), src._ctx)


class Augmenter:
    """Base class of image augmenters: ``aug(src) -> src`` on HWC NDArrays.

    Examples
    --------
    >>> mx.image.CastAug().dumps()
    '["castaug", {"type": "float32"}]'
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

    def __call__(self, src: NDArray) -> NDArray:
        raise NotImplementedError('Must override implementation.')


class SequentialAug(Augmenter):
    """Apply a list of augmenters in order."""

    def __init__(self, ts: list) -> None:
        super().__init__()
        self.ts = ts

    def dumps(self) -> list:
        return [type(self).__name__.lower(), [x.dumps() for x in self.ts]]

    def __call__(self, src: NDArray) -> NDArray:
        for aug in self.ts:
            src = aug(src)
        return src


class ResizeAug(Augmenter):
    """Resize the shorter side to ``size``."""

    def __init__(self, size: int, interp: int = 2) -> None:
        super().__init__(size=size, interp=interp)
        self.size, self.interp = size, interp

    def __call__(self, src: NDArray) -> NDArray:
        return _img().resize_short(src, self.size, self.interp)


class ForceResizeAug(Augmenter):
    """Resize to exactly ``size`` (w, h)."""

    def __init__(self, size: tuple, interp: int = 2) -> None:
        super().__init__(size=size, interp=interp)
        self.size, self.interp = size, interp

    def __call__(self, src: NDArray) -> NDArray:
        img = _img()
        sizes = (src.shape[0], src.shape[1], self.size[1], self.size[0])
        return img.imresize(src, *self.size, interp=img._get_interp_method(self.interp, sizes))


class RandomCropAug(Augmenter):
    """Random crop of ``size`` (w, h)."""

    def __init__(self, size: tuple, interp: int = 2) -> None:
        super().__init__(size=size, interp=interp)
        self.size, self.interp = size, interp

    def __call__(self, src: NDArray) -> NDArray:
        return _img().random_crop(src, self.size, self.interp)[0]


class RandomSizedCropAug(Augmenter):
    """Random crop with random area and aspect ratio, resized to ``size``."""

    def __init__(self, size: tuple, area: Any, ratio: tuple, interp: int = 2,
                 **kwargs: Any) -> None:
        super().__init__(size=size, area=area, ratio=ratio, interp=interp)
        self.size = size
        if 'min_area' in kwargs:
            warnings.warn('`min_area` is deprecated. Please use `area` instead.',
                          DeprecationWarning, stacklevel=2)
            self.area = kwargs.pop('min_area')
        else:
            self.area = area
        self.ratio, self.interp = ratio, interp
        assert not kwargs, "unexpected keyword arguments for `RandomSizedCropAug`."

    def __call__(self, src: NDArray) -> NDArray:
        return _img().random_size_crop(src, self.size, self.area, self.ratio, self.interp)[0]


class CenterCropAug(Augmenter):
    """Center crop of ``size`` (w, h)."""

    def __init__(self, size: tuple, interp: int = 2) -> None:
        super().__init__(size=size, interp=interp)
        self.size, self.interp = size, interp

    def __call__(self, src: NDArray) -> NDArray:
        return _img().center_crop(src, self.size, self.interp)[0]


class RandomOrderAug(Augmenter):
    """Apply augmenters in a random order."""

    def __init__(self, ts: list) -> None:
        super().__init__()
        self.ts = ts

    def dumps(self) -> list:
        return [type(self).__name__.lower(), [x.dumps() for x in self.ts]]

    def __call__(self, src: NDArray) -> NDArray:
        random.shuffle(self.ts)
        for t in self.ts:
            src = t(src)
        return src


class BrightnessJitterAug(Augmenter):
    """Scale by ``1 + U(-brightness, brightness)``."""

    def __init__(self, brightness: float) -> None:
        super().__init__(brightness=brightness)
        self.brightness = brightness

    def __call__(self, src: NDArray) -> NDArray:
        alpha = 1.0 + random.uniform(-self.brightness, self.brightness)
        return _set(src, src._t * alpha)


class ContrastJitterAug(Augmenter):
    """Blend with the mean gray level by ``1 + U(-contrast, contrast)``."""

    def __init__(self, contrast: float) -> None:
        super().__init__(contrast=contrast)
        self.contrast = contrast
        self.coef = _nd_array([[[0.299, 0.587, 0.114]]])

    def __call__(self, src: NDArray) -> NDArray:
        alpha = 1.0 + random.uniform(-self.contrast, self.contrast)
        t = src._t.to(torch.float32)
        gray = t * _GRAY
        gray = 3.0 * (1.0 - alpha) / gray.numel() * gray.sum()
        return _set(src, t * alpha + gray)


class SaturationJitterAug(Augmenter):
    """Blend with the per-pixel gray level by ``1 + U(-saturation, saturation)``."""

    def __init__(self, saturation: float) -> None:
        super().__init__(saturation=saturation)
        self.saturation = saturation
        self.coef = _nd_array([[[0.299, 0.587, 0.114]]])

    def __call__(self, src: NDArray) -> NDArray:
        alpha = 1.0 + random.uniform(-self.saturation, self.saturation)
        t = src._t.to(torch.float32)
        gray = (t * _GRAY).sum(dim=2, keepdim=True) * (1.0 - alpha)
        return _set(src, t * alpha + gray)


class HueJitterAug(Augmenter):
    """Rotate the hue by ``U(-hue, hue)`` half-turns in YIQ space."""

    def __init__(self, hue: float) -> None:
        super().__init__(hue=hue)
        self.hue = hue
        self.tyiq = np.array([[0.299, 0.587, 0.114], [0.596, -0.274, -0.321],
                              [0.211, -0.523, 0.311]])
        self.ityiq = np.array([[1.0, 0.956, 0.621], [1.0, -0.272, -0.647],
                               [1.0, -1.107, 1.705]])

    def __call__(self, src: NDArray) -> NDArray:
        alpha = random.uniform(-self.hue, self.hue)
        u, w = np.cos(alpha * np.pi), np.sin(alpha * np.pi)
        bt = np.array([[1.0, 0.0, 0.0], [0.0, u, -w], [0.0, w, u]])
        t = np.dot(np.dot(self.ityiq, bt), self.tyiq).T
        mat = torch.from_numpy(t.astype(np.float32))
        return NDArray._wrap(src._t.to(torch.float32) @ mat, src._ctx)


class ColorJitterAug(RandomOrderAug):
    """Brightness, contrast and saturation jitter in random order."""

    def __init__(self, brightness: float, contrast: float, saturation: float) -> None:
        ts = []
        if brightness > 0:
            ts.append(BrightnessJitterAug(brightness))
        if contrast > 0:
            ts.append(ContrastJitterAug(contrast))
        if saturation > 0:
            ts.append(SaturationJitterAug(saturation))
        super().__init__(ts)


class LightingAug(Augmenter):
    """AlexNet PCA lighting noise with weights ``N(0, alphastd)``."""

    def __init__(self, alphastd: float, eigval: Any, eigvec: Any) -> None:
        super().__init__(alphastd=alphastd, eigval=eigval, eigvec=eigvec)
        self.alphastd, self.eigval, self.eigvec = alphastd, eigval, eigvec

    def __call__(self, src: NDArray) -> NDArray:
        alpha = np.random.normal(0, self.alphastd, size=(3,))
        rgb = np.dot(np.asarray(self.eigvec) * alpha, np.asarray(self.eigval))
        return _set(src, src._t + torch.from_numpy(rgb.astype(np.float32)))


class ColorNormalizeAug(Augmenter):
    """Subtract ``mean`` and divide by ``std``."""

    def __init__(self, mean: Any, std: Any) -> None:
        super().__init__(mean=mean, std=std)
        self.mean = mean if mean is None or isinstance(mean, NDArray) else _nd_array(mean)
        self.std = std if std is None or isinstance(std, NDArray) else _nd_array(std)

    def __call__(self, src: NDArray) -> NDArray:
        return _img().color_normalize(src, self.mean, self.std)


class RandomGrayAug(Augmenter):
    """Convert to gray (3 equal channels) with probability ``p``."""

    def __init__(self, p: float) -> None:
        super().__init__(p=p)
        self.p = p
        self.mat = _nd_array([[0.21, 0.21, 0.21], [0.72, 0.72, 0.72], [0.07, 0.07, 0.07]])

    def __call__(self, src: NDArray) -> NDArray:
        if random.random() < self.p:
            src = NDArray._wrap(src._t.to(torch.float32) @ self.mat._t, src._ctx)
        return src


class HorizontalFlipAug(Augmenter):
    """Flip left-right with probability ``p``."""

    def __init__(self, p: float) -> None:
        super().__init__(p=p)
        self.p = p

    def __call__(self, src: NDArray) -> NDArray:
        if random.random() < self.p:
            src = NDArray._wrap(torch.flip(src._t, dims=(1,)), src._ctx)
        return src


class CastAug(Augmenter):
    """Cast to ``typ``."""

    def __init__(self, typ: str = 'float32') -> None:
        super().__init__(type=typ)
        self.typ = typ

    def __call__(self, src: NDArray) -> NDArray:
        return src.astype(self.typ)


def CreateAugmenter(data_shape: tuple, resize: int = 0, rand_crop: bool = False,
                    rand_resize: bool = False, rand_mirror: bool = False, mean: Any = None,
                    std: Any = None, brightness: float = 0, contrast: float = 0,
                    saturation: float = 0, hue: float = 0, pca_noise: float = 0,
                    rand_gray: float = 0, inter_method: int = 2) -> list:
    """The standard augmenter list used by ``ImageIter``.

    ``mean=True``/``std=True`` select ImageNet's RGB statistics.

    Examples
    --------
    >>> [type(a).__name__ for a in mx.image.CreateAugmenter((3, 224, 224), resize=256)]
    ['ResizeAug', 'CenterCropAug', 'CastAug']
    """
    auglist: list = []
    if resize > 0:
        auglist.append(ResizeAug(resize, inter_method))
    crop_size = (data_shape[2], data_shape[1])
    if rand_resize:
        assert rand_crop
        auglist.append(RandomSizedCropAug(crop_size, 0.08, (3.0 / 4.0, 4.0 / 3.0), inter_method))
    elif rand_crop:
        auglist.append(RandomCropAug(crop_size, inter_method))
    else:
        auglist.append(CenterCropAug(crop_size, inter_method))
    if rand_mirror:
        auglist.append(HorizontalFlipAug(0.5))
    auglist.append(CastAug())
    if brightness or contrast or saturation:
        auglist.append(ColorJitterAug(brightness, contrast, saturation))
    if hue:
        auglist.append(HueJitterAug(hue))
    if pca_noise > 0:
        auglist.append(LightingAug(pca_noise, _EIGVAL, _EIGVEC))
    if rand_gray > 0:
        auglist.append(RandomGrayAug(rand_gray))
    if mean is True:
        mean = _nd_array([123.68, 116.28, 103.53])
    elif mean is not None:
        assert isinstance(mean, (np.ndarray, NDArray)) and mean.shape[0] in [1, 3]
    if std is True:
        std = _nd_array([58.395, 57.12, 57.375])
    elif std is not None:
        assert isinstance(std, (np.ndarray, NDArray)) and std.shape[0] in [1, 3]
    if mean is not None or std is not None:
        auglist.append(ColorNormalizeAug(mean, std))
    return auglist
