#!/usr/bin/env bash
# Installs issoku and its dependencies into the current Python (3.11+).
# The CPU build of torch goes first: an unpinned torch would pull a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q torch==2.13.0
python3 -m pip install -q -c scripts/constraints.txt -e '.[dev,clients]'
