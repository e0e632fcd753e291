"""Operators on zero-size batches (NumPy shape semantics, as MXNet 1.9.1)."""


def test_flatten_and_fully_connected_take_a_zero_size_batch():
    # MXNet 1.9.1 (np shape semantics): (0, ...) batches flow through Dense/Flatten
    from mxnet import np as mnp
    from mxnet import npx
    from mxnet.gluon import nn

    npx.set_np()
    try:
        dense = nn.Dense(3)
        dense.initialize()
        assert dense(mnp.zeros((0, 2, 4))).shape == (0, 3)
        assert nn.Flatten()(mnp.zeros((0, 2, 3))).shape == (0, 6)
        dense.hybridize()
        assert dense(mnp.zeros((0, 2, 4))).shape == (0, 3)
    finally:
        npx.reset_np()
