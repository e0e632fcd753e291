"""Records for the creation operators (``_zeros``, ``_arange``, ``*_like``...)."""

import numpy as np
import pytest

from tests._op.harness import Record, run_record

X = np.arange(6, dtype=np.float32).reshape(2, 3)

RECORDS = [
    Record("_zeros", [], {"shape": (2, 3)}, ref=lambda shape: np.zeros(shape, np.float32)),
    Record("_zeros_without_dtype", [], {"shape": (2,)}, ref=lambda shape: np.zeros(shape)),
    Record("_ones", [], {"shape": (3,), "dtype": "int32"},
           ref=lambda shape, dtype: np.ones(shape, dtype)),
    Record("_full", [], {"shape": (2, 2), "value": 7.5},
           ref=lambda shape, value: np.full(shape, value, np.float32)),
    Record("_arange", [], {"start": 1, "stop": 7, "step": 2},
           ref=lambda start, stop, step: np.arange(start, stop, step, dtype=np.float32)),
    Record("_arange", [], {"start": 3, "repeat": 2}, name="arange_repeat",
           ref=lambda start, repeat: np.repeat(np.arange(start, dtype=np.float32), repeat)),
    Record("_eye", [], {"N": 3, "M": 4, "k": 1},
           ref=lambda N, M, k: np.eye(N, M, k, dtype=np.float32)),
    Record("_linspace", [], {"start": 0, "stop": 1, "num": 5},
           ref=lambda start, stop, num: np.linspace(start, stop, num, dtype=np.float32)),
    Record("_linspace", [], {"start": 0, "stop": 1, "num": 4, "endpoint": False},
           name="linspace_open",
           ref=lambda start, stop, num, endpoint: np.linspace(start, stop, num, endpoint=endpoint,
                                                              dtype=np.float32)),
    Record("zeros_like", [X], ref=np.zeros_like),
    Record("ones_like", [X], ref=np.ones_like),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


def test_arange_integer_dtype_truncates_start_and_step():
    # MXNet 1.9.1 casts start and step to the integer dtype before stepping
    import mxnet as mx

    out = mx.nd.arange(2.7, 20, 2.5, dtype="int32").asnumpy()
    np.testing.assert_array_equal(out, [2, 4, 6, 8, 10, 12, 14])
    out = mx.nd.arange(-3.7, 5, 1.9, dtype="uint8").asnumpy()
    np.testing.assert_array_equal(out, np.array([253, 254, 255, 0, 1], dtype=np.uint8))
    assert mx.nd.arange(1.3, 456.6, 1.3, dtype="int32").asnumpy()[-1] == 351


@pytest.mark.parametrize("args", [(0,), (3, 3), (3, 1), (0, 5, -1)], ids=repr)
def test_arange_refuses_empty_ranges(args):
    # MXNet 1.9.1: "Invalid range (start, stop, step) = (3,1,1)", imperative and symbolic
    import mxnet as mx
    from mxnet.base import MXNetError

    with pytest.raises(MXNetError, match=r"Invalid range \(start, stop, step\)"):
        mx.nd.arange(*args)
    with pytest.raises(MXNetError):
        mx.sym.arange(*args).infer_shape()
    assert mx.nd.arange(0, 0.5, 1).shape == (1,)  # a partial step still gives one value
