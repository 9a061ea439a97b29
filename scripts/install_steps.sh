# Sourced by scripts/setup.sh and scripts/rllib_venv.sh: numbered step lines with the seconds so far, a
# heartbeat through long installs, pip's output without its "already satisfied" lines, and where torch comes
# from. The caller sets STEP_NAME (the word that starts each step line) and STEP_TOTAL.
CPU_TORCH_INDEX=https://download.pytorch.org/whl/cpu
started=$SECONDS

# step N TEXT: "<STEP_NAME> step N/<STEP_TOTAL> (at Ts): TEXT"
step() { echo "$STEP_NAME step $1/$STEP_TOTAL (at $((SECONDS - started))s): $2"; }

# pip_shown PYTHON ARGS...: `PYTHON -m pip install ARGS` with pip's own progress (what it collects, downloads,
# builds and installs, its download bar) and a line every ISSOKU_HEARTBEAT seconds (default 15) while it works,
# so no step is silent for minutes; the long list of requirements already satisfied is left out.
pip_shown() {
  local python=$1
  shift
  ( while sleep "${ISSOKU_HEARTBEAT:-15}"; do echo "  ... still installing (at $((SECONDS - started))s)"; done ) &
  local ticker=$! status=0
  "$python" -m pip install --disable-pip-version-check --progress-bar on "$@" 2>&1 \
    | sed -u -e '/^Requirement already satisfied/d' || status=$?
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  return "$status"
}

# choose_torch_index PYTHON TORCH_SPEC: sets TORCH_INDEX (pip arguments, maybe none) and TORCH_ROUTE (words).
# ISSOKU_TORCH_INDEX wins; otherwise pip is asked which wheel it would install (a dry run: metadata only, nothing
# installed) and a CUDA build is replaced by the CPU build from the PyTorch CPU index. GPU stays opt-in (ISSOKU_TORCH).
choose_torch_index() {
  local python=$1 spec=$2 report build
  TORCH_INDEX=()
  if [ -n "${ISSOKU_TORCH_INDEX:-}" ]; then
    TORCH_INDEX=(--index-url "$ISSOKU_TORCH_INDEX")
    TORCH_ROUTE="from $ISSOKU_TORCH_INDEX (ISSOKU_TORCH_INDEX)"
    return
  fi
  if ! report=$("$python" -m pip install --dry-run --quiet --no-deps --disable-pip-version-check --report - "$spec" 2>/dev/null); then
    TORCH_ROUTE="from pip's index (it did not say which build it serves; set ISSOKU_TORCH_INDEX=$CPU_TORCH_INDEX if it is CUDA)"
    return
  fi
  build=$(printf '%s' "$report" | "$python" scripts/torch_build.py)
  case "$build" in
    unknown) TORCH_ROUTE="from pip's index (its answer was not a report; set ISSOKU_TORCH_INDEX=$CPU_TORCH_INDEX if it is CUDA)" ;;
    cuda) TORCH_INDEX=(--index-url "$CPU_TORCH_INDEX")
          TORCH_ROUTE="the CPU build from $CPU_TORCH_INDEX (pip's index here serves a CUDA build; GPU users: ISSOKU_TORCH)" ;;
    cpu) TORCH_ROUTE="the CPU build from pip's index" ;;
    installed) TORCH_ROUTE="already installed" ;;
  esac
}
