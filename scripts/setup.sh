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
# is the CUDA build with gigabytes of dependencies. Overrides (environment variables):
#   ISSOKU_PYTHON=python3.12   the interpreter that makes the venv (default python3; 3.11+)
#   ISSOKU_TORCH_INDEX=https://download.pytorch.org/whl/cpu
#                              where to get the CPU wheel: adds --index-url for the torch step only. Without it pip
#                              uses its configured index (which serves the CPU wheel on macOS and Windows, and
#                              on machines whose pip is configured for it).
#   ISSOKU_TORCH=skip          GPU users: install the torch build you want into .venv yourself
#                              (e.g. `.venv/bin/pip install torch==2.13.0`) and set-up leaves torch alone;
#   ISSOKU_TORCH='torch==2.13.0 --index-url https://download.pytorch.org/whl/cu128'
#                              or name the pip arguments for torch that replace the CPU default.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${ISSOKU_PYTHON:-python3}"
TORCH="${ISSOKU_TORCH:-torch==2.13.0}"
started=$SECONDS
step() { echo "setup step $1/4 (at ${2}s): $3"; }

step 1 $((SECONDS - started)) "virtual environment .venv"
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
PIP=(.venv/bin/python -m pip install -q --disable-pip-version-check)
PIP_SHOWN=(.venv/bin/python -m pip install --disable-pip-version-check --progress-bar on)  # the big download: its bar

if [ "$TORCH" = skip ]; then
  step 2 $((SECONDS - started)) "torch: skipped (ISSOKU_TORCH=skip)"
  .venv/bin/python -c 'import torch' 2>/dev/null \
    || { echo "setup: ISSOKU_TORCH=skip but .venv has no torch; install one first (.venv/bin/pip install torch==2.13.0)" >&2; exit 2; }
else
  index=()
  if [ -n "${ISSOKU_TORCH_INDEX:-}" ]; then index=(--index-url "$ISSOKU_TORCH_INDEX"); fi
  step 2 $((SECONDS - started)) "torch ($TORCH${ISSOKU_TORCH_INDEX:+ from $ISSOKU_TORCH_INDEX}; a download can take minutes)"
  # shellcheck disable=SC2086  # ISSOKU_TORCH may hold several pip arguments
  "${PIP_SHOWN[@]}" $TORCH "${index[@]}"
fi

step 3 $((SECONDS - started)) "issoku and its dependencies (pip install -e '.[dev,clients,ray]', torch held at its pin; minutes the first time)"
"${PIP[@]}" -c scripts/constraints.txt -e '.[dev,clients,ray]'

step 4 $((SECONDS - started)) "check"
.venv/bin/issoku --help >/dev/null
echo "setup: done in $((SECONDS - started))s; run .venv/bin/issoku (or 'source .venv/bin/activate', then issoku)"
