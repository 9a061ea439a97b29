"""The scripted encounter fighters: registered, legal everywhere, and the heuristic beats random play.

The 500-duel figure is in docs/rules/encounters.md (``issoku head-to-head -a encounter_heuristic -o random
-n 500 --env encounter_duel_v0``); here a fixed sample is asserted loosely so the test stays fast.
"""

import pytest

from issoku.agents.encounter_scripted import SCRIPTED, expected_total
from issoku.agents.play import play_fight
from issoku.agents.registry import make_policy
from issoku.evaluation.head_to_head import head_to_head
from issoku.rules.encounters import EncounterConfig, EncounterDuel


@pytest.mark.parametrize("name", ["encounter_aggressive", "encounter_defensive", "encounter_heuristic"])
def test_each_scripted_fighter_plays_legal_moves_to_an_end(name):
    for fighters in (("kenshi", "ono_brute"), ("archer", "tonfa_monk")):
        ruleset = EncounterDuel(EncounterConfig(fighters))
        for seed in range(5):
            state = play_fight(ruleset.new_initial_state(seed), [make_policy(name, seed=seed), make_policy(name)])
            assert state.current_seat() is None


def test_the_heuristic_clearly_beats_random_legal_play():
    result = head_to_head("encounter_heuristic", "random", 60, env="encounter_duel_v0")
    win = result.total.win_rate()
    assert win.value >= 0.9 and win.low > 0.8, result.summary()


def test_expected_pool_totals_are_fixed_and_ordered():
    assert expected_total(5, 3) == expected_total(5, 3)
    assert expected_total(3, 3) < expected_total(5, 3) < expected_total(5, 4)
    assert 16 < expected_total(3, 3) < 20          # three exploding d10s: 3 × 6.11
    assert set(SCRIPTED) == {"aggressive", "defensive", "heuristic"}


def test_the_heuristic_raises_only_what_its_roll_clears():
    from issoku.agents.encounter_scripted import Heuristic, View

    def view(atn):
        return View("act", "water", 0, 0, "water", atn, {}, (8, 3), 0.0)
    assert Heuristic().attack(view(60)) == "attack"
    assert Heuristic().attack(view(15)).startswith("attack:feint")
