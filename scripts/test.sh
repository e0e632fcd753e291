#!/usr/bin/env bash
# Set up (idempotent) and run the test suite: lint, then pytest on both cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check mxnet tests
.venv/bin/python -m pytest -n 2 -p no:cacheprovider tests "$@"
