"""ROIPooling sends each bin's gradient to its first maximum (MXNet 1.9.1's argmax), also
among ties such as the zeros of ReLU features, and pools Faster R-CNN-sized batches quickly.
Golden values from MXNet 1.9.1."""

import time

import numpy as np

import mxnet as mx
from mxnet import autograd


def test_roi_pooling_grad_goes_to_first_max_among_ties():
    x = np.zeros((1, 1, 4, 5), np.float32)
    x[0, 0, 1, 3] = 2.0
    x[0, 0, 3, 0] = -1.0
    xx = mx.nd.array(x)
    xx.attach_grad()
    rois = mx.nd.array([[0, 0, 0, 4, 3], [0, 1, 1, 3, 3]])
    with autograd.record():
        o = mx.nd.ROIPooling(xx, rois, pooled_size=(2, 2), spatial_scale=1.0)
    o.backward(mx.nd.array(np.arange(1, 9, dtype=np.float32).reshape(o.shape)))
    assert o.asnumpy().ravel().tolist() == [0, 2, 0, 0, 0, 2, 0, 0]
    assert xx.grad.asnumpy()[0, 0].tolist() == [
        [1, 0, 0, 0, 0],
        [0, 5, 0, 8, 0],
        [3, 7, 12, 0, 0],
        [0, 0, 0, 0, 0],
    ]


def test_roi_pooling_faster_rcnn_size_is_fast():
    rs = np.random.RandomState(0)
    x = mx.nd.array(rs.rand(1, 64, 38, 50).astype(np.float32))
    xy = rs.uniform(0, 500, (128, 2))
    rois = mx.nd.array(np.hstack([np.zeros((128, 1)), xy, xy + rs.uniform(16, 300, (128, 2))]))
    x.attach_grad()
    start = time.time()
    with autograd.record():
        o = mx.nd.ROIPooling(x, rois, pooled_size=(7, 7), spatial_scale=0.0625)
    o.backward()
    x.grad.wait_to_read()
    assert o.shape == (128, 64, 7, 7)
    assert time.time() - start < 10  # full-map masks took ~10x longer than this bound
