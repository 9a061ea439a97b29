#!/usr/bin/env bash
# Builds .venv-rllib: RLlib pins gymnasium==1.2.2 (issoku's own environment has a newer one), so its example
# runs in a virtualenv of its own with its own gymnasium and ray, and issoku installed editable with its
# dependencies. The base Python's packages are visible (--system-site-packages) but nothing is assumed of them:
# on a stock machine they hold neither torch nor pettingzoo. torch is installed first, as the CPU build that
# scripts/setup.sh installs (the same ISSOKU_TORCH_INDEX override).
# A stamp names a digest of pyproject.toml and this script: while neither changes, a call is free; when one
# does (a new dependency), the installs run again over the existing venv, which pip makes quick.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-rllib
DIGEST=$(cat pyproject.toml scripts/rllib_venv.sh scripts/constraints.txt | sha256sum | cut -c1-16)
STAMP="$VENV/.issoku-ready-$DIGEST"
[ -f "$STAMP" ] && exit 0
[ -x "$VENV/bin/python" ] || python3 -m venv --system-site-packages "$VENV"
rm -f "$VENV"/.issoku-ready*
PIP=("$VENV/bin/python" -m pip install -q --disable-pip-version-check -c scripts/constraints.txt)
index=()
if [ -n "${ISSOKU_TORCH_INDEX:-}" ]; then index=(--index-url "$ISSOKU_TORCH_INDEX"); fi
"${PIP[@]}" torch==2.13.0 "${index[@]}"
"${PIP[@]}" -e . "ray[rllib]==2.60.0" "gymnasium==1.2.2"
touch "$STAMP"
