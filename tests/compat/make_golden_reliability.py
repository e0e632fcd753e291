"""Record MXNet 1.9.1's exception type and message for each wrong call in
``tests/reliability/error_cases.py``. Run ONCE under the oracle python:

    /root/.cache/mxnet-oracle/bin/python tests/compat/make_golden_reliability.py
"""

from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "reliability"))
sys.path = [p for p in sys.path if os.path.abspath(p) != os.path.abspath(os.path.join(HERE, "..", ".."))]

from error_cases import CASES, SETUP  # noqa: E402


def main() -> None:
    scope: dict = {}
    exec(SETUP, scope)  # noqa: S102 - test-table code, run under the oracle only
    out = {}
    for cid, code, _words in CASES:
        env = dict(scope)
        try:
            exec(code, env)  # noqa: S102
            out[cid] = {"type": None, "message": ""}
        except Exception as e:  # noqa: BLE001
            msg = str(e)
            out[cid] = {"type": type(e).__name__, "message": msg[-400:]}
    dest = os.path.join(HERE, "golden", "reliability", "errors.json")
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print(f"wrote {len(out)} cases to {dest}")


if __name__ == "__main__":
    main()
