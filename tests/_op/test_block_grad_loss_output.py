"""BlockGrad after a head-ignoring loss operator (Sockeye's cross-entropy loss).

MXNet 1.9.1 still runs ``SoftmaxOutput``'s backward when a ``BlockGrad`` after it sends zero
gradients, imperatively, in hybridized blocks and in bound executors alike.
"""

import numpy as np

import mxnet as mx

X = np.array([[1.0, 2.0, 3.0], [0.5, 0.0, -1.0]], dtype=np.float32)
LAB = np.array([2, 0], dtype=np.float32)


def _want():
    e = np.exp(X - X.max(1, keepdims=True))
    p = e / e.sum(1, keepdims=True)
    g = p.copy()
    g[np.arange(2), LAB.astype(int)] -= 1
    return np.log(p[np.arange(2), LAB.astype(int)]).sum(), g


class _CE(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x, lab):
        so = F.SoftmaxOutput(x, lab, preserve_shape=True)
        return F.sum(F.log(F.pick(F.BlockGrad(so), lab, axis=-1)))


def _run_block(hybridize):
    blk = _CE()
    if hybridize:
        blk.hybridize()
    x = mx.nd.array(X)
    x.attach_grad()
    with mx.autograd.record():
        out = mx.nd.add_n(blk(x, mx.nd.array(LAB)), mx.nd.zeros((1,)))
    out.backward()
    return out.asnumpy(), x.grad.asnumpy()


def test_block_grad_of_softmax_output_imperative_and_hybridized():
    want_out, want_grad = _want()
    for hyb in (False, True):
        out, grad = _run_block(hyb)
        np.testing.assert_allclose(out, [want_out], rtol=1e-5)
        np.testing.assert_allclose(grad, want_grad, rtol=1e-5, atol=1e-6)


def test_block_grad_of_softmax_output_executor():
    x, lab = mx.sym.var("x"), mx.sym.var("lab")
    so = mx.sym.SoftmaxOutput(x, lab, preserve_shape=True)
    out = mx.sym.sum(mx.sym.log(mx.sym.pick(mx.sym.BlockGrad(so), lab, axis=-1)))
    ex = out.bind(
        mx.cpu(),
        {"x": mx.nd.array(X), "lab": mx.nd.array(LAB)},
        args_grad={"x": mx.nd.zeros((2, 3))},
        grad_req={"x": "write", "lab": "null"},
    )
    ex.forward(is_train=True)
    ex.backward()
    np.testing.assert_allclose(ex.grad_dict["x"].asnumpy(), _want()[1], rtol=1e-5, atol=1e-6)


def test_plain_block_grad_still_blocks():
    class _Net(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, y):
            return (F.BlockGrad(y * 2) * y).sum()

    for hyb in (False, True):
        net = _Net()
        if hyb:
            net.hybridize()
        y = mx.nd.array([1.0, 2.0])
        y.attach_grad()
        with mx.autograd.record():
            z = net(y)
        z.backward()
        np.testing.assert_allclose(y.grad.asnumpy(), [2.0, 4.0])
