"""The focus-fire team fighter of the tempo skirmish: always legal at every size, every ally on the same target,
and clearly better than random play (a small fixed sample here; the 200-fight figures are in docs/results/heuristics_vs_random.md)."""

from __future__ import annotations

import numpy as np
import pytest

from issoku.agents.play import play_fight
from issoku.agents.policy import RandomLegal
from issoku.agents.registry import make_policy
from issoku.agents.tempo_team_scripted import FocusFire
from issoku.envs.adapter import legal_mask
from issoku.evaluation.strength.head_to_head import head_to_head
from issoku.rules.kernel.dice import ScriptedDice
from issoku.rules.tempo import TempoDuel, TempoSkirmish, TempoSkirmishConfig

SIDES = [(("fencer",), ("knight",)), (("fencer", "knight"), ("spearman", "archer")),
         (("spearman",), ("archer", "crossbowman", "brawler")),
         (("fencer", "knight", "spearman", "brawler"), ("archer", "crossbowman", "knife_fighter", "knight"))]


@pytest.mark.parametrize("sides", SIDES, ids=lambda s: f"{len(s[0])}v{len(s[1])}")
def test_focus_fire_plays_whole_skirmishes_legally(sides):
    ruleset = TempoSkirmish(TempoSkirmishConfig(sides=sides))
    for game in range(4):
        state = ruleset.new_initial_state(game, record_events=False)
        team = FocusFire(seed=game)
        policies = [team if (side == game % 2) else RandomLegal(seed=game) for side in ruleset.seat_teams]
        play_fight(state, policies)
        assert state.current_seat() is None


def test_focus_fire_strikes_the_weakest_enemy_in_reach():
    # A fencer between two knights, both adjacent (start distance 1); the second knight is hurt.
    ruleset = TempoSkirmish(TempoSkirmishConfig(sides=(("fencer",), ("knight", "knight")), start_distance=1))
    state = ruleset.new_initial_state(dice=ScriptedDice([15, 3, 2]))
    state.hp[2] = 5
    seat = state.current_seat()
    choice = FocusFire(seed=0, feint_rate=0.0)(state.observation(seat),
                                                legal_mask(state.legal_actions(), len(ruleset.action_names)))
    target = state.target_of(seat, choice)
    assert ruleset.action_names[choice] == "proactive:melee_attack:enemy1" and target == 2


def test_focus_fire_refuses_another_rules_table():
    with pytest.raises(ValueError, match="tempo_skirmish_v0 agent"):
        make_policy("tempo_focus_fire", seed=0, ruleset=TempoDuel())


def test_focus_fire_clearly_beats_random_legal_in_a_2v2():
    result = head_to_head("tempo_focus_fire", "random", 16, env="tempo_skirmish_v0")
    win = result.total.win_rate()
    assert result.total.duels == 16 and win.low > 0.5, result.summary()
    assert np.isclose(win.value, result.total.wins / 16)
