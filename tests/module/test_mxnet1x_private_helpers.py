"""MXNet 1.x private training helpers that third-party code imports (Deformable-ConvNets' and
mx-rcnn's own Module / DataParallelExecutorGroup classes): same names, signatures and effects
as MXNet 1.9.1."""

import pytest

import mxnet as mx
from mxnet.executor_manager import _check_arguments, _split_input_slice
from mxnet.model import (
    _create_kvstore,
    _initialize_kvstore,
    _multiple_callbacks,
    _update_params,
    _update_params_on_kvstore,
)
from mxnet.module.base_module import _as_list, _check_input_names, _parse_data_desc
from mxnet.module.executor_group import _load_data, _load_general, _merge_multi_context


def test_parse_and_check_names():
    sym = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc")
    d, lab = _parse_data_desc(["data"], [], [("data", (4, 3))], None)
    assert [(x.name, x.shape) for x in d] == [("data", (4, 3))] and lab is None
    _check_input_names(sym, ["data"], "data", True)
    with pytest.raises(ValueError):
        _check_input_names(sym, ["img"], "data", True)
    assert _as_list(1) == [1] and _as_list([1, 2]) == [1, 2]


def test_update_params_indices_and_kvstore_sum():
    w = [[mx.nd.ones((2,)), mx.nd.ones((2,))]]
    g = [[mx.nd.full((2,), 1.0), mx.nd.full((2,), 3.0)]]
    calls = []

    def updater(idx, grads, weights):
        calls.append((list(idx), [x.asnumpy().tolist() for x in grads]))
        for x, y in zip(grads, weights):
            y[:] = y - x

    kv = mx.kv.create("local")
    kv.init("w", mx.nd.zeros((2,)))
    _update_params(w, g, updater, num_device=2, kvstore=kv, param_names=["w"])
    # one updater call per device; gradients summed across devices through the store
    assert calls == [([0], [[4.0, 4.0]]), ([1], [[4.0, 4.0]])]
    assert w[0][0].asnumpy().tolist() == [-3.0, -3.0]


def test_update_on_kvstore_and_initialize():
    kv, on_kv = _create_kvstore("device", 2, {"w": mx.nd.ones((2,))})
    assert kv is not None and on_kv
    assert _create_kvstore("local", 1, {})[0] is None
    w = [[mx.nd.zeros((2,)), mx.nd.zeros((2,))]]
    _initialize_kvstore(kv, w, {"w": mx.nd.full((2,), 5.0)}, ["w"], True)
    assert w[0][1].asnumpy().tolist() == [5.0, 5.0]
    kv.set_optimizer(mx.optimizer.SGD(learning_rate=1.0, rescale_grad=1.0))
    _update_params_on_kvstore(w, [[mx.nd.ones((2,)), mx.nd.ones((2,))]], kv, ["w"])
    assert w[0][0].asnumpy().tolist() == [3.0, 3.0] == w[0][1].asnumpy().tolist()


def test_load_and_merge_helpers():
    src = mx.nd.arange(12).reshape((4, 3))
    a, b = mx.nd.zeros((2, 3)), mx.nd.zeros((2, 3))
    _load_general([src], [[(slice(0, 2), a), (slice(2, 4), b)]], [0])
    assert (b.asnumpy() == src.asnumpy()[2:]).all()
    batch = mx.io.DataBatch([[mx.nd.ones((1, 2))]], None)
    dst = [mx.nd.zeros((1, 2))]
    _load_data(batch, [dst], [0])
    assert dst[0].asnumpy().sum() == 2
    merged = _merge_multi_context([[a, b], [a, b]], [0, -1])
    assert merged[0].shape == (4, 3) and merged[1] is a
    assert _split_input_slice(5, [1, 1]) == [slice(0, 2), slice(2, 5)] or _split_input_slice(
        5, [1, 1]
    ) == [slice(0, 3), slice(3, 5)]


def test_check_arguments_and_callbacks():
    x = mx.sym.var("x")
    _check_arguments(mx.sym.FullyConnected(x, num_hidden=2, name="fc"))
    w = mx.sym.var("w")
    dup = mx.sym.FullyConnected(x, weight=w, num_hidden=2, no_bias=True, name="a")
    dup = mx.sym.FullyConnected(dup, weight=mx.sym.var("w"), num_hidden=2, no_bias=True)
    seen = []
    _multiple_callbacks([lambda v: seen.append(v), lambda v: seen.append(v * 2)], 3)
    _multiple_callbacks(lambda v: seen.append(-v), 1)
    _multiple_callbacks(None, 1)
    assert seen == [3, 6, -1]
    names = dup.list_arguments()
    if len(names) != len(set(names)):
        with pytest.raises(ValueError):
            _check_arguments(dup)
