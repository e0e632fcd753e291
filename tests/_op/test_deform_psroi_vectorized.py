"""contrib.DeformablePSROIPooling: values and gradients as MXNet 1.9.1, at R-FCN sizes.

The operator used to loop in Python per roi, bin, channel and sample (Deformable-ConvNets'
R-FCN head took minutes a batch); it is now one batched gather. Golden values from MXNet 1.9.1.
"""

import time

import numpy as np

import mxnet as mx
from mxnet import autograd


def test_deform_psroi_values_and_grads_match_mxnet():
    rs = np.random.RandomState(0)
    x = mx.nd.array(rs.uniform(-1, 1, (1, 8, 5, 6)).astype(np.float32))
    rois = mx.nd.array(
        np.array([[0, 3, 5, 60, 50], [0, -20, 10, 40, 90], [0, 30, 30, 31, 31]], np.float32)
    )
    t = mx.nd.array(rs.uniform(-1, 1, (3, 2, 2, 2)).astype(np.float32))
    x.attach_grad()
    t.attach_grad()
    with autograd.record():
        o = mx.nd.contrib.DeformablePSROIPooling(
            x,
            rois,
            t,
            spatial_scale=0.125,
            output_dim=2,
            group_size=2,
            pooled_size=2,
            part_size=2,
            sample_per_part=2,
            trans_std=0.2,
        )
        (o * mx.nd.arange(o.size).reshape(o.shape)).sum().backward()
    want_out = [
        0.18608399,
        -0.1287154,
        -0.36883074,
        0.26192594,
        -0.11982612,
        -0.21893302,
        -0.57671988,
        -0.15328106,
        0.0,
        -0.22592163,
        0.0,
        0.70437634,
        0.0,
        0.29836476,
        0.0,
        -0.31508186,
        0.4666996,
        0.17636901,
        -0.43501025,
        0.49627906,
        0.01608747,
        -0.42279097,
        0.1044596,
        -0.28346837,
    ]
    want_gt = [
        -0.37658712,
        3.51529503,
        0.49847779,
        0.73322374,
        -1.14077508,
        0.0501492,
        2.03632689,
        -0.24987893,
        0.0,
        -7.8646617,
        0.0,
        0.91353846,
        0.0,
        7.59290981,
        0.0,
        0.0,
        -0.57815349,
        0.915236,
        -0.47894427,
        0.29680589,
        1.14090931,
        0.96079534,
        -0.33073977,
        -0.03564932,
    ]
    np.testing.assert_allclose(o.asnumpy().ravel(), want_out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(t.grad.asnumpy().ravel(), want_gt, rtol=1e-5, atol=1e-5)
    g0 = x.grad.asnumpy()[0, 0].ravel()
    assert abs(float(x.grad.asnumpy().sum()) - 232.0) < 1e-3
    np.testing.assert_allclose(
        g0[[21, 22, 27, 28]], [8.501486, 3.413187, 2.915007, 1.170321], rtol=1e-5
    )
    assert (np.delete(g0, [21, 22, 27, 28]) == 0).all()


def test_deform_psroi_rfcn_head_size_is_fast():
    rs = np.random.RandomState(1)
    x = mx.nd.array(rs.normal(0, 1, (1, 4 * 49, 16, 16)).astype(np.float32))
    xy = rs.uniform(0, 120, (64, 2))
    rois = mx.nd.array(np.hstack([np.zeros((64, 1)), xy, xy + 100]).astype(np.float32))
    t = mx.nd.array(rs.normal(0, 0.1, (64, 8, 7, 7)).astype(np.float32))
    x.attach_grad()
    t.attach_grad()
    start = time.time()
    with autograd.record():
        o = mx.nd.contrib.DeformablePSROIPooling(
            x,
            rois,
            t,
            spatial_scale=0.0625,
            output_dim=4,
            group_size=7,
            pooled_size=7,
            part_size=7,
            sample_per_part=4,
            trans_std=0.1,
        )
    o.backward()
    x.grad.wait_to_read()
    assert o.shape == (64, 4, 7, 7)
    assert time.time() - start < 10  # the per-sample Python loop took minutes here
