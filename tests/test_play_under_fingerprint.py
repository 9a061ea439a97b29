"""Same rules fingerprint, same play: seeded random-legal fights of every ruleset, digested and recorded beside
the fingerprint they ran under (``tests/golden/play_under_fingerprint.json``).

A match store reuses a game whose key (with the rules fingerprint) it holds, a reference suite's ratings and a
checkpoint are taken for today's rules while the fingerprint matches; so a rules change that leaves the
fingerprint alone lets stale results pass for current ones (EN-108 and EN-113 once moved encounter play under
the old fingerprint). This file fails then, and regenerating does not help until the ruleset's ``version`` is
bumped. The encounter setups include the grapples among many (where EN-108's Deflect matters) and the Focused
Attack that Stuns (EN-113).
"""

from pathlib import Path

import pytest

from issoku.envs import breath_duel_v0, breath_skirmish_v0, encounter_duel_v0, encounter_skirmish_v0
from issoku.envs import tempo_duel_v0, tempo_skirmish_v0
from issoku.rules.encounters import EncounterConfig, SkirmishConfig
from tests.golden import assert_play_matches_fingerprint

GOLDEN = Path(__file__).parent / "golden" / "play_under_fingerprint.json"
FIGHTS = 30
RULESETS = {
    "breath_duel": breath_duel_v0.make_ruleset,
    "breath_skirmish": breath_skirmish_v0.make_ruleset,
    "tempo_duel": tempo_duel_v0.make_ruleset,
    "tempo_skirmish": tempo_skirmish_v0.make_ruleset,
    "encounter_duel": encounter_duel_v0.make_ruleset,
    "encounter_duel_focused": lambda: encounter_duel_v0.make_ruleset(
        EncounterConfig(fighters=("kusari_fighter", "kenshi"), focused_attack=True)),
    "encounter_skirmish": encounter_skirmish_v0.make_ruleset,
    "encounter_skirmish_focused": lambda: encounter_skirmish_v0.make_ruleset(SkirmishConfig(focused_attack=True)),
}


@pytest.mark.rule("EN-108", "EN-113")
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_play_moves_only_with_the_rules_fingerprint(name):
    assert_play_matches_fingerprint(GOLDEN, name, RULESETS[name](), FIGHTS)
