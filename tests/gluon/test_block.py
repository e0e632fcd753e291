"""Block / HybridBlock: naming, parameters, hooks, files, hybridize, bad input."""

import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon, initializer
from mxnet import symbol as sym
from mxnet.gluon import nn


class MyDense(gluon.HybridBlock):
    """The custom layer of the seed document, written exactly as there."""

    def __init__(self, units, in_units=0, **kwargs):
        super(MyDense, self).__init__(**kwargs)  # noqa: UP008  (the seed, unchanged)
        with self.name_scope():
            self.units = units
            self._in_units = in_units
            self.weight = self.params.get(
                "weight", init=initializer.Xavier(magnitude=2.24), shape=(in_units, units)
            )
            self.bias = self.params.get("bias", shape=(units,))

    def hybrid_forward(self, F, x):  # F will be mxnet.nd or mxnet.sym
        with x.context:
            linear = F.dot(x, self.weight.data()) + self.bias.data()
            activation = F.maximum(linear, 0)
            return activation


class MyDenseFixed(MyDense):
    def hybrid_forward(self, F, x, weight, bias):
        return F.relu(F.broadcast_add(F.dot(x, weight), bias))


def test_seed_mydense():
    m = MyDense(3, in_units=4)
    m.initialize()
    assert repr(m) == "MyDense(\n\n)"
    # as in MXNet 1.9.1: registered parameters are passed to hybrid_forward as keywords
    with pytest.raises(TypeError, match="unexpected keyword argument 'weight'"):
        m(mx.nd.ones((2, 4)))
    with pytest.raises(ValueError, match="invalid shape: \\(0, 3\\)"):
        MyDenseFixed(3).initialize()  # params.get without allow_deferred_init, as in MXNet
    f = MyDenseFixed(3, in_units=5)
    f.initialize()
    x = mx.nd.array(np.random.rand(2, 5))
    y = f(x)
    assert f.weight.shape == (5, 3)
    ref = np.maximum(x.asnumpy() @ f.weight.data().asnumpy() + f.bias.data().asnumpy(), 0)
    np.testing.assert_allclose(y.asnumpy(), ref, rtol=1e-5)
    f.hybridize()
    np.testing.assert_allclose(f(x).asnumpy(), ref, rtol=1e-5)


def test_naming():
    with mx.name.NameManager():
        d = nn.Dense(3)
        assert (d.name, d.prefix) == ("dense0", "dense0_")
        assert nn.Dense(3).prefix == "dense1_"
        net = nn.HybridSequential()
        with net.name_scope():
            net.add(nn.Conv2D(4, 3), nn.Dense(2), nn.Conv2D(4, 3))
        assert net.prefix == "hybridsequential0_"
        assert [c.prefix for c in net._children.values()] == [
            "hybridsequential0_conv0_",
            "hybridsequential0_dense0_",
            "hybridsequential0_conv1_",
        ]
        assert list(net.collect_params()) == [
            "hybridsequential0_conv0_weight",
            "hybridsequential0_conv0_bias",
            "hybridsequential0_dense0_weight",
            "hybridsequential0_dense0_bias",
            "hybridsequential0_conv1_weight",
            "hybridsequential0_conv1_bias",
        ]
        assert list(net.collect_params(".*conv.*weight")) == [
            "hybridsequential0_conv0_weight",
            "hybridsequential0_conv1_weight",
        ]
        assert net._collect_params_with_prefix().keys() == {
            "0.weight",
            "0.bias",
            "1.weight",
            "1.bias",
            "2.weight",
            "2.bias",
        }
        act = nn.Dense(2, activation="relu", prefix="fc_")
        assert act.act.prefix == "fc_relu_"


def test_shared_params_and_save(tmp_path):
    a = nn.Dense(2, in_units=2)
    b = nn.Dense(2, in_units=2, params=a.params)
    assert b.weight is a.weight
    net = nn.HybridSequential()
    net.add(a, b)
    net.initialize()
    f = str(tmp_path / "s.params")
    net.save_parameters(f, deduplicate=True)
    assert sorted(mx.nd.load(f)) == ["1.bias", "1.weight"]  # MXNet keeps the last name
    net.save_parameters(f)
    assert len(mx.nd.load(f)) == 4


