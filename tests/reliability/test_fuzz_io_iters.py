"""Fuzz the image pipeline: ``ImageRecordIter`` over corrupt ``.rec`` files and
``mx.image.imdecode`` over corrupt JPEG/PNG bytes."""

from __future__ import annotations

import os
import struct

import pytest

import mxnet as mx
from mxnet.base import MXNetError
from tests.reliability._fuzz import fuzz

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "compat", "golden",
                      "data")


def _read(name: str) -> bytes:
    with open(os.path.join(GOLDEN, name), "rb") as f:
        return f.read()


def test_fuzz_image_record_iter(tmp_path):
    path = str(tmp_path / "img.rec")

    def load(data: bytes):
        with open(path, "wb") as f:
            f.write(data)
        it = mx.io.ImageRecordIter(path_imgrec=path, data_shape=(3, 16, 16), batch_size=2,
                                   preprocess_threads=1, prefetch_buffer=1)
        n = 0
        for batch in it:
            assert batch.data[0].shape == (2, 3, 16, 16)
            n += 1
            assert n < 1000
        return n

    fuzz("io.ImageRecordIter", [_read("images.rec")], load, (MXNetError,), budget_s=2.0,
         seed=21)


def test_fuzz_imdecode():
    seeds = [_read("small0.jpg"), _read("small_png.png")]

    def load(data: bytes):
        img = mx.image.imdecode(data)
        assert img.ndim == 3

    png, jpg = seeds[1], seeds[0]
    huge_png = png[:16] + struct.pack(">II", 100000, 100000) + png[24:]
    sof = jpg.index(b"\xff\xc0")
    huge_jpg = jpg[:sof + 5] + struct.pack(">HH", 65535, 65535) + jpg[sof + 9:]
    for data in (huge_png, huge_jpg):
        with pytest.raises(MXNetError, match="claims"):
            mx.image.imdecode(data)
    # MXNet raises MXNetError for undecodable bytes; OpenCV errors must not leak through
    fuzz("image.imdecode", seeds, load, (MXNetError,), budget_s=1.5, seed=22,
         extra=[("huge-png", huge_png), ("huge-jpeg", huge_jpg)])
