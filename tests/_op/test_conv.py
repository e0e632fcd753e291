"""Convolution, Deconvolution, Pooling and UpSampling against real MXNet 1.9.1 golden values."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.ndarray._namespace import function_for
from tests._op.harness import Record, run_record
from tests._op.test_nn import check_golden_case, golden_names, golden_records, infer

OPS = {"Convolution", "Deconvolution", "Pooling", "UpSampling", "Convolution_v1", "Pooling_v1"}
rng = np.random.RandomState(0)


def _np_conv1d(x, w, b=None, **k):
    n, c, length = x.shape
    f, _, kw = w.shape
    out = np.zeros((n, f, length - kw + 1))
    for i in range(length - kw + 1):
        out[:, :, i] = np.einsum("nck,fck->nf", x[:, :, i:i + kw], w)
    return out + (0 if b is None else b[None, :, None])


def _np_maxpool2(x, **k):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // 2, 2, w // 2, 2).max((3, 5))


X1 = rng.uniform(-1, 1, (1, 2, 5)).astype(np.float32)
W1 = rng.uniform(-1, 1, (3, 2, 2)).astype(np.float32)
B1 = rng.uniform(-1, 1, (3,)).astype(np.float32)
X4 = rng.uniform(-1, 1, (1, 1, 4, 4)).astype(np.float32)

RECORDS = golden_records(OPS, grad=("conv1d", "deconv1d", "pool_avg_full", "up_nearest",
                                    "pool_lp2"))
RECORDS += [
    Record("Convolution", [X1, W1, B1], {"kernel": (2,), "num_filter": 3}, ref=_np_conv1d,
           grad=True, name="conv1d_np"),
    Record("Pooling", [X4], {"kernel": (2, 2), "stride": (2, 2)}, ref=_np_maxpool2,
           name="maxpool_np"),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("name", golden_names(OPS))
def test_golden(name):
    check_golden_case(name)


def test_infer_shape():
    # values from real MXNet 1.9.1 Symbol.infer_shape
    assert infer("Convolution", {"kernel": (3, 3), "num_filter": 4}, [(2, 3, 8, 8), None, None]) \
        == ([(2, 3, 8, 8), (4, 3, 3, 3), (4,)], [(2, 4, 6, 6)])
    assert infer("Convolution", {"kernel": (3,), "num_filter": 6, "num_group": 3,
                                 "no_bias": True}, [(2, 3, 8), None])[0] == [(2, 3, 8), (6, 1, 3)]
    assert infer("Deconvolution", {"kernel": (3, 3), "num_filter": 4, "stride": (2, 2),
                                   "target_shape": (9, 10)}, [(1, 2, 4, 5), None]) == \
        ([(1, 2, 4, 5), (2, 4, 3, 3)], [(1, 4, 9, 10)])
    assert infer("Deconvolution", {"kernel": (2, 2), "num_filter": 4, "num_group": 2,
                                   "no_bias": False}, [(1, 2, 4, 5), None, None])[0] == \
        [(1, 2, 4, 5), (2, 2, 2, 2), (4,)]
    assert infer("Pooling", {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1),
                             "pooling_convention": "full"}, [(1, 1, 7, 8)])[1] == [(1, 1, 4, 5)]
    assert infer("UpSampling", {"scale": 2, "sample_type": "bilinear", "num_filter": 3,
                                "num_args": 2}, [(1, 3, 4, 4), None]) == \
        ([(1, 3, 4, 4), (3, 1, 4, 4)], [(1, 3, 8, 8)])
    assert infer("UpSampling", {"scale": 2, "sample_type": "nearest", "num_args": 2},
                 [(1, 3, 4, 4), (1, 2, 2, 2)])[1] == [(1, 5, 8, 8)]


def test_channel_last_layout_matches_channel_first():
    x = rng.uniform(-1, 1, (2, 3, 5, 6)).astype(np.float32)
    w = rng.uniform(-1, 1, (4, 3, 3, 3)).astype(np.float32)
    conv = function_for("Convolution")
    ref = conv(mx.nd.array(x), mx.nd.array(w), kernel=(3, 3), num_filter=4, no_bias=True)
    out = conv(mx.nd.array(x.transpose(0, 2, 3, 1)), mx.nd.array(w.transpose(0, 2, 3, 1)),
               kernel=(3, 3), num_filter=4, no_bias=True, layout="NHWC")
    np.testing.assert_allclose(out.asnumpy().transpose(0, 3, 1, 2), ref.asnumpy(), rtol=1e-5,
                               atol=1e-5)
    pool = function_for("Pooling")
    ref = pool(mx.nd.array(x), kernel=(2, 2), stride=(2, 2), pool_type="avg")
    out = pool(mx.nd.array(x.transpose(0, 2, 3, 1)), kernel=(2, 2), stride=(2, 2),
               pool_type="avg", layout="NHWC")
    np.testing.assert_allclose(out.asnumpy().transpose(0, 3, 1, 2), ref.asnumpy(), rtol=1e-6)


def test_errors():
    with pytest.raises(MXNetError):
        function_for("Convolution")(mx.nd.ones((1, 2, 5, 5)), mx.nd.ones((3, 2, 3, 3)),
                                    kernel=(3,), num_filter=3, no_bias=True)
    with pytest.raises(MXNetError):
        function_for("Pooling")(mx.nd.ones((1, 2, 2, 2)), kernel=(3, 3))
    with pytest.raises(MXNetError):
        function_for("Convolution")(mx.nd.ones((1, 2, 5, 5)), kernel=(3, 3))  # no weight


def test_pooling_same_convention():
    x = mx.nd.array(np.arange(14, dtype=np.float32).reshape(2, 1, 7))
    y = function_for("Pooling")(x, kernel=(3,), stride=(2,), pooling_convention="same")
    assert y.shape == (2, 1, 4)
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [1, 3, 5, 6])
    with pytest.raises(MXNetError):
        function_for("Pooling")(mx.nd.ones((1, 1, 4, 4)), kernel=(2, 2),
                                pooling_convention="same")


def test_pooling_pad_and_stride_extra_entries():
    pool = function_for("Pooling")
    x = mx.nd.array(np.arange(10, dtype=np.float32).reshape(1, 1, 10))
    # MXNet uses the first kernel-ndim entries of a longer pad/stride
    y = pool(x, kernel=(2,), stride=(2, 3), pad=(1, 0, 0), pool_type="max")
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [0, 2, 4, 6, 8, 9])
    y = pool(x, kernel=(2,), stride=(2,), pad=(0, 0, 0), pool_type="max",
             pooling_convention="same")
    assert y.shape == (1, 1, 5)
    with pytest.raises(MXNetError, match="pad"):
        pool(x, kernel=(2,), stride=(2,), pad=(2,), pool_type="max", pooling_convention="same")
    with pytest.raises(MXNetError):  # shorter than the kernel
        pool(mx.nd.ones((1, 1, 4, 4)), kernel=(2, 2), pad=(1,))


def test_deconvolution_num_filter_must_divide_groups():
    x = mx.nd.ones((1, 4, 3, 3))
    with pytest.raises(MXNetError, match="num_group"):
        function_for("Deconvolution")(x, mx.nd.ones((4, 1, 3, 3)), kernel=(3, 3),
                                      num_filter=3, num_group=2, no_bias=True)


def test_grouped_convolution_of_nchw_data_runs_channels_last(monkeypatch):
    # depthwise/grouped convolutions of NCHW float32 data run torch's channels-last kernels
    # (1.3-2.9x faster forward+backward) and keep the channels-last result, so the layers
    # after them run channels-last too; values, gradients and the logical shape hold
    import torch

    from mxnet._op import _conv

    calls = []
    real = _conv.F.conv2d

    def spy(x, *a, **k):
        calls.append(x.is_contiguous(memory_format=torch.channels_last))
        return real(x, *a, **k)

    monkeypatch.setattr(_conv.F, "conv2d", spy)
    rng = np.random.RandomState(0)
    xn = rng.standard_normal((2, 6, 7, 7)).astype(np.float32)
    wn = rng.standard_normal((6, 2, 3, 3)).astype(np.float32)
    x, w, b = mx.nd.array(xn), mx.nd.array(wn), mx.nd.array(rng.standard_normal(6))
    for v in (x, w):
        v.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(x, w, b, kernel=(3, 3), pad=(1, 1), num_filter=6, num_group=3)
    y.backward(mx.nd.ones(y.shape))
    cl = torch.channels_last
    assert calls == [True] and y.shape == (2, 6, 7, 7)
    assert y._t.is_contiguous(memory_format=cl) and not y._t.is_contiguous()
    y2 = mx.nd.Convolution(y, w, b, kernel=(3, 3), pad=(1, 1), num_filter=6, num_group=3)
    assert y2._t.is_contiguous(memory_format=cl)  # no copy back to NCHW in between
    assert y.asnumpy().flags["C_CONTIGUOUS"]
    xt, wt = torch.tensor(xn, requires_grad=True), torch.tensor(wn, requires_grad=True)
    yt = real(xt, wt, torch.tensor(b.asnumpy()), 1, 1, 1, 3)
    yt.sum().backward()
    np.testing.assert_allclose(y.asnumpy(), yt.detach().numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(x.grad.asnumpy(), xt.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(w.grad.asnumpy(), wt.grad.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("size, chans, keeps_nchw",
                         [(96, 3, False), (32, 3, True), (12, 20, False), (12, 32, True)])
def test_dense_convolution_of_large_nchw_maps_runs_channels_last(size, chans, keeps_nchw):
    # dense 2-D convolutions over >= 96x96 maps of NCHW float32 data, or over input channels
    # oneDNN would pad to 16-channel blocks (LeNet's 20), run and return channels-last
    # (faster oneDNN kernels); other maps stay NCHW; values and gradients hold
    import torch

    rng = np.random.RandomState(1)
    xn = rng.standard_normal((2, chans, size, size)).astype(np.float32)
    wn = rng.standard_normal((4, chans, 3, 3)).astype(np.float32)
    x, w = mx.nd.array(xn), mx.nd.array(wn)
    for v in (x, w):
        v.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(x, w, kernel=(3, 3), pad=(1, 1), num_filter=4, no_bias=True)
    y.backward(mx.nd.ones(y.shape))
    assert y._t.is_contiguous() is keeps_nchw
    assert y._t.is_contiguous(memory_format=torch.channels_last) is not keeps_nchw
    xt, wt = torch.tensor(xn, requires_grad=True), torch.tensor(wn, requires_grad=True)
    yt = torch.nn.functional.conv2d(xt, wt, padding=1)
    yt.sum().backward()
    np.testing.assert_allclose(y.asnumpy(), yt.detach().numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(x.grad.asnumpy(), xt.grad.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(w.grad.asnumpy(), wt.grad.numpy(), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("groups, bias", [(6, False), (6, True), (1, True), (2, False)])
def test_one_pixel_maps_use_the_centre_tap_only(groups, bias):
    # 3x3 (and 5x3) kernels padded by half over 1x1 maps: only the centre tap meets data;
    # values and every gradient equal a float64 convolution (the other taps' gradient is 0)
    import torch

    rng = np.random.RandomState(4)
    for kernel, pad, stride in (((3, 3), (1, 1), (1, 1)), ((5, 3), (2, 1), (2, 2))):
        xn = rng.standard_normal((4, 6, 1, 1)).astype(np.float32)
        wn = rng.standard_normal((6, 6 // groups) + kernel).astype(np.float32)
        bn = rng.standard_normal(6).astype(np.float32)
        x, w, b = mx.nd.array(xn), mx.nd.array(wn), mx.nd.array(bn)
        for v in (x, w, b):
            v.attach_grad()
        with mx.autograd.record():
            y = mx.nd.Convolution(x, w, b if bias else None, kernel=kernel, pad=pad,
                                  stride=stride, num_filter=6, num_group=groups,
                                  no_bias=not bias)
        gy = rng.standard_normal(y.shape).astype(np.float32)
        y.backward(mx.nd.array(gy))
        xt, wt, bt = (torch.tensor(v, dtype=torch.float64, requires_grad=True)
                      for v in (xn, wn, bn))
        yt = torch.nn.functional.conv2d(xt, wt, bt if bias else None, stride, pad, 1, groups)
        yt.backward(torch.tensor(gy, dtype=torch.float64))
        assert y.shape == tuple(yt.shape) == (4, 6, 1, 1)
        np.testing.assert_allclose(y.asnumpy(), yt.detach().numpy(), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(x.grad.asnumpy(), xt.grad.numpy(), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(w.grad.asnumpy(), wt.grad.numpy(), rtol=1e-5, atol=1e-5)
        if bias:
            np.testing.assert_allclose(b.grad.asnumpy(), bt.grad.numpy(), rtol=1e-5,
                                       atol=1e-5)


@pytest.mark.parametrize("bias", [False, True])
def test_tiny_pointwise_convolution_is_one_matrix_product(monkeypatch, bias):
    # small 1x1 convolutions of channels-last data run as a product over the pixel rows:
    # same values and gradients as a float64 convolution, a channels-last result
    import torch

    from mxnet._op import _conv

    calls = []
    real = _conv._pointwise_mm
    monkeypatch.setattr(_conv, "_pointwise_mm", lambda *a: calls.append(1) or real(*a))
    rng = np.random.RandomState(5)
    xn = rng.standard_normal((4, 6, 3, 3)).astype(np.float32)
    wn = rng.standard_normal((5, 6, 1, 1)).astype(np.float32)
    bn = rng.standard_normal(5).astype(np.float32)
    x = mx.nd.array(xn)
    x = mx.nd.NDArray._wrap(x._t.contiguous(memory_format=torch.channels_last), x.context)
    w, b = mx.nd.array(wn), mx.nd.array(bn)
    for v in (x, w, b):
        v.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(x, w, b if bias else None, kernel=(1, 1), num_filter=5,
                              no_bias=not bias)
    gy = rng.standard_normal(y.shape).astype(np.float32)
    y.backward(mx.nd.array(gy))
    assert calls == [1]
    assert y._t.is_contiguous(memory_format=torch.channels_last)
    xt, wt, bt = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (xn, wn, bn))
    yt = torch.nn.functional.conv2d(xt, wt, bt if bias else None)
    yt.backward(torch.tensor(gy, dtype=torch.float64))
    np.testing.assert_allclose(y.asnumpy(), yt.detach().numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(x.grad.asnumpy(), xt.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(w.grad.asnumpy(), wt.grad.numpy(), rtol=1e-5, atol=1e-5)
    if bias:
        np.testing.assert_allclose(b.grad.asnumpy(), bt.grad.numpy(), rtol=1e-5, atol=1e-5)
