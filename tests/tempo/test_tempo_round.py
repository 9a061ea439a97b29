"""The action round: AP, turn order, the turn loop, Recover Stamina, the round counter, the end (TP-001..010, 021)."""

import pytest

from issoku.rules.tempo import TempoConfig, TempoDuel
from issoku.rules.tempo.actions import BOUND, OFF_GUARD, ON_GUARD
from issoku.rules.kernel.dice import ScriptedDice
from tempo_helpers import duel, kinds, last, legal_names, play


@pytest.mark.rule("TP-001", "TP-T01", "TP-010")
def test_tp_t01_twelve_ap_and_round_counter():
    state = duel([15, 15])
    assert state.ap == [12, 12] and state.round == 0
    play(state, "pass", "pass")                          # both end their turns: one full round
    assert state.round == 1
    assert kinds(state, "round_end")[-1]["round"] == 1


@pytest.mark.rule("TP-002", "TP-G06")
def test_tp_002_initiative_sets_the_turn_order():
    ruleset = TempoDuel(TempoConfig(("fencer", "knight")))
    state = ruleset.new_initial_state(dice=ScriptedDice([3, 15]))      # fencer 3 + 2, knight 15 + 1
    assert state.order == (1, 0) and state.current_seat() == 1


@pytest.mark.rule("TP-G06")
def test_tp_g06_initiative_tie_goes_to_higher_athletics_then_a_seeded_coin():
    ruleset = TempoDuel(TempoConfig(("fencer", "knight")))
    assert ruleset.new_initial_state(dice=ScriptedDice([10, 11])).order == (0, 1)   # 12 vs 12, athletics 2 > 1
    mirror = TempoDuel(TempoConfig(("fencer", "fencer")))
    state = mirror.new_initial_state(dice=ScriptedDice([10, 10, 2]))
    assert state.order == (1, 0)
    assert last(state, "initiative_coin")["actor"] == 1


@pytest.mark.rule("TP-003", "TP-009")
def test_tp_003_a_turn_runs_until_pass_or_no_ap_then_recovers():
    # Three unanswered 4-AP attacks spend all 12 AP; the turn ends by itself with Recover Stamina.
    state = duel([1, 1, 1, 15])
    for _ in range(3):
        assert state.current_seat() == 0 and state.decision_kind() == "act"
        play(state, "proactive:melee_attack", "pass")
    recover = last(state, "recover_stamina")
    assert recover["actor"] == 0 and recover["ap_before"] == 0 and recover["ap_after"] == 12
    assert state.current_seat() == 1 and state.decision_kind() == "act"


@pytest.mark.rule("TP-009", "TP-G15", "TP-G05")
def test_tp_009_recover_stamina_check_and_cap():
    # Fencer: endurance 2, light armour encumbrance 1. d20 5 -> 5 - 10 + 2 - 1 = -4 -> 6 AP (TP-054).
    state = duel([1, 1, 5])
    play(state, "proactive:melee_attack", "pass", "proactive:melee_attack", "pass", "pass")
    recover = last(state, "recover_stamina")
    assert (recover["result"], recover["regained"], recover["rule"]) == (-4, 6, "TP-054")
    assert state.ap[0] == 10                                             # 4 + 6
    state2 = duel([20])
    play(state2, "pass")
    assert state2.ap[0] == 12                                            # capped at 12


@pytest.mark.rule("TP-G05")
def test_tp_g05_actions_beyond_current_ap_are_illegal():
    state = duel()
    state.ap[0] = 3
    names = [state.ruleset.action_names[a] for a in state._act_legal(0)]
    assert "proactive:melee_attack" not in names                        # longsword: 4 AP
    assert "proactive:unarmed_attack" in names                          # 3 AP


@pytest.mark.rule("TP-G05", "TP-005")
def test_tp_g05_reactions_spend_the_pool_that_recovers_only_on_own_turn():
    state = duel([1, 10, 15])                                          # attack -6, parry 2: parried
    play(state, "proactive:melee_attack", "react:parry", "pass")
    assert state.ap[1] == 8
    play(state, "pass")                                                # the fencer ends its turn
    assert kinds(state, "turn_start")[-1]["actor"] == 1 and kinds(state, "turn_start")[-1]["ap"] == 8


@pytest.mark.rule("TP-010", "TP-G14")
def test_tp_g14_round_limit_truncates_as_a_draw():
    state = duel([15, 15], round_limit=1)
    play(state, "pass", "pass")
    assert state.current_seat() is None and state.is_truncated() and not state.is_terminal()
    assert state.returns() == (0.0, 0.0) and state.legal_actions() == []


@pytest.mark.rule("TP-021", "TP-T11", "TP-033", "TP-G10")
def test_tp_t11_the_initiator_starts_on_guard_the_other_off_guard():
    state = duel([1, 15], initiator=0)                                 # attack misses; recover
    assert state.status == [ON_GUARD, OFF_GUARD]
    # An Off Guard knight cannot react: the attack resolves unopposed, no react decision is asked.
    play(state, "proactive:melee_attack")
    assert not kinds(state, "react") and last(state, "resolve")["rule"] == "TP-007"
    play(state, "pass")                                                # fencer ends its turn
    assert legal_names(state) == ["pass", "proactive:move:open", "proactive:ready"]
    play(state, "proactive:ready")
    assert state.status[1] == ON_GUARD and state.ap[1] == 11


@pytest.mark.rule("TP-021")
def test_tp_021_formal_duel_starts_both_on_guard():
    assert duel().status == [ON_GUARD, ON_GUARD]
    assert BOUND not in duel().status


@pytest.mark.rule("TP-G14", "TP-G03")
def test_tp_g14_defeat_ends_the_duel_with_returns():
    state = duel([20, 10])                                            # attack 13: critical, d10 10, no soak
    state.hp[1] = 5
    play(state, "proactive:melee_attack", "pass")
    assert state.is_terminal() and state.current_seat() is None and state.is_eliminated(1)
    assert state.returns() == (1.0, -1.0)
