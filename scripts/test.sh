#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/browser.sh
python3 -m pytest "$@"
