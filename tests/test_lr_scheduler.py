"""Learning-rate schedules equal MXNet 1.9.1's sequences (golden lr_scheduler.json)."""

import json
import os

import pytest

from mxnet import lr_scheduler

GOLD = os.path.join(os.path.dirname(__file__), "compat", "golden", "optimizer")
with open(os.path.join(GOLD, "lr_scheduler.json")) as _f:
    CASES = json.load(_f)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["cls"])
def test_sequence_matches_mxnet(case):
    s = getattr(lr_scheduler, case["cls"])(**case["kwargs"])
    assert [s(i) for i in range(40)] == pytest.approx(case["values"], rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("make, msg", [
    (lambda: lr_scheduler.FactorScheduler(step=0), "greater or equal than 1"),
    (lambda: lr_scheduler.FactorScheduler(step=2, factor=2), "no more than 1"),
    (lambda: lr_scheduler.MultiFactorScheduler(step=[3, 2]), "increasing"),
    (lambda: lr_scheduler.PolyScheduler(max_update=0), "strictly positive"),
    (lambda: lr_scheduler.CosineScheduler(max_update=5, warmup_mode="x"), "linear and constant"),
    (lambda: lr_scheduler.LRScheduler(base_lr=0.1, warmup_begin_lr=1.0), "higher than"),
])
def test_bad_arguments(make, msg):
    with pytest.raises(ValueError, match=msg):
        make()


def test_base_call_raises():
    with pytest.raises(NotImplementedError):
        lr_scheduler.LRScheduler()(1)
