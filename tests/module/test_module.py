"""Module API against golden files written by real MXNet 1.9.1 (make_golden_module.py)."""

import logging
import os
import shutil

import numpy as np
import pytest

import mxnet as mx
from tests.compat.make_golden_module import OUT, init_params, net

G = OUT


def _golden(name):
    return dict(np.load(os.path.join(G, name)))


def _check_params(mod, ref, rtol=1e-4, atol=1e-5):
    a, b = mod.get_params()
    for k, v in {**{f"arg:{n}": x for n, x in a.items()},
                 **{f"aux:{n}": x for n, x in b.items()}}.items():
        np.testing.assert_allclose(v.asnumpy(), ref[k], rtol=rtol, atol=atol, err_msg=k)


@pytest.mark.parametrize("tag,ctxs", [("1ctx", [mx.cpu(0)]), ("2ctx", [mx.cpu(0), mx.cpu(1)])])
def test_fit_matches_mxnet(tag, ctxs):
    d = _golden("data.npz")
    ref = _golden(f"fit_{tag}.npz")
    it = mx.io.NDArrayIter(d["x"], d["y"], batch_size=8, shuffle=False)
    mod = mx.mod.Module(net(), context=ctxs)
    args, aux = init_params()
    mod.fit(it, num_epoch=2, optimizer="sgd",
            optimizer_params={"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-4},
            arg_params=args, aux_params=aux, eval_metric="acc")
    _check_params(mod, ref)
    pred = mod.predict(mx.io.NDArrayIter(d["x"], batch_size=8)).asnumpy()
    np.testing.assert_allclose(pred, ref["pred"], rtol=1e-4, atol=1e-5)
    score = mod.score(mx.io.NDArrayIter(d["x"], d["y"], batch_size=8), "acc")
    assert score[0][0] == "accuracy"
    assert score[0][1] == pytest.approx(float(ref["score"]))


def test_load_mxnet_checkpoint_and_resume(tmp_path):
    """A checkpoint with .states written by MXNet resumes here with MXNet's numbers."""
    d = _golden("data.npz")
    for f in os.listdir(G):
        if f.startswith("ckpt"):
            shutil.copy(os.path.join(G, f), tmp_path / f)
    prefix = str(tmp_path / "ckpt")
    mod = mx.mod.Module.load(prefix, 2, load_optimizer_states=True)
    it = mx.io.NDArrayIter(d["x"], d["y"], batch_size=8, shuffle=False)
    mod.fit(it, num_epoch=1, optimizer="sgd",
            optimizer_params={"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-4})
    _check_params(mod, _golden("resumed.npz"))


def test_save_checkpoint_roundtrip(tmp_path):
    d = _golden("data.npz")
    it = mx.io.NDArrayIter(d["x"], d["y"], batch_size=8)
    mod = mx.mod.Module(net())
    args, aux = init_params()
    mod.fit(it, num_epoch=1, arg_params=args, aux_params=aux,
            optimizer_params={"learning_rate": 0.05})
    prefix = str(tmp_path / "m")
    mod.save_checkpoint(prefix, 1, save_optimizer_states=True)
    assert sorted(os.listdir(tmp_path)) == ["m-0001.params", "m-0001.states", "m-symbol.json"]
    sym, a, b = mx.model.load_checkpoint(prefix, 1)
    assert sym.list_arguments() == net().list_arguments()
    assert sorted(b) == ["bn1_moving_mean", "bn1_moving_var"]
    mod2 = mx.mod.Module.load(prefix, 1, load_optimizer_states=True)
    mod2.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod2.init_optimizer(optimizer_params={"learning_rate": 0.05})
    x = mx.io.NDArrayIter(d["x"], batch_size=8)
    np.testing.assert_allclose(mod2.predict(x).asnumpy(), mod.predict(x).asnumpy(), rtol=1e-6)


def test_forward_backward_update_and_reshape():
    d = _golden("data.npz")
    mod = mx.mod.Module(net(), data_names=("data",), label_names=("softmax_label",))
    mod.bind(data_shapes=[("data", (8, 6))], label_shapes=[("softmax_label", (8,))],
             inputs_need_grad=True)
    mod.init_params(mx.init.Xavier())
    mod.init_optimizer(optimizer="adam")
    batch = mx.io.DataBatch([mx.nd.array(d["x"][:8])], [mx.nd.array(d["y"][:8])])
    before = mod.get_params()[0]["fc2_weight"].asnumpy().copy()
    mod.forward_backward(batch)
    mod.update()
    assert not np.allclose(mod.get_params()[0]["fc2_weight"].asnumpy(), before)
    assert mod.get_input_grads()[0].shape == (8, 6)
    assert mod.output_shapes == [("softmax_output", (8, 3))]
    # a smaller batch re-binds the executors to the new shape
    small = mx.io.DataBatch([mx.nd.array(d["x"][:3])], [mx.nd.array(d["y"][:3])])
    mod.forward(small, is_train=False)
    assert mod.get_outputs()[0].shape == (3, 3)


def test_bad_names_and_unbound_use():
    with pytest.raises(ValueError, match="data_names"):
        mx.mod.Module(net(), data_names=("nodata",))
    mod = mx.mod.Module(net())
    with pytest.raises((AssertionError, mx.MXNetError)):
        mod.init_params()


def test_bucketing_module_shares_parameters():
    def sym_gen(key):
        data = mx.sym.var("data")
        h = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
        return mx.sym.SoftmaxOutput(h, name="softmax"), ("data",), ("softmax_label",)

    mod = mx.mod.BucketingModule(sym_gen, default_bucket_key=5)
    mod.bind(data_shapes=[("data", (2, 5))], label_shapes=[("softmax_label", (2,))])
    mod.init_params(mx.init.One())
    mod.init_optimizer(optimizer_params={"learning_rate": 0.1})
    b1 = mx.io.DataBatch([mx.nd.ones((2, 5))], [mx.nd.zeros((2,))], bucket_key=5,
                         provide_data=[("data", (2, 5))], provide_label=[("softmax_label", (2,))])
    mod.forward_backward(b1)
    mod.update()
    w = mod.get_params()[0]["fc_weight"].asnumpy()
    assert not np.allclose(w, 1.0)
    mod.forward(b1, is_train=False)
    assert mod.get_outputs()[0].shape == (2, 4)


def test_monitor_collects_statistics(caplog):
    d = _golden("data.npz")
    mod = mx.mod.Module(net())
    mod.bind(data_shapes=[("data", (8, 6))], label_shapes=[("softmax_label", (8,))])
    mod.init_params(mx.init.Xavier())
    mod.init_optimizer()
    mon = mx.mon.Monitor(1, pattern=".*weight")
    mod.install_monitor(mon)
    batch = mx.io.DataBatch([mx.nd.array(d["x"][:8])], [mx.nd.array(d["y"][:8])])
    mon.tic()
    mod.forward_backward(batch)
    res = mon.toc()
    names = {r[1] for r in res}
    assert {"fc1_weight", "fc2_weight"} <= names
    with caplog.at_level(logging.INFO):
        mon.tic()
        mod.forward(batch)
        mon.toc_print()
    assert "fc1_weight" in caplog.text


def test_batch_axis_from_layout_across_contexts():
    """A TNC input is split over its N axis (axis 1) between two contexts, as in MXNet."""
    sym = mx.sym.Activation(mx.sym.var("data"), act_type="relu", __layout__="TNC")
    mod = mx.mod.Module(sym, ("data",), None, context=[mx.cpu(0), mx.cpu(1)])
    mod.bind(data_shapes=[mx.io.DataDesc("data", (3, 8, 7), np.float16, layout="TNC")])
    mod.init_params()
    mod.forward(mx.io.DataBatch(data=[mx.nd.ones((3, 8, 7), dtype=np.float16)], label=None))
    mod.backward([mx.nd.ones((3, 8, 7), dtype=np.float16)])
    assert [x.shape for x in mod.get_outputs(merge_multi_context=False)[0]] == [(3, 4, 7)] * 2
    out = mod.get_outputs()[0]
    assert out.shape == (3, 8, 7) and out.dtype == np.float16


def test_set_params_missing_and_extra_errors():
    sym = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc")
    mod = mx.mod.Module(sym, label_names=None)
    mod.bind(data_shapes=[("data", (1, 2))])
    good = {"fc_weight": mx.nd.ones((2, 2)), "fc_bias": mx.nd.zeros((2,))}
    mod.set_params(good, {}, force_init=True)
    with pytest.raises(RuntimeError):
        mod.set_params({"fc_weight": good["fc_weight"]}, {}, force_init=True)
    with pytest.raises(ValueError):
        mod.set_params(dict(good, other=mx.nd.ones((1,))), {}, allow_missing=True,
                       force_init=True)
    mod.set_params(dict(good, other=mx.nd.ones((1,))), {}, allow_missing=True,
                   allow_extra=True, force_init=True)


def test_monitor_sees_backward_outputs():
    """MXNet's monitor reports node outputs, arguments and backward outputs (21 entries)."""
    x = mx.sym.var("data")
    x = mx.sym.FullyConnected(x, num_hidden=2, name="fc_0")
    x = mx.sym.Activation(x, act_type="sigmoid", name="act_0")
    x = mx.sym.LinearRegressionOutput(x, name="softmax")
    mod = mx.mod.Module(x)
    mod.bind([("data", (1, 2))], label_shapes=[("softmax_label", (1, 2))])
    mon = mx.mon.Monitor(1, pattern=".*", sort=True)
    mod.install_monitor(mon)
    mod.init_params()
    batch = mx.io.DataBatch([mx.nd.array([[0.05, 0.1]])], [mx.nd.array([[0.01, 0.99]])])
    mon.tic()
    mod.forward_backward(batch)
    names = [k for _, k, _ in mon.toc()]
    assert names == ["act_0_backward_output", "act_0_output", "data", "fc_0_backward_output0",
                     "fc_0_backward_output1", "fc_0_backward_output2", "fc_0_bias",
                     "fc_0_output", "fc_0_weight", "softmax_backward_output0",
                     "softmax_backward_output1", "softmax_label", "softmax_output"]


def test_sequential_and_python_loss_modules():
    """SequentialModule chains modules; PythonLossModule supplies the loss gradient.
    Values checked against MXNet 1.9.1 on the same script (weights after 2 epochs)."""
    rng = np.random.RandomState(0)
    x = rng.rand(64, 10).astype("float32")
    y = (x.sum(1) > 5).astype("float32")
    it = mx.io.NDArrayIter(x, y, batch_size=16)
    fc = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=8, name="fc1")
    m1 = mx.mod.Module(mx.sym.Activation(fc, act_type="relu"), label_names=[])
    out = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2,
                                                     name="fc2"), name="softmax")
    seq = mx.mod.SequentialModule()
    seq.add(m1).add(mx.mod.Module(out), take_labels=True, auto_wiring=True)
    seq.fit(it, num_epoch=3, optimizer_params={"learning_rate": 0.5},
            initializer=mx.init.Constant(0.05))
    assert seq.output_shapes == [("softmax_output", (16, 2))]
    assert sorted(seq.get_params()[0]) == ["fc1_bias", "fc1_weight", "fc2_bias", "fc2_weight"]
    assert seq.score(it, "acc")[0][1] == pytest.approx(0.5625)

    m3 = mx.mod.Module(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc3"),
                       label_names=[])
    loss = mx.mod.PythonLossModule(
        grad_func=lambda s, lab: mx.nd.softmax(s) - mx.nd.one_hot(lab, 2))
    seq2 = mx.mod.SequentialModule().add(m3).add(loss, take_labels=True, auto_wiring=True)
    it.reset()
    seq2.fit(it, num_epoch=2, optimizer_params={"learning_rate": 0.1},
             initializer=mx.init.Constant(0.05))
    np.testing.assert_allclose(seq2.get_params()[0]["fc3_weight"].asnumpy()[0, :3],
                               [0.03489307, 0.03579047, 0.03092834], rtol=1e-5)


