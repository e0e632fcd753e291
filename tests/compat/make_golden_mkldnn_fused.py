"""Write the oneDNN-fused model golden files with REAL MXNet 1.9.1 (run under the oracle).

    /root/.cache/mxnet-oracle/bin/python tests/compat/make_golden_mkldnn_fused.py

A small Gluon net (Conv2D+BatchNorm+ReLU, a residual sum, Dense) optimized with
``optimize_for(x, backend='MKLDNN')`` and exported: its ``-symbol.json`` holds
``_sg_mkldnn_conv`` / ``_sg_mkldnn_fully_connected`` nodes with subgraphs. ``io.params``
keeps the input (``data``) and MXNet's output (``out``).
"""

import os

import numpy as np

import mxnet as mx
from mxnet.gluon import nn

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "mkldnn_fused")


class Net(nn.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.conv1 = nn.Conv2D(4, 3, padding=1, in_channels=2)
            self.bn1 = nn.BatchNorm(in_channels=4)
            self.conv2 = nn.Conv2D(4, 3, padding=1, in_channels=4)
            self.fc = nn.Dense(3, activation="relu", in_units=4 * 5 * 5)

    def hybrid_forward(self, F, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = F.relu(self.conv2(y) + y)
        return self.fc(y)


def main():
    os.makedirs(OUT, exist_ok=True)
    rs = np.random.RandomState(3)
    net = Net(prefix="net_")
    net.initialize()
    for p in net.collect_params().values():
        p.set_data(mx.nd.array(rs.uniform(0.1, 0.9, p.shape)))
    x = mx.nd.array(rs.uniform(-1, 1, (2, 2, 5, 5)))
    net.optimize_for(x, backend="MKLDNN")
    out = net(x)
    net.export(os.path.join(OUT, "fused"))
    mx.nd.save(os.path.join(OUT, "io.params"), {"data": x, "out": out})


if __name__ == "__main__":
    main()
