"""Max pooling through oneDNN (non-overlapping windows) equals torch's kernel exactly."""

import numpy as np
import pytest
import torch

import mxnet as mx
from mxnet import autograd
from mxnet._op import _conv


def _pool_and_grad(x_np, layout_cl, kernel, **kw):
    x = mx.nd.array(x_np)
    if layout_cl:
        x = mx.nd.NDArray._wrap(x._t.contiguous(memory_format=torch.channels_last), x.context)
    x.attach_grad()
    with autograd.record():
        y = mx.nd.Pooling(x, kernel=kernel, stride=kernel, pool_type="max", **kw)
    y.backward(mx.nd.array(np.arange(1, y.size + 1, dtype="float32").reshape(y.shape)))
    return y.asnumpy(), x.grad.asnumpy()


@pytest.mark.parametrize("shape,cl", [((3, 6, 8, 8), False), ((2, 6, 9, 7), True),
                                      ((2, 3, 4, 6), False)])
def test_onednn_max_pool_equals_torch(shape, cl, monkeypatch):
    rng = np.random.RandomState(0)
    x = np.maximum(rng.randn(*shape), 0).astype("float32")  # many tied zeros
    x[:, :, 0:2, 0:2] = 1.5  # a window of equal maxima: the first one gets the gradient
    assert _conv._onednn_max_pool_ok(torch.from_numpy(x), (2, 2), (2, 2), (0, 0), False) \
        or not torch.backends.mkldnn.is_available()
    fast = _pool_and_grad(x, cl, (2, 2))
    monkeypatch.setattr(_conv, "_onednn_max_pool_ok", lambda *a: False)
    ref = _pool_and_grad(x, cl, (2, 2))
    np.testing.assert_array_equal(fast[0], ref[0])
    np.testing.assert_array_equal(fast[1], ref[1])
    assert fast[1][0, 0, 0, 0] != 0 and fast[1][0, 0, 0, 1] == 0


def test_onednn_pool_not_used_for_overlapping_or_padded_windows():
    x = torch.ones(1, 3, 8, 8)
    assert not _conv._onednn_max_pool_ok(x, (3, 3), (2, 2), (0, 0), False)
    assert not _conv._onednn_max_pool_ok(x, (2, 2), (2, 2), (1, 1), False)
    assert not _conv._onednn_max_pool_ok(x.double(), (2, 2), (2, 2), (0, 0), False)
    cl16 = torch.ones(1, 16, 8, 8).contiguous(memory_format=torch.channels_last)
    assert not _conv._onednn_max_pool_ok(cl16, (2, 2), (2, 2), (0, 0), False)
