"""Plain-Python output-shape rules agree with tracing the kernels (``_op/_shape_rules``)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet._op import get_op
from mxnet.base import MXNetError

CASES = [
    ("relu", [(2, 3, 4)], {}),
    ("broadcast_add", [(2, 1, 4), (3, 1)], {}),
    ("broadcast_mul", [(4,), (2, 3, 4)], {}),
    ("elemwise_add", [(2, 3), (2, 3)], {}),
    ("_plus_scalar", [(2, 3)], {"scalar": 1.0}),
    ("Activation", [(2, 3)], {"act_type": "tanh"}),
    ("LeakyReLU", [(2, 3)], {"act_type": "rrelu"}),
    ("sum", [(2, 3, 4)], {"axis": (1,), "keepdims": True}),
    ("mean", [(2, 3, 4)], {"axis": (0, 2)}),
    ("max", [(2, 3, 4)], {}),
    ("prod", [(2, 3, 4)], {"axis": (1,), "exclude": True}),
    ("Concat", [(2, 3, 4), (2, 5, 4)], {"num_args": 2, "dim": -2}),
    ("log_softmax", [(2, 3)], {}),
    ("SoftmaxOutput", [(2, 3), (2,)], {}),
]


@pytest.mark.parametrize("name,shapes,attrs", CASES)
def test_rule_matches_kernel(name, shapes, attrs):
    op = get_op(name)
    a = op.parse_attrs(attrs)
    assert op.infer_out_fn is not None
    assert [tuple(s) for s in op.infer_out_fn(a, shapes)] == op.trace_shapes(a, shapes)


def test_incompatible_shapes_keep_the_kernel_error():
    for name, shapes in [("broadcast_add", [(2, 3), (4, 3)]), ("elemwise_add", [(2, 3), (3, 2)]),
                         ("Concat", [(2, 3), (3, 3)])]:
        op = get_op(name)
        a = op.parse_attrs({"num_args": 2, "dim": 1} if name == "Concat" else {})
        with pytest.raises(MXNetError):
            op.infer_out_fn(a, shapes)
    x = mx.sym.var("x")
    with pytest.raises(MXNetError):
        mx.sym.broadcast_add(x, mx.sym.var("y")).infer_shape(x=(2, 3), y=(4, 3))


def test_traced_shapes_are_cached_per_attrs_and_shapes():
    from mxnet._op import _registry

    op = get_op("SpatialTransformer")
    a = op.parse_attrs({"target_shape": (3, 4), "transform_type": "affine",
                        "sampler_type": "bilinear"})
    first = op.trace_shapes(a, [(2, 3, 5, 5), (2, 6)])
    assert first == [(2, 3, 3, 4)] and len(_registry._TRACE_CACHE) > 0
    assert op.trace_shapes(a, [(2, 3, 5, 5), (2, 6)]) == first
    b = op.parse_attrs({"target_shape": (2, 2), "transform_type": "affine",
                        "sampler_type": "bilinear"})
    assert op.trace_shapes(b, [(2, 3, 5, 5), (2, 6)]) == [(2, 3, 2, 2)]
    with pytest.raises(TypeError):
        _registry._freeze(object())


def test_conv_pool_rules_match_kernels():
    conv, pool = get_op("Convolution"), get_op("Pooling")
    a = conv.parse_attrs({"kernel": (3, 2), "stride": (2, 1), "dilate": (1, 2), "pad": (1, 0),
                          "num_filter": 4, "num_group": 2})
    shapes = conv.infer_shape(a, [(2, 6, 9, 8), None, None])[0]
    assert [tuple(s) for s in conv.infer_out_fn(a, shapes)] == conv.trace_shapes(a, shapes)
    for conv_ in ("valid", "full"):
        b = pool.parse_attrs({"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1),
                              "pooling_convention": conv_, "layout": "NHWC"})
        assert [tuple(s) for s in pool.infer_out_fn(b, [(2, 7, 8, 3)])] == \
            pool.trace_shapes(b, [(2, 7, 8, 3)])


def test_softmax_output_dtype_comes_from_data():
    s = mx.sym.SoftmaxOutput(mx.sym.var("d"), mx.sym.var("l"))
    assert s.infer_type(d="float16")[1] == [np.float16]
    assert s.infer_type_partial(l="float64")[1] == [None]
