"""NDArray.reshape size errors as MXNet 1.9.1 (the reshape/transpose tutorial quotes the
message raised while recording)."""
import pytest

import mxnet as mx
from mxnet.base import MXNetError


def test_larger_target_is_mxnet_error():
    x = mx.nd.arange(6).reshape((2, 3))
    with pytest.raises(MXNetError, match=r'shape_.Size\(\) >= shape.Size\(\) \(6 vs. 8\) : '
                                         'target shape size is larger than the current shape'):
        x.reshape((8,))


def test_smaller_target_is_value_error():
    x = mx.nd.arange(6).reshape((2, 3))
    with pytest.raises(ValueError, match=r'^Cannot reshape array of size 6 into shape \(2, 2\)$'):
        x.reshape((2, 2))


@pytest.mark.parametrize('shape', [(2, 2), (-1, 4), (4, -1), (0, 2)])
def test_mismatch_while_recording(shape):
    x = mx.nd.arange(6).reshape((2, 3))
    with mx.autograd.record():
        with pytest.raises(MXNetError, match=r'\(6 vs. 4\) : target shape must have the same '
                                             'size as current shape when recording with '
                                             r'autograd\. \(reshape of \(2,3\) to '):
            x.reshape(shape)
        assert x.reshape((3, -1)).shape == (3, 2)
