"""NumPy shape methods of ``mx.sym.np._Symbol`` and ``mx.np.ndarray`` (MXNet 1.9.1 semantics)."""

import numpy as onp
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.gluon import HybridBlock


def _out_shape(sym, **shapes):
    return sym.infer_shape(**shapes)[1][0]


def test_symbol_reshape_positional_and_literal_zero():
    x = mx.sym.var("x").as_np_ndarray()
    assert _out_shape(x.reshape(3, -1), x=(3, 1, 4)) == (3, 4)
    assert _out_shape(x.reshape((3, -1)), x=(3, 1, 4)) == (3, 4)
    with pytest.raises(MXNetError):  # NumPy's 0 is a zero-size axis, not "copy"
        _out_shape(x.reshape((0, -1)), x=(3, 1, 4))


def test_symbol_transpose_and_flatten():
    x = mx.sym.var("x").as_np_ndarray()
    assert _out_shape(x.transpose(1, 0, 2), x=(3, 1, 4)) == (1, 3, 4)
    assert _out_shape(x.transpose(), x=(3, 1, 4)) == (4, 1, 3)
    assert _out_shape(x.flatten(), x=(3, 1, 4)) == (12,)


@mx.util.use_np
class _Flat(HybridBlock):
    def hybrid_forward(self, F, x):
        return x.flatten()


@pytest.mark.parametrize("shape", [(), (2, 0, 1), (3, 4)])
def test_hybridized_np_flatten_is_1d(shape):
    net = _Flat()
    net.hybridize()
    a = onp.arange(int(onp.prod(shape))).reshape(shape).astype("float32")
    out = net(mx.np.array(a))
    assert out.shape == (a.size,)
    onp.testing.assert_array_equal(out.asnumpy(), a.flatten())


def test_ndarray_transpose_zero_dim_and_errors():
    assert mx.np.ones(()).transpose(()).shape == ()
    dat = mx.np.ones((3, 4, 5))
    with pytest.raises(ValueError):
        dat.transpose((0, 0, 1))
    with pytest.raises(MXNetError):
        dat.transpose((0, 1, 3))


def test_broadcast_to_scalar_and_keep_code():
    out = mx.np.broadcast_to(1, (2, 3))
    assert out.dtype == onp.float32 and out.shape == (2, 3)
    assert mx.sym.np.broadcast_to(2.0, (2,)).eval()[0].asnumpy().tolist() == [2.0, 2.0]
    a = mx.np.array(onp.arange(12.0).reshape(3, 4))
    res = mx.np.broadcast_to(a, (1, 2, 3, -2))
    assert res.shape == (1, 2, 3, 4)
    onp.testing.assert_array_equal(res.asnumpy()[0, 1], a.asnumpy())
    assert mx.np.broadcast_to(mx.np.ones((1, 0)), (2, -2, -2)).shape == (2, 1, 0)


def test_null_grad_req_grad_cleared_after_backward():
    a = mx.np.ones((3,))
    a.attach_grad("null")
    b = mx.np.ones((3,))
    b.attach_grad()
    with mx.autograd.record():
        y = (b * 2).sum()
    y.backward()
    assert a.grad is not None  # not in that graph: buffer kept
    with mx.autograd.record():
        y = (a * b).sum()
    y.backward()
    assert a.grad is None
    assert b.grad.asnumpy().tolist() == [1.0, 1.0, 1.0]
    c = mx.np.ones((2,))
    c.attach_grad("null")
    with mx.autograd.record():
        z = (c * 2).sum()
    with pytest.raises(MXNetError):
        z.backward()