def test_feedforward_legacy_api(tmp_path):
    np.random.seed(0)  # NDArrayIter's shuffle
    mx.random.seed(0)  # the initializer
    rng = np.random.RandomState(0)
    x = rng.rand(100, 10).astype("float32")
    y = (x.sum(1) > 5).astype("float32")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2,
                                                     name="fc"), name="softmax")
    model = mx.model.FeedForward(net, num_epoch=20, learning_rate=0.5, numpy_batch_size=20,
                                 initializer=mx.init.Xavier())
    model.fit(x, y)
    pred = model.predict(x)
    assert pred.shape == (100, 2)
    assert model.score(mx.io.NDArrayIter(x, y, 20)) > 0.7
    model.save(str(tmp_path / "ff"), 5)
    again = mx.model.FeedForward.load(str(tmp_path / "ff"), 5)
    np.testing.assert_allclose(again.predict(x), pred, rtol=1e-6)


def test_state_names_set_and_get_states():
    """RNN begin states bound as module states, split over two contexts."""
    stack = mx.rnn.SequentialRNNCell()
    for i in range(2):
        stack.add(mx.rnn.LSTMCell(num_hidden=6, prefix=f"lstm_l{i}_"))
    begin = stack.begin_state(func=mx.sym.Variable)
    _, states = stack.unroll(3, begin_state=begin, inputs=mx.sym.Variable("data"))
    mod = mx.mod.Module(mx.sym.Group(states), context=[mx.cpu(0), mx.cpu(1)], label_names=None,
                        state_names=[s.name for s in begin])
    mod.bind(data_shapes=[("data", (4, 3))], for_training=False)
    mod.init_params(mx.init.Xavier())
    batch = mx.io.DataBatch(data=[mx.nd.zeros((4, 3))], label=[])
    mod.set_states(value=1)
    assert all((s.asnumpy() == 1).all() for s in mod.get_states())
    mod.forward(batch)
    first = mod.get_outputs()
    mod.set_states(states=mod.get_outputs(merge_multi_context=False))
    mod.forward(batch)
    second = mod.get_outputs()
    assert [o.shape for o in second] == [(4, 6)] * 4
    assert not np.allclose(first[0].asnumpy(), second[0].asnumpy())
    with pytest.raises(mx.MXNetError):
        mod.set_states(states=first, value=1)


