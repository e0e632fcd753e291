"""Image transforms for Gluon datasets (``gluon.data.vision.transforms``).

Transforms that map to ``mx.nd.image`` operators are HybridBlocks; those that draw random
crops in Python are Blocks (as in MXNet). HWC images in, unless stated otherwise.
"""
from __future__ import annotations

import random
from typing import Any

from ...._op import _image as _image_ops
from ....base import MXNetError, numeric_types
from ....util import is_np_array
from ...block import Block, HybridBlock
from ...nn import HybridSequential, Sequential

__all__ = ['Compose', 'HybridCompose', 'Cast', 'ToTensor', 'Normalize', 'Resize', 'CenterCrop',
           'CropResize', 'RandomResizedCrop', 'RandomFlipLeftRight', 'RandomFlipTopBottom',
           'RandomBrightness', 'RandomContrast', 'RandomSaturation', 'RandomHue',
           'RandomColorJitter', 'RandomLighting', 'RandomApply', 'HybridRandomApply', 'Rotate',
           'RandomRotation']


def _op(F: Any, name: str):
    # under npx.set_np() MXNet's transforms call ``F.npx.image.*`` (mx.np in, mx.np out)
    if is_np_array():
        F = F.npx
    return _image_ops.image_op(F, name)


class Compose(Sequential):
    """Chain transforms; consecutive HybridBlocks are grouped into a HybridSequential.

    Examples
    --------
    >>> t = Compose([Resize(32), CenterCrop(28), ToTensor()])
    >>> t(mx.nd.zeros((40, 50, 3), dtype='uint8')).shape
    (3, 28, 28)
    """

    def __init__(self, transforms: list) -> None:
        super().__init__()
        transforms = list(transforms) + [None]
        group: list = []
        for t in transforms:
            if isinstance(t, HybridBlock):
                group.append(t)
                continue
            if len(group) == 1:
                self.add(group[0])
            elif len(group) > 1:
                hblock = HybridSequential()
                for j in group:
                    hblock.add(j)
                # MXNet hybridizes this group; it runs eagerly here (same results, and per-sample
                # calls are cheaper without graph caching)
                self.add(hblock)
            group = []
            if t is not None:
                self.add(t)


class HybridCompose(HybridSequential):
    """Chain HybridBlock transforms into one hybridizable block.

    Examples
    --------
    >>> t = HybridCompose([ToTensor(), Normalize(0.5, 0.5)])
    """

    def __init__(self, transforms: list) -> None:
        super().__init__()
        for t in transforms:
            if not isinstance(t, HybridBlock):
                raise ValueError('{} is not a HybridBlock, try use `Compose` instead'.format(t))
            self.add(t)
        self.hybridize()


class Cast(HybridBlock):
    """Cast to ``dtype`` (default float32).

    Examples
    --------
    >>> Cast('float16')(mx.nd.ones((2, 2))).dtype
    <class 'numpy.float16'>
    """

    def __init__(self, dtype: str = 'float32') -> None:
        super().__init__()
        self._dtype = dtype

    def hybrid_forward(self, F, x):
        if is_np_array():
            F = F.npx
        return F.cast(x, self._dtype)


class ToTensor(HybridBlock):
    """HWC (or NHWC) uint8 in [0, 255] -> CHW (or NCHW) float32 in [0, 1].

    Examples
    --------
    >>> ToTensor()(mx.nd.zeros((4, 2, 3), dtype='uint8')).shape
    (3, 4, 2)
    """

    def __init__(self) -> None:
        super().__init__()

    def hybrid_forward(self, F, x):
        return _op(F, 'to_tensor')(x)


class Normalize(HybridBlock):
    """Normalize a CHW/NCHW tensor per channel: ``(x - mean) / std``.

    Examples
    --------
    >>> Normalize(0.5, 0.5)(mx.nd.ones((3, 2, 2))).asnumpy()[0, 0, 0]
    1.0
    """

    def __init__(self, mean: Any = 0.0, std: Any = 1.0) -> None:
        super().__init__()
        self._mean = mean
        self._std = std

    def hybrid_forward(self, F, x):
        mean = (self._mean,) if isinstance(self._mean, numeric_types) else tuple(self._mean)
        std = (self._std,) if isinstance(self._std, numeric_types) else tuple(self._std)
        return _op(F, 'normalize')(x, mean=mean, std=std)


