"""OpenCV-backed image operators of ``mx.nd._internal``: _cvimdecode, _cvimread,
_cvimresize and _cvcopyMakeBorder (images are HWC arrays, uint8 when decoded).

Example: ``img = mx.nd._internal._cvimdecode(buf)`` decodes encoded bytes held in a
uint8 NDArray into an RGB (H, W, 3) uint8 array.
"""

from __future__ import annotations

import numpy as np
import torch

from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, op_error

__all__: list[str] = []


def _cv2():
    import cv2

    return cv2


def _check_flag(op: str, flag: int) -> None:
    if flag < 0:  # MXNet's parameter range check (no IMREAD_UNCHANGED)
        raise op_error(op, "value %d for Parameter flag should be greater equal to 0" % flag)


def _finish(op: str, img, flag: int, to_rgb: bool) -> torch.Tensor:
    if img is None:
        raise op_error(op, "Check failed: !res.empty(): Decoding failed. Invalid image file.")
    if img.ndim == 2:
        img = img[:, :, None]
    elif to_rgb and flag != 0 and img.shape[2] == 3:
        img = img[:, :, ::-1]
    return torch.from_numpy(np.ascontiguousarray(img))


def _imdecode(a: dict, buf: torch.Tensor) -> torch.Tensor:
    if buf.device.type == "meta":
        raise op_error("_cvimdecode", "the output shape depends on the encoded data")
    cv2 = _cv2()
    raw = buf.detach().cpu().reshape(-1).to(torch.uint8).numpy()
    flag = a["flag"]
    _check_flag("_cvimdecode", flag)
    img = cv2.imdecode(raw, cv2.IMREAD_COLOR if flag else cv2.IMREAD_GRAYSCALE)
    return _finish("_cvimdecode", img, flag, a["to_rgb"]).to(buf.device)


_FLAGS = [Param("flag", "int", 1, doc="Convert decoded image to grayscale (0) or color (1)."),
          Param("to_rgb", "bool", True, doc="Whether to convert decoded image to mxnet's "
                "default RGB format (instead of opencv's default BGR).")]
register(OpDef("_cvimdecode", _imdecode, inputs=("buf",), params=_FLAGS,
               infer_type=lambda a, t: (t, ["uint8"]),
               doc="Decode an image (JPEG, PNG...) held as bytes in a uint8 NDArray.\n\n"
                   "Example: ``mx.nd._internal._cvimdecode(buf, flag=1)``"))


def _imread(a: dict) -> torch.Tensor:
    cv2 = _cv2()
    flag = a["flag"]
    _check_flag("_cvimread", flag)
    try:
        with open(a["filename"], "rb") as f:
            raw = np.frombuffer(f.read(), np.uint8)
    except OSError as e:
        raise op_error("_cvimread", f"cannot read {a['filename']!r}: {e}") from None
    img = cv2.imdecode(raw, cv2.IMREAD_COLOR if flag else cv2.IMREAD_GRAYSCALE)
    return _finish("_cvimread", img, flag, a["to_rgb"])


register(OpDef("_cvimread", _imread, inputs=(), creation=True,
               params=[Param("filename", "str", doc="Name of the image file to be loaded.")]
               + _FLAGS,
               infer_type=lambda a, t: (t, ["uint8"]),
               doc="Read and decode an image file.\n\n"
                   "Example: ``mx.nd._internal._cvimread(filename='cat.jpg')``"))


def _to_numpy(op: str, src: torch.Tensor) -> np.ndarray:
    if src.dim() != 3:
        raise op_error(op, f"src must be an (H, W, C) image, got {fmt_shape(src.shape)}")
    return np.ascontiguousarray(src.detach().cpu().numpy())


def _imresize(a: dict, src: torch.Tensor) -> torch.Tensor:
    if src.device.type == "meta":
        return src.new_empty((a["h"], a["w"], src.shape[2]))
    cv2 = _cv2()
    img = _to_numpy("_cvimresize", src)
    out = cv2.resize(img, (a["w"], a["h"]), interpolation=a["interp"])
    if out.ndim == 2:
        out = out[:, :, None]
    return torch.from_numpy(out).to(src.device)


register(OpDef("_cvimresize", _imresize, inputs=("src",),
               params=[Param("w", "int", doc="Width of resized image."),
                       Param("h", "int", doc="Height of resized image."),
                       Param("interp", "int", 1, doc="Interpolation method (see OpenCV's "
                             "InterpolationFlags).")],
               doc="Resize an (H, W, C) image with OpenCV.\n\n"
                   "Example: ``mx.nd._internal._cvimresize(img, w=224, h=224)``"))


def _border(a: dict, src: torch.Tensor) -> torch.Tensor:
    t, b, left, r = a["top"], a["bot"], a["left"], a["right"]
    if src.device.type == "meta":
        return src.new_empty((src.shape[0] + t + b, src.shape[1] + left + r, src.shape[2]))
    cv2 = _cv2()
    img = _to_numpy("_cvcopyMakeBorder", src)
    vals = a["values"]
    value = list(vals) if vals else [a["value"]] * 4
    out = cv2.copyMakeBorder(img, t, b, left, r, a["type"], value=value)
    if out.ndim == 2:
        out = out[:, :, None]
    return torch.from_numpy(out).to(src.device)


register(OpDef("_cvcopyMakeBorder", _border, inputs=("src",),
               params=[Param("top", "int", doc="Top margin."),
                       Param("bot", "int", doc="Bottom margin."),
                       Param("left", "int", doc="Left margin."),
                       Param("right", "int", doc="Right margin."),
                       Param("type", "int", 0, doc="Filling type (default=cv2.BORDER_CONSTANT)."),
                       Param("value", "float", 0.0, doc="(Deprecated! Use ``values`` instead.) "
                             "Fill with single value."),
                       Param("values", "float_seq", (), doc="Fill with value(RGB[A] or gray), "
                             "up to 4 channels.")],
               doc="Pad an (H, W, C) image with a border (OpenCV copyMakeBorder).\n\n"
                   "Example: ``mx.nd._internal._cvcopyMakeBorder(img, top=2, bot=2, left=2, "
                   "right=2)``"))
