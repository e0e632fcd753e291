"""GridGenerator, BilinearSampler, SpatialTransformer and ROIPooling."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.ndarray._namespace import function_for
from tests._op.harness import Record, run_record
from tests._op.test_nn import check_golden_case, golden_names, golden_records, infer

OPS = {"GridGenerator", "BilinearSampler", "SpatialTransformer", "ROIPooling",
       "_contrib_AdaptiveAvgPooling2D", "_contrib_BilinearResize2D", "_contrib_ROIAlign"}


def _np_identity_grid(theta, target_shape, **k):
    h, w = target_shape
    ys, xs = np.meshgrid(np.linspace(-1, 1, h), np.linspace(-1, 1, w), indexing="ij")
    return np.stack([xs, ys])[None]


RECORDS = golden_records(OPS, grad=("grid_affine", "grid_warp"))
RECORDS += [
    Record("GridGenerator", [np.array([[1, 0, 0, 0, 1, 0]], np.float32)],
           {"transform_type": "affine", "target_shape": (2, 3)}, ref=_np_identity_grid,
           name="grid_identity_np"),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("name", golden_names(OPS))
def test_golden(name):
    check_golden_case(name)


def test_infer_shape():
    # values from real MXNet 1.9.1 Symbol.infer_shape
    assert infer("ROIPooling", {"pooled_size": (2, 2), "spatial_scale": 0.5},
                 [(1, 2, 8, 8), (3, 5)])[1] == [(3, 2, 2, 2)]
    assert infer("GridGenerator", {"transform_type": "affine", "target_shape": (3, 4)},
                 [(2, 6)])[1] == [(2, 2, 3, 4)]
    assert infer("GridGenerator", {"transform_type": "warp"}, [(2, 2, 3, 4)])[1] == \
        [(2, 2, 3, 4)]


def test_identity_sampling_reproduces_input():
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (1, 2, 3, 4)))
    grid = function_for("GridGenerator")(mx.nd.array([[1, 0, 0, 0, 1, 0]]),
                                         transform_type="affine", target_shape=(3, 4))
    y = function_for("BilinearSampler")(x, grid)
    np.testing.assert_allclose(y.asnumpy(), x.asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode,h,expected", [
    # (1, 2, h, h) with scale_height=2, scale_width=0.5; values from real MXNet 1.9.1
    ("odd_scale", 5, (9, 3)), ("odd_scale", 6, (12, 3)), ("to_even_down", 5, (4, 4)),
    ("to_even_up", 5, (6, 6)), ("to_odd_down", 6, (5, 5)), ("to_odd_up", 6, (7, 7)),
    ("size", 5, (10, 2))])
def test_bilinear_resize_modes(mode, h, expected):
    out = infer("_contrib_BilinearResize2D",
                {"mode": mode, "scale_height": 2.0, "scale_width": 0.5}, [(1, 2, h, h)])[1]
    assert out == [(1, 2) + expected]
    assert infer("_contrib_AdaptiveAvgPooling2D", {"output_size": 3}, [(1, 2, 5, 5)])[1] == \
        [(1, 2, 3, 3)]


def test_roi_negative_batch_index_gives_zeros():
    # NMS pads its output with -1 rows; GluonCV's FPN Faster/Mask RCNN feed them to ROIAlign.
    # MXNet 1.9.1 pools such rows to zeros (and they take no gradient).
    x = mx.nd.array(np.arange(2 * 2 * 6 * 6, dtype=np.float32).reshape(2, 2, 6, 6))
    rois = mx.nd.array([[0, 0, 0, 4, 4], [-1, 0, 0, 4, 4], [1, 1, 1, 5, 5], [-1] * 5])
    x.attach_grad()
    with mx.autograd.record():
        o = mx.nd.contrib.ROIAlign(x, rois, pooled_size=(2, 2), spatial_scale=1.0, sample_ratio=2)
    o.backward()
    got = o.asnumpy()[:, 0].reshape(4, -1)
    assert got.tolist() == [[7, 9, 19, 21], [0] * 4, [86, 88, 98, 100], [0] * 4]
    assert x.grad.asnumpy().sum() == 16.0
    p = mx.nd.ROIPooling(x, rois, pooled_size=(2, 2), spatial_scale=1.0).asnumpy()[:, 0]
    assert p.reshape(4, -1).tolist() == [[14, 16, 26, 28], [0] * 4, [93, 95, 105, 107], [0] * 4]
    with pytest.raises(mx.base.MXNetError, match="batch index 2"):
        mx.nd.contrib.ROIAlign(x, mx.nd.array([[2, 0, 0, 1, 1]]), pooled_size=(2, 2),
                               spatial_scale=1.0)