def test_update_calls_the_updater_once_per_device_with_every_parameter():
    # MXNet 1.9.1 (model._update_params): updater(indices, grads, weights) with lists, so
    # that optimizers with aggregate_num > 0 update parameters in groups
    mod = mx.mod.Module(net(), context=[mx.cpu(0), mx.cpu(1)])
    mod.bind(data_shapes=[("data", (4, 10))], label_shapes=[("softmax_label", (4,))])
    mod.init_params(mx.init.Xavier())
    mod.init_optimizer(kvstore=None, optimizer="sgd", optimizer_params={"learning_rate": 0.1})
    batch = mx.io.DataBatch([mx.nd.array(np.random.RandomState(0).rand(4, 10))],
                            [mx.nd.array([0, 1, 2, 2])])
    mod.forward_backward(batch)
    before = {k: v.asnumpy() for k, v in mod.get_params()[0].items()}
    calls, real = [], mod._updater
    mod._updater = lambda i, g, w: calls.append(i) or real(i, g, w)
    mod.update()
    n = len(mod._exec_group.param_names)
    assert calls == [list(range(0, 2 * n, 2)), list(range(1, 2 * n, 2))]
    after = mod.get_params()[0]
    assert all(not np.array_equal(before[k], after[k].asnumpy()) for k in before)


