"""mx.runtime, mx.engine and mx.util helpers."""

import pytest
import torch

import mxnet as mx
from mxnet import engine, runtime, util


def test_features_like_mxnet():
    f = runtime.Features()
    assert runtime.Features() is f
    names = list(f.keys())
    assert names[:5] == ["CUDA", "CUDNN", "NCCL", "CUDA_RTC", "TENSORRT"]
    assert names[-1] == "TVM_OP" and len(names) == 32
    assert repr(f).startswith("[") and ("✖ CUDA" in repr(f) or "✔ CUDA" in repr(f))
    assert f.is_enabled("cuda") == torch.backends.cuda.is_built()
    assert f.is_enabled("MKLDNN") == torch.backends.mkldnn.is_available()
    assert f.is_enabled("DIST_KVSTORE") == torch.distributed.is_available()
    assert f.is_enabled("OPENMP") == torch.backends.openmp.is_available()
    with pytest.raises(RuntimeError, match="Feature 'FOO' is unknown, known features are"):
        f.is_enabled("foo")
    fl = runtime.feature_list()
    assert [x.name for x in fl] == names
    assert repr(runtime.Feature("X", True)) == "✔ X"
    assert repr(runtime.Feature("X", False)) == "✖ X"


def test_engine_bulk():
    prev = engine.set_bulk_size(5)
    assert engine.set_bulk_size(prev) == 5
    with engine.bulk(10):
        assert engine.set_bulk_size(10) == 10
        x = mx.nd.zeros((1,))
        for _ in range(3):
            x += 1
    assert engine.set_bulk_size(prev) == prev
    assert x.asscalar() == 3
    assert isinstance(engine.engine_type(), str)


def test_util_np_switches():
    assert not util.is_np_shape() and not util.is_np_array()
    with util.np_shape(True):
        assert util.is_np_shape()
    assert not util.is_np_shape()

    @util.use_np
    def inside():
        return util.is_np_shape(), util.is_np_array()

    assert inside() == (True, True)
    assert not util.is_np_array()
    prev = util.set_np_shape(True)
    assert prev is False and util.is_np_shape()
    util.reset_np()
    assert not util.is_np_shape()
    with pytest.raises(ValueError):
        util.set_np(shape=False, array=True)


def test_util_env():
    util.setenv("MXNG_TEST_VAR", "1")
    assert util.getenv("MXNG_TEST_VAR") == "1"
    util.setenv("MXNG_TEST_VAR", None)
    assert util.getenv("MXNG_TEST_VAR") is None
    assert util.get_gpu_count() >= 0


def test_naive_engine_makes_cuda_blocking(monkeypatch):
    import importlib

    monkeypatch.setenv("MXNET_ENGINE_TYPE", "NaiveEngine")
    monkeypatch.delenv("CUDA_LAUNCH_BLOCKING", raising=False)
    importlib.reload(engine)
    import os

    assert engine.is_naive() and os.environ["CUDA_LAUNCH_BLOCKING"] == "1"
    monkeypatch.delenv("MXNET_ENGINE_TYPE")
    importlib.reload(engine)
    assert not engine.is_naive()
