"""Legacy NDArray operators as example/profiler/profiler_ndarray.py uses them (MXNet 1.9.1)."""

import numpy as np
import pytest

import mxnet as mx


def test_onehot_encode_logs_deprecation_and_takes_float32_only(capfd):
    out = mx.nd.zeros((3, 4))
    mx.nd.onehot_encode(mx.nd.array([0, 3, 1]), out)
    assert out.asnumpy().tolist() == [[1, 0, 0, 0], [0, 0, 0, 1], [0, 1, 0, 0]]
    assert "onehot_encode is deprecated; use one_hot instead" in capfd.readouterr().err
    with pytest.raises(mx.base.MXNetError, match="only support float32"):
        mx.nd.onehot_encode(mx.nd.array([1, 2], dtype="int32"), mx.nd.zeros((2, 3)))
    with pytest.raises(mx.base.MXNetError, match="only support float32"):
        mx.nd.onehot_encode(mx.nd.array([1, 2]), mx.nd.zeros((2, 3), dtype=np.int32))
