"""Integer variables marked for gradients get MXNet's gradients through hybridized blocks."""

import mxnet as mx
from mxnet import autograd, gluon


class _Times3(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return (x * 3).sum()


def test_int_input_gradient_through_hybridized_block():
    net = _Times3()
    net.hybridize()
    z = mx.nd.array([1, 2], dtype="int32")
    z.attach_grad()
    with autograd.record():
        w = net(z)
    w.backward()
    assert z.grad.asnumpy().tolist() == [3, 3]
    assert z.grad.dtype == z.dtype


def test_np_int_input_gradient_through_hybridized_block():
    from mxnet import np, npx

    class _Sum2(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.np.sum(x * 2)

    prev = mx.util.is_np_array()
    npx.set_np()
    try:
        b = _Sum2()
        b.hybridize()
        x = np.array([1, 2, 3], dtype="int32")
        x.attach_grad()
        with autograd.record():
            y = b(x)
        y.backward()
        assert x.grad.tolist() == [2, 2, 2]
    finally:
        if not prev:
            npx.reset_np()


def test_hybridized_integer_mod_gradient_is_zero():
    from mxnet import np, npx

    class _Mod(gluon.HybridBlock):
        def hybrid_forward(self, F, a, b):
            return F.np.mod(a, b)

    prev = mx.util.is_np_array()
    npx.set_np()
    try:
        net = _Mod()
        net.hybridize()
        a, b = np.array([5, 7], dtype="int32"), np.array([3, 4], dtype="int32")
        a.attach_grad()
        b.attach_grad()
        with autograd.record():
            y = net(a, b)
        y.backward()
        assert a.grad.tolist() == [0, 0] and b.grad.tolist() == [0, 0]
    finally:
        if not prev:
            npx.reset_np()
