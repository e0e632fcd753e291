"""Block.register_op_hook: MXNet's node/operator names for hybridized graphs."""

import mxnet as mx
from mxnet.gluon import nn


def _net():
    net = nn.HybridSequential(prefix="hs_")
    with net.name_scope():
        net.add(nn.Dense(3, activation="relu", prefix="d0_"), nn.Dense(2, prefix="d1_"))
    net.initialize(mx.init.One())
    return net


def test_op_hook_output_and_input_names():
    net = _net()
    net.hybridize()
    seen = []
    net.register_op_hook(lambda n, op, arr: seen.append((mx.base.py_str(n), py(op), arr.shape)))
    net(mx.nd.ones((1, 4)))
    assert seen == [
        ("hs_d0_fwd_output", "FullyConnected", (1, 3)),
        ("hs_d0_relu_fwd_output", "Activation", (1, 3)),
        ("hs_d1_fwd_output", "FullyConnected", (1, 2)),
    ]
    seen.clear()
    net.register_op_hook(lambda n, op, arr: seen.append(py(n)), monitor_all=True)
    out = net(mx.nd.ones((1, 4)))
    assert seen[:5] == [
        "hs_d0_fwd_data",
        "hs_d0_fwd_weight",
        "hs_d0_fwd_bias",
        "hs_d0_fwd_output",
        "hs_d0_relu_fwd_input0",
    ]
    assert out.asnumpy().tolist() == [[12.0, 12.0]]


def test_op_hook_array_rebuilt_from_handle():
    # MXNet 1.9.1 hooks receive a C handle: NDArray(ctypes.cast(arr, NDArrayHandle))
    import ctypes

    from mxnet.base import NDArrayHandle
    from mxnet.ndarray import NDArray

    net = _net()
    net.hybridize()
    seen = []

    def hook(name, op, arr):
        seen.append(NDArray(ctypes.cast(arr, NDArrayHandle), writable=False).asnumpy().tolist())

    net.register_op_hook(hook)
    net(mx.nd.ones((1, 4)))
    assert seen == [[[4.0, 4.0, 4.0]], [[4.0, 4.0, 4.0]], [[12.0, 12.0]]]


def test_op_hook_on_eager_block_reports_nothing():
    net = _net()
    seen = []
    net.register_op_hook(lambda *a: seen.append(a))
    net(mx.nd.ones((1, 4)))
    assert seen == []


def py(b):
    return mx.base.py_str(b)


def test_optimize_for_hybridizes_and_runs():
    net = _net()
    assert net.optimize_for(mx.nd.ones((1, 4)), backend="MKLDNN") is None
    assert net._active
    assert net(mx.nd.ones((1, 4))).asnumpy().tolist() == [[12.0, 12.0]]
    import pytest

    # MXNet 1.9.1 logs an unknown backend and runs the block unpartitioned
    assert net.optimize_for(mx.nd.ones((1, 4)), backend="foo") is None
    with pytest.raises(mx.MXNetError, match="op_names"):
        net.optimize_for(mx.nd.ones((1, 4)), backend="default")


def test_hybridize_backend_checked_at_first_call():
    import pytest

    net = _net()
    net.hybridize(backend="default")  # accepted here; MXNet fails when it builds the graph
    with pytest.raises(mx.MXNetError, match="op_names"):
        net(mx.nd.ones((1, 4)))
    net = _net()
    net.hybridize(backend="MKLDNN")
    assert net(mx.nd.ones((1, 4))).asnumpy().tolist() == [[12.0, 12.0]]
