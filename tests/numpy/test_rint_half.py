"""np.rint rounds halves toward -inf, as MXNet 1.9.1's kernel (and mx.nd.rint) do."""

import mxnet as mx


def test_np_rint_halves_like_mxnet():
    x = [0.5, 1.5, 2.5, -0.5, -1.5, 0.49, 3.7, -3.7]
    want = [0.0, 1.0, 2.0, -1.0, -2.0, 0.0, 4.0, -4.0]
    for dt in ("float16", "float32", "float64"):
        assert mx.np.rint(mx.np.array(x, dtype=dt)).asnumpy().tolist() == want
    assert mx.nd.rint(mx.nd.array(x)).asnumpy().tolist() == want
    assert mx.np.rint(mx.np.array([3, -2], dtype="int32")).asnumpy().tolist() == [3, -2]
