#!/usr/bin/env bash
# Set up (idempotent) and run the main job: train LeNet on the bundled digits end to end.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python examples/train_digits.py "$@"
