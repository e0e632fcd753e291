"""Operands that do not broadcast: MXNet's shape-check message (d2l's ``A / A.sum(axis=1)``)."""

import pytest

import mxnet as mx
from mxnet import np
from mxnet.base import MXNetError

MSG = "operands could not be broadcast together with shapes [5,4] [5]"


@pytest.mark.parametrize(
    "fn",
    [
        lambda a, b: a / b,
        lambda a, b: a - b,
        lambda a, b: np.maximum(a, b),
        lambda a, b: a > b,
    ],
)
def test_np_binary_ops_report_unbroadcastable_shapes(fn):
    with pytest.raises(
        MXNetError, match=r"l == 1 \|\| r == 1: " + MSG.replace("[", r"\[").replace("]", r"\]")
    ):
        fn(np.ones((5, 4)), np.ones((5,)))


def test_nd_broadcast_ops_report_unbroadcastable_shapes():
    with pytest.raises(MXNetError) as e:
        mx.nd.broadcast_add(mx.nd.ones((2, 5, 4)), mx.nd.ones((3, 1, 1)))
    assert "operands could not be broadcast together with shapes [2,5,4] [3,1,1]" in str(e.value)


def test_broadcastable_shapes_still_work():
    assert (np.ones((5, 4)) / np.ones((5, 1))).shape == (5, 4)
