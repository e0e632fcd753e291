"""Reject encoded images whose header claims far more pixels than the data can hold.

OpenCV allocates the whole output image from the header before decoding, so a few corrupt
bytes (a PNG claiming 30000 x 30000 pixels) cost gigabytes. :func:`check_encoded_size`
reads the dimensions of PNG, JPEG, GIF and BMP headers and refuses an image with more than
``max(MIN_PIXELS, MAX_PIXELS_PER_BYTE * len(data))`` pixels: no real image compresses better
than that (deflate tops out near 1:1032). PNG chunks claiming more bytes than remain are
refused too (OpenCV allocates a chunk's claimed length before reading it).

Examples
--------
>>> from mxnet._image_guard import check_encoded_size
>>> check_encoded_size(b'not an image', 'x')  # unknown formats are left to the decoder
"""

from __future__ import annotations

import struct

from .base import MXNetError

__all__ = ["check_encoded_size", "header_size", "MIN_PIXELS", "MAX_PIXELS_PER_BYTE"]

MIN_PIXELS = 1 << 26  # 64 Mpx (8192 x 8192) always allowed
MAX_PIXELS_PER_BYTE = 2048

_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(buf: bytes) -> tuple[int, int] | None:
    pos, n = 2, len(buf)
    while pos + 4 <= n:
        if buf[pos] != 0xFF:
            return None
        marker = buf[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length field
            pos += 2
            continue
        if marker == 0xDA:  # start of scan: no frame header before it
            return None
        length = struct.unpack_from(">H", buf, pos + 2)[0]
        if marker in _SOF and pos + 9 <= n:
            h, w = struct.unpack_from(">HH", buf, pos + 5)
            return w, h
        pos += 2 + length
    return None


def _check_png_chunks(buf, what: str) -> None:
    """Every PNG chunk must fit in the data (OpenCV allocates a chunk's claimed length)."""
    view = memoryview(buf)
    pos, n = 8, len(view)
    while pos + 8 <= n:
        length = struct.unpack_from(">I", view, pos)[0]
        if length > n - pos - 12:
            raise MXNetError(f"Decoding failed. Invalid image file ({what}): PNG chunk at "
                             f"byte {pos} claims {length} bytes, only {n - pos - 12} remain")
        if bytes(view[pos + 4:pos + 8]) == b"IEND":
            return
        pos += 12 + length


def header_size(data) -> tuple[int, int] | None:
    """``(width, height)`` from a PNG/JPEG/GIF/BMP header, or None if not recognised."""
    buf = bytes(memoryview(data)[:1 << 16]) if not isinstance(data, bytes) else data[:1 << 16]
    if buf[:8] == b"\x89PNG\r\n\x1a\n" and len(buf) >= 24 and buf[12:16] == b"IHDR":
        return struct.unpack_from(">II", buf, 16)
    if buf[:2] == b"\xff\xd8":
        return _jpeg_size(buf)
    if buf[:4] == b"GIF8" and len(buf) >= 10:
        return struct.unpack_from("<HH", buf, 6)
    if buf[:2] == b"BM" and len(buf) >= 26:
        w, h = struct.unpack_from("<ii", buf, 18)
        return abs(w), abs(h)
    return None


def check_encoded_size(data, what: str) -> None:
    """Raise MXNetError when the header of ``data`` claims an impossible pixel count."""
    size = header_size(data)
    if size is None:
        return
    if bytes(memoryview(data)[:4]) == b"\x89PNG":
        _check_png_chunks(data, what)
    pixels = size[0] * size[1]
    limit = max(MIN_PIXELS, MAX_PIXELS_PER_BYTE * len(data))
    if pixels > limit:
        raise MXNetError(f"Decoding failed. Invalid image file ({what}): the header claims "
                         f"{size[0]}x{size[1]} pixels, more than {len(data)} bytes can hold")
