"""Records for the ``_npx_*`` operators of ``mx.npx`` (relu, sigmoid, reshape, nonzero)."""

import numpy as np
import pytest

import mxnet.numpy_extension  # noqa: F401  (registers the _npx_* operators)
from tests._op.harness import Record, run_record

rng = np.random.RandomState(7)
X = rng.uniform(-2, 2, (2, 3, 4)).astype(np.float32)
M = np.array([[0, 1.5, 0], [2, 0, -1]], np.float32)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x.astype(np.float64)))


def _int_dtype(outs, ins):
    assert outs[0].dtype == np.int32, outs[0].dtype
    np.testing.assert_array_equal(outs[0], [0, 0, 1])


RECORDS = [
    Record("_npx_relu", [X], ref=lambda x: np.maximum(x, 0), grad=True),
    Record("_npx_sigmoid", [X], ref=_sigmoid, grad=True),
    Record("_npx_sigmoid", [np.array([-1, 2, 40], np.int32)], name="npx_sigmoid_int",
           check=_int_dtype, symbolic=False),
    Record("_npx_reshape", [X], {"newshape": (-2, -1)}, ref=lambda x, **k: x.reshape(2, 12),
           grad=True),
    Record("_npx_reshape", [X], {"newshape": (-5, -2)}, name="npx_reshape_merge",
           ref=lambda x, **k: x.reshape(6, 4)),
    Record("_npx_reshape", [X], {"newshape": (-6, 1, 2, -4)}, name="npx_reshape_split",
           ref=lambda x, **k: x.reshape(1, 2, 3, 4)),
    Record("_npx_reshape", [X.reshape(6, 4)], {"newshape": (-1, 12), "reverse": True},
           name="npx_reshape_reverse", ref=lambda x, **k: x.reshape(2, 12)),
    Record("_npx_nonzero", [M], ref=lambda x: np.argwhere(x).astype(np.int64),
           symbolic=False),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


def _true_scalar(outs, ins):
    assert outs[0].dtype == np.bool_ and outs[0].shape == () and bool(outs[0])


RECORDS.append(Record("_npx_constraint_check", [np.array([True, True])], {"msg": "bad"},
                      check=_true_scalar, symbolic=False))
