"""Golden observations: a digest of both seats' observations and of the legal actions at every decision of
seeded random-legal encounter duels, over every archetype of the shipped data.

The encoder is tuned for speed (docs/benchmarks.md); this holds it to the same bytes. When a change to the
observation or the rules is meant, regenerate with
``ISSOKU_REGENERATE_GOLDEN=1 pytest tests/encounters/test_encounter_observation_golden.py`` and say so in
the commit.
"""

import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from issoku.envs.encounter_duel_v0 import make_ruleset
from issoku.rules.encounters import EncounterConfig

GOLDEN = Path(__file__).parent / "golden" / "observations.json"
SETUPS = {
    "kenshi_ono_brute": dict(fighters=("kenshi", "ono_brute")),
    "yari_guard_tonfa_monk": dict(fighters=("yari_guard", "tonfa_monk"), start_distance=2),
    "archer_bandit": dict(fighters=("archer", "bandit"), start_distance=8),
    "kusari_fighter_kenshi_focused": dict(fighters=("kusari_fighter", "kenshi"), focused_attack=True),
    "tonfa_monk_ono_brute_short": dict(fighters=("tonfa_monk", "ono_brute"), start_distance=1, round_limit=6),
}
FIGHTS = 16


def digest(ruleset) -> str:
    """sha256 over every decision of ``FIGHTS`` seeded random-legal fights: both seats' observations
    (float32 bytes), then the legal actions."""
    sha = hashlib.sha256()
    rng = random.Random(1)
    for seed in range(FIGHTS):
        state = ruleset.new_initial_state(seed, record_events=False)
        while True:
            for seat in range(2):
                sha.update(state.observation(seat).tobytes())
            if state.current_seat() is None:
                break
            legal = state.legal_actions()
            sha.update(repr(legal).encode())
            state.apply(rng.choice(legal))
    return sha.hexdigest()


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_observations_and_legal_actions_match_the_golden_digest(name):
    got = digest(make_ruleset(EncounterConfig(**SETUPS[name])))
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("ISSOKU_REGENERATE_GOLDEN"):
        golden[name] = got
        GOLDEN.write_text(json.dumps(golden, indent=2, sort_keys=True) + "\n")
    assert got == golden[name], f"{name}: observations or legal actions changed"
