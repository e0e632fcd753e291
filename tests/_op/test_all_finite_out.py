"""multi_all_finite / all_finite with init_output=False accumulate into ``out`` (MXNet 1.9.1:
the output keeps its value unless a non-finite element is found)."""

import numpy as np

import mxnet as mx


def test_multi_all_finite_accumulates_in_out():
    out = mx.nd.array([1.0])
    good, bad = mx.nd.ones((3,)), mx.nd.array([1.0, float("nan")])
    mx.nd.multi_all_finite(good, num_arrays=1, init_output=True, out=out)
    assert out.asnumpy()[0] == 1
    mx.nd.multi_all_finite(good, good, num_arrays=2, init_output=False, out=out)
    assert out.asnumpy()[0] == 1
    mx.nd.multi_all_finite(bad, num_arrays=1, init_output=False, out=out)
    assert out.asnumpy()[0] == 0
    mx.nd.multi_all_finite(good, num_arrays=1, init_output=False, out=out)
    assert out.asnumpy()[0] == 0  # a failure found earlier stays
    mx.nd.multi_all_finite(good, num_arrays=1, init_output=True, out=out)
    assert out.asnumpy()[0] == 1


def test_all_finite_without_init_keeps_zero():
    o = mx.nd.array([0.0])
    mx.nd.all_finite(mx.nd.ones((2,)), init_output=False, out=o)
    np.testing.assert_array_equal(o.asnumpy(), [0.0])
    assert mx.nd.all_finite(mx.nd.array([np.inf])).asnumpy()[0] == 0
