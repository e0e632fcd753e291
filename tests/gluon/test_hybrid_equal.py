"""A hybridized block under autograd.record computes exactly like the imperative one (MXNet's
test_hybrid_static_memory: BatchNorm over a batch of two amplifies any kernel difference)."""

import numpy as np

import mxnet as mx
from mxnet import gluon


def test_hybridized_resnet_training_equals_imperative(tmp_path):
    x = mx.nd.random.uniform(shape=(2, 3, 32, 32))
    x.attach_grad()
    net1 = gluon.model_zoo.vision.get_resnet(1, 18, prefix="net_")
    net1.initialize(mx.init.Xavier())
    net1(x)
    net1.save_parameters(str(tmp_path / "r.params"))
    net2 = gluon.model_zoo.vision.get_resnet(1, 18, prefix="net_")
    net2.load_parameters(str(tmp_path / "r.params"))
    net2.hybridize(static_alloc=True)
    net2(x)

    def run(net):
        with mx.autograd.record():
            y = net(x) + net(x)
            y.backward()
        return y.asnumpy(), {k: p.grad().asnumpy() for k, p in net.collect_params().items()
                             if p.grad_req != "null"}

    (y1, g1), (y2, g2) = run(net1), run(net2)
    np.testing.assert_allclose(y1, y2, rtol=1e-5, atol=1e-6)
    for k in g1:
        np.testing.assert_allclose(g1[k], g2[k], rtol=1e-4, atol=1e-5, err_msg=k)


def test_hybridized_depthwise_net_training_equals_imperative(tmp_path):
    # grouped convolutions of NCHW data run torch's channels-last kernels (much faster than
    # its NCHW ones) on every route, so hybridizing changes no number
    x = mx.nd.random.uniform(shape=(4, 3, 32, 32))
    nets = []
    for hyb in (False, True):
        net = gluon.model_zoo.vision.get_mobilenet(0.25, prefix="mb_", classes=10)
        if hyb:
            net.load_parameters(str(tmp_path / "m.params"))
            net.hybridize(static_alloc=True)
        else:
            net.initialize(mx.init.Xavier())
            net(x)
            net.save_parameters(str(tmp_path / "m.params"))
        nets.append(net)
    res = []
    for net in nets:
        with mx.autograd.record():
            y = net(x)
        y.backward()
        res.append((y.asnumpy(), {k: p.grad().asnumpy() for k, p in
                                  net.collect_params().items() if p.grad_req != "null"}))
    (y1, g1), (y2, g2) = res
    np.testing.assert_allclose(y1, y2, rtol=1e-5, atol=1e-6)
    for k in g1:
        np.testing.assert_allclose(g1[k], g2[k], rtol=1e-4, atol=1e-5, err_msg=k)
