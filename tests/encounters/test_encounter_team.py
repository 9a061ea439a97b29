"""The focus-fire team for the encounter skirmish: registered, legal at every team size, agreeing on one
focus, and beating random play.

The 500-fight figures are in docs/rules/encounters.md (``issoku head-to-head -a encounter_focus_fire -o
random -n 500 --env encounter_skirmish_v0``); here a small fixed sample is asserted loosely so the test stays
fast.
"""

import pytest

from issoku.agents.encounter_team import FocusFire
from issoku.agents.play import play_fight
from issoku.agents.registry import make_policy
from issoku.evaluation.strength.head_to_head import head_to_head
from issoku.rules.encounters import EncounterDuel, EncounterSkirmish, SkirmishConfig
from issoku.rules.encounters.skirmish_observation import slots

SIDES = [(("kenshi",), ("ono_brute",)), (("kenshi", "yari_guard"), ("ono_brute", "tonfa_monk")),
         (("kenshi",), ("bandit", "bandit", "bandit")),
         (("kenshi", "yari_guard", "archer", "tonfa_monk"), ("ono_brute", "bandit", "bandit", "kusari_fighter"))]


@pytest.mark.parametrize("sides", SIDES, ids=lambda s: f"{len(s[0])}v{len(s[1])}")
def test_the_team_plays_legal_moves_to_an_end_at_every_size(sides):
    ruleset = EncounterSkirmish(SkirmishConfig(sides))
    for seed in range(3):
        state = play_fight(ruleset.new_initial_state(seed), [make_policy("encounter_focus_fire")] * len(ruleset.seat_names))
        assert state.current_seat() is None and state.is_terminal()


def test_allies_agree_on_the_focus():
    ruleset = EncounterSkirmish(SkirmishConfig((("kenshi", "yari_guard", "archer"), ("bandit", "bandit", "bandit"))))
    state = ruleset.new_initial_state(0)
    state.fighters[4].wounds = 12
    team = FocusFire()
    focus = {slots(state, seat)[4 + team.targets(state.observation(seat))[0]] for seat in (0, 1, 2)}
    assert focus == {4}


def test_the_team_refuses_the_duel():
    with pytest.raises(ValueError):
        FocusFire(ruleset=EncounterDuel())


def test_focus_fire_clearly_beats_random_play():
    result = head_to_head("encounter_focus_fire", "random", 40, env="encounter_skirmish_v0")
    win = result.total.win_rate()
    assert win.value >= 0.95 and win.low > 0.85, result.summary()
