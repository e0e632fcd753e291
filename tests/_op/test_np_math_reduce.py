"""Records for the NumPy-interface reductions and products (``_np_sum``, ``_npi_mean``,
``_npi_std``, ``_npi_argmax``, ``_np_cumsum``, ``_npi_average``, ``_np_dot``, ``_npi_matmul``,
``_npi_tensordot``, ``_npi_einsum``...).

Conventions checked against MXNet 1.9.1: full reductions are 0-d, integer sums keep the
dtype, the mean of integers is float32, argmax gives int64, std/var have a zero gradient.
"""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from tests._op.harness import Record, run_record

rng = np.random.RandomState(7)
X = rng.uniform(-2, 2, (2, 3, 4)).astype(np.float32)
M = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
K = rng.uniform(-1, 1, (4, 5)).astype(np.float32)
V = rng.uniform(-1, 1, (4,)).astype(np.float32)
W = rng.uniform(0.5, 1.5, (3, 4)).astype(np.float32)
XI = (np.arange(24).reshape(2, 3, 4) % 7 - 3).astype(np.int32)
XB = np.array([[True, False, True], [True, True, True]])


def _dtype(expected):
    def check(outs, ins):
        assert outs[0].dtype == np.dtype(expected), f"dtype {outs[0].dtype} != {expected}"

    return check


def _axes(axis):
    return axis


def _red(fn):
    def ref(x, axis=None, keepdims=False, dtype=None, initial=None, **k):
        return np.asarray(fn(x, axis=axis, keepdims=keepdims))

    return ref


