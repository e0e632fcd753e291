"""Records for the ``mx.np`` sorting / searching / statistics operators (``_npi_sort``,
``_npi_argsort``, ``_npi_unique``, ``_npi_bincount``, ``_npi_histogram``, ``_npi_percentile``).
"""

import numpy as np
import pytest

import mxnet.numpy._sort  # noqa: F401  (registers the operators)
from tests._op.harness import Record, run_record

X = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], dtype=np.float32)
I = np.array([0, 1, 1, 3], dtype=np.int32)
W = np.array([0.5, 1.0, 1.0, 2.0], dtype=np.float32)
H = np.array([1.0, 2.0, 2.0, 3.0, 9.0], dtype=np.float32)


def _unique_ref(a, **kw):
    res = np.unique(a, return_index=kw.get("return_index", False),
                    return_inverse=kw.get("return_inverse", False),
                    return_counts=kw.get("return_counts", False), axis=kw.get("axis"))
    return list(res) if isinstance(res, tuple) else res


def _hist_ref(a, bins=None, bin_cnt=None, range=None):  # noqa: A002
    if bin_cnt is not None:
        return list(np.histogram(a, bins=bin_cnt, range=range))
    return list(np.histogram(a, bins=bins))


def _pct_ref(a, q=None, axis=None, interpolation="linear", keepdims=False, q_scalar=None):
    q = q_scalar if q is None else q
    return np.percentile(a, q, axis=axis, method=interpolation, keepdims=keepdims)


RECORDS = [
    Record("_npi_sort", [X], {}, ref=lambda a: np.sort(a), grad=True),
    Record("_npi_sort", [X], {"axis": None}, name="sort_flat", ref=lambda a, axis: np.sort(a,
                                                                                          None)),
    Record("_npi_sort", [X], {"axis": 0, "is_ascend": False}, name="sort_desc",
           ref=lambda a, axis, is_ascend: -np.sort(-a, axis=0)),
    Record("_npi_argsort", [X], {"dtype": "int64"},
           ref=lambda a, dtype: np.argsort(a, kind="stable")),
    Record("_npi_argsort", [X], {"axis": None}, name="argsort_flat_float",
           ref=lambda a, axis: np.argsort(a, axis=None, kind="stable").astype(np.float32)),
    Record("_npi_unique", [np.array([3.0, 1.0, 3.0, 2.0], np.float32)],
           {"return_index": True, "return_inverse": True, "return_counts": True},
           ref=_unique_ref, symbolic=False),
    Record("_npi_unique", [np.array([[1.0, 2.0], [1.0, 2.0], [0.0, 1.0]], np.float32)],
           {"axis": 0}, name="unique_axis", ref=_unique_ref, symbolic=False),
    Record("_npi_bincount", [I], {"minlength": 6},
           ref=lambda x, minlength: np.bincount(x, minlength=minlength), symbolic=False),
    Record("_npi_bincount", [I, W], {"has_weights": True}, name="bincount_weights",
           ref=lambda x, w, has_weights: np.bincount(x, w), symbolic=False),
    Record("_npi_histogram", [H], {"bin_cnt": 4, "range": (0.0, 8.0)}, ref=_hist_ref),
    Record("_npi_histogram", [H, np.array([0.0, 2.0, 5.0, 10.0], np.float32)], {},
           name="histogram_edges", ref=_hist_ref),
    Record("_npi_percentile", [X], {"q_scalar": 40.0}, ref=_pct_ref),
    Record("_npi_percentile", [X, np.array([10.0, 50.0, 75.0], np.float32)],
           {"axis": (1,), "keepdims": True}, name="percentile_q_array", ref=_pct_ref),
    Record("_npi_percentile", [X], {"q_scalar": 40.0, "interpolation": "midpoint",
                                    "axis": (0,)}, name="percentile_midpoint", ref=_pct_ref),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)