def test_load_errors_leave_block_unchanged(tmp_path):
    net = nn.HybridSequential()
    net.add(nn.Dense(3, in_units=2), nn.Dense(2, in_units=3))
    net.initialize()
    f = str(tmp_path / "a.params")
    net.save_parameters(f)
    other = nn.HybridSequential()
    other.add(nn.Dense(3, in_units=2), nn.Dense(4, in_units=3))
    other.initialize()
    before = other[0].weight.data().asnumpy().copy()
    with pytest.raises(
        AssertionError,
        match=r"shape incompatible expected \(4, 3\) vs saved "
        r"\(2, 3\)",
    ):
        other.load_parameters(f)
    np.testing.assert_array_equal(other[0].weight.data().asnumpy(), before)  # untouched
    short = nn.HybridSequential()
    short.add(nn.Dense(3, in_units=2))
    with pytest.raises(ValueError, match="Parameter '1.weight' loaded from file"):
        short.load_parameters(f)
    short.load_parameters(f, ignore_extra=True)
    longer = nn.HybridSequential()
    longer.add(nn.Dense(3, in_units=2), nn.Dense(2, in_units=3), nn.Dense(1, in_units=2))
    with pytest.raises(AssertionError, match="Parameter '2.weight' is missing in file"):
        longer.load_parameters(f)
    longer.load_parameters(f, allow_missing=True)
    assert longer[0].weight.data().shape == (3, 2)
    # loading into an uninitialized block initializes it on the requested contexts
    fresh = nn.HybridSequential()
    fresh.add(nn.Dense(3), nn.Dense(2))
    fresh.load_parameters(f, ctx=[mx.cpu(0), mx.cpu(1)])
    assert fresh[0].weight.shape == (3, 2) and fresh[1].weight.list_ctx() == [mx.cpu(0), mx.cpu(1)]


def test_deferred_init_and_errors():
    d = nn.Dense(3)
    with pytest.raises(RuntimeError, match="has not been initialized"):
        d(mx.nd.ones((1, 2)))
    d.initialize()
    with pytest.raises(
        ValueError, match="Deferred initialization failed because shape cannot be inferred"
    ):
        d(mx.nd.ones((2,)), 3)
    assert d(mx.nd.ones((2, 5))).shape == (2, 3)
    assert d.weight.shape == (3, 5)
    with pytest.raises(mx.base.MXNetError):
        d(mx.nd.ones((2, 6)))  # in_units now fixed to 5
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(4, 3), nn.BatchNorm(), nn.Dense(2))
    net.initialize()
    net.hybridize()  # deferred init through the traced graph
    assert net(mx.nd.ones((2, 3, 6, 6))).shape == (2, 2)
    assert net[1].gamma.shape == (4,) and net[2].weight.shape == (2, 64)


def test_hooks_and_apply():
    d = nn.Dense(2, in_units=2)
    d.initialize()
    seen = []
    h1 = d.register_forward_pre_hook(lambda blk, inp: seen.append(("pre", len(inp))))
    h2 = d.register_forward_hook(lambda blk, inp, out: seen.append(("post", out.shape)))
    d(mx.nd.ones((1, 2)))
    assert seen == [("pre", 1), ("post", (1, 2))]
    h1.detach()
    h2.detach()
    d(mx.nd.ones((1, 2)))
    assert len(seen) == 2
    net = nn.Sequential()
    net.add(nn.Dense(2), nn.Dense(3))
    names = []
    assert net.apply(lambda b: names.append(b.name)) is net
    assert names[-1] == net.name and len(names) == 3


