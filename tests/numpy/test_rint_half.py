"""np.rint rounds halves toward -inf and np.copysign differentiates as MXNet 1.9.1."""

import mxnet as mx


def test_np_rint_halves_like_mxnet():
    x = [0.5, 1.5, 2.5, -0.5, -1.5, 0.49, 3.7, -3.7]
    want = [0.0, 1.0, 2.0, -1.0, -2.0, 0.0, 4.0, -4.0]
    for dt in ("float16", "float32", "float64"):
        assert mx.np.rint(mx.np.array(x, dtype=dt)).asnumpy().tolist() == want
    assert mx.nd.rint(mx.nd.array(x)).asnumpy().tolist() == want
    assert mx.np.rint(mx.np.array([3, -2], dtype="int32")).asnumpy().tolist() == [3, -2]


def test_copysign_gradient_like_mxnet():
    a = mx.np.array([[1.0, -2.0, 0.0], [3.0, 0.0, -1.0]])
    b = mx.np.array([-1.0, 1.0, -1.0])
    a.attach_grad()
    b.attach_grad()
    with mx.autograd.record():
        y = mx.np.copysign(a, b)
    y.backward()
    assert a.grad.asnumpy().tolist() == [[-1.0, -1.0, -1.0], [-1.0, 1.0, 1.0]]
    assert b.grad.asnumpy().tolist() == [0.0, 0.0, 0.0]
