"""``mx.nd.imdecode``: MXNet's legacy (deprecated) image decoder.

It decodes with OpenCV and keeps OpenCV's channel order (BGR), writes the pixels
channel-first as float32 (or ``mean``'s dtype) minus ``mean``, optionally into slice
``index`` of a 4-D ``out`` buffer. New code should use ``mx.image.imdecode``.
"""

from __future__ import annotations

import numpy as np
import torch

from .. import _dtype
from ..base import MXNetError
from ..context import Context
from .ndarray import NDArray

__all__ = ["imdecode"]


def _decode(str_img, channels: int) -> np.ndarray:
    import cv2

    if isinstance(str_img, str):
        str_img = str_img.encode("latin-1")
    raw = np.frombuffer(bytes(str_img), dtype=np.uint8)
    img = (
        cv2.imdecode(raw, cv2.IMREAD_GRAYSCALE if channels == 1 else cv2.IMREAD_UNCHANGED)
        if raw.size
        else None
    )
    if img is None:
        raise MXNetError("Check failed: res.data != nullptr: OpenCV Failed to decode image")
    return img if img.ndim == 3 else img[:, :, None]


def imdecode(str_img, clip_rect=(0, 0, 0, 0), out=None, index=0, channels=3, mean=None):
    """DEPRECATED (use ``mx.image.imdecode``): decode an image to a ``(channels, h, w)``
    array in OpenCV's BGR order.

    Parameters
    ----------
    str_img : bytes
        Encoded image data.
    clip_rect : iterable of 4 int
        Keep the rectangle ``(x0, y0, x1, y1)``; all zeros keeps the whole image.
    out : NDArray, optional
        Output buffer, ``(c, h, w)`` or ``(n, c, h, w)`` (then slice ``index`` is written).
    index : int
        Slice of a 4-D ``out`` to write.
    channels : int
        Number of channels; 1 decodes to grey scale.
    mean : NDArray, optional
        ``(c, h, w)`` values subtracted from the pixels.

    Examples
    --------
    >>> import cv2
    >>> png = cv2.imencode('.png', np.zeros((2, 3, 3), np.uint8))[1].tobytes()
    >>> mx.nd.imdecode(png).shape
    (3, 2, 3)
    """
    img = _decode(str_img, channels)
    if channels > img.shape[2]:
        raise MXNetError(f"imdecode: channels={channels} but the image has {img.shape[2]}")
    x0, y0, x1, y1 = (int(v) for v in clip_rect)
    if y1 - y0 == 0:
        x0, y0, x1, y1 = 0, 0, img.shape[1], img.shape[0]
    if x1 > img.shape[1] or y1 > img.shape[0] or x0 > x1 or y0 > y1:
        raise MXNetError(
            f"imdecode: clip_rect {tuple(clip_rect)} is outside the "
            f"{img.shape[1]}x{img.shape[0]} image"
        )
    pix = np.ascontiguousarray(img[y0:y1, x0:x1, :channels].transpose(2, 0, 1))
    dtype = np.float32 if mean is None else mean.dtype
    if out is None:
        out = NDArray._wrap(torch.zeros(pix.shape, dtype=_dtype.to_torch(dtype)), Context("cpu", 0))
    if out.ndim == 3:
        target_shape = out.shape
    elif out.ndim == 4:
        target_shape = out.shape[1:]
    else:
        raise MXNetError(f"imdecode: out must be 3-D or 4-D, got shape {out.shape}")
    if tuple(target_shape) != pix.shape:
        raise MXNetError(
            f"imdecode: the decoded image has shape {pix.shape} but the output "
            f"buffer needs {tuple(target_shape)}"
        )
    vals = pix.astype(out.dtype)
    if mean is not None:
        if tuple(mean.shape) != pix.shape:
            raise MXNetError(f"imdecode: mean has shape {mean.shape}, expected {pix.shape}")
        vals = vals - mean.asnumpy().astype(out.dtype)
    if out.ndim == 3:
        out[:] = vals
    else:
        out[index] = vals
    return out
