"""Records for the image operators (``mx.nd.image.*``)."""

import numpy as np
import pytest

from tests._op.harness import Record, run_record

rng = np.random.RandomState(0)
IMG = rng.randint(0, 256, (4, 6, 3)).astype(np.uint8)
CHW = rng.uniform(0, 1, (3, 4, 6)).astype(np.float32)
FIMG = IMG.astype(np.float32)


def _same_shape(outs, ins):
    assert outs[0].shape == ins[0].shape


RECORDS = [
    Record("_image_to_tensor", [IMG],
           ref=lambda x: x.transpose(2, 0, 1).astype(np.float32) / 255.0),
    Record("_image_normalize", [CHW], {"mean": (0.1, 0.2, 0.3), "std": (1.0, 2.0, 4.0)},
           ref=lambda x, mean, std: (x - np.array(mean, np.float32)[:, None, None])
           / np.array(std, np.float32)[:, None, None]),
    Record("_image_resize", [IMG], {"size": (3, 2)},
           check=lambda outs, ins: outs[0].shape == (2, 3, 3) or pytest.fail(outs[0].shape)),
    Record("_image_crop", [IMG], {"x": 1, "y": 2, "width": 3, "height": 2},
           ref=lambda img, x, y, width, height: img[y:y + height, x:x + width]),
    Record("_image_flip_left_right", [IMG], ref=lambda x: x[:, ::-1]),
    Record("_image_flip_top_bottom", [IMG], ref=lambda x: x[::-1]),
    Record("_image_random_flip_left_right", [IMG], check=_same_shape, symbolic=False),
    Record("_image_random_flip_top_bottom", [IMG], check=_same_shape, symbolic=False),
    Record("_image_random_brightness", [FIMG], {"min_factor": 1.0, "max_factor": 1.0},
           ref=lambda x, min_factor, max_factor: x),
    Record("_image_random_contrast", [FIMG], {"min_factor": 1.0, "max_factor": 1.0},
           ref=lambda x, min_factor, max_factor: x, rtol=1e-4, atol=1e-3),
    Record("_image_random_saturation", [FIMG], {"min_factor": 1.0, "max_factor": 1.0},
           ref=lambda x, min_factor, max_factor: x, rtol=1e-4, atol=1e-3),
    Record("_image_random_hue", [FIMG], {"min_factor": 0.0, "max_factor": 0.0},
           check=_same_shape, symbolic=False),
    Record("_image_random_color_jitter", [FIMG],
           {"brightness": 0.0, "contrast": 0.0, "saturation": 0.0, "hue": 0.0},
           ref=lambda x, **k: x, rtol=1e-4, atol=1e-3),
    # values recorded from MXNet 1.9.1 (adjust_lighting on a 1x2x3 image)
    Record("_image_adjust_lighting",
           [np.array([[[10, 20, 30], [40, 50, 60]]], np.float32)], {"alpha": (0.1, 0.2, 0.3)},
           ref=lambda x, alpha: np.array([[[7.6802835, 16.494226, 26.241932],
                                           [37.680283, 46.49423, 56.241932]]], np.float32),
           rtol=1e-5, atol=1e-4),
    Record("_image_random_lighting", [FIMG], {"alpha_std": 0.0},
           ref=lambda x, alpha_std: x, rtol=1e-5, atol=1e-4),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


def test_image_resize_infers_its_output_shape_symbolically():
    # MXNet 1.9.1: size is (width, height); keep_ratio scales the short side
    import mxnet as mx

    x = mx.sym.var("x")
    assert mx.sym.image.resize(x, size=(5, 6)).infer_shape(x=(40, 60, 3))[1] == [(6, 5, 3)]
    assert mx.sym.image.resize(x, size=(5, 6)).infer_shape(x=(2, 40, 60, 3))[1] == [(2, 6, 5, 3)]
    out = mx.sym.image.resize(x, size=5, keep_ratio=True).infer_shape(x=(40, 60, 3))[1]
    assert out == [(5, 7, 3)]


_PX = np.array([[[200, 30, 61], [10, 251, 128], [3, 7, 5], [255, 254, 253], [101, 99, 50],
                 [13, 81, 33]]], dtype=np.uint8)


def _jitter(op, x, f):
    import mxnet as mx

    return getattr(mx.nd.image, op)(mx.nd.array(x, dtype=x.dtype), min_factor=f,
                                    max_factor=f).asnumpy()


def test_image_colour_ops_cast_uint8_toward_zero():
    # MXNet 1.9.1 clamps then truncates: 61 * 0.77 = 46.97 -> 46, 180.70 -> 180
    import mxnet as mx

    out = _jitter("random_brightness", _PX, 0.77)
    assert out.ravel()[:6].tolist() == [154, 23, 46, 7, 193, 98]
    lit = mx.nd.image.adjust_lighting(mx.nd.array(_PX, dtype="uint8"), alpha=(0.5, -1.3, 2.0))
    assert lit.asnumpy().ravel()[:6].tolist() == [180, 12, 50, 0, 233, 117]


def test_image_random_saturation_uses_mxnet_gray_term():
    # values recorded from MXNet 1.9.1: its kernel blends with 0.114 * B, not the luma
    out = _jitter("random_saturation", _PX.astype(np.float32), 0.77)
    want = [155.599, 24.699, 48.569, 11.056, 196.626, 101.916]
    np.testing.assert_allclose(out.ravel()[:6], want, rtol=0, atol=2e-3)


def test_image_random_hue_rotates_in_hls_space():
    # values recorded from MXNet 1.9.1 (hue turned by factor * 360 degrees in HLS space)
    px = np.array([[[200., 30., 60.], [10., 250., 128.], [100., 100., 50.],
                    [12.5, 80.25, 33.]]], dtype=np.float32)
    np.testing.assert_allclose(_jitter("random_hue", px, 1.1).ravel(),
                               [200, 102, 30, 10, 228, 250, 70, 100, 50, 12.5, 80.25, 73.65],
                               rtol=0, atol=2e-3)
    np.testing.assert_allclose(_jitter("random_hue", px, 0.75).ravel(),
                               [85, 30, 200, 250, 248, 10, 100, 50, 75, 80.25, 66.875, 12.5],
                               rtol=0, atol=2e-3)
    # a full turn comes back with float noise that uint8 truncation exposes as MXNet does
    u8 = _jitter("random_hue", px.astype(np.uint8), 1.0)
    assert u8.ravel().tolist() == [200, 29, 60, 9, 250, 128, 99, 100, 50, 11, 80, 33]


@pytest.mark.parametrize("shape, kw, msg", [
    ((3, 4, 5), dict(mean=(0.1, 0.2)), "Invalid mean for input with shape [3,4,5]. mean must "
                                       "have either 1 or 3 elements, but got [0.1,0.2]"),
    ((3, 4, 5), dict(mean=(0.1, 0.2, 0.3)), "std must have either 1 or 3 elements, but got "
                                            "[1,1,1,1]"),
    ((4, 2, 2), dict(mean=1, std=1), "either 1 or 3 elements, but got input with shape [4,2,2]"),
    ((5,), dict(mean=1, std=1), "(N, channels, height, width), but got [5]"),
])
def test_image_normalize_rejects_what_mxnet_rejects(shape, kw, msg):
    # MXNet 1.9.1: mean/std take 1 or C values (the 4-value defaults fail on 3 channels),
    # and the input has 1 or 3 channels
    import mxnet as mx

    with pytest.raises(mx.base.MXNetError) as e:
        mx.nd.image.normalize(mx.nd.ones(shape), **kw)
    assert msg in str(e.value)
    out = mx.nd.image.normalize(mx.nd.ones((1, 2, 2)), mean=(0.5,), std=(0.25,))
    assert out.asnumpy().tolist() == [[[2.0, 2.0], [2.0, 2.0]]]


def test_image_saturation_and_hue_channels():
    # MXNet 1.9.1: a one-channel image passes through saturation unchanged; 1 or 3 channels
    import mxnet as mx

    gray = np.array([[[7.0], [100.0]], [[30.0], [250.0]]], np.float32)
    for op in ("random_saturation", "random_hue"):
        out = _jitter(op, gray, 1.3)
        assert out.shape == (2, 2, 1)
    assert _jitter("random_saturation", gray, 0.5).ravel().tolist() == [7, 100, 30, 250]
    with pytest.raises(mx.base.MXNetError, match="either 1 or 3 elements"):
        _jitter("random_saturation", np.ones((1, 1, 4), np.float32), 0.5)


@pytest.mark.parametrize("call, msg", [
    (lambda mx: mx.nd.image.to_tensor(mx.nd.ones((4, 5), dtype="uint8")),
     "(N, height, width, channels) but got [4,5]"),
    (lambda mx: mx.nd.image.resize(mx.nd.ones((4, 5), dtype="uint8"), size=3),
     "Input image dimension should be 3 or 4 but got 2"),
    (lambda mx: mx.nd.image.resize(mx.nd.ones((4, 5, 3), dtype="uint8"), size=(3, 2, 1)),
     "Input size dimension must be 1 or 2, but got 3"),
    (lambda mx: mx.nd.image.crop(mx.nd.ones((4, 5, 3)), x=3, y=0, width=4, height=2),
     "x + width should not be greater than input width"),
    (lambda mx: mx.nd.image.crop(mx.nd.ones((4, 5, 3)), x=0, y=3, width=2, height=2),
     "y + height should not be greater than input height"),
    (lambda mx: mx.nd.image.crop(mx.nd.ones((4, 5, 3)), x=0, y=0, width=0, height=2),
     "Input height and width must be greater than 0"),
    (lambda mx: mx.nd.image.flip_left_right(mx.nd.ones((4, 5))), "but got [4,5]"),
])
def test_image_op_errors_as_mxnet(call, msg):
    # messages of MXNet 1.9.1's image operators
    import mxnet as mx

    with pytest.raises(mx.base.MXNetError) as e:
        call(mx)
    assert msg in str(e.value)


def test_image_random_ops_follow_mx_random_seed_stream():
    # MXNet 1.9.1 draws these from its CPU kRandom engine (mt19937 seeded 127 * seed), the
    # engine mx.np.random reads too; values recorded from MXNet 1.9.1 with mx.random.seed(7)
    import mxnet as mx

    two = mx.nd.array([[[1.0], [2.0]]])
    mx.random.seed(7)
    flips = [mx.nd.image.random_flip_left_right(two)[0, 0, 0].asscalar() for _ in range(10)]
    assert flips == [2, 2, 1, 1, 2, 2, 2, 2, 2, 2]
    px = mx.nd.ones((1, 1, 3)) * 100
    mx.random.seed(7)
    u = mx.np.random.uniform(size=2).asnumpy()
    np.testing.assert_allclose(u, [0.42855945, 0.91751623], rtol=1e-6)
    b = mx.nd.image.random_brightness(px, min_factor=0.5, max_factor=1.5)
    np.testing.assert_allclose(b.asnumpy().ravel(), [130.79776] * 3, rtol=1e-6)
    mx.random.seed(7)
    light = mx.nd.image.random_lighting(mx.nd.zeros((1, 1, 3)), alpha_std=1.0)
    np.testing.assert_allclose(light.asnumpy().ravel(), [-26.128452, -25.07251, -25.932808],
                               rtol=1e-5)
    mx.random.seed(7)
    cj = mx.nd.image.random_color_jitter(mx.nd.array([[[200., 30., 60.], [10., 250., 128.]]]),
                                         brightness=0.3, contrast=0.3, saturation=0.3, hue=0.3)
    np.testing.assert_allclose(cj.asnumpy().ravel(), [224.87988, 2.5187025, 117.58477,
                                                      -22.206615, 291.71515, 25.089897],
                               rtol=1e-5, atol=1e-4)
    # the jitter took 3 shuffle draws and 4 factor draws: the 8th draw comes next
    np.testing.assert_allclose(mx.np.random.uniform(size=1).asnumpy(), [0.12915142], rtol=1e-6)


def test_image_random_hue_uint8_float_arithmetic():
    # recorded from MXNet 1.9.1 (factor 0.1): 60 / diff is a true float division there, a
    # reciprocal-multiply would give [35, 1, 0] and [0, 35, 5]
    px = np.array([[[35, 0, 19], [15, 35, 0], [37, 2, 21]]], np.uint8)
    out = _jitter("random_hue", px, 0.1)
    assert out.reshape(-1, 3).tolist() == [[35, 2, 0], [0, 35, 6], [37, 4, 1]]
