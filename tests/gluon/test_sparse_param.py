"""Row-sparse Parameters, Trainer kvstore rules and small Block/Parameter behaviours
checked against MXNet 1.9.1."""

import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon
from mxnet.gluon import nn


def test_invalid_stype_is_assertion():
    with pytest.raises(AssertionError, match="stype for Parameter 'w'"):
        gluon.Parameter("w", shape=(2, 2), stype="bad")
    with pytest.raises(AssertionError, match="grad_stype"):
        gluon.Parameter("w", shape=(2, 2), grad_stype="bad")


def test_row_sparse_parameter_access():
    p = gluon.Parameter("w", shape=(6, 2), stype="row_sparse", grad_stype="row_sparse")
    p.initialize(init=mx.init.One(), ctx=[mx.cpu(0), mx.cpu(1)])
    assert p._data[0].stype == "row_sparse"
    with pytest.raises(RuntimeError, match="via data\\(\\)"):
        p.data()
    with pytest.raises(RuntimeError, match="via list_data\\(\\)"):
        p.list_data()
    rows = mx.nd.array([1, 4], ctx=mx.cpu(1))
    with pytest.raises(RuntimeError, match="no Trainer"):
        p.row_sparse_data(rows)
    trainer = gluon.Trainer([p], "sgd")
    assert p._trainer is trainer
    w = p.row_sparse_data(rows)
    assert w.stype == "row_sparse" and w.context == mx.cpu(1)
    assert w.indices.asnumpy().tolist() == [1, 4]
    assert len(p.list_row_sparse_data(rows)) == 2
    assert p.grad(mx.cpu(0)).stype == "row_sparse"
    assert trainer._update_on_kvstore is True and trainer._kvstore.type == "device"
    with pytest.raises(RuntimeError, match="More than one trainers"):
        gluon.Trainer([p], "sgd")


def test_dense_parameter_rejects_row_sparse_access():
    p = gluon.Parameter("w", shape=(3, 2))
    p.initialize()
    with pytest.raises(RuntimeError, match="storage type is default"):
        p.row_sparse_data(mx.nd.arange(2))
    with pytest.raises(RuntimeError, match="list_row_sparse_data"):
        p.list_row_sparse_data(mx.nd.arange(2))


def test_row_sparse_save_load_into_dense(tmp_path):
    fname = str(tmp_path / "p.params")
    params = gluon.ParameterDict("net_")
    params.get("w0", shape=(4, 3))
    params.get("w1", shape=(4, 3), stype="row_sparse")
    params.initialize(ctx=mx.cpu(1))
    gluon.Trainer(params, "sgd")
    w1 = params.get("w1").row_sparse_data(mx.nd.arange(0, 4, ctx=mx.cpu(1))).asnumpy()
    params.save(fname)
    dense = gluon.ParameterDict("net_")
    dense.get("w0", shape=(4, 3))
    dense.get("w1", shape=(4, 3))
    dense.load(fname, mx.cpu(1))
    np.testing.assert_allclose(dense.get("w1").data(mx.cpu(1)).asnumpy(), w1)


def test_sparse_grad_embedding_reads_row_sparse():
    emb = nn.Embedding(10, 1, sparse_grad=True)
    emb.initialize()
    with mx.autograd.record():
        loss = emb(mx.nd.ones((7,))).sum()
    loss.backward()
    g = emb.weight.grad()
    assert g.stype == "row_sparse" and g.data.sum().asscalar() == 7


def test_sparse_weight_in_hybrid_block_raises():
    params = gluon.ParameterDict("net_")
    params.get("weight", shape=(5, 5), stype="row_sparse")
    params.get("bias", shape=(5,))
    net = nn.Dense(5, params=params)
    net.initialize()
    with pytest.raises(RuntimeError):
        net(mx.nd.ones((2, 5)))


def test_symbol_block_rejects_row_sparse_and_repr():
    data = mx.sym.var("data")
    out = mx.sym.dot(data, mx.sym.var("weight", stype="row_sparse"))
    with pytest.raises(AssertionError, match="row_sparse"):
        gluon.SymbolBlock(out, data)
    sb = gluon.SymbolBlock(mx.sym.FullyConnected(data, num_hidden=2, name="fc"), data)
    assert str(sb) == "SymbolBlock(\n<Symbol fc> : 1 -> 1\n)"


def test_trainer_update_on_kvstore_defaults():
    def make(**kw):
        x = gluon.Parameter("x", shape=(3,), **kw)
        x.initialize(ctx=[mx.cpu(0), mx.cpu(1)], init="zeros")
        t = gluon.Trainer([x], "sgd", {"learning_rate": 0.1})
        t._init_kvstore()
        return t
    assert make()._update_on_kvstore is True  # MXNET_UPDATE_ON_KVSTORE defaults to 1
    assert make(grad_stype="row_sparse")._update_on_kvstore is False
    x = gluon.Parameter("x", shape=(3, 1), stype="row_sparse")
    x.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    with pytest.raises(ValueError, match="sparse weights"):
        gluon.Trainer([x], "sgd", update_on_kvstore=False)._init_kvstore()


def test_embedding_numpy_dtype_class():
    emb = nn.Embedding(5, 3, dtype=np.float64)
    emb.initialize()
    assert emb(mx.nd.ones((2,), dtype=np.float64)).dtype == np.float64


def test_hybridized_rnn_inside_sequential_defers_shapes():
    net = nn.HybridSequential()
    net.add(gluon.rnn.LSTM(4, bidirectional=True), nn.Dense(2))
    net.hybridize()
    net.initialize()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = net(mx.nd.ones((2, 3, 5)))
    assert out.shape == (2, 2)
    assert net[0].l0_i2h_weight.shape == (16, 5)


def test_sparse_embedding_grad_and_sparse_weight_update():
    from mxnet.gluon.contrib.nn import SparseEmbedding

    layer = SparseEmbedding(10, 4)
    assert str(layer) == "SparseEmbedding(10 -> 4, float32)"
    layer.initialize()
    gluon.Trainer(layer.collect_params(), "sgd")
    with mx.autograd.record():
        y = layer(mx.nd.array([3, 4, 2, 0, 1]))
    y.backward()
    g = layer.weight.grad().asnumpy()
    assert (g[:5] == 1).all() and (g[5:] == 0).all()

    x = gluon.Parameter("x", shape=(10, 1), stype="row_sparse", grad_stype="row_sparse")
    x.initialize(ctx=[mx.cpu(0), mx.cpu(1)], init="zeros")
    trainer = gluon.Trainer([x], "sgd", {"learning_rate": 0.1}, kvstore="local")
    rows = mx.nd.arange(0, 10, ctx=mx.cpu(0))
    ws = x.list_row_sparse_data(rows)
    with mx.autograd.record():
        for w in ws:
            (w + 1).backward()
    trainer.step(1)
    assert trainer._update_on_kvstore is True
    np.testing.assert_allclose(x.row_sparse_data(rows).asnumpy(), -0.2 * np.ones((10, 1)),
                               rtol=1e-6)


def test_interval_sampler():
    from mxnet.gluon.contrib.data import IntervalSampler

    assert list(IntervalSampler(10, 3)) == [0, 3, 6, 9, 1, 4, 7, 2, 5, 8]
    assert list(IntervalSampler(10, 3, rollover=False)) == [0, 3, 6, 9]
    assert len(IntervalSampler(10, 3)) == 10
