"""Mixed-dtype inputs to an operator whose inputs must agree: MXNet 1.9.1's type-inference
message ("Incompatible attr in node  at 1-th input: expected float32, got float64"), the
text users search for."""

import pytest

import mxnet as mx
from mxnet.base import MXNetError

_MSG = "Incompatible attr in node  at 1-th input: expected {}, got {}"


@pytest.mark.parametrize(
    "fn",
    [
        lambda a, b: a + b,
        lambda a, b: mx.nd.broadcast_sub(a, b),
        lambda a, b: mx.nd.elemwise_mul(a, b),
        lambda a, b: a == b,
        lambda a, b: mx.nd.dot(a, b),
    ],
)
def test_mixed_dtypes_report_mxnet_type_inference_error(fn):
    a = mx.nd.ones((2,))
    b = mx.nd.ones((2,), dtype="float64")
    with pytest.raises(MXNetError) as err:
        fn(a, b).wait_to_read()
    assert _MSG.format("float32", "float64") in str(err.value)
    with pytest.raises(MXNetError, match="expected int32, got float32"):
        fn(mx.nd.ones((2,), dtype="int32"), a).wait_to_read()


def test_concat_and_stack_mixed_dtypes():
    a, b = mx.nd.ones((2,)), mx.nd.ones((2,), dtype="float64")
    with pytest.raises(MXNetError) as err:
        mx.nd.concat(a, b, dim=0)
    assert str(err.value).startswith(
        "Check failed: in_type->at(i) == dtype || in_type->at(i) == -1: Non-uniform data type "
        "in Concat, expected data type float32, got data type float64 for input 1"
    )
    with pytest.raises(MXNetError, match=_MSG.format("float32", "float64")):
        mx.nd.stack(a, b)


def test_axis_out_of_range_messages_start_like_mxnet():
    x = mx.nd.ones((2, 3))
    for fn in (lambda: mx.nd.argmax(x, axis=2), lambda: mx.nd.softmax(x, axis=3)):
        with pytest.raises(
            MXNetError, match=r"^Check failed: axis < ndim && axis >= -ndim: axis \d"
        ):
            fn().wait_to_read()
