"""DLPack exchange: shared memory, and a capsule is consumed once (AssertionError as MXNet)."""

import numpy as np
import pytest

import mxnet as mx


def test_dlpack_write_shares_memory():
    x = mx.nd.array(np.arange(6).reshape(2, 3))
    z = mx.nd.from_dlpack(x.to_dlpack_for_write())
    z[:] = 7
    assert x.asnumpy().tolist() == [[7.0] * 3] * 2


def test_dlpack_capsule_consumed_once():
    cap = mx.nd.to_dlpack_for_read(mx.nd.ones((2, 3)))
    assert mx.nd.from_dlpack(cap).shape == (2, 3)
    with pytest.raises(AssertionError, match="consumed only once"):
        mx.nd.from_dlpack(cap)
