"""Records for reductions (sum, mean, norm, argmax...) and sorting (topk, sort, argsort).

MXNet 1.x conventions checked: full reductions give shape (1,), integer arrays keep their
dtype, index outputs are float32 unless a dtype is given.
"""

import numpy as np
import pytest

import mxnet as mx
from tests._op.harness import Record, run_record

rng = np.random.RandomState(1)
X = rng.uniform(-2, 2, (2, 3, 4)).astype(np.float32)
XP = rng.uniform(0.5, 1.5, (2, 3, 4)).astype(np.float32)
XI = (np.arange(24).reshape(2, 3, 4) % 7 - 3).astype(np.int32)
XN = np.array([[1.0, np.nan, 2.0], [np.nan, 3.0, 4.0]], np.float32)


def _dtype(expected):
    def check(outs, ins):
        assert outs[0].dtype == np.dtype(expected), f"dtype {outs[0].dtype} != {expected}"

    return check


def _np_axes(x, axis, exclude):
    if axis is None or axis == ():
        return tuple(range(x.ndim))
    axis = (axis,) if isinstance(axis, int) else tuple(axis)
    axis = tuple(a % x.ndim for a in axis)
    if exclude:
        return tuple(i for i in range(x.ndim) if i not in axis)
    return axis


def _red(fn):
    def ref(x, axis=None, keepdims=False, exclude=False):
        axes = _np_axes(x, axis, exclude)
        out = fn(x, axis=axes, keepdims=keepdims)
        out = np.asarray(out)
        return out.reshape(1) if out.ndim == 0 else out

    return ref


_FNS = {
    "sum": np.sum,
    "mean": np.mean,
    "prod": np.prod,
    "max": np.max,
    "min": np.min,
    "nansum": np.nansum,
    "nanprod": np.nanprod,
}
_CASES = [
    {},
    {"axis": 1},
    {"axis": (0, 2), "keepdims": True},
    {"axis": -1, "exclude": True},
    {"keepdims": True},
]

RECORDS = []
for _n, _f in _FNS.items():
    for _i, _p in enumerate(_CASES):
        _x = XP if _n in ("prod", "nanprod") else X
        RECORDS.append(
            Record(_n, [_x], _p, ref=_red(_f), grad=_i < 3, rtol=1e-5, atol=1e-5, name=f"{_n}_{_i}")
        )
RECORDS += [
    Record("sum_axis", [X], {"axis": 2}, ref=_red(np.sum)),
    Record("max_axis", [X], {"axis": 0}, ref=_red(np.max)),
    Record("min_axis", [X], {"axis": (1, 2)}, ref=_red(np.min)),
    Record("nansum", [XN], {"axis": 1}, name="nansum_nan", ref=_red(np.nansum)),
    Record("nanprod", [XN], name="nanprod_nan", ref=_red(np.nanprod)),
    Record("sum", [XI], {"axis": 1}, name="sum_int", ref=_red(np.sum), check=_dtype(np.int32)),
    # MXNet 1.9.1: integer mean truncates and keeps int32
    Record(
        "mean",
        [XI],
        {"axis": 2},
        name="mean_int",
        ref=lambda x, **k: np.array([[-1, 0, 0], [0, 0, 0]]),
        check=_dtype(np.int32),
    ),
    Record("max", [XI], name="max_int", ref=_red(np.max), check=_dtype(np.int32)),
]


def _norm_ref(x, ord=2, axis=None, out_dtype=None, keepdims=False):
    axes = _np_axes(x, axis, False)
    x = x.astype(np.float64)
    if ord == 1:
        out = np.abs(x).sum(axis=axes, keepdims=keepdims)
    else:
        out = np.sqrt((x * x).sum(axis=axes, keepdims=keepdims))
    return out.reshape(1) if out.ndim == 0 else out


RECORDS += [
    Record("norm", [X], ref=_norm_ref, grad=True),
    Record("norm", [X], {"ord": 1, "axis": 1}, name="norm_l1", ref=_norm_ref, grad=True),
    Record("norm", [X], {"axis": (1, 2), "keepdims": True}, name="norm_axes", ref=_norm_ref),
    Record(
        "norm",
        [X],
        {"out_dtype": "float64"},
        name="norm_out_dtype",
        ref=_norm_ref,
        check=_dtype(np.float64),
    ),
]


def _arg_ref(fn):
    def ref(x, axis=None, keepdims=False):
        if axis is None:
            out = np.asarray(fn(x.reshape(-1))).reshape((1,) * x.ndim if keepdims else (1,))
        else:
            out = fn(x, axis=axis)
            if keepdims:
                out = np.expand_dims(out, axis)
        return out.astype(x.dtype)

    return ref


RECORDS += [
    Record("argmax", [X], {"axis": 1}, ref=_arg_ref(np.argmax), check=_dtype(np.float32)),
    Record("argmax", [X], name="argmax_all", ref=_arg_ref(np.argmax)),
    Record(
        "argmax",
        [XI],
        {"axis": 2, "keepdims": True},
        name="argmax_int",
        ref=_arg_ref(np.argmax),
        check=_dtype(np.int32),
    ),
    Record("argmin", [X], {"axis": -1}, ref=_arg_ref(np.argmin)),
    Record("argmax_channel", [X], ref=lambda x: np.argmax(x, axis=1).astype(x.dtype)),
]


