"""Regressions found by running MXNet 1.x example programs on tiny synthetic data."""

import logging

import numpy as np

import mxnet as mx


def test_monitor_values_end_with_tab(caplog):
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=2, name="fc")
    exe = net.simple_bind(mx.cpu(), data=(1, 3))
    mon = mx.monitor.Monitor(1, pattern=".*")
    mon.install(exe)
    mon.tic()
    exe.forward(data=mx.nd.ones((1, 3)))
    rows = mon.toc()
    assert rows and all(v.endswith("\t") for _, _, v in rows)
    mon.tic()
    exe.forward(data=mx.nd.ones((1, 3)))
    with caplog.at_level(logging.INFO):
        mon.toc_print()
    assert "fc_output" in caplog.text
    assert np.isfinite(float(rows[0][2].strip()))


def test_module_bind_warns_on_label_name_mismatch():
    import pytest

    net = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2, name="fc")
    mod = mx.mod.Module(net, label_names=None)
    with pytest.warns(UserWarning, match="label_shapes don't match names"):
        mod.bind(data_shapes=[("data", (1, 3))], label_shapes=[("lbl", (1,))])


def test_sym_sparse_namespace_has_storage_aware_ops():
    x = mx.sym.Variable("x", stype="csr")
    w = mx.sym.Variable("w", stype="row_sparse")
    y = mx.sym.sparse.dot(x, w)
    assert y.list_arguments() == ["x", "w"]
    assert '"op": "dot"' in y.tojson()
    z = mx.sym.sparse.broadcast_add(y, mx.sym.Variable("b"))
    _, out, _ = z.infer_shape(x=(4, 6), w=(6, 2), b=(2,))
    assert out == [(4, 2)]


def test_io_init_data_is_exposed_for_relabelling_iterators():
    y = np.arange(4, dtype=np.float32)
    it = mx.io.NDArrayIter(np.zeros((4, 2), np.float32), y, batch_size=2)
    it.label = mx.io._init_data(y, allow_empty=True, default_name="svm_label")
    assert [d.name for d in it.provide_label] == ["svm_label"]
    batch = next(iter(it))
    assert batch.label[0].asnumpy().tolist() == [0.0, 1.0]


def test_feedforward_fit_logs_like_the_legacy_loop(caplog):
    x = np.random.RandomState(0).rand(8, 3).astype(np.float32)
    y = np.arange(8, dtype=np.float32) % 2
    net = mx.sym.SoftmaxOutput(
        mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2), name="softmax"
    )
    model = mx.model.FeedForward(net, num_epoch=2, learning_rate=0.1)
    with caplog.at_level(logging.INFO):
        model.fit(X=mx.io.NDArrayIter(x, y, batch_size=4))
    text = caplog.text
    assert "Start training with [cpu(0)]" in text
    assert text.count("Resetting Data Iterator") == 2
    assert "Train-accuracy" not in text


def test_monitor_backward_nodes_in_reverse_order_and_pruned():
    # image-classification/common/fit.py --monitor: MXNet's backward graph runs from the
    # loss back to the first layer, and Flatten(data) has no backward node (data needs
    # no gradient).
    data = mx.sym.Flatten(mx.sym.Variable("data"), name="flat")
    fc1 = mx.sym.FullyConnected(data, num_hidden=3, name="fc1")
    fc2 = mx.sym.FullyConnected(fc1, num_hidden=2, name="fc2")
    net = mx.sym.SoftmaxOutput(fc2, name="softmax")
    mod = mx.mod.Module(net)
    mod.bind(data_shapes=[("data", (2, 1, 2, 2))], label_shapes=[("softmax_label", (2,))])
    mod.init_params()
    names = []
    mod._exec_group.execs[0].set_monitor_callback(lambda n, a: names.append(n.decode()))
    batch = mx.io.DataBatch([mx.nd.ones((2, 1, 2, 2))], [mx.nd.array([0, 1])])
    mod.forward(batch, is_train=True)
    names.clear()
    mod.backward()
    assert names[0].startswith("softmax_backward")
    assert names.index("fc2_backward_output0") < names.index("fc1_backward_output0")
    assert not any(n.startswith("flat_backward") for n in names)