class Resize(HybridBlock):
    """Resize to ``size`` ((w, h) or int); ``keep_ratio`` with an int resizes the short side.

    Examples
    --------
    >>> Resize((20, 10))(mx.nd.zeros((40, 50, 3), dtype='uint8')).shape
    (10, 20, 3)
    """

    def __init__(self, size: Any, keep_ratio: bool = False, interpolation: int = 1) -> None:
        super().__init__()
        self._keep = keep_ratio
        self._size = size
        self._interpolation = interpolation

    def hybrid_forward(self, F, x):
        size = (self._size,) if isinstance(self._size, numeric_types) else tuple(self._size)
        return _op(F, 'resize')(x, size=size, keep_ratio=self._keep, interp=self._interpolation)


class CropResize(HybridBlock):
    """Crop the box (x, y, width, height), then optionally resize to ``size``.

    Examples
    --------
    >>> CropResize(0, 0, 10, 5)(mx.nd.zeros((20, 20, 3), dtype='uint8')).shape
    (5, 10, 3)
    """

    def __init__(self, x: int, y: int, width: int, height: int, size: Any = None,
                 interpolation: int | None = None) -> None:
        super().__init__()
        self._x, self._y, self._width, self._height = x, y, width, height
        self._size = size
        self._interpolation = interpolation

    def hybrid_forward(self, F, x):
        out = _op(F, 'crop')(x, x=self._x, y=self._y, width=self._width, height=self._height)
        if self._size:
            size = (self._size,) if isinstance(self._size, numeric_types) else tuple(self._size)
            if self._interpolation is None:
                raise MXNetError("Invalid Parameter format for interp expect int but "
                                 "value='None', in operator _image_resize")
            out = _op(F, 'resize')(out, size=size, keep_ratio=False, interp=self._interpolation)
        return out


class CenterCrop(Block):
    """Center crop to ``size`` ((w, h) or int), resizing when the image is smaller.

    Examples
    --------
    >>> CenterCrop(16)(mx.nd.zeros((40, 50, 3), dtype='uint8')).shape
    (16, 16, 3)
    """

    def __init__(self, size: Any, interpolation: int = 1) -> None:
        super().__init__()
        if isinstance(size, numeric_types):
            size = (size, size)
        self._args = (size, interpolation)

    def forward(self, x):
        from .... import image
        return image.center_crop(x, *self._args)[0]


class RandomResizedCrop(Block):
    """Random crop of area ``scale`` and aspect ``ratio``, resized to ``size``.

    Examples
    --------
    >>> RandomResizedCrop(16)(mx.nd.zeros((40, 50, 3), dtype='uint8')).shape
    (16, 16, 3)
    """

    def __init__(self, size: Any, scale: tuple = (0.08, 1.0),
                 ratio: tuple = (3.0 / 4.0, 4.0 / 3.0), interpolation: int = 1) -> None:
        super().__init__()
        if isinstance(size, numeric_types):
            size = (size, size)
        self._args = (size, scale, ratio, interpolation)

    def forward(self, x):
        from .... import image
        return image.random_size_crop(x, *self._args)[0]


class _RandomOp(HybridBlock):
    _op_name = ''

    def __init__(self) -> None:
        super().__init__()

    def hybrid_forward(self, F, x):
        return _op(F, self._op_name)(x)


class RandomFlipLeftRight(_RandomOp):
    """Flip left-right with probability 0.5."""

    _op_name = 'random_flip_left_right'


class RandomFlipTopBottom(_RandomOp):
    """Flip top-bottom with probability 0.5."""

    _op_name = 'random_flip_top_bottom'


class _RandomFactor(HybridBlock):
    _op_name = ''

    def __init__(self, value: float) -> None:
        super().__init__()
        self._args = (max(0, 1 - value), 1 + value)

    def hybrid_forward(self, F, x):
        return _op(F, self._op_name)(x, min_factor=self._args[0], max_factor=self._args[1])


