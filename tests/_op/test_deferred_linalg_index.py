"""LAPACK failures of potrf/potri/inverse and out-of-range gather_nd indices are reported
when the result is read (MXNet's engine checks them while the kernel runs)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError


def _raises_on_read(arr, kind, text):
    with pytest.raises(kind) as info:
        arr.asnumpy()
    assert text in str(info.value)
    arr.asnumpy()  # reported once: reads normally afterwards
    mx.nd.waitall()


@pytest.mark.parametrize(
    "fn,data,text",
    [
        (mx.nd.linalg.potrf, [[1.0, 2.0], [2.0, 4.0]], "ret == 0 (2 vs. 0) : spotrf failed"),
        (mx.nd.linalg.potrf, [[-1.0, 0.0], [0.0, -1.0]], "ret == 0 (1 vs. 0) : spotrf failed"),
        (mx.nd.linalg.potri, [[0.0, 0.0], [0.0, 0.0]], "ret == 0 (1 vs. 0) : spotri failed"),
        (mx.nd.linalg.potri, [[1.0, 0.0], [2.0, 0.0]], "ret == 0 (2 vs. 0) : spotri failed"),
        (mx.nd.linalg.inverse, [[1.0, 2.0], [2.0, 4.0]], "(2 vs. 0) : the input matrix is non"),
        (mx.nd.linalg.inverse, [[0.0, 0.0], [0.0, 0.0]], "(1 vs. 0) : the input matrix is non"),
    ],
)
def test_lapack_failures_are_deferred(fn, data, text):
    out = fn(mx.nd.array(data))
    assert out.shape == (2, 2)
    _raises_on_read(out * 2, MXNetError, text)


def test_potrf_double_and_batch():
    out = mx.nd.linalg.potrf(mx.nd.array([[-1.0, 0.0], [0.0, 1.0]], dtype="float64"))
    _raises_on_read(out, MXNetError, "dpotrf failed in lapack on cpu")
    batch = mx.nd.stack(mx.nd.eye(2), mx.nd.array([[-1.0, 0.0], [0.0, -1.0]]))
    _raises_on_read(mx.nd.linalg.potrf(batch), MXNetError, "(1 vs. 0)")
    good = mx.nd.linalg.potrf(mx.nd.array([[4.0, 2.0], [2.0, 3.0]]))
    np.testing.assert_allclose(good.asnumpy(), [[2, 0], [1, np.sqrt(2)]], rtol=1e-6)


def test_gather_nd_out_of_range_is_deferred_index_error():
    data = mx.nd.arange(6).reshape((2, 3))
    out = mx.nd.gather_nd(data, mx.nd.array([[0, 5], [1, 1]]))
    assert out.shape == (2,)
    _raises_on_read(out, IndexError, "index 5 is out of bounds for axis 0 with size 2")
    assert mx.nd.gather_nd(data, mx.nd.array([[-1], [0]])).asnumpy().tolist() == [3.0]


def test_symbolic_executor_defers_too():
    a = mx.sym.Variable("a")
    ex = mx.sym.linalg.potrf(a).bind(mx.cpu(), {"a": mx.nd.array([[-1.0, 0.0], [0.0, -1.0]])})
    _raises_on_read(ex.forward()[0], MXNetError, "spotrf failed")
    ex = mx.sym.gather_nd(a, mx.sym.Variable("i")).bind(
        mx.cpu(), {"a": mx.nd.arange(6).reshape((2, 3)), "i": mx.nd.array([[2], [0]])}
    )
    _raises_on_read(ex.forward()[0], IndexError, "index 2 is out of bounds")