def test_register_and_containers():
    h = nn.HybridSequential()
    with pytest.raises(ValueError, match="Children of HybridBlock must also be HybridBlock"):
        h.add(nn.Lambda("tanh"))

    class Bad(gluon.Block):
        def __init__(self):
            super().__init__()
            self.layers = [nn.Dense(2)]

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        Bad().collect_params()
    assert "is an unregistered container with Blocks" in str(w[0].message)
    d = nn.Dense(2)
    with pytest.raises(TypeError, match="Changing attribute type for weight"):
        d.weight = nn.Dense(3)


def test_cast_and_grad_flow():
    net = nn.HybridSequential()
    net.add(nn.Dense(3, in_units=2), nn.BatchNorm(in_channels=3))
    net.initialize()
    net.cast("float64")
    assert net[0].weight.data().dtype == np.float64
    x = mx.nd.ones((4, 2), dtype="float64")
    with autograd.record():
        y = net(x).sum()
    y.backward()
    assert net[0].weight.grad().dtype == np.float64


def test_hybridize_cache_and_multiple_io():
    class Two(gluon.HybridBlock):
        def hybrid_forward(self, F, a, b):
            return a + b, [a * b, F.relu(a)]

    blk = Two()
    blk.hybridize()
    a, b = mx.nd.array([1.0, -2.0]), mx.nd.array([3.0, 4.0])
    s, (p, r) = blk(a, b)
    np.testing.assert_array_equal(s.asnumpy(), [4, 2])
    np.testing.assert_array_equal(p.asnumpy(), [3, -8])
    np.testing.assert_array_equal(r.asnumpy(), [1, 0])
    graph = blk._cached_graph
    blk(mx.nd.ones((3,)), mx.nd.ones((3,)))  # another shape: same traced graph
    assert blk._cached_graph is graph
    with pytest.raises(ValueError, match="mixed NDArrays and Symbols"):
        blk(a, sym.var("x"))
    out = blk(sym.var("x"), sym.var("y"))
    assert isinstance(out[0], sym.Symbol)
    with pytest.raises(RuntimeError, match="Please first call block.hybridize"):
        nn.Dense(2).export("/tmp/never")


def test_symbolblock_from_symbols():
    data = sym.var("data")
    out = sym.FullyConnected(data, num_hidden=3, name="fc")
    blk = gluon.SymbolBlock(out, data)
    assert sorted(blk.collect_params()) == ["fc_bias", "fc_weight"]
    blk.initialize()
    assert blk(mx.nd.ones((2, 5))).shape == (2, 3)
    assert blk.collect_params()["fc_weight"].shape == (3, 5)
    internals = out.get_internals()
    feat = gluon.SymbolBlock(internals["fc_output"], data, params=blk.collect_params())
    assert feat(mx.nd.ones((2, 5))).shape == (2, 3)


def test_summary_matches_mxnet(capsys):
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(
            nn.Conv2D(4, 3, activation="relu", in_channels=2),
            nn.BatchNorm(in_channels=4),
            nn.Dense(3, activation="tanh", in_units=36),
        )
    net.initialize()
    net.summary(mx.nd.ones((1, 2, 5, 5)))
    import os

    gold = os.path.join(
        os.path.dirname(__file__), "..", "compat", "golden", "gluon", "summary.txt"
    )  # printed by MXNet 1.9.1 for the same net
    with open(gold) as f:
        assert capsys.readouterr().out == f.read()
    net.hybridize()
    with pytest.raises(AssertionError, match="must not be hybridized to print summary"):
        net.summary(mx.nd.ones((1, 2, 5, 5)))


def test_infer_shape_and_type():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(4, 3), nn.Dense(2))
    net.infer_shape(mx.nd.ones((1, 3, 5, 5)))
    assert net[0].weight.shape == (4, 3, 3, 3) and net[1].weight.shape == (2, 36)
    net.infer_type(mx.nd.ones((1, 3, 5, 5)))
    assert np.dtype(net[1].weight.dtype) == np.float32
    assert gluon.ParameterDict.__module__ == "mxnet.gluon.parameter"