class RandomBrightness(_RandomFactor):
    """Scale brightness by a factor from ``[max(0, 1 - b), 1 + b]``."""

    _op_name = 'random_brightness'

    def __init__(self, brightness: float) -> None:
        super().__init__(brightness)


class RandomContrast(_RandomFactor):
    """Jitter contrast by a factor from ``[max(0, 1 - c), 1 + c]``."""

    _op_name = 'random_contrast'

    def __init__(self, contrast: float) -> None:
        super().__init__(contrast)


class RandomSaturation(_RandomFactor):
    """Jitter saturation by a factor from ``[max(0, 1 - s), 1 + s]``."""

    _op_name = 'random_saturation'

    def __init__(self, saturation: float) -> None:
        super().__init__(saturation)


class RandomHue(_RandomFactor):
    """Jitter hue by a factor from ``[max(0, 1 - h), 1 + h]``."""

    _op_name = 'random_hue'

    def __init__(self, hue: float) -> None:
        super().__init__(hue)


class RandomColorJitter(HybridBlock):
    """Jitter brightness, contrast, saturation and hue.

    Examples
    --------
    >>> RandomColorJitter(0.1, 0.1, 0.1, 0.1)(mx.nd.ones((4, 4, 3))).shape
    (4, 4, 3)
    """

    def __init__(self, brightness: float = 0, contrast: float = 0, saturation: float = 0,
                 hue: float = 0) -> None:
        super().__init__()
        self._args = (brightness, contrast, saturation, hue)

    def hybrid_forward(self, F, x):
        b, c, s, h = self._args
        return _op(F, 'random_color_jitter')(x, brightness=b, contrast=c, saturation=s, hue=h)


class RandomLighting(HybridBlock):
    """AlexNet-style PCA lighting noise with std ``alpha``."""

    def __init__(self, alpha: float) -> None:
        super().__init__()
        self._alpha = alpha

    def hybrid_forward(self, F, x):
        return _op(F, 'random_lighting')(x, alpha_std=self._alpha)


def _check_float32(x) -> None:
    import numpy as np
    if x.dtype is not np.float32:
        raise TypeError("This transformation only supports float32. "
                        "Consider calling it after ToTensor")


class Rotate(Block):
    """Rotate a CHW image or NCHW batch (float32) by ``rotation_degrees``, keeping its shape.

    Examples
    --------
    >>> Rotate(90)(mx.nd.ones((1, 3, 3))).shape
    (1, 3, 3)
    """

    def __init__(self, rotation_degrees: float, zoom_in: bool = False,
                 zoom_out: bool = False) -> None:
        super().__init__()
        self._args = (rotation_degrees, zoom_in, zoom_out)

    def forward(self, x):
        from .... import image
        _check_float32(x)
        return image.imrotate(x, *self._args)


class RandomRotation(Block):
    """Rotate by an angle drawn from ``angle_limits`` with probability ``rotate_with_proba``
    (CHW / NCHW float32 input).

    Examples
    --------
    >>> RandomRotation((-10, 10))(mx.nd.ones((1, 3, 3))).shape
    (1, 3, 3)
    """

    def __init__(self, angle_limits: tuple, zoom_in: bool = False, zoom_out: bool = False,
                 rotate_with_proba: float = 1.0) -> None:
        super().__init__()
        lower, upper = angle_limits
        if lower >= upper:
            raise ValueError("`angle_limits` must be an ordered tuple")
        if rotate_with_proba < 0 or rotate_with_proba > 1:
            raise ValueError("Probability of rotating the image should be between 0 and 1")
        self._args = (angle_limits, zoom_in, zoom_out)
        self._rotate_with_proba = rotate_with_proba

    def forward(self, x):
        import numpy as np

        from .... import image
        if np.random.random() > self._rotate_with_proba:
            return x
        _check_float32(x)
        return image.random_rotate(x, *self._args)


class RandomApply(Sequential):
    """Apply ``transforms`` with probability ``p``."""

    def __init__(self, transforms: Any, p: float = 0.5) -> None:
        super().__init__()
        self.transforms = transforms
        self.p = p

    def forward(self, x):
        if self.p < random.random():
            return x
        return self.transforms(x)


class HybridRandomApply(RandomApply):
    """``RandomApply`` for HybridBlock transforms (applied eagerly)."""