def _topk_ref(x, axis=-1, k=1, ret_typ="indices", is_ascend=False, dtype="float32"):
    if axis is None:
        x, axis = x.reshape(-1), 0
    order = np.argsort(x if is_ascend else -x, axis=axis, kind="stable")
    n = x.shape[axis]
    k = n if k < 1 else k
    idx = np.take(order, np.arange(k), axis=axis)
    vals = np.take_along_axis(x, idx, axis=axis)
    if ret_typ == "value":
        return vals
    if ret_typ == "indices":
        return idx.astype(dtype)
    if ret_typ == "mask":
        m = np.zeros_like(x)
        np.put_along_axis(m, idx, 1, axis=axis)
        return m
    return [vals, idx.astype(dtype)]


RECORDS += [
    Record("topk", [X], {"k": 2}, ref=_topk_ref, check=_dtype(np.float32)),
    Record(
        "topk",
        [X],
        {"k": 2, "ret_typ": "value", "axis": 1},
        name="topk_value",
        ref=_topk_ref,
        grad=True,
    ),
    Record(
        "topk",
        [X],
        {"k": 3, "ret_typ": "both", "is_ascend": True, "dtype": "int32"},
        name="topk_both",
        ref=_topk_ref,
    ),
    Record("topk", [X], {"k": 2, "ret_typ": "mask", "axis": 0}, name="topk_mask", ref=_topk_ref),
    Record(
        "topk", [X], {"k": 5, "axis": None, "ret_typ": "value"}, name="topk_flat", ref=_topk_ref
    ),
    Record("topk", [X], {"k": 0, "ret_typ": "value"}, name="topk_all", ref=_topk_ref),
    Record("sort", [X], ref=lambda x, **k: np.sort(x, axis=-1), grad=True),
    Record(
        "sort",
        [X],
        {"axis": 1, "is_ascend": False},
        name="sort_desc",
        ref=lambda x, axis, is_ascend: -np.sort(-x, axis=axis),
    ),
    Record("sort", [X], {"axis": None}, name="sort_flat", ref=lambda x, axis: np.sort(x, None)),
    Record(
        "argsort",
        [X],
        ref=lambda x: np.argsort(x, axis=-1).astype(np.float32),
        check=_dtype(np.float32),
    ),
    Record(
        "argsort",
        [X],
        {"axis": 0, "is_ascend": False, "dtype": "int64"},
        name="argsort_desc",
        check=_dtype(np.int64),
        ref=lambda x, axis, is_ascend, dtype: np.argsort(-x, axis=axis, kind="stable"),
    ),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


def test_stable_descending_ties():
    # MXNet 1.9.1: argsort(is_ascend=False) and topk keep the original order of ties
    a = mx.nd.array([1, 1, 0, 1, 0, 1])
    assert mx.nd.argsort(a, is_ascend=False).asnumpy().tolist() == [0, 1, 3, 5, 2, 4]
    assert mx.nd.topk(a, k=6).asnumpy().tolist() == [0, 1, 3, 5, 2, 4]


def test_shapes_and_fluent():
    x = mx.nd.array(X)
    assert mx.nd.sum(x).shape == (1,)
    assert mx.nd.sum(x, axis=()).shape == (1,)
    assert mx.nd.sum(x, keepdims=True).shape == (1, 1, 1)
    assert mx.nd.mean(x, exclude=True).shape == (1,)
    assert x.sum(axis=1).shape == (2, 4)
    assert x.max().shape == (1,)
    assert isinstance(mx.nd.topk(x, ret_typ="both"), list)
    assert not isinstance(mx.nd.topk(x, ret_typ="value"), list)


def test_errors():
    x = mx.nd.array(X)
    with pytest.raises(mx.base.MXNetError, match="axis 3"):
        mx.nd.sum(x, axis=3)
    with pytest.raises(mx.base.MXNetError, match="ord=1 and ord=2"):
        mx.nd.norm(x, ord=3)
    with pytest.raises(mx.base.MXNetError, match="ret_typ"):
        mx.nd.topk(x, ret_typ="foo")
    with pytest.raises(mx.base.MXNetError, match="Cannot find argument 'foo'"):
        mx.nd.sum(x, foo=1)


def test_prod_gradient_is_out_over_x_as_mxnet():
    # MXNet 1.9.1 differentiates prod as out / x: NaN at zero inputs
    a = mx.nd.array([[0.0, 1], [2, 2]])
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.prod(a, axis=1)
    y.backward()
    g = a.grad.asnumpy()
    assert np.isnan(g[0, 0]) and g[0, 1] == 0 and g[1].tolist() == [2, 2]


def test_max_min_gradient_with_infinite_elements():
    # GluonTS's mixture log-sum-exp takes max over log(0) = -inf components under
    # autograd: the forward must stay finite and the gradient go to the maxima only
    inf = float("inf")
    a = mx.nd.array([[-4.0, -inf], [1.0, 2.0], [3.0, 3.0]])
    a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.max_axis(a, axis=-1, keepdims=True)
        z = (y * mx.nd.array([[1], [2], [3]])).sum()
    z.backward()
    np.testing.assert_array_equal(y.asnumpy().ravel(), [-4.0, 2.0, 3.0])
    np.testing.assert_array_equal(a.grad.asnumpy(), [[1, 0], [0, 2], [3, 3]])
    b = mx.nd.array([[-inf, -inf], [inf, 1.0]])
    b.attach_grad()
    with mx.autograd.record():
        y = mx.nd.min(b, axis=1)
    y.backward()
    np.testing.assert_array_equal(y.asnumpy(), [-inf, 1.0])
    np.testing.assert_array_equal(b.grad.asnumpy(), [[1, 1], [0, 1]])
