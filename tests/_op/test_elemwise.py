import numpy as np
import pytest

from tests._op.harness import Record, run_record

rng = np.random.RandomState(0)
A = rng.uniform(-2, 2, (2, 3)).astype(np.float32)
B = rng.uniform(0.5, 2, (2, 3)).astype(np.float32)

RECORDS = [
    Record("abs", [A], ref=np.abs),
    Record("broadcast_add", [A, B[:1]], ref=np.add, grad=True),
    Record("_plus_scalar", [A], {"scalar": 2.0}, ref=lambda x, scalar: x + scalar, grad=True),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)
