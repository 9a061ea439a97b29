#!/usr/bin/env bash
# Builds .venv-rllib once: RLlib pins gymnasium==1.2.2 (issoku's own environment has a newer one), so
# its example runs in a virtualenv of its own that sees the system's packages (torch among them) but
# holds its own gymnasium and ray, with issoku installed editable. A stamp file makes later calls free.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-rllib
STAMP="$VENV/.issoku-ready"
[ -f "$STAMP" ] && exit 0
rm -rf "$VENV"
python3 -m venv --system-site-packages "$VENV"
"$VENV/bin/python" -m pip install -q -c scripts/constraints.txt "ray[rllib]==2.60.0" "gymnasium==1.2.2"
"$VENV/bin/python" -m pip install -q --no-deps -e .
touch "$STAMP"
