"""mx.nd.imdecode: the legacy decoder (BGR, channel-first, float32, clip/mean/out)."""

import cv2
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

IMG = (np.arange(4 * 5 * 3).reshape(4, 5, 3) * 7 % 256).astype(np.uint8)
PNG = cv2.imencode(".png", IMG)[1].tobytes()


def test_decode_default_and_gray():
    r = mx.nd.imdecode(PNG)
    assert r.shape == (3, 4, 5) and r.dtype == np.float32
    np.testing.assert_array_equal(r.asnumpy(), IMG.transpose(2, 0, 1))
    g = mx.nd.imdecode(PNG, channels=1)
    want = cv2.imdecode(np.frombuffer(PNG, np.uint8), cv2.IMREAD_GRAYSCALE)
    np.testing.assert_array_equal(g.asnumpy()[0], want)


def test_clip_mean_and_out():
    r = mx.nd.imdecode(PNG, clip_rect=(1, 0, 3, 2))
    np.testing.assert_array_equal(r.asnumpy(), IMG[0:2, 1:3].transpose(2, 0, 1))
    m = mx.nd.imdecode(PNG, mean=mx.nd.ones((3, 4, 5)))
    np.testing.assert_array_equal(m.asnumpy(), IMG.transpose(2, 0, 1) - 1.0)
    out = mx.nd.zeros((2, 3, 4, 5))
    assert mx.nd.imdecode(PNG, out=out, index=1) is out
    assert out[0].asnumpy().sum() == 0
    np.testing.assert_array_equal(out[1].asnumpy(), IMG.transpose(2, 0, 1))


def test_bad_data():
    with pytest.raises(MXNetError, match="Failed to decode"):
        mx.nd.imdecode(b"garbage")
