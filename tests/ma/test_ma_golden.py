"""Golden playthroughs: whole seeded Ma and Blade duels between seeded random-legal players, diffed event
by event against files in ``golden/``. Random play reaches every corner (tsubazeriai, disarms, bleeding,
the guard break) that a rule change could move. When a change is meant, regenerate with
``ISSOKU_REGENERATE_GOLDEN=1 pytest tests/ma/test_ma_golden.py`` and review the .jsonl diff like code."""

from pathlib import Path

import pytest

from tests.golden import assert_matches_golden
from issoku.agents.play import play_fight
from issoku.agents.policy import RandomLegal
from issoku.rules.breath.ruleset import BreathConfig, FighterSpec
from issoku.rules.ma import DuelKind, DuelMode, MaDuelConfig, ma_duel

GOLDEN = Path(__file__).parent / "golden"
FIGHTS = {
    "kenshi_vs_ronin_ikkiuchi_seed7": (("kenshi", "ronin"), MaDuelConfig(), 7),
    "ashigaru_vs_wildman_hatashiai_backlight_seed3": (("ashigaru", "wildman"),
                                                      MaDuelConfig(kind=DuelKind.HATASHIAI, stage="backlight"), 3),
    "shinobi_vs_kenshi_sparring_high_ground_seed11": (("shinobi", "kenshi"),
                                                      MaDuelConfig(mode=DuelMode.SPARRING, stage="high_ground"), 11),
}


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_golden_playthrough(name):
    (first, second), config, seed = FIGHTS[name]
    ruleset = ma_duel(config, BreathConfig(fighters=(FighterSpec(first, 0), FighterSpec(second, 1))))
    state = play_fight(ruleset.new_initial_state(seed), [RandomLegal(seed), RandomLegal(seed + 1)])
    assert_matches_golden(GOLDEN / f"{name}.jsonl", state.events)
