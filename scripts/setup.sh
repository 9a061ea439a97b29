#!/usr/bin/env bash
# Sets up issoku in the project's own virtual environment, .venv (git-ignored), and installs into it:
# pip refuses to install into a stock Debian/Ubuntu Python ("externally-managed-environment"), a venv never.
# A .venv already there is reused, so a rerun only installs what is missing.
#
# The venv is made with --system-site-packages: packages the machine already has (numpy, torch, ...) are
# reused instead of downloaded again, which keeps set-up fast where they are present; anything missing or too
# old is installed into .venv, never into the system.
#
# torch goes first and pinned, as the CPU build: an unpinned torch, or torch from the public index on Linux,
# is the CUDA build with gigabytes of dependencies. So set-up first asks pip which torch wheel it would install
# (a dry run, scripts/torch_build.py reads its report); where that is a CUDA build, the CPU build comes from
# https://download.pytorch.org/whl/cpu instead. Every step prints a line with the seconds so far, and the installs
# show pip's own progress and a line every 15 s (ISSOKU_HEARTBEAT) while they work. Overrides (environment variables):
#   ISSOKU_PYTHON=python3.12   the interpreter that makes the venv (default python3; 3.11+)
#   ISSOKU_TORCH_INDEX=https://download.pytorch.org/whl/cpu
#                              where to get the CPU wheel: adds --index-url for the torch step only, and pip is not
#                              asked first (a mirror of the CPU index, say).
#   ISSOKU_TORCH=skip          GPU users: install the torch build you want into .venv yourself
#                              (e.g. `.venv/bin/pip install torch==2.13.0`) and set-up leaves torch alone;
#   ISSOKU_TORCH='torch==2.13.0 --index-url https://download.pytorch.org/whl/cu128'
#                              or name the pip arguments for torch that replace the CPU default.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${ISSOKU_PYTHON:-python3}"
TORCH="${ISSOKU_TORCH:-torch==2.13.0}"
STEP_NAME=setup STEP_TOTAL=4
# shellcheck source=scripts/install_steps.sh
. scripts/install_steps.sh

step 1 "virtual environment .venv"
if [ -x .venv/bin/python ]; then
  echo "  reusing .venv ($(.venv/bin/python --version))"
else
  "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || { echo "setup: $PYTHON is $("$PYTHON" --version 2>&1); issoku needs Python 3.11+ (set ISSOKU_PYTHON)" >&2; exit 2; }
  "$PYTHON" -m venv --system-site-packages .venv \
    || { echo "setup: '$PYTHON -m venv' failed; on Debian/Ubuntu install the venv module first:" \
              "sudo apt-get install python3-venv" >&2; rm -rf .venv; exit 2; }
  echo "  created .venv with $("$PYTHON" --version)"
fi

if [ "$TORCH" = skip ]; then
  step 2 "torch: skipped (ISSOKU_TORCH=skip)"
  .venv/bin/python -c 'import torch' 2>/dev/null \
    || { echo "setup: ISSOKU_TORCH=skip but .venv has no torch; install one first (.venv/bin/pip install torch==2.13.0)" >&2; exit 2; }
else
  step 2 "torch ($TORCH; a download can take minutes)"
  index=() route="as ISSOKU_TORCH says"
  if [ -z "${ISSOKU_TORCH:-}" ]; then
    echo "  asking pip which torch build it would install (a dry run)"
    choose_torch_index .venv/bin/python "$TORCH"
    index=("${TORCH_INDEX[@]}") route=$TORCH_ROUTE
  fi
  echo "  torch: $route (at $((SECONDS - started))s)"
  # shellcheck disable=SC2086  # ISSOKU_TORCH may hold several pip arguments
  pip_shown .venv/bin/python $TORCH "${index[@]}"
fi

step 3 "issoku and its dependencies (pip install -e '.[dev,clients,ray]', torch held at its pin; minutes the first time)"
pip_shown .venv/bin/python -c scripts/constraints.txt -e '.[dev,clients,ray]'

step 4 "check"
.venv/bin/issoku --help >/dev/null
echo "setup: done in $((SECONDS - started))s; run .venv/bin/issoku (or 'source .venv/bin/activate', then issoku)"