RECORDS = [
    Record("_np_sum", [X], params={"axis": (0, 2)}, ref=_red(np.sum), grad=True),
    Record("_np_sum", [X], ref=_red(np.sum), name="_np_sum_all", rtol=1e-4),
    Record("_np_sum", [XI], params={"axis": 1, "keepdims": True}, ref=_red(np.sum),
           check=_dtype(np.int32), name="_np_sum_int"),
    Record("_np_sum", [XB], params={"axis": 0}, ref=_red(np.sum), check=_dtype(np.int64),
           name="_np_sum_bool"),
    Record("_np_prod", [X * 0.5], params={"axis": 1}, ref=_red(np.prod), grad=True),
    Record("_np_max", [X], params={"axis": 2}, ref=_red(np.max), grad=True),
    Record("_np_min", [X], params={"axis": (0, 1), "keepdims": True}, ref=_red(np.min),
           grad=True),
    Record("_npi_mean", [X], params={"axis": -1}, ref=_red(np.mean), grad=True),
    Record("_npi_mean", [XI], ref=_red(np.mean), check=_dtype(np.float32),
           name="_npi_mean_int"),
    Record("_npi_std", [X], params={"axis": 1, "ddof": 1},
           ref=lambda x, axis=None, ddof=0, keepdims=False, **k: np.std(
               x, axis=axis, ddof=ddof, keepdims=keepdims), rtol=1e-4, atol=1e-5),
    Record("_npi_var", [X], params={"axis": (0, 2), "keepdims": True},
           ref=lambda x, axis=None, ddof=0, keepdims=False, **k: np.var(
               x, axis=axis, ddof=ddof, keepdims=keepdims), rtol=1e-4, atol=1e-5),
    Record("_npi_argmax", [X], params={"axis": 1},
           ref=lambda x, axis=None, keepdims=False: np.argmax(x, axis=axis),
           check=_dtype(np.int64)),
    Record("_npi_argmin", [X], ref=lambda x, axis=None, keepdims=False: np.argmin(x),
           check=_dtype(np.int64)),
    Record("_np_all", [XB], params={"axis": 1},
           ref=lambda x, axis=None, keepdims=False: np.all(x, axis=axis)),
    Record("_np_any", [X > 1.5], params={"axis": (0, 2)},
           ref=lambda x, axis=None, keepdims=False: np.any(x, axis=axis)),
    Record("_np_cumsum", [X], params={"axis": 1}, grad=True, rtol=1e-5, atol=1e-5,
           ref=lambda x, axis=None, dtype=None: np.cumsum(x, axis=axis)),
    Record("_npi_average", [M, W], params={"axis": 1}, grad=True, rtol=1e-5, atol=1e-5,
           ref=lambda a, w, axis=None, **k: np.average(a, axis=axis, weights=w)),
    Record("_npi_average", [M], params={"axis": 0, "weighted": False}, grad=True,
           name="_npi_average_unweighted",
           ref=lambda a, axis=None, **k: np.average(a, axis=axis)),
    Record("_np_dot", [M, K], ref=lambda a, b: np.dot(a, b), grad=True),
    Record("_np_dot", [X, V], ref=lambda a, b: np.dot(a, b), grad=True, name="_np_dot_nd_1d"),
    Record("_npi_matmul", [X, K], ref=lambda a, b: np.matmul(a, b), grad=True, rtol=1e-5,
           atol=1e-5),
    Record("_npi_tensordot", [X, M], params={"a_axes_summed": (1, 2),
                                             "b_axes_summed": (0, 1)}, grad=True,
           ref=lambda a, b, a_axes_summed, b_axes_summed: np.tensordot(
               a, b, (a_axes_summed, b_axes_summed)), rtol=1e-5, atol=1e-5),
    Record("_npi_tensordot_int_axes", [M, K], params={"axes": 1}, grad=True,
           ref=lambda a, b, axes: np.tensordot(a, b, axes)),
    Record("_npi_einsum", [M, K], params={"subscripts": "ij,jk->ik"}, grad=True,
           ref=lambda a, b, subscripts, **k: np.einsum(subscripts, a, b)),
    Record("_np_trace", [X], params={"offset": 1, "axis1": 1, "axis2": 2}, grad=True,
           ref=lambda x, offset=0, axis1=0, axis2=1: np.trace(x, offset, axis1, axis2)),
    Record("_npi_polyval", [V, M], grad=True, rtol=1e-5, atol=1e-5,
           ref=lambda p, x: np.polyval(p, x)),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


def test_full_reduction_is_0d():
    x = mx.np.array([[1.0, 2.0], [3.0, 4.0]])
    for fn in (mx.np.sum, mx.np.mean, mx.np.max, mx.np.prod, mx.np.std, mx.np.argmax):
        assert fn(x).shape == ()


def test_std_var_gradient_is_zero():
    x = mx.np.array([[1.5, -2.0, 3.0], [4.0, 5.5, -6.0]])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.np.std(x, axis=0)
    y.backward()
    assert (x.grad.asnumpy() == 0).all()


def test_max_gradient_goes_to_every_tie():
    x = mx.np.array([[1.0, 2.0, 2.0], [2.0, 1.0, 1.0]])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.np.max(x)
    y.backward()
    assert x.grad.asnumpy().tolist() == [[0, 1, 1], [1, 0, 0]]


def test_errors():
    x = mx.np.array([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(MXNetError):
        mx.np.sum(x, axis=2)
    with pytest.raises(MXNetError):
        mx.np.sum(x, axis=(0, 0))
    with pytest.raises(MXNetError):
        mx.np.max(mx.np.zeros((0,)))
    with pytest.raises(MXNetError):
        mx.np.dot(x.astype("int32"), x.astype("int32"))
    with pytest.raises(MXNetError):
        mx.np.matmul(mx.np.array(2.0), x)
    with pytest.raises(MXNetError):
        mx.np.sum(x, initial=1.0)


def test_integer_statistics_truncate():
    i = mx.np.array([[1, -2, 3], [4, 5, -6]], dtype="int32")
    assert mx.np.std(i).item() == 3 and mx.np.var(i).item() == 15
    assert mx.np.average(i).dtype == np.int32
    u = mx.np.array([[1, 254, 3], [4, 5, 250]], dtype="uint8")
    np.testing.assert_allclose(mx.np.std(u, axis=1, dtype="float32").asnumpy(),
                               [2.1602468, 4.9665546], rtol=1e-6)
