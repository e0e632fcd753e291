"""Gluon behaviours found by running MXNet 1.9.1's test_gluon.py side by side (session 9)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet import nd
from mxnet.gluon import nn, rnn


@pytest.mark.parametrize(
    "make, in_shape, wshape",
    [
        (
            lambda: nn.Conv2D(6, (3, 2), strides=(2, 1), layout="NHWC", in_channels=4),
            (2, 7, 6, 4),
            (6, 3, 2, 4),
        ),
        (lambda: nn.Conv3D(4, 2, layout="NDHWC", in_channels=2), (1, 4, 5, 3, 2), (4, 2, 2, 2, 2)),
        (
            lambda: nn.Conv2DTranspose(6, 3, strides=2, layout="NHWC", in_channels=4),
            (2, 4, 5, 4),
            (4, 3, 3, 6),
        ),
    ],
)
def test_channels_last_conv_weight_is_out_kernel_in(make, in_shape, wshape):
    # MXNet keeps channels-last convolution weights as (out, *kernel, in); the result must
    # equal the channels-first layer with the weight's axes moved accordingly.
    layer = make()
    assert layer.weight.shape == wshape
    layer.initialize(mx.init.Uniform())
    x = nd.array(np.random.RandomState(0).uniform(-1, 1, in_shape))
    y = layer(x)
    n = x.ndim
    to_first = (0, n - 1) + tuple(range(1, n - 1))
    to_last = (0,) + tuple(range(2, n)) + (1,)
    kw = dict(layer._kwargs)
    kw["layout"] = {4: "NCHW", 5: "NCDHW"}[n]
    w_first = layer.weight.data().transpose(to_first)
    op = getattr(nd, layer._op_name)
    ref = op(x.transpose(to_first), w_first, layer.bias.data(), **kw).transpose(to_last)
    np.testing.assert_allclose(y.asnumpy(), ref.asnumpy(), rtol=1e-5, atol=1e-5)


def test_channels_last_conv_deferred_weight_shape():
    layer = nn.Conv2D(8, 3, layout="NHWC")
    assert layer.weight.shape == (8, 3, 3, 0)
    layer.initialize()
    assert layer(nd.ones((2, 6, 6, 4))).shape == (2, 4, 4, 8)
    assert layer.weight.shape == (8, 3, 3, 4)


def test_modifier_cell_names_and_repr():
    res = rnn.ResidualCell(rnn.GRUCell(3, prefix="gru_"))
    assert res.name == "gru_residualcell"
    zone = rnn.ZoneoutCell(rnn.LSTMCell(3, prefix="l_"), 0.1, 0.2)
    assert repr(zone) == "ZoneoutCell(p_out=0.1, p_state=0.2, LSTMCell(None -> 12))"


def test_optimize_for_requires_a_backend():
    dense = nn.Dense(2, in_units=2)
    dense.initialize()
    with pytest.raises(ValueError, match="Must specify"):
        dense.optimize_for(nd.ones((2, 2)))


def test_hybridize_takes_backend_and_clear_positionally():
    dense = nn.Dense(2, in_units=2)
    dense.initialize()
    dense.hybridize(True, "MKLDNN", False, static_alloc=True)
    assert dense(nd.ones((3, 2))).shape == (3, 2)
    seq = nn.Sequential()
    seq.add(nn.Dense(2, in_units=2))
    with pytest.raises(TypeError):  # Block.hybridize(active, **kwargs) only, as MXNet
        seq.hybridize(True, "MKLDNN")


def test_saving_into_a_missing_folder_raises_mxnet_error(tmp_path):
    dense = nn.Dense(2, in_units=2)
    dense.initialize()
    missing = tmp_path / "no" / "such"
    with pytest.raises(mx.base.MXNetError):
        dense.save_parameters(str(missing / "x.params"))
    dense.hybridize()
    dense(nd.ones((1, 2)))
    with pytest.raises(mx.base.MXNetError):
        dense.export(str(missing / "x"))
    with pytest.raises(mx.base.MXNetError):
        mx.sym.var("a").save(str(missing / "a.json"))


def test_cell_begin_state_names_states_like_mxnet():
    cell = rnn.LSTMCell(3, prefix="q_")
    states = cell.begin_state(2, func=mx.sym.var)  # sym.var needs the name
    assert [s.name for s in states] == ["q_begin_state_0", "q_begin_state_1"]
    zeros = cell.begin_state(2, func=mx.sym.zeros)
    assert [s.name for s in zeros] == ["q_begin_state_2", "q_begin_state_3"]
    assert zeros[0].attr_dict()["q_begin_state_2"]["__layout__"] == "NC"
    out, _ = rnn.GRUCell(2, prefix="g_").unroll(2, mx.sym.var("data"), merge_outputs=True)
    assert "g_begin_state_0_output" in out.get_internals().list_outputs()


def test_sync_batchnorm_layer_runs_the_sync_operator():
    from mxnet import autograd
    from mxnet.gluon.contrib.nn import SyncBatchNorm

    bn = SyncBatchNorm(in_channels=3, num_devices=1, prefix="sbn_")
    assert repr(bn) == (
        "SyncBatchNorm(eps=1e-05, momentum=0.9, fix_gamma=False, use_global_stats=False, "
        "ndev=1, key='sbn_', in_channels=3)"
    )
    sym = bn(mx.sym.var("data"))
    assert '"_contrib_SyncBatchNorm"' in sym.tojson()
    bn.initialize()
    ref = nn.BatchNorm(in_channels=3)
    ref.initialize()
    x = nd.array(np.sin(np.arange(24)).reshape(2, 3, 4))
    with autograd.record():
        y, y_ref = bn(x), ref(x)
    np.testing.assert_allclose(y.asnumpy(), y_ref.asnumpy(), rtol=1e-5, atol=1e-6)
    # several devices: inference needs no synchronization
    two = SyncBatchNorm(in_channels=3, num_devices=2)
    two.initialize()
    assert two(nd.ones((2, 3))).shape == (2, 3)
    with autograd.record(), pytest.raises(mx.base.MXNetError, match="ndev=2"):
        two(nd.ones((2, 3)))


def test_hybridized_dict_output_message_matches_mxnet():
    class DictOut(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return {"a": x}

    blk = DictOut()
    blk.hybridize()
    with pytest.raises(ValueError, match="the input of HybridBlock output must be"):
        blk(nd.ones(2))


def test_block_save_writes_mxnet_key_order(tmp_path):
    import json

    dense = nn.Dense(2, in_units=3)
    dense.initialize()
    dense.hybridize()
    dense(nd.ones((1, 3)))
    prefix = str(tmp_path / "m")
    dense.save(prefix)
    entry = next(iter(json.load(open(prefix + "-model.json")).values()))
    assert list(entry) == [
        "orig_name",
        "in_format",
        "out_format",
        "inputs",
        "symbol",
        "hybridized",
        "children",
    ]


def test_utils_shape_is_known_and_indent_as_mxnet():
    from mxnet.gluon import utils

    assert utils.shape_is_known((2, 3)) and not utils.shape_is_known((2, 0))
    assert not utils.shape_is_known(()) and not utils.shape_is_known(None)
    with pytest.raises(AssertionError, match="cannot be less than 0"):
        utils.shape_is_known((2, -1))
    with mx.util.np_shape(True):
        assert utils.shape_is_known((2, 0)) and utils.shape_is_known(())
        assert not utils.shape_is_known((2, -1))
    assert utils._indent("a\nb", 2) == "a\n  b"


def test_gluon_exports_tensor_types():
    assert isinstance(nd.ones(1), mx.gluon.tensor_types)
    assert isinstance(mx.sym.var("a"), mx.gluon.tensor_types)
    assert not isinstance(1, mx.gluon.tensor_types)


def test_pooling_positional_order_as_mxnet():
    # MaxPool3D/AvgPool2D/AvgPool3D take ceil_mode before layout; MaxPool2D the reverse
    x = nd.ones((1, 1, 5, 5))
    assert nn.AvgPool2D(2, 2, 0, True)(x).shape == (1, 1, 3, 3)
    assert nn.MaxPool3D(2, 2, 0, True)(nd.ones((1, 1, 5, 5, 5))).shape == (1, 1, 3, 3, 3)
    assert nn.AvgPool3D(2, 2, 0, False, "NCDHW", False)._kwargs["count_include_pad"] is False
    assert nn.MaxPool2D(2, 2, 0, "NCHW", True)(x).shape == (1, 1, 3, 3)


def test_hybridize_positional_static_flags():
    dense = nn.Dense(2, in_units=2)
    dense.initialize()
    dense.hybridize(True, None, True, True, True, 0)
    assert dict(dense._flags) == {"static_alloc": True, "static_shape": True, "inline_limit": 0}
    assert dense(nd.ones((1, 2))).shape == (1, 2)


def test_user_infer_shape_sets_deferred_shapes():
    class Scale(mx.gluon.HybridBlock):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            with self.name_scope():
                self.w = self.params.get("w", shape=(0,), allow_deferred_init=True)

        def hybrid_forward(self, F, x, w):
            return F.broadcast_mul(x, w.reshape((1, -1)))  # no operator can infer w

        def infer_shape(self, x):
            self.w.shape = (x.shape[1],)

    blk = Scale()
    blk.initialize(mx.init.Constant(2.0))
    assert blk(nd.ones((2, 3))).asnumpy().tolist() == [[2.0] * 3] * 2
    assert blk.w.shape == (3,)


def test_deferred_init_fires_child_hooks_with_symbols_like_mxnet():
    seen = []
    dense = nn.Dense(2, activation="relu")
    dense.initialize()
    dense.act.register_forward_hook(lambda b, i, o: seen.append(type(o).__name__))
    dense(nd.ones((1, 3)))
    assert seen == ["Symbol", "NDArray"]  # the shape-inference trace, then the real call
    dense(nd.ones((1, 3)))
    assert seen == ["Symbol", "NDArray", "NDArray"]


def test_load_parameters_messages_as_mxnet(tmp_path):
    path = str(tmp_path / "p.params")
    src = nn.HybridSequential()
    src.add(nn.Dense(3, in_units=4), nn.Dense(2, in_units=3))
    src.initialize()
    src.save_parameters(path)
    dst = nn.HybridSequential()
    dst.add(nn.Dense(3, in_units=4))
    # MXNet names the block's own parameters (a container has none)
    with pytest.raises(ValueError, match=r"which contains parameters \. Set ignore_extra"):
        dst.load_parameters(path)
    half = nn.HybridSequential()
    half.add(nn.Dense(3, in_units=4), nn.Dense(2, in_units=3))
    half.cast("float16")
    with pytest.raises(AssertionError, match="saved <class 'numpy.float32'>"):
        half.load_parameters(path)


def test_eager_deferred_params_export_unknown_shape_attrs(tmp_path):
    # MXNet makes each parameter's Symbol during deferred shape inference, so the exported
    # JSON keeps the dims unknown at that time as 0
    import json

    net = nn.HybridSequential(prefix="s_")
    with net.name_scope():
        net.add(nn.Dense(3), nn.BatchNorm())
    net.initialize()
    net(nd.ones((2, 4)))  # eager first call: deferred init
    net.hybridize()
    net(nd.ones((2, 4)))
    net.export(str(tmp_path / "m"))
    nodes = json.load(open(str(tmp_path / "m-symbol.json")))["nodes"]
    shapes = {
        n["name"]: n["attrs"]["__shape__"] for n in nodes if n["op"] == "null" and "attrs" in n
    }
    assert shapes["s_dense0_weight"] == "(3, 0)" and shapes["s_dense0_bias"] == "(3,)"
    assert shapes["s_batchnorm0_gamma"] == "(0,)"
    assert net[0].weight.shape == (3, 4)
