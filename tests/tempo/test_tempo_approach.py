"""The combat-approach fighter (agents/tempo_approach.py): it edges in by Combat Moves that no Counter-Attack may
answer, steps back out before the next square would draw one, feints once in reach, and decides duels against itself (its
legal play over whole duels: test_tempo_agents.py)."""

import pytest

from issoku.agents.play import play_fight
from issoku.agents.tempo_approach import CombatApproach
from issoku.rules.tempo import TempoConfig, TempoDuel, action
from tempo_helpers import decide, duel, kinds, legal_names, play


@pytest.mark.rule("TP-024", "TP-036", "TP-G08", "TP-G11")
def test_a_combat_move_whose_success_stays_out_of_reach_draws_no_counter_attack_though_a_critical_lands_adjacent():
    state = duel([20], start_distance=3)
    play(state, "proactive:combat_move:close")         # a success would end at 2, beyond the knight's reach of 1
    assert legal_names(state) == ["pass", "react:retreat"]
    play(state, "pass")                                # 20: a critical, all the way in
    assert state.distance == 1 and not kinds(state, "damage")


@pytest.mark.rule("TP-024", "TP-G08")
@pytest.mark.parametrize("start,expected", [(6, "proactive:combat_move:close"), (3, "proactive:combat_move:close"),
                                            (2, "proactive:move:open"), (1, "proactive:feint")])
def test_it_edges_in_while_a_success_stays_out_of_reach_and_steps_out_before_the_next_square(start, expected):
    assert decide(CombatApproach(seed=0), duel(start_distance=start)) == action(expected)


@pytest.mark.rule("TP-G05")
@pytest.mark.parametrize("start,expected", [(4, "proactive:combat_move:close"), (2, "pass")])
def test_with_3_ap_left_it_edges_in_once_more_but_does_not_step_out_without_the_ap_to_come_back(start, expected):
    state = duel([1, 1, 1], start_distance=start)
    for _ in range(3):                                   # three failed Combat Moves: 9 AP spent, no square gained
        play(state, "proactive:combat_move:close", "pass")
    assert (state.distance, state.ap[0], state.current_seat()) == (start, 3, 0)
    assert decide(CombatApproach(seed=0), state) == action(expected)


def test_against_itself_it_decides_its_duels():
    for seed in range(6):
        state = TempoDuel(TempoConfig(("fencer", "knight"))).new_initial_state(seed, record_events=False)
        play_fight(state, [CombatApproach(seed=seed), CombatApproach(seed=seed + 100)])
        assert state.is_terminal() and not state.is_truncated()
