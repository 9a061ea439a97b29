"""Encounter structure on scripted dice: initiative, opening stances, rounds, turns, the Readying Phase,
Void Points at the start of the round, the end of the encounter."""

import pytest

from tests.encounters.encounter_helpers import duel, kinds, last, legal_names, play, started, to_turn
from issoku.rules.encounters.timers import Timed, tick


@pytest.mark.rule("EN-001", "EN-002", "EN-005", "EN-006", "EN-G02")
def test_en_002_initiative_then_opening_stances_in_reverse_order():
    state = duel()
    rolls = kinds(state, "initiative")
    assert [(r["actor"], r["pool"], r["total"]) for r in rolls] == [(0, "5k3", 27), (1, "4k2", 2)]
    assert state.order == (0, 1) and kinds(state, "encounter_start")
    assert state.decision_kind() == "stance" and state.current_seat() == 1        # the last in order picks first
    play(state, "stance:fire")
    assert state.current_seat() == 0
    play(state, "stance:water")
    assert kinds(state, "rounds_begin") and [s["stance"] for s in kinds(state, "stance")] == ["fire", "water"]


@pytest.mark.rule("EN-003")
def test_en_003_a_tie_is_broken_by_the_dice_and_kept():
    state = duel(initiative=[5, 5, 5, 1, 1, 8, 7, 1, 1, 2])
    assert last(state, "initiative_tie")["value"] == 15 and state.order == (1, 0)
    assert state.current_seat() == 0                                               # reverse order: seat 0 first


@pytest.mark.rule("EN-010", "EN-011", "EN-008", "EN-009", "EN-015", "EN-016", "EN-018", "EN-007", "EN-G07")
def test_en_011_no_stance_choice_in_round_one_then_one_per_turn():
    state = started()
    assert state.round == 1 and state.decision_kind() == "act" and state.fighters[0].simple_actions == 2
    play(state, "pass")                                                            # seat 0's turn ends
    assert state.actor() == 1 and state.decision_kind() == "act"
    play(state, "pass")
    assert kinds(state, "readying_phase") and kinds(state, "next_round") and state.round == 2
    to_turn(state)
    assert state.decision_kind() == "stance" and state.current_seat() == 0
    play(state, "stance:fire")
    assert state.fighters[0].stance == "fire" and last(state, "stance")["rule"] == "EN-011"


@pytest.mark.rule("EN-105", "EN-106", "EN-D05", "EN-004")
def test_en_d05_accelerate_adds_ten_and_joins_the_back_of_the_line():
    state = duel(initiative=[9, 9, 9, 1, 1, 9, 9, 1, 1])                   # 27 against 18
    play(state, "stance:water", "stance:water")
    assert state.decision_kind() == "round_start" and state.current_seat() == 0
    play(state, "pass", "void:accelerate")
    assert legal_names(state) == ["pass", "void:deflect"]                  # each effect once a round
    play(state, "pass")
    assert state.fighters[1].initiative == 28 and state.order == (1, 0) and state.actor() == 1
    assert state.fighters[1].void_points == 1


@pytest.mark.rule("EN-004", "EN-106")
def test_en_004_landing_on_a_held_value_goes_behind_its_holder():
    state = duel(initiative=[9, 9, 9, 1, 1, 9, 8, 1, 1])                   # 27 against 17
    play(state, "stance:water", "stance:water", "pass", "void:accelerate", "pass")
    assert state.fighters[1].initiative == 27 and state.order == (0, 1)


@pytest.mark.rule("EN-108", "EN-017", "EN-072")
def test_en_108_deflect_lasts_until_the_end_of_the_round():
    state = duel()
    play(state, "stance:water", "stance:water", "void:deflect")
    assert state.atn(0) == 35 and state.fighters[0].void_points == 1   # 5 + 15 + light 5 + 10
    to_turn(state)
    play(state, "pass", "pass")
    assert last(state, "expires")["effect"] == "deflect" and state.atn(0) == 25


@pytest.mark.rule("EN-T09", "EN-017")
def test_en_t09_a_one_round_effect_sees_two_readying_phases():
    effects = (Timed("stun", 0, 1),)
    effects, expired = tick(effects)
    assert effects == (Timed("stun", 0, 0),) and not expired
    effects, expired = tick(effects)
    assert effects == () and expired == (Timed("stun", 0, 0),)


@pytest.mark.rule("EN-G18")
def test_en_g18_the_round_limit_is_a_draw():
    state = started(round_limit=1)
    play(state, "pass", "pass")
    assert state.current_seat() is None and state.is_truncated() and not state.is_terminal()
    assert state.returns() == (0.0, 0.0) and last(state, "round_limit")["round"] == 1


@pytest.mark.rule("EN-G18", "EN-054", "EN-055", "EN-041")
def test_en_g18_the_encounter_ends_when_a_character_is_out():
    state = started([9, 9, 9, 1, 1, 1, 1, 1] + [10, 10, 10, 5, 1, 1, 1, 1, 1], fighters=("kenshi", "bandit"),
                    initiative=[9, 9, 9, 1, 1, 1, 1, 1])
    play(state, "attack")
    assert state.decision_kind() == "endure" and state.current_seat() == 1
    play(state, "pass")
    assert state.is_terminal() and state.returns() == (1.0, -1.0) and state.current_seat() is None
    assert last(state, "wounds")["dealt"] == 36 and last(state, "killed")["target"] == 1
    assert not kinds(state, "downed") and kinds(state, "encounter_end")
    assert state.is_eliminated(1) and not state.is_eliminated(0)
