"""Golden observations: a digest of every seat's observation and of the legal actions at every decision
of seeded random fights, for the core fight, the Ma duel (three set-ups) and the 2v2 skirmish.

The encoder and the legal-action memo are tuned for speed; this holds them to the same bytes. When a
change to the observation or the rules is meant, regenerate with
``ISSOKU_REGENERATE_GOLDEN=1 pytest tests/breath/test_observation_golden.py`` and say so in the commit.
"""

from pathlib import Path

import pytest

from issoku.envs.breath_duel_v0 import make_ruleset
from issoku.envs.breath_skirmish_v0 import make_ruleset as make_skirmish_ruleset
from tests.golden import assert_digest_matches_golden, observation_digest

GOLDEN = Path(__file__).parent / "golden" / "observations.json"
RULESETS = {
    "core_1v1": lambda: make_ruleset(ma=False),
    "core_2v1": lambda: make_ruleset(["kenshi", "ronin", {"archetype": "ashigaru", "side": 1}], ma=False),
    "ma_ikkiuchi": lambda: make_ruleset(),
    "ma_sparring_high_ground": lambda: make_ruleset(["ronin", "kenshi"], mode="sparring", kind="hatashiai",
                                                    stage="high_ground"),
    "ma_hatashiai_backlight": lambda: make_ruleset(["ashigaru", "wildman"], kind="hatashiai", stage="backlight"),
    "skirmish_2v2": lambda: make_skirmish_ruleset(),
}
FIGHTS = 12


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_observations_and_legal_actions_match_the_golden_digest(name):
    assert_digest_matches_golden(GOLDEN, name, observation_digest(RULESETS[name](), FIGHTS))
