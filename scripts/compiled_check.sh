#!/usr/bin/env bash
# Holds the compiled build (scripts/compiled_venv.sh) to the same bytes as pure Python: builds or reuses
# .venv-compiled, then runs with its Python the tests that compare play against committed files (the golden event
# logs, the observation digests, the legal-action memo, the golden playthroughs, the code fingerprints and the
# scenario replays) and tests/test_compiled_build.py (the modules are compiled, from this checkout). Pytest options
# pass through (-x, -q, -n 2...).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/compiled_venv.sh
export PATH="$PWD/.venv-compiled/bin:$PATH"
.venv-compiled/bin/python -m pytest -p no:cacheprovider "$@" \
  tests/test_compiled_build.py \
  tests/ma/test_ma_golden.py tests/tempo/test_tempo_golden.py tests/encounters/test_encounter_golden.py \
  tests/skirmish/test_skirmish_golden.py \
  tests/breath/test_observation_golden.py tests/encounters/test_encounter_observation_golden.py \
  tests/breath/test_legal_memo.py \
  tests/test_fuzz_and_playthroughs.py tests/test_play_under_fingerprint.py \
  tests/envs/test_env_scenario.py tests/tempo/test_tempo_scenarios.py tests/tempo/test_tempo_skirmish_scenarios.py \
  tests/skirmish/test_scenario_file.py