def test_feedforward_reshuffles_numpy_data_before_the_first_epoch():
    # MXNet 1.9.1's legacy loop calls train_data.reset() before epoch 0: with shuffling
    # NumPy input the first epoch sees the second permutation of np.random
    import numpy as np

    import mxnet as mx

    rs = np.random.RandomState(0)
    x = rs.uniform(size=(12, 3)).astype("float32")
    y = (x.sum(1) > 1.5).astype("float32")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2,
                                                     name="fc"), name="softmax")
    init = mx.init.Constant(0.1)
    np.random.seed(3)
    ff = mx.model.FeedForward(net, num_epoch=1, initializer=init, learning_rate=0.5,
                              numpy_batch_size=4)
    ff.fit(x, y)
    np.random.seed(3)
    it = mx.io.NDArrayIter(x, y, 4, shuffle=True, last_batch_handle="roll_over")
    it.reset()
    mod = mx.mod.Module(net)
    mod.fit(it, num_epoch=1, initializer=init, optimizer_params={"learning_rate": 0.5})
    for k, v in mod.get_params()[0].items():
        np.testing.assert_allclose(ff.arg_params[k].asnumpy(), v.asnumpy(), rtol=1e-6)


def test_feedforward_legacy_loop_epoch_size_and_one_based_batches(caplog):
    # MXNet 1.9.1's FeedForward: an epoch is epoch_size batches (the iterator is reset only
    # when it runs out), batch callbacks count from 1, validation is logged by default
    import logging

    import numpy as np

    import mxnet as mx

    x = np.linspace(0, 1, 48, dtype="float32").reshape(24, 2)
    y = (x.sum(1) > 1).astype("float32")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2,
                                                     name="fc"), name="softmax")
    seen = []
    ff = mx.model.FeedForward(net, num_epoch=2, epoch_size=3, learning_rate=0.1,
                              initializer=mx.init.Constant(0.1))
    with caplog.at_level(logging.INFO):
        ff.fit(mx.io.NDArrayIter(x, y, batch_size=6),
               eval_data=mx.io.NDArrayIter(x, y, batch_size=6),
               batch_end_callback=lambda p: seen.append((p.epoch, p.nbatch)))
    assert seen == [(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3)]
    msgs = [r.getMessage() for r in caplog.records]
    assert "Epoch[0] Resetting Data Iterator" not in msgs
    assert "Epoch[1] Resetting Data Iterator" in msgs  # the 4 batches ran out in epoch 1
    assert any(m.startswith("Epoch[1] Validation-accuracy=") for m in msgs)
    assert type(ff).__module__ == "mxnet.model"


