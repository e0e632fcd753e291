"""``HybridBlock.export`` returns None in MXNet 1.9.1 (notebooks print it)."""

import os

import mxnet as mx
from mxnet.gluon import nn


def test_export_returns_none_and_writes_both_files(tmp_path):
    net = nn.HybridSequential()
    net.add(nn.Dense(3, in_units=2))
    net.initialize()
    net.hybridize()
    net(mx.nd.ones((1, 2)))
    prefix = str(tmp_path / "m")
    assert net.export(prefix, epoch=7) is None
    assert os.path.exists(prefix + "-symbol.json")
    assert os.path.exists(prefix + "-0007.params")
