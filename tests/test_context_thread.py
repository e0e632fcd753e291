"""Context.default_ctx: a per-thread class property with a setter (as in MXNet 1.9.1)."""

import threading

import pytest

import mxnet as mx
from mxnet.context import Context


def test_default_ctx_setter_is_per_thread():
    seen = {}
    ready, go = threading.Event(), threading.Event()

    def worker():
        with mx.cpu(10):
            ready.set()
            go.wait()
            seen["inside"] = Context.default_ctx
        seen["after"] = Context.default_ctx

    prev = Context.default_ctx
    t = threading.Thread(target=worker)
    t.start()
    ready.wait()
    try:
        with pytest.warns(DeprecationWarning, match="default_ctx has been deprecated"):
            Context.default_ctx = Context("cpu", 11)
        assert mx.current_context() == mx.cpu(11)
        assert type(Context.__dict__["default_ctx"]).__name__ == "_ClassProperty"
        go.set()
        t.join()
    finally:
        Context.default_ctx = prev
    assert seen["inside"] == mx.cpu(10)
    assert seen["after"] == mx.cpu(0)
    assert Context.default_ctx == prev


def test_new_thread_starts_on_cpu0():
    prev = Context.default_ctx
    Context.default_ctx = mx.cpu(3)
    got = []
    try:
        t = threading.Thread(target=lambda: got.append(Context.default_ctx))
        t.start()
        t.join()
    finally:
        Context.default_ctx = prev
    assert got == [mx.cpu(0)]


def test_other_class_attributes_still_assignable():
    old = Context.devtype2str
    Context.devtype2str = dict(old)
    assert Context.devtype2str == old
    Context.devtype2str = old
