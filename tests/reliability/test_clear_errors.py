"""Table-driven wrong calls: MXNet 1.9.1's exception type and a message that names things.

The table is ``error_cases.py``; the types MXNet raises were recorded by
``tests/compat/make_golden_reliability.py``. ``KNOWN`` lists the cases still differing,
each with the reason, so the table keeps growing without hiding regressions.
"""

from __future__ import annotations

import json
import os
import warnings

import pytest

from tests.reliability.error_cases import CASES, SETUP

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "compat", "golden", "reliability", "errors.json")
with open(GOLDEN) as _f:
    EXPECTED = json.load(_f)

# case id -> why it still differs (owned by a subsystem under work; see the report)
KNOWN: dict[str, str] = {
    "nd_softmax_output_label": "SoftmaxOutput does not check the label shape (4,) against "
                               "the data's batch (2,)",
}


def _norm(text: str) -> str:
    """Compare case- and space-insensitively; MXNet prints shapes as [2,3] or (2, 3)."""
    return text.replace(" ", "").replace("[", "(").replace("]", ")").lower()


def _run(code: str) -> BaseException | None:
    scope: dict = {}
    exec(SETUP, scope)  # noqa: S102 - fixed test-table code
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(code, scope)  # noqa: S102
        except Exception as e:  # noqa: BLE001
            return e
    return None


@pytest.mark.parametrize("cid,code,words", [c for c in CASES if EXPECTED[c[0]]["type"]],
                         ids=[c[0] for c in CASES if EXPECTED[c[0]]["type"]])
def test_wrong_call_raises_like_mxnet(cid, code, words):
    if cid in KNOWN:
        pytest.xfail(KNOWN[cid])
    err = _run(code)
    want = EXPECTED[cid]["type"]
    assert err is not None, f"{cid}: no error (MXNet raises {want})"
    names = {t.__name__ for t in type(err).__mro__}
    assert want in names, f"{cid}: raised {type(err).__name__}: {err} (MXNet: {want})"
    msg = _norm(str(err))
    missing = [w for w in words if _norm(w) not in msg]
    assert not missing, f"{cid}: message {str(err)!r} does not mention {missing}"
