"""``npx.image``: image operators on ``mx.np`` arrays (``to_tensor``, ``normalize``,
``resize``, ``crop``, flips and colour jitter), alongside the helpers of :mod:`mxnet.image`.

The operator front ends run MXNet's ``_image_*`` registry operators through ``np_call``,
so they return ``mx.np.ndarray`` (or ``_Symbol`` on symbol inputs).

Examples
--------
>>> from mxnet import np, npx
>>> img = np.ones((4, 4, 3), dtype='uint8')
>>> npx.image.to_tensor(img).shape
(3, 4, 4)
"""

from __future__ import annotations

from .. import image as _mx_image
from ..image import *  # noqa: F401,F403  (imread, imresize, augmenters... as in MXNet)
from ._ops import _front

_image_all = [n for n in getattr(_mx_image, "__all__", dir(_mx_image)) if not n.startswith("_")]

_OPS = {
    "to_tensor": ("_image_to_tensor", (), "HWC [0, 255] image(s) to CHW float32 in [0, 1]."),
    "normalize": ("_image_normalize", ("mean", "std"), "Per-channel ``(x - mean) / std``."),
    "resize": ("_image_resize", ("size", "keep_ratio", "interp"), "Resize HWC image(s)."),
    "crop": ("_image_crop", ("x", "y", "width", "height"), "Crop a region of HWC image(s)."),
    "flip_left_right": ("_image_flip_left_right", (), "Mirror along the width axis."),
    "flip_top_bottom": ("_image_flip_top_bottom", (), "Mirror along the height axis."),
    "random_flip_left_right": ("_image_random_flip_left_right", (),
                               "Mirror along the width axis with probability 0.5."),
    "random_flip_top_bottom": ("_image_random_flip_top_bottom", (),
                               "Mirror along the height axis with probability 0.5."),
    "random_brightness": ("_image_random_brightness", ("min_factor", "max_factor"),
                          "Scale brightness by a random factor."),
    "random_contrast": ("_image_random_contrast", ("min_factor", "max_factor"),
                        "Scale contrast by a random factor."),
    "random_saturation": ("_image_random_saturation", ("min_factor", "max_factor"),
                          "Scale saturation by a random factor."),
    "random_hue": ("_image_random_hue", ("min_factor", "max_factor"),
                   "Shift hue by a random factor."),
    "random_color_jitter": ("_image_random_color_jitter",
                            ("brightness", "contrast", "saturation", "hue"),
                            "Random brightness, contrast, saturation and hue changes."),
    "adjust_lighting": ("_image_adjust_lighting", ("alpha",), "AlexNet-style PCA lighting."),
    "random_lighting": ("_image_random_lighting", ("alpha_std",),
                        "AlexNet-style PCA lighting with random strength."),
}


def _make(name: str):
    op, params, doc = _OPS[name]
    return _front(name, op, ("data",), params, doc)


to_tensor = _make("to_tensor")
normalize = _make("normalize")
resize = _make("resize")
crop = _make("crop")
flip_left_right = _make("flip_left_right")
flip_top_bottom = _make("flip_top_bottom")
random_flip_left_right = _make("random_flip_left_right")
random_flip_top_bottom = _make("random_flip_top_bottom")
random_brightness = _make("random_brightness")
random_contrast = _make("random_contrast")
random_saturation = _make("random_saturation")
random_hue = _make("random_hue")
random_color_jitter = _make("random_color_jitter")
adjust_lighting = _make("adjust_lighting")
random_lighting = _make("random_lighting")

__all__ = sorted(set(_image_all) | set(_OPS))
