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
