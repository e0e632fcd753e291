"""A Dense layer fed inputs of another width than it was initialized with: MXNet 1.9.1's
"Shape inconsistent, Provided = [3,4], inferred shape=(3,5)" (prefixed by the graph node's
name when hybridized), not the kernel's own matrix-multiply complaint."""

import pytest

import mxnet as mx
from mxnet.base import MXNetError


@pytest.mark.parametrize("hybrid", [False, True])
def test_dense_input_width_mismatch_message(hybrid):
    net = mx.gluon.nn.Dense(3)
    net.initialize()
    if hybrid:
        net.hybridize()
    net(mx.nd.ones((2, 4)))
    with pytest.raises(MXNetError) as err:
        net(mx.nd.ones((2, 5)))
    msg = str(err.value)
    head = "Shape inconsistent, Provided = [3,4], inferred shape=(3,5)"
    if hybrid:
        assert msg.startswith(f"Error in operator {net.name}_fwd: {head}")
    else:
        assert msg.startswith(head)
