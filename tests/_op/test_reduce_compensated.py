"""float32 sum/mean round like MXNet's compensated (Kahan) reducer: values from MXNet 1.9.1."""
import numpy as np

import mxnet as mx


def _img():
    return np.arange(157 * 210 * 3, dtype=np.float32).reshape(157, 210, 3)[:4, :5]


def test_sum_is_exactly_rounded():
    d = mx.nd.array(_img()) / 255.0
    assert d.sum().asscalar() == np.float32(224.0)  # plain float32 summation: 223.99998
    assert mx.nd.sum(d, axis=(0, 1, 2)).asscalar() == np.float32(224.0)


def test_sum_along_axis_and_mean():
    x = mx.nd.array(np.arange(1, 100001).reshape(100, 1000) / 7)
    np.testing.assert_array_equal(x.sum(axis=1)[:3].asnumpy(),
                                  np.float32([71500.0, 214357.14, 357214.28]))
    assert x.mean().asscalar() == np.float32(7142.9287)
    assert x.sum().dtype == np.float32 and x.mean(axis=0).shape == (1000,)


def test_sum_gradient_unchanged():
    x = mx.nd.array([[1., 2.], [3., 4.]])
    x.attach_grad()
    with mx.autograd.record():
        y = (x * x).mean()
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), x.asnumpy() / 2)
    assert x.grad.dtype == np.float32


def test_np_sum_and_mean_round_as_mxnet():
    # mx.np.sum/mean use the same compensated float32 reducer in MXNet 1.9.1 (np.mean
    # docstring: 0.55, where a plain float32 accumulation gives 0.54999995)
    a = mx.np.zeros((2, 512 * 512), dtype="float32")
    a[0, :] = 1.0
    a[1, :] = 0.1
    assert mx.np.mean(a).item() == np.float32(0.55)
    assert mx.np.sum(a).item() == np.float32(288358.4)
    d = mx.np.array(_img()) / 255.0
    assert mx.np.sum(d).item() == np.float32(224.0)
