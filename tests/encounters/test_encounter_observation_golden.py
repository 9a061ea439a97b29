"""Golden observations: a digest of both seats' observations and of the legal actions at every decision of
seeded random-legal encounter duels, over every archetype of the shipped data.

The encoder is tuned for speed (docs/benchmarks.md); this holds it to the same bytes. When a change to the
observation or the rules is meant, regenerate with
``ISSOKU_REGENERATE_GOLDEN=1 pytest tests/encounters/test_encounter_observation_golden.py`` and say so in
the commit.
"""

from pathlib import Path

import pytest

from issoku.envs.encounter_duel_v0 import make_ruleset
from issoku.rules.encounters import EncounterConfig
from tests.golden import assert_digest_matches_golden, observation_digest

GOLDEN = Path(__file__).parent / "golden" / "observations.json"
SETUPS = {
    "kenshi_ono_brute": dict(fighters=("kenshi", "ono_brute")),
    "yari_guard_tonfa_monk": dict(fighters=("yari_guard", "tonfa_monk"), start_distance=2),
    "archer_bandit": dict(fighters=("archer", "bandit"), start_distance=8),
    "kusari_fighter_kenshi_focused": dict(fighters=("kusari_fighter", "kenshi"), focused_attack=True),
    "tonfa_monk_ono_brute_short": dict(fighters=("tonfa_monk", "ono_brute"), start_distance=1, round_limit=6),
}
FIGHTS = 16


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_observations_and_legal_actions_match_the_golden_digest(name):
    ruleset = make_ruleset(EncounterConfig(**SETUPS[name]))
    assert_digest_matches_golden(GOLDEN, name, observation_digest(ruleset, FIGHTS))
