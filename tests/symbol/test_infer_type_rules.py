"""Symbolic dtype inference and naming details checked against MXNet 1.9.1."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError


@pytest.mark.parametrize("make", [
    lambda a, b: a + b,
    lambda a, b: mx.sym.broadcast_mul(a, b),
    lambda a, b: a == b,
    lambda a, b: mx.sym.dot(a, b),
    lambda a, b: mx.sym.concat(a, b, dim=0),
    lambda a, b: mx.sym.add_n(a, b),
])
def test_mixed_input_dtypes_are_refused(make):
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    s = make(a, b)
    with pytest.raises(MXNetError, match="Incompatible attr .* expected int32, got float32"):
        s.infer_type(a="int32", b="float32")
    assert s.infer_type(a="int32", b="int32")[1] == [np.int32]
    # one known dtype still fills the other input
    assert s.infer_type(a="float16")[0] == [np.float16, np.float16]


def test_fully_connected_weight_dtype_must_match_data():
    d, w = mx.sym.Variable("d"), mx.sym.Variable("w")
    fc = mx.sym.FullyConnected(d, weight=w, num_hidden=2, no_bias=True)
    with pytest.raises(MXNetError, match="Incompatible attr"):
        fc.infer_type(d="float32", w="int32")


def test_where_output_has_the_dtype_of_x():
    c, x, y = mx.sym.Variable("c"), mx.sym.Variable("x"), mx.sym.Variable("y")
    res = mx.sym.where(c, x, y).infer_type(c="int32", x="float32")
    assert res == ([np.int32, np.float32, np.float32], [np.float32], [])


def test_rpow_and_make_loss_names():
    a = mx.sym.Variable("a")
    with mx.name.NameManager():
        assert (2 ** a).list_outputs() == ["_rpower_scalar0_output"]
        assert mx.sym.pow(2, a).list_outputs() == ["_rpowerscalar0_output"]
        assert mx.sym.make_loss(a).list_outputs() == ["make_loss0_loss"]


def test_elementwise_binary_output_dtype_needs_no_meta_tracing(monkeypatch):
    # tracing torch.add on meta tensors imports torch's compiler stack (~2.5 s at the
    # first bind of any net with a residual add): the rule is "the inputs' dtype"
    from mxnet.symbol import _infer

    calls = []
    monkeypatch.setattr(_infer, "_trace_types", lambda *a: calls.append(a) or None)
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    s = mx.sym.elemwise_add(a, b) + mx.sym.broadcast_mul(a, b)
    assert s.infer_type(a="float16", b="float16")[1] == [np.float16]
    ex = s.simple_bind(mx.cpu(), a=(2, 3), b=(2, 3), type_dict={"a": "int32", "b": "int32"})
    assert ex.outputs[0].dtype == np.int32
    assert calls == []


def test_clip_shape_and_dtype_need_no_meta_tracing(monkeypatch):
    # relu6 (clip) in MobileNetV2: torch.clamp on meta tensors imports torch's compiler
    # stack; shapes and dtypes are the input's, also inferred backwards as MXNet does
    from mxnet.symbol import _infer

    calls = []
    monkeypatch.setattr(_infer, "_trace_types", lambda *a: calls.append(a) or None)
    x, y = mx.sym.var("x"), mx.sym.var("y")
    s = mx.sym.clip(x, 0, 6) + y
    assert s.infer_type(y="float16") == ([np.float16, np.float16], [np.float16], [])
    assert mx.sym.clip(x, 0, 6).infer_type(x="int32")[1] == [np.int32]
    assert mx.sym.hard_sigmoid(x).infer_shape(x=(2, 3))[1] == [(2, 3)]
    assert s.simple_bind(mx.cpu(), x=(2, 3), y=(2, 3)).outputs[0].shape == (2, 3)
    assert calls == []


def test_common_layers_infer_output_shapes_without_meta_tracing(monkeypatch):
    # Embedding, LayerNorm, GroupNorm, InstanceNorm, L2Normalization, LRN, add_n, where,
    # one_hot, smooth_l1: shape rules, not torch's Python meta kernels (which import its
    # compiler stack, seconds at the first bind of an NLP model)
    from mxnet._op._registry import OpDef

    traced = []
    real = OpDef.trace_shapes

    def spy(self, *a, **k):
        traced.append(self.name)
        return real(self, *a, **k)

    monkeypatch.setattr(OpDef, "trace_shapes", spy)
    d = mx.sym.var("data")
    emb = mx.sym.Embedding(d, input_dim=10, output_dim=4, name="emb")
    ln = mx.sym.LayerNorm(emb, output_mean_var=True, axis=1, name="ln")
    assert ln.infer_shape(data=(2, 3))[1] == [(2, 3, 4), (2, 1, 4), (2, 1, 4)]
    x = mx.sym.reshape(d, shape=(1, 2, 3, 1))
    for s, out in [(mx.sym.GroupNorm(x, num_groups=2, output_mean_var=True),
                    [(1, 2, 3, 1), (1, 2), (1, 2)]),
                   (mx.sym.InstanceNorm(x), [(1, 2, 3, 1)]),
                   (mx.sym.L2Normalization(x, mode="channel"), [(1, 2, 3, 1)]),
                   (mx.sym.LRN(x, nsize=3), [(1, 2, 3, 1)]),
                   (mx.sym.add_n(d, d), [(2, 3)]),
                   (mx.sym.smooth_l1(d), [(2, 3)]),
                   (mx.sym.one_hot(d, depth=5), [(2, 3, 5)]),
                   (mx.sym.where(d, d, d), [(2, 3)]),
                   (mx.sym.Dropout(d, p=0.3), [(2, 3)])]:
        assert s.infer_shape(data=(2, 3))[1] == out
    assert not set(traced) & {"Embedding", "LayerNorm", "GroupNorm", "InstanceNorm",
                              "L2Normalization", "LRN", "add_n", "smooth_l1", "one_hot",
                              "where", "Dropout"}
    with pytest.raises(MXNetError, match="num_groups"):
        mx.sym.GroupNorm(x, num_groups=4).infer_shape(data=(2, 3))


def test_where_shares_x_and_y_shapes_once_the_condition_is_known():
    # MXNet 1.9.1: where(c, x, y) fills y from x only with c's shape known
    c, x, y = mx.sym.var("c"), mx.sym.var("x"), mx.sym.var("y")
    w = mx.sym.where(c, x, y)
    assert w.infer_shape(c=(2,), x=(2, 3)) == ([(2,), (2, 3), (2, 3)], [(2, 3)], [])
    assert w.infer_shape_partial(x=(2, 3))[0] == [(), (2, 3), ()]
    with pytest.raises(MXNetError):
        w.infer_shape(c=(3,), x=(2, 3), y=(2, 3))


def test_take_and_pick_shape_rules():
    # MXNet 1.9.1's shapes, without tracing torch's meta kernels
    d, i = mx.sym.var("data"), mx.sym.var("idx")
    assert mx.sym.take(d, i, axis=1).infer_shape(data=(5, 3, 2), idx=(4,))[1] == [(5, 4, 2)]
    assert mx.sym.take(d, i).infer_type(data="float16", idx="int32")[1] == [np.float16]
    with pytest.raises(MXNetError):
        mx.sym.take(d, i, axis=3).infer_shape(data=(5, 3), idx=(2,))
    assert mx.sym.pick(d, i, keepdims=True).infer_shape_partial(data=(5, 3)) == (
        [(5, 3), (5,)], [(5, 1)], [])
    assert mx.sym.pick(d, i, axis=0).infer_shape(data=(5, 3), idx=(1, 3))[1] == [(3,)]
    with pytest.raises(MXNetError):
        mx.sym.pick(d, i, axis=1).infer_shape(data=(5, 3), idx=(4,))


def test_stack_shape_rule():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    assert mx.sym.stack(a, b, axis=-1).infer_shape(a=(2, 3), b=(2, 3))[1] == [(2, 3, 2)]
    with pytest.raises(MXNetError):
        mx.sym.stack(a, b, axis=3).infer_shape(a=(2, 3), b=(2, 3))


def test_transformer_contrib_ops_shape_rules():
    # BERT-style graphs: MXNet 1.9.1's output shapes, without tracing torch's meta kernels
    q, k, att = mx.sym.var("q"), mx.sym.var("k"), mx.sym.var("att")
    c = mx.sym.contrib
    assert c.interleaved_matmul_selfatt_qk(q, heads=2).infer_shape(q=(5, 3, 12))[1] == [
        (6, 5, 5)]
    assert c.interleaved_matmul_selfatt_valatt(q, att, heads=2).infer_shape(
        q=(5, 3, 12), att=(6, 5, 5))[1] == [(5, 3, 4)]
    assert c.interleaved_matmul_encdec_qk(q, k, heads=2).infer_shape(
        q=(4, 3, 8), k=(5, 3, 16))[1] == [(6, 4, 5)]
    assert c.interleaved_matmul_encdec_valatt(k, att, heads=2).infer_shape(
        k=(5, 3, 16), att=(6, 4, 5))[1] == [(4, 3, 8)]
    assert c.arange_like(q, axis=-1).infer_shape(q=(2, 3))[1] == [(3,)]
    assert c.arange_like(q).infer_type(q="float16")[1] == [np.float16]
    assert c.div_sqrt_dim(q).infer_shape(q=(2, 4))[1] == [(2, 4)]


def test_segmentation_contrib_ops_shape_rules():
    d, like = mx.sym.var("data"), mx.sym.var("like")
    c = mx.sym.contrib
    assert c.AdaptiveAvgPooling2D(d, output_size=(2, 3)).infer_shape(data=(1, 2, 7, 7))[1] == [
        (1, 2, 2, 3)]
    assert c.BilinearResize2D(d, like, mode="like").infer_shape(
        data=(1, 2, 7, 7), like=(1, 3, 4, 9))[1] == [(1, 2, 4, 9)]
    assert c.BilinearResize2D(d, mode="odd_scale", scale_height=2, scale_width=2).infer_shape(
        data=(1, 2, 7, 6))[1] == [(1, 2, 13, 12)]


def test_norm_shape_rule_as_mxnet():
    d = mx.sym.var("data")
    assert mx.sym.norm(d).infer_shape(data=(2, 3, 4))[1] == [(1,)]
    assert mx.sym.norm(d, axis=1, keepdims=True).infer_shape(data=(2, 3, 4))[1] == [(2, 1, 4)]
    # MXNet 1.9.1 checks ord only when computing
    assert mx.sym.norm(d, ord=3).infer_shape(data=(2, 3))[1] == [(1,)]
