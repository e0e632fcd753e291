"""gluon.contrib.cnn: DeformableConvolution / ModulatedDeformableConvolution blocks.

Expected outputs were produced by MXNet 1.9.1 with the same initializers and input.
"""

import re

import numpy as np
import pytest

import mxnet as mx
from mxnet.gluon.contrib.cnn import DeformableConvolution, ModulatedDeformableConvolution

X = np.arange(50, dtype=np.float32).reshape(1, 2, 5, 5) / 50.0
WANT = {
    DeformableConvolution: [0.26958, 0.41833, 0.44268, 0.46508, 0.3162, 0.46702],
    ModulatedDeformableConvolution: [0.36125, 0.51193, 0.54342, 0.52412, 0.34021, 0.58476],
}


def _net(cls, **kw):
    return cls(
        3,
        kernel_size=3,
        padding=1,
        weight_initializer=mx.init.Constant(0.1),
        offset_weight_initializer=mx.init.Constant(0.01),
        offset_bias_initializer=mx.init.Constant(0.2),
        **kw,
    )


@pytest.mark.parametrize("cls", [DeformableConvolution, ModulatedDeformableConvolution])
@pytest.mark.parametrize("hybridize", [False, True])
def test_deformable_blocks_match_mxnet(cls, hybridize):
    net = _net(cls)
    net.initialize()
    if hybridize:
        net.hybridize()
    y = net(mx.nd.array(X))
    assert y.shape == (1, 3, 5, 5)
    np.testing.assert_allclose(y.asnumpy().ravel()[:6], WANT[cls], rtol=1e-4, atol=1e-5)
    alias = "deformable_conv" if cls is DeformableConvolution else "modulated_deformable_conv"
    assert re.fullmatch(alias + r"\d+_", net.prefix)
    names = sorted(k[len(net.prefix) :] for k in net.collect_params().keys())
    assert names == [
        "deformable_conv_bias",
        "deformable_conv_weight",
        "offset_bias",
        "offset_weight",
    ]


def test_deformable_shapes_and_repr():
    net = DeformableConvolution(4, kernel_size=3, padding=1, activation="relu")
    assert repr(net) == (
        "DeformableConvolution(None -> 4, kernel_size=(3, 3), stride=(1, 1), "
        "padding=(1, 1), Activation(relu))"
    )
    net.initialize()
    net(mx.nd.ones((1, 2, 5, 5)))
    assert [p.shape for p in net.collect_params().values()] == [
        (18, 2, 3, 3),
        (18,),
        (4, 2, 3, 3),
        (4,),
    ]
    m = ModulatedDeformableConvolution(4, kernel_size=(3, 3), in_channels=2, use_bias=False)
    assert [p.shape for p in m.collect_params().values()] == [(4, 0, 3, 3), (27, 2, 3, 3), (27,)]
