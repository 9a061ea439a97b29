#!/usr/bin/env bash
# Builds .venv-rllib: RLlib pins gymnasium==1.2.2 (issoku's own environment has a newer one), so its example
# runs in a virtualenv of its own with its own gymnasium and ray, and issoku installed editable with its
# dependencies. The base Python's packages are visible (--system-site-packages) but nothing is assumed of them:
# on a stock machine they hold neither torch nor pettingzoo. torch is installed first, as the CPU build that
# scripts/setup.sh installs (the same choice: ISSOKU_TORCH_INDEX, else the CPU build even where pip's index
# serves CUDA), and each step prints a line with the seconds so far and pip's progress (scripts/install_steps.sh).
# A stamp names a digest of pyproject.toml and this script: while neither changes, a call is free; when one
# does (a new dependency), the installs run again over the existing venv, which pip makes quick.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-rllib
DIGEST=$(cat pyproject.toml scripts/rllib_venv.sh scripts/install_steps.sh scripts/torch_build.py scripts/constraints.txt \
  | sha256sum | cut -c1-16)
STAMP="$VENV/.issoku-ready-$DIGEST"
[ -f "$STAMP" ] && exit 0
STEP_NAME=rllib-venv STEP_TOTAL=3
# shellcheck source=scripts/install_steps.sh
. scripts/install_steps.sh
step 1 "virtual environment $VENV"
[ -x "$VENV/bin/python" ] || python3 -m venv --system-site-packages "$VENV"
rm -f "$VENV"/.issoku-ready*
step 2 "torch==2.13.0 (asking pip which build it would install; a download can take minutes)"
choose_torch_index "$VENV/bin/python" torch==2.13.0
echo "  torch: $TORCH_ROUTE (at $((SECONDS - started))s)"
pip_shown "$VENV/bin/python" -c scripts/constraints.txt torch==2.13.0 "${TORCH_INDEX[@]}"
step 3 "issoku, ray[rllib] and gymnasium 1.2.2 (minutes the first time)"
pip_shown "$VENV/bin/python" -c scripts/constraints.txt -e . "ray[rllib]==2.60.0" "gymnasium==1.2.2"
echo "rllib-venv: ready in $((SECONDS - started))s"
touch "$STAMP"
