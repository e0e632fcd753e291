"""Gluon under ``npx.set_np()``: parameters, layers, losses, hybridize, export, data loading
and multi-device helpers give ``mx.np`` arrays (checked against MXNet 1.9.1's behaviour)."""

import json
import warnings

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, gluon, init
from mxnet import numpy as np
from mxnet import numpy_extension as npx
from mxnet.gluon import nn
from mxnet.symbol.numpy import _Symbol


@pytest.fixture(autouse=True)
def np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _mlp():
    net = nn.HybridSequential()
    net.add(nn.Dense(3, activation="relu", in_units=4), nn.Dense(2, in_units=3))
    net.initialize(init.Constant(0.5))
    return net


def test_parameters_are_np_arrays():
    p = gluon.Parameter("w", shape=(2,))
    p.initialize(init.One())
    assert type(p.data()) is np.ndarray
    assert type(p.grad()) is np.ndarray
    assert type(p.list_data()[0]) is np.ndarray
    assert isinstance(p.var(), _Symbol)
    npx.reset_np()
    assert type(p.var()) is mx.sym.Symbol  # the cached classic variable is left unchanged


def test_parameters_stay_classic_outside_np_mode():
    npx.reset_np()
    net = nn.Dense(2, in_units=2)
    net.initialize()
    assert type(net.weight.data()) is mx.nd.NDArray
    assert type(net(mx.nd.ones((1, 2)))) is mx.nd.NDArray


@pytest.mark.parametrize("hybridize", [False, True])
def test_forward_backward_give_np_arrays(hybridize):
    net = _mlp()
    if hybridize:
        net.hybridize()
    x = np.ones((2, 4))
    with autograd.record():
        y = net(x)
    y.backward()
    assert type(y) is np.ndarray
    onp.testing.assert_allclose(y.asnumpy(), onp.full((2, 2), 3.0))
    assert type(net[0].weight.grad()) is np.ndarray
    onp.testing.assert_allclose(net[0].weight.grad().asnumpy(), onp.full((3, 4), 2.0))


class _Custom(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.w = self.params.get("w", shape=(3, 0), allow_deferred_init=True)

    def hybrid_forward(self, F, x, w):
        h = F.npx.fully_connected(x, w, num_hidden=3, no_bias=True)
        return F.npx.relu(h) * 2


@pytest.mark.parametrize("hybridize", [False, True])
def test_custom_block_with_F_np_and_deferred_init(hybridize):
    net = _Custom()
    net.initialize(init.One())
    if hybridize:
        net.hybridize()
    x = np.array(onp.arange(8, dtype="float32").reshape(2, 4))
    y = net(x)
    assert type(y) is np.ndarray
    assert net.w.shape == (3, 4)
    onp.testing.assert_allclose(y.asnumpy(), [[12.0] * 3, [44.0] * 3])


def test_losses_return_per_sample_np_arrays():
    pred = np.array([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]])
    label = np.array([1, 2], dtype="int32")
    for hyb in (False, True):
        loss = gluon.loss.SoftmaxCrossEntropyLoss()
        if hyb:
            loss.hybridize()
        out = loss(pred, label)
        assert type(out) is np.ndarray and out.shape == (2,)
        z = pred.asnumpy()
        ref = -onp.log(onp.exp(z[[0, 1], [1, 2]]) / onp.exp(z).sum(1))
        onp.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5)
    l2 = gluon.loss.L2Loss()(pred, np.zeros((2, 3)))
    onp.testing.assert_allclose(l2.asnumpy(), (pred.asnumpy() ** 2).mean(1) / 2, rtol=1e-6)


def test_trainer_step_keeps_np_parameters():
    net = _mlp()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    with autograd.record():
        loss = (net(np.ones((2, 4))) ** 2).sum()
    loss.backward()
    trainer.step(1)
    w = net[0].weight.data()
    assert type(w) is np.ndarray
    # d(loss)/dw0 = 2 * sum over outputs of y * dense1_weight = 2 * 2 * (3 * 0.5 * 2) ... = 12
    onp.testing.assert_allclose(w.asnumpy(), onp.full((3, 4), 0.5 - 0.1 * 12.0), rtol=1e-6)


