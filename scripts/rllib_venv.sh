#!/usr/bin/env bash
# Builds .venv-rllib once: RLlib pins gymnasium==1.2.2 (issoku's own environment has a newer one), so
# its example runs in a virtualenv of its own with its own gymnasium and ray, and issoku installed editable
# with its dependencies. The base Python's packages are visible (--system-site-packages) but nothing is
# assumed of them: on a stock machine they hold neither torch nor pettingzoo. torch is installed first, as
# the CPU build that scripts/setup.sh installs (the same ISSOKU_TORCH_INDEX override). A stamp file makes
# later calls free; its name changes when what this script installs changes, so an older venv is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-rllib
STAMP="$VENV/.issoku-ready-2"
[ -f "$STAMP" ] && exit 0
rm -rf "$VENV"
python3 -m venv --system-site-packages "$VENV"
PIP=("$VENV/bin/python" -m pip install -q --disable-pip-version-check -c scripts/constraints.txt)
index=()
if [ -n "${ISSOKU_TORCH_INDEX:-}" ]; then index=(--index-url "$ISSOKU_TORCH_INDEX"); fi
"${PIP[@]}" torch==2.13.0 "${index[@]}"
"${PIP[@]}" -e . "ray[rllib]==2.60.0" "gymnasium==1.2.2"
touch "$STAMP"
