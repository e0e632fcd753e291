"""``out=`` of another dtype than the operator infers (values checked on MXNet 1.9.1)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError


@pytest.mark.parametrize(
    "call, out_dtype",
    [
        (lambda a, o: mx.nd.elemwise_add(a, a, out=o), "int32"),
        (lambda a, o: mx.nd.relu(a, out=o), "float16"),
        (lambda a, o: mx.nd.broadcast_add(a, a, out=o), "float64"),
        (lambda a, o: mx.nd.zeros_like(a, out=o), "int32"),
        (lambda a, o: mx.nd.Cast(a, dtype="float16", out=o), "float32"),
        (lambda a, o: mx.nd._internal._zeros(shape=(2, 3), out=o), "float64"),
    ],
)
def test_out_of_another_dtype_is_type_inconsistent(call, out_dtype):
    # MXNet takes out='s dtype as a constraint of type inference: "Type inconsistent"
    a = mx.nd.ones((2, 3))
    o = mx.nd.zeros((2, 3), dtype=out_dtype)
    with pytest.raises(MXNetError, match="Type inconsistent, Provided = " + out_dtype):
        call(a, o)
    assert (o.asnumpy() == 0).all()  # nothing written


@pytest.mark.parametrize("dtype", ["float64", "float16"])
def test_samplers_without_dtype_take_the_dtype_of_out(dtype):
    o = mx.nd.zeros((2, 3), dtype=dtype)
    r = mx.nd.random.uniform(2, 3, shape=(2, 3), out=o)
    assert r is o and o.dtype == np.dtype(dtype)
    assert ((o.asnumpy() >= 2) & (o.asnumpy() <= 3)).all()
    with pytest.raises(MXNetError, match="Type inconsistent"):
        mx.nd.random.uniform(shape=(2, 3), dtype="float32", out=o)


@pytest.mark.parametrize(
    "call",
    [
        lambda: mx.nd.random.randint(0, 3, shape=(2,), out=mx.nd.zeros((2,))),
        lambda: mx.nd.random.uniform(shape=(2,), out=mx.nd.zeros((2,), dtype="int32")),
        lambda: mx.nd.sample_uniform(
            mx.nd.zeros((2,)), mx.nd.ones((2,)), out=mx.nd.zeros((2,), dtype="int32")
        ),
    ],
)
def test_samplers_refuse_an_out_of_the_other_kind(call):
    # MXNet: float samplers write float16/32/64 only, randint int32/int64 only
    with pytest.raises(MXNetError):
        call()


def test_out_must_be_ndarrays():
    # MXNet 1.9.1: x.tile(4, 2) puts 2 in `out` and fails with a TypeError
    x = mx.nd.ones((2, 3))
    with pytest.raises(TypeError):
        x.tile(4, 2)
    with pytest.raises(TypeError):
        mx.nd.elemwise_add(x, x, out=[x, 3])
