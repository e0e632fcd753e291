"""Every registered operator must have at least one record in a ``records_*`` test module."""

import importlib
import pkgutil

import tests._op as pkg
from mxnet._op import all_ops


def _all_records():
    recs = []
    for m in pkgutil.iter_modules(pkg.__path__):
        if m.name.startswith("test_") and m.name != "test_sweep":
            mod = importlib.import_module(f"tests._op.{m.name}")
            recs += getattr(mod, "RECORDS", [])
    return recs


def test_every_operator_has_a_record():
    covered = set()
    from mxnet._op import get_op

    for r in _all_records():
        covered.add(get_op(r.op).name)
    missing = sorted(op.name for op in all_ops() if op.name not in covered)
    assert not missing, f"operators without a test record: {missing}"
