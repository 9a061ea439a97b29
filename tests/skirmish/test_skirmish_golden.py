"""Golden playthrough: a whole seeded 2v2 skirmish between seeded random-legal players, diffed event by
event against ``golden/``. Random play walks, sprints, breaks through, enters and leaves the Core and
the Outside, and fells fighters one by one, so any move of the zone rules or the timeline shows here.
When a change is meant, regenerate with ``ISSOKU_REGENERATE_GOLDEN=1 pytest tests/skirmish/test_skirmish_golden.py``
and review the .jsonl diff like code."""

from pathlib import Path

from tests.golden import assert_matches_golden
from issoku.agents.play import play_fight
from issoku.agents.policy import RandomLegal
from issoku.envs.breath_skirmish_v0 import make_ruleset

GOLDEN = Path(__file__).parent / "golden"


def test_golden_2v2_playthrough():
    rules = make_ruleset([["kenshi", "shinobi"], ["ronin", "ashigaru"]], round_limit=10)
    seed = 18
    state = play_fight(rules.new_initial_state(seed), [RandomLegal(seed + seat) for seat in range(4)])
    assert state.winner_side() == 1 and state.is_eliminated(0) and state.is_eliminated(1)
    moves = {e.data["maneuver"] for e in state.events if e.kind == "moved"}
    assert moves == {"walk", "sprint", "breakthrough", "free_core_entry", "force_core_breakthrough", "forced_core_exit",
                     "enter_outside_zone"}  # every movement maneuver
    assert_matches_golden(GOLDEN / "kenshi_shinobi_vs_ronin_ashigaru_seed18.jsonl", state.events)