def test_hybridized_inference_output_is_plain_and_detached():
    net = nn.HybridSequential()
    net.add(nn.Conv2D(3, 3, in_channels=2), nn.BatchNorm(in_channels=3))
    net.initialize()
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (2, 2, 6, 6)))
    eager = net(x).asnumpy()
    net.hybridize()
    y = net(x)  # NHWC strides are used inside, not visible outside
    assert y._t.is_contiguous() and not y._t.requires_grad
    np.testing.assert_allclose(y.asnumpy(), eager, rtol=1e-5, atol=1e-6)


def test_block_save_load_model_structure(tmp_path):
    class Chain(mx.gluon.nn.Block):
        def add(self, block):
            self._children[block.name + str(len(self._children))] = block

        def forward(self, x):
            for block in self._children.values():
                x = block(x)
            return x

    def build():
        inner = Chain()
        inner.add(mx.gluon.nn.Dense(4))
        net = Chain()
        net.add(inner)
        net.add(mx.gluon.nn.Dense(3))
        return net

    net1 = build()
    net1.initialize()
    net1.hybridize()
    x = mx.nd.ones((2, 5))
    out1 = net1(x)
    prefix = str(tmp_path / "m")
    net1.save(prefix)
    net2 = build()  # fresh names (dense2, dense3): load restores the saved ones
    net2.load(prefix)
    np.testing.assert_allclose(net2(x).asnumpy(), out1.asnumpy(), rtol=1e-6)
    assert list(net2._children.values())[1].name == list(net1._children.values())[1].name


def test_hybridized_trailing_none_uses_defaults():
    class AddOpt(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, a, b=None):
            return a if b is None else a + b

    blk = AddOpt()
    blk.hybridize()
    x = mx.nd.ones((3,))
    np.testing.assert_allclose(blk(x).asnumpy(), 1)
    np.testing.assert_allclose(blk(x, None).asnumpy(), 1)
    with pytest.raises(ValueError, match="does not match the cached version"):
        blk(x, x)
    blk2 = AddOpt()
    blk2.hybridize()
    blk2(x, None)
    np.testing.assert_allclose(blk2(x).asnumpy(), 1)


def test_symbol_block_param_dtypes_follow_input_dtype(tmp_path):
    net = nn.HybridSequential()
    net.add(nn.Dense(3), nn.BatchNorm())
    net.initialize()
    net.cast("float64")
    net.hybridize()
    net(mx.nd.ones((2, 4), dtype="float64"))
    prefix = str(tmp_path / "n")
    net.export(prefix)
    sb = gluon.SymbolBlock(sym.load(prefix + "-symbol.json"), sym.var("data", dtype="float64"))
    assert all(p.dtype == np.float64 for p in sb.collect_params().values())
    sb.collect_params().load(prefix + "-0000.params")
    plain = gluon.SymbolBlock(sym.load(prefix + "-symbol.json"), sym.var("data"))
    assert all(p.dtype == np.float32 for p in plain.collect_params().values())
    sb.cast("float32")
    assert sb(mx.nd.ones((2, 4))).dtype == np.float32


def test_hybridized_input_context_mismatch_is_mxnet_error():
    # MXNet 1.9.1's CachedOp: parameters on one context, data on another (cpu(1), or a
    # cpu_pinned ImageRecordIter batch) is an MXNetError naming both; imperative blocks
    # accept pinned data
    import pytest

    from mxnet.base import MXNetError

    net = mx.gluon.nn.Dense(2, in_units=3)
    net.initialize(ctx=mx.cpu(0))
    pinned = mx.nd.ones((1, 3), ctx=mx.cpu_pinned(0))
    assert net(pinned).context == mx.cpu(0)
    net.hybridize()
    for ctx in (mx.cpu(1), mx.cpu_pinned(0)):
        with pytest.raises(MXNetError, match="CachedOp requires all inputs to live on the same"):
            net(mx.nd.ones((1, 3), ctx=ctx))
    assert net(mx.nd.ones((1, 3))).shape == (1, 2)
