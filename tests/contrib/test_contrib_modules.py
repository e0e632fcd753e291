"""``mxnet.contrib.ndarray`` / ``mxnet.contrib.symbol`` are importable modules (MXNet 1.x)."""

import numpy as np

import mxnet as mx


def test_from_contrib_ndarray_import_op():
    from mxnet.contrib.ndarray import MultiBoxPrior

    y = MultiBoxPrior(mx.nd.zeros((1, 3, 4, 4)), sizes=[0.5], ratios=[1])
    assert y.shape == (1, 16, 4)
    # first anchor centred on pixel (0, 0): centre 0.125, half-size 0.25
    np.testing.assert_allclose(y[0, 0].asnumpy(), [-0.125, -0.125, 0.375, 0.375], rtol=1e-6)


def test_contrib_symbol_module():
    import mxnet.contrib.symbol as csym

    s = csym.MultiBoxPrior(mx.sym.var("data"), sizes=[0.5], name="anchors")
    assert s.name == "anchors"
    assert mx.contrib.symbol is csym and mx.contrib.ndarray is mx.contrib.nd
