"""Run ONCE under the oracle (real MXNet 1.9.1): writes tests/compat/golden/rnn_layer/.

Fused Gluon recurrent layers saved by MXNet 1.9.1: ``save_parameters`` files (which name a
fused layer's weights ``_unfused.<layer>[.<l|r>_cell].<gate>_<kind>``), ``export`` files of
the same nets after an imperative first call, and the inputs/outputs to check them against.
"""

import os

import numpy as np

import mxnet as mx
from mxnet.gluon import nn, rnn

OUT = os.path.join(os.path.dirname(__file__), "golden", "rnn_layer")


def build(kind):
    """The nets (the same code runs in tests/gluon/test_rnn_layer_files.py)."""
    net = nn.HybridSequential(prefix="net_")
    with net.name_scope():
        net.add(nn.Embedding(10, 4))
        if kind == "bilstm":
            net.add(rnn.LSTM(3, num_layers=2, bidirectional=True, layout="NTC"))
        elif kind == "gru":
            net.add(rnn.GRU(3, num_layers=2, layout="NTC"))
        else:
            net.add(rnn.RNN(3, activation="relu", bidirectional=True, layout="NTC"))
        net.add(nn.Dense(2))
    return net


def main():
    os.makedirs(OUT, exist_ok=True)
    mx.random.seed(3)
    np.random.seed(3)
    for kind in ["bilstm", "gru", "rnnrelu"]:
        net = build(kind)
        net.initialize(mx.init.Xavier())
        x = mx.nd.array(np.random.randint(0, 10, size=(2, 5)))
        y = net(x)
        net.save_parameters(os.path.join(OUT, f"{kind}.params"))
        net.hybridize()
        net(x)
        net.export(os.path.join(OUT, kind))
        mx.nd.save(os.path.join(OUT, f"{kind}-io.params"), {"x": x, "y": y})


if __name__ == "__main__":
    main()