def test_feedforward_predict_numpy_with_non_softmax_label():
    # MXNet 1.9.1 (example/svm_mnist): a model whose loss layer takes a label named other
    # than ``softmax_label`` (SVMOutput's ``svm_label``) predicts and scores NumPy input;
    # the unbound label is zeros of the inferred shape, not a missing parameter.
    x = np.linspace(-1, 1, 40, dtype="float32").reshape(10, 4)
    y = (x.sum(1) > 0).astype("float32")
    net = mx.sym.SVMOutput(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc"),
                           name="svm")
    it = mx.io.NDArrayIter(x, y, batch_size=5)
    it.label = mx.io._init_data(y, allow_empty=True, default_name="svm_label")
    ff = mx.model.FeedForward(net, num_epoch=1, learning_rate=0.1,
                              initializer=mx.init.Constant(0.1))
    ff.fit(it)
    out = ff.predict(x[:3])
    w = ff.arg_params["fc_weight"].asnumpy()
    b = ff.arg_params["fc_bias"].asnumpy()
    np.testing.assert_allclose(out, x[:3] @ w.T + b, rtol=1e-5)
    assert 0.0 <= ff.score(x) <= 1.0


def test_feedforward_initializes_in_list_arguments_order():
    # MXNet 1.9.1's FeedForward draws each parameter in list_arguments() order (not sorted,
    # as Module does), so a seeded legacy program starts from the same weights.
    class Record(mx.init.Initializer):
        def __init__(self):
            super().__init__()
            self.names = []

        def __call__(self, desc, arr):
            self.names.append(str(desc))
            arr[:] = len(self.names)

    h = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="zfc")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(h, num_hidden=2, name="afc"),
                               name="softmax")
    x = np.ones((4, 2), dtype="float32")
    rec = Record()
    ff = mx.model.FeedForward(net, num_epoch=1, learning_rate=0.0, initializer=rec)
    ff.fit(mx.io.NDArrayIter(x, np.zeros(4), batch_size=4))
    assert rec.names == ["zfc_weight", "zfc_bias", "afc_weight", "afc_bias"]
    assert float(ff.arg_params["zfc_weight"].asnumpy()[0, 0]) == 1.0


def test_feedforward_accepts_sym_gen():
    # MXNet 1.x: FeedForward(symbol=callable) is a bucketing sym_gen; fit builds the default
    # bucket's symbol and trains exactly as with that symbol given directly.
    def sym_gen(key):
        return mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2,
                                                          name="fc"), name="softmax")

    x = np.linspace(0, 1, 32, dtype="float32").reshape(8, 4)
    y = (x.sum(1) > 2).astype("float32")
    it = mx.io.NDArrayIter(x, y, batch_size=4)
    it.default_bucket_key = 4
    results = []
    for sym in (sym_gen, sym_gen(4)):
        it.reset()
        ff = mx.model.FeedForward(sym, num_epoch=2, learning_rate=0.1,
                                  initializer=mx.init.Constant(0.05))
        ff.fit(it)
        results.append(ff.arg_params["fc_weight"].asnumpy())
        assert ff.symbol.list_arguments() == ["data", "fc_weight", "fc_bias", "softmax_label"]
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6)
