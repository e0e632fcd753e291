"""Max pooling edges as MXNet 1.9.1 (values from MXNet): Pooling_v1 pads with zeros that take
part in the maximum (unlike Pooling, whose padding never wins); windows with no data element
give the lowest finite value."""

import numpy as np

import mxnet as mx


def test_pooling_v1_max_zero_padding_wins_over_negative_values():
    x = -mx.nd.arange(1, 10).reshape((1, 1, 3, 3))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Pooling_v1(x, kernel=(2, 2), pad=(1, 1), stride=(2, 2), pool_type="max")
    y.backward()
    assert y.asnumpy().tolist() == [[[[0.0, 0.0], [0.0, -5.0]]]]
    assert x.grad.asnumpy().tolist() == [[[[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]]]
    std = mx.nd.Pooling(x, kernel=(2, 2), pad=(1, 1), stride=(2, 2), pool_type="max")
    assert std.asnumpy().tolist() == [[[[-1.0, -2.0], [-4.0, -5.0]]]]


def test_pooling_v1_max_full_convention_shape_and_symbol():
    s = mx.sym.Pooling_v1(
        mx.sym.var("d"),
        kernel=(4, 5),
        pad=(2, 3),
        stride=(3, 2),
        pool_type="max",
        pooling_convention="full",
    )
    _, outs, _ = s.infer_shape(d=(2, 2, 9, 9))
    assert outs == [(2, 2, 4, 6)]
    x = -mx.nd.ones((2, 2, 9, 9))
    out = s.eval(d=x)[0].asnumpy()
    assert out.shape == (2, 2, 4, 6) and out.max() == 0.0 and out.min() == -1.0


def test_max_pooling_window_without_data_gives_lowest_value():
    # 'full' convention: the last window lies past the padding (MXNet: -FLT_MAX, not -inf)
    x = mx.nd.arange(100).reshape((1, 1, 10, 10))
    for dt, low in [
        ("float32", -3.4028234663852886e38),
        ("float64", -1.7976931348623157e308),
        ("float16", -65504.0),
    ]:
        y = mx.nd.Pooling(
            x.astype(dt),
            kernel=(4, 5),
            pad=(1, 2),
            stride=(3, 4),
            pool_type="max",
            pooling_convention="full",
        )
        assert y.asnumpy()[0, 0, 0].tolist() == [22.0, 26.0, 29.0, low]


def test_half_precision_average_pooling_3d():
    # torch's CPU avg_pool3d has no half kernel; MXNet sums half windows in float32
    x = mx.nd.arange(2 * 3 * 4 * 4 * 4).reshape((2, 3, 4, 4, 4)) / 100
    for t in ["avg", "sum", "lp"]:
        ref = mx.nd.Pooling(x, kernel=(2, 2, 2), stride=(2, 2, 2), pool_type=t, p_value=2)
        y = mx.nd.Pooling(
            x.astype("float16"), kernel=(2, 2, 2), stride=(2, 2, 2), pool_type=t, p_value=2
        )
        assert y.dtype == np.float16
        np.testing.assert_allclose(y.asnumpy().astype("float32"), ref.asnumpy(), rtol=1e-3)
