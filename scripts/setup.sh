#!/usr/bin/env bash
# Create .venv with the project and its test tools. torch is pinned to the local CPU wheel
# through constraints.txt so no CUDA build is ever pulled.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/pip install -q --upgrade pip >/dev/null 2>&1 || true
.venv/bin/pip install -q -c constraints.txt torch==2.13.0
.venv/bin/pip install -q -c constraints.txt -e ".[test,image]"
