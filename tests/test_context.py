"""Contexts: naming, equality, the default-context stack (as MXNet 1.9.1)."""

import pickle
import threading

import pytest

import mxnet as mx
from mxnet.base import MXNetError


def test_names_and_equality():
    assert repr(mx.cpu()) == "cpu(0)" and str(mx.gpu(2)) == "gpu(2)"
    assert mx.cpu(0) == mx.Context("cpu", 0)
    assert mx.cpu(0) != mx.cpu(1)
    assert mx.cpu(0) != "cpu(0)"
    assert hash(mx.cpu(1)) == hash(mx.Context("cpu", 1))
    assert (mx.cpu().device_type, mx.cpu().device_typeid, mx.gpu(3).device_id) == ("cpu", 1, 3)
    assert mx.Context(mx.gpu(1)) == mx.gpu(1)
    assert repr(mx.cpu_pinned(1)) == "cpu_pinned(1)"
    assert repr(mx.Context("cpu_shared", 0)) == "cpu_shared(0)"
    assert mx.Context.devtype2str == {1: "cpu", 2: "gpu", 3: "cpu_pinned", 5: "cpu_shared"}
    with pytest.raises(KeyError):
        mx.Context("tpu", 0)


def test_default_context_stack():
    assert mx.current_context() == mx.cpu(0)
    with mx.Context("cpu", 1):
        assert mx.current_context() == mx.cpu(1)
        assert mx.nd.ones((1,)).context == mx.cpu(1)
        with mx.cpu(2) as c:
            assert c == mx.cpu(2) and mx.current_context() == mx.cpu(2)
        assert mx.current_context() == mx.cpu(1)
    assert mx.current_context() == mx.cpu(0)


def test_default_context_is_thread_local():
    seen = []
    with mx.cpu(3):
        t = threading.Thread(target=lambda: seen.append(mx.current_context()))
        t.start()
        t.join()
    assert seen == [mx.cpu(0)]


def test_pickle_and_misc():
    assert pickle.loads(pickle.dumps(mx.gpu(1))) == mx.gpu(1)
    assert mx.cpu().empty_cache() is None
    assert mx.context.num_gpus() >= 0
    if mx.context.num_gpus() == 0:
        with pytest.raises(MXNetError):
            mx.context.gpu_memory_info(0)


def test_cpu_contexts_are_distinct_devices():
    a = mx.nd.ones((2,), ctx=mx.cpu(1))
    b = a.copyto(mx.cpu(2))
    b[:] = 5
    assert a.asnumpy().tolist() == [1, 1] and b.context == mx.cpu(2)


def test_abstract_method_error_is_mxnet_and_builtin_type():
    """Base-class methods raise an MXNetError that is also MXNet's built-in error type."""
    import mxnet as mx
    from mxnet.base import AbstractMethodError

    with pytest.raises(NotImplementedError, match=r"LRScheduler\.__call__"):
        mx.lr_scheduler.LRScheduler()(1)
    assert issubclass(AbstractMethodError, mx.MXNetError)
