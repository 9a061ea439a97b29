#!/usr/bin/env bash
# Sets up (scripts/setup.sh: the project venv .venv) and runs the whole test suite with that venv's Python,
# one pytest-xdist worker per CPU (ISSOKU_TEST_WORKERS=0 runs it in one process; pytest options pass through).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/browser.sh
export PATH="$PWD/.venv/bin:$PATH"   # tests that call `issoku` or `python` find the venv's
.venv/bin/python -m pytest -n "${ISSOKU_TEST_WORKERS:-auto}" "$@"
