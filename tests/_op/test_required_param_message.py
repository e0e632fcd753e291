"""A missing required parameter is reported as MXNet 1.9.1 words it."""

import pytest

import mxnet as mx
from mxnet.base import MXNetError


def test_message_names_operator_and_given_attributes():
    with pytest.raises(MXNetError) as e:
        mx.nd.expand_dims(mx.nd.ones(2))
    assert str(e.value).endswith(
        'Required parameter axis of int is not presented, in operator expand_dims(name="")'
    )
    with pytest.raises(MXNetError) as e:
        mx.nd.clip(mx.nd.ones(2), a_min=0)
    assert str(e.value).endswith('in operator clip(name="", a_min="0")')
    with pytest.raises(MXNetError) as e:
        mx.sym.FullyConnected(mx.sym.var("x"), name="f", no_bias=True)
    assert str(e.value).endswith('in operator FullyConnected(name="", no_bias="True")')
