"""Golden playthroughs: whole seeded duels between scripted fighters, diffed event by event against
files in ``golden/``. Any change to the rules' behaviour shows up here as a diff; when the change is
meant, regenerate with ``ISSOKU_REGENERATE_GOLDEN=1 pytest tests/tempo/test_tempo_golden.py`` and
review the diff of the .jsonl files like code."""

from pathlib import Path

import pytest

from tests.golden import assert_matches_golden
from issoku.agents.play import play_fight
from issoku.agents.tempo_scripted import SCRIPTED
from issoku.rules.tempo import TempoConfig, TempoDuel

GOLDEN = Path(__file__).parent / "golden"
FIGHTS = {
    "fencer_heuristic_vs_knight_always_parry_seed7": (("fencer", "knight"), "heuristic", "always_parry", 7, None),
    "spearman_feint_counter_vs_brawler_heuristic_seed3": (("spearman", "brawler"), "feint_counter", "heuristic",
                                                          3, 1),
    "archer_heuristic_vs_knife_fighter_heuristic_seed11": (("archer", "knife_fighter"), "heuristic", "heuristic",
                                                           11, 0),
}


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_golden_playthrough(name):
    fighters, agent_a, agent_b, seed, initiator = FIGHTS[name]
    ruleset = TempoDuel(TempoConfig(fighters, initiator, start_distance=6))
    state = play_fight(ruleset.new_initial_state(seed), [SCRIPTED[agent_a](seed=seed), SCRIPTED[agent_b](seed=seed + 1)])
    assert_matches_golden(GOLDEN / f"{name}.jsonl", state.events)
