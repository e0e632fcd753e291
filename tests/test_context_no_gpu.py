"""Without a GPU, using mx.gpu() raises MXNetError (scripts catch it to fall back to CPU)."""

import pytest
import torch

import mxnet as mx
from mxnet.base import MXNetError

pytestmark = pytest.mark.skipif(torch.cuda.is_available(), reason="a GPU is present")


def _try_gpu():
    # the d2l.ai idiom
    try:
        ctx = mx.gpu()
        _ = mx.nd.array([0], ctx=ctx)
    except MXNetError:
        ctx = mx.cpu()
    return ctx


def test_try_gpu_idiom_falls_back():
    assert _try_gpu() == mx.cpu()


@pytest.mark.parametrize("make", [
    lambda: mx.nd.zeros((2,), ctx=mx.gpu()),
    lambda: mx.nd.ones((2,)).as_in_context(mx.gpu(0)),
    lambda: mx.nd.ones((2,)).copyto(mx.gpu(1)),
    lambda: mx.gluon.nn.Dense(2, in_units=3).initialize(ctx=mx.gpu()),
])
def test_gpu_use_raises_mxnet_error(make):
    with pytest.raises(MXNetError, match="GPU is not enabled"):
        make()


def test_gpu_context_object_itself_is_fine():
    ctx = mx.gpu(3)
    assert str(ctx) == "gpu(3)" and ctx.device_type == "gpu"