def test_save_load_parameters_and_export(tmp_path):
    net = _mlp()
    net.save_parameters(str(tmp_path / "p.params"))
    other = _mlp()
    other.collect_params().initialize(init.Zero(), force_reinit=True)
    other.load_parameters(str(tmp_path / "p.params"))
    assert type(other[0].weight.data()) is np.ndarray
    assert float(other[0].weight.data().sum()) == 6.0
    net.hybridize()
    net(np.ones((2, 4)))
    net.export(str(tmp_path / "m"))
    nodes = json.load(open(tmp_path / "m-symbol.json"))["nodes"]
    assert [n["op"] for n in nodes if n["op"] != "null"] == ["FullyConnected", "Activation",
                                                              "FullyConnected"]
    loaded = npx.load(str(tmp_path / "m-0000.params"))
    assert len(loaded) == 4 and all(k.startswith("arg:") for k in loaded)
    assert all(type(v) is np.ndarray for v in loaded.values())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb = gluon.SymbolBlock.imports(str(tmp_path / "m-symbol.json"), ["data"],
                                       str(tmp_path / "m-0000.params"))
    out = sb(np.ones((2, 4)))
    assert type(out) is np.ndarray
    onp.testing.assert_allclose(out.asnumpy(), onp.full((2, 2), 3.0))


def test_dataloader_batches_are_np_arrays():
    ds = gluon.data.ArrayDataset(onp.ones((10, 2), "float32"), onp.arange(10).astype("int32"))
    x, y = next(iter(gluon.data.DataLoader(ds, batch_size=4)))
    assert type(x) is np.ndarray and x.dtype == onp.float32 and x.shape == (4, 2)
    assert type(y) is np.ndarray and y.dtype == onp.int32
    ds = gluon.data.ArrayDataset(np.ones((10, 2)), np.arange(10))
    x, y = next(iter(gluon.data.DataLoader(ds, batch_size=4)))
    assert type(x) is np.ndarray and type(y) is np.ndarray and y.dtype == onp.float32
    # a float64 NumPy dataset keeps its dtype (as in MXNet)
    ds = gluon.data.ArrayDataset(onp.ones((4, 2)))
    assert next(iter(gluon.data.DataLoader(ds, batch_size=2))).dtype == onp.float64


def test_split_and_load_gives_np_arrays():
    parts = gluon.utils.split_and_load(np.ones((4, 2)), [mx.cpu(0), mx.cpu(1)])
    assert all(type(p) is np.ndarray for p in parts)
    assert [p.shape for p in parts] == [(2, 2), (2, 2)]
    (one,) = gluon.utils.split_and_load(onp.ones((4, 2)), [mx.cpu()])
    assert type(one) is np.ndarray and one.dtype == onp.float64
    (lst,) = gluon.utils.split_and_load([[1, 2], [3, 4]], [mx.cpu()])
    assert lst.dtype == onp.float32
    cols = gluon.utils.split_and_load(np.ones((2, 4)), [mx.cpu(0), mx.cpu(1)], batch_axis=1)
    assert all(type(p) is np.ndarray and p.shape == (2, 2) for p in cols)


def test_initializers_fill_np_arrays():
    seen = []

    class Record(init.Initializer):
        def _init_weight(self, name, arr):
            seen.append(type(arr))
            arr[:] = np.ones(arr.shape) * 2

    net = nn.Dense(3, in_units=4)
    net.initialize(Record())
    assert seen == [np.ndarray]
    onp.testing.assert_array_equal(net.weight.data().asnumpy(), onp.full((3, 4), 2.0))
    for ini in (init.Xavier(), init.Normal(0.1), init.Orthogonal(), init.Constant(0.3)):
        net = nn.Dense(3, in_units=4)
        net.initialize(ini)
        assert type(net.weight.data()) is np.ndarray


def test_rnn_begin_state_and_outputs_are_np_arrays():
    from mxnet.gluon import rnn

    layer = rnn.LSTM(4)
    layer.initialize()
    states = layer.begin_state(batch_size=2)
    assert [type(s) for s in states] == [np.ndarray, np.ndarray]
    out, new_states = layer(np.ones((3, 2, 5)), states)
    assert type(out) is np.ndarray and out.shape == (3, 2, 4)
    assert all(type(s) is np.ndarray for s in new_states)
    cell = rnn.GRUCell(4)
    cell.initialize()
    assert type(cell.begin_state(batch_size=2)[0]) is np.ndarray


def test_unknown_dimensions_read_as_minus_one_in_np_shape_mode():
    dense = nn.Dense(3, flatten=False)
    assert dense.weight.shape == (3, -1)
    assert repr(dense.weight) == "Parameter dense%s_weight (shape=(3, -1), dtype=float32)" % (
        dense.name[len("dense"):])
    dense.initialize()
    dense(np.ones((2, 4, 5)))
    assert dense.weight.shape == (3, 5)
    npx.reset_np()
    assert nn.Dense(3).weight.shape == (3, 0)
