"""Breath rules in play, one rule (or worked example) per test, with scripted dice where chance matters."""

from __future__ import annotations

import pytest

from issoku.rules.breath.ruleset import FighterSpec
from issoku.rules.kernel.protocol import IllegalActionError

from .helpers import legal_names, play, ruleset, scripted

KENSHI_UNARMORED = FighterSpec("kenshi", 0, armor="none")  # Finesse 3: 13 Energy, limit 5, Defense 10
RONIN = FighterSpec("ronin", 1)  # Finesse 2: 12 Energy, limit 5, Defense 10, nodachi
MISS = [1, 2]  # 2d10 = 3: below any Defense for these fighters


def events_of(state, kind):
    return [e for e in state.events if e.kind == kind]


@pytest.mark.rule("BR-003")
@pytest.mark.rule("BR-005")
@pytest.mark.rule("BR-007")
@pytest.mark.rule("BR-D02")
def test_br_d02_count_order_and_finesse_tie_break():
    rules = ruleset(FighterSpec("kenshi", 0, finesse=2, armor="none"), FighterSpec("ronin", 1, finesse=3))
    state = scripted(rules, MISS)
    assert state.current_seat() == 1  # 13 before 12
    play(state, "attack:nodachi.cut", "end_breath")  # B 13 -> 11
    assert state.current_seat() == 0  # A at 12
    play(state, "reserve:uchigatana.parry", "end_breath")  # A 12 -> 11
    assert state.current_seat() == 1  # tie at 11: higher Finesse first


@pytest.mark.rule("BR-007")
@pytest.mark.rule("BR-A07")
def test_br_007_full_tie_goes_to_the_allies_side():
    fighters = (FighterSpec("kenshi", 0), FighterSpec("kenshi", 1))
    assert scripted(ruleset(*fighters), []).current_seat() == 0
    assert scripted(ruleset(*fighters, allies_side=1), []).current_seat() == 1


@pytest.mark.rule("BR-004")
@pytest.mark.rule("BR-006")
@pytest.mark.rule("BR-G09")
def test_br_006_lull_when_everyone_stands_then_energy_resets():
    state = scripted(ruleset(KENSHI_UNARMORED, RONIN), [])
    assert "end_breath" not in legal_names(state)  # a breath spends at least 1 (BR-G09)
    play(state, "reserve:uchigatana.parry", "end_breath")  # 13 -> 12, a tie the higher Finesse wins
    assert state.current_seat() == 0
    play(state, "stand")  # kenshi keeps 12 for reactions
    assert state.current_seat() == 1
    play(state, "stand")
    lull = events_of(state, "lull")
    assert len(lull) == 1 and state.round == 2
    assert events_of(state, "round_start")[-1].data["energy"] == (13, 12)
    assert [f.energy for f in state.fighters] == [13, 12]


@pytest.mark.rule("BR-012")
@pytest.mark.rule("BR-T01")
@pytest.mark.rule("BR-011")
@pytest.mark.rule("BR-002")
@pytest.mark.rule("BR-A10")
def test_br_t01_cut_cut_reserve_parry_is_five_without_overload():
    state = scripted(ruleset(KENSHI_UNARMORED, RONIN), MISS + MISS)
    play(state, "attack:uchigatana.horizontal_cut", "attack:uchigatana.horizontal_cut", "reserve:uchigatana.parry")
    kenshi = state.fighters[0]
    assert (kenshi.spent, kenshi.limit, kenshi.energy) == (5, 5, 8)
    assert not events_of(state, "overload_check")
    assert kenshi.reservations == ["uchigatana.parry"]


@pytest.mark.rule("BR-015")
@pytest.mark.rule("BR-T04")
def test_br_t04_kodachi_flurry_three_times_and_reserved_dodge_is_four():
    state = scripted(ruleset(FighterSpec("kenshi", 0, weapon="kodachi", armor="none"), RONIN), MISS * 3)
    play(state, *["attack:kodachi.flurry_cut"] * 3, "reserve:kodachi.emergency_dodge", "end_breath")
    assert events_of(state, "breath_end")[0].data["spent"] == 4
    assert not events_of(state, "overload_check")


@pytest.mark.rule("BR-014")
@pytest.mark.rule("BR-T03")
@pytest.mark.rule("BR-078")
def test_br_t03_spear_wall_and_reserved_harry_is_four():
    state = scripted(ruleset(FighterSpec("ashigaru", 0), FighterSpec("wildman", 1, finesse=0)), [])
    play(state, "stance:spear_wall", "reserve:yari.harry", "end_breath")
    ashigaru = state.fighters[0]
    assert (ashigaru.stance.key, ashigaru.reservations, ashigaru.energy) == ("spear_wall", ["yari.harry"], 8)


ZANBATO = FighterSpec("ronin", 0, weapon="zanbato", physique=2)  # 12 Energy, limit 5
SLOW_FOE = FighterSpec("wildman", 1, finesse=0)  # 10 Energy, Defense 10


@pytest.mark.rule("BR-017")
@pytest.mark.rule("BR-T06")
@pytest.mark.rule("BR-024")
@pytest.mark.rule("BR-025")
@pytest.mark.rule("BR-026")
@pytest.mark.rule("BR-D03")
@pytest.mark.rule("BR-G12")
def test_br_t06_zanbato_overload_success_limits_next_breath_to_three():
    state = scripted(ruleset(ZANBATO, SLOW_FOE), MISS + [4, 6] + MISS)
    play(state, "attack:zanbato.demon_cleave", "attack:zanbato.rising_cut")
    check = events_of(state, "overload_check")[0].data
    assert (check["spent"], check["limit"], check["excess"], check["total"], check["success"]) == (6, 5, 1, 11, True)
    assert len(events_of(state, "attack_check")) == 2  # the maneuver is performed
    assert events_of(state, "breath_end")[0].data["why"] == "overload"
    play(state, "stand")  # the wildman
    starts = events_of(state, "breath_start")
    assert starts[-1].actor == 0 and starts[-1].data["limit"] == 3 and starts[-1].rule == "BR-026"


@pytest.mark.rule("BR-027")
@pytest.mark.rule("BR-D03")
@pytest.mark.rule("BR-G11")
def test_br_027_overload_failure_loses_energy_and_leaves_defenseless():
    state = scripted(ruleset(ZANBATO, SLOW_FOE), MISS + [4, 5] + MISS + [9, 9])
    play(state, "attack:zanbato.demon_cleave", "attack:zanbato.rising_cut")
    ronin = state.fighters[0]
    assert events_of(state, "overload_check")[0].data["total"] == 10
    assert (ronin.energy, ronin.defenseless) == (0, True)
    assert state.current_seat() == 1
    play(state, "attack:unarmed.strike")  # 18 + 2 + 3 = 23 >= 10: no defend decision, Defenseless
    assert events_of(state, "hit")[0].data["target"] == 0
    assert state.decision_kind() == "breath" and state.current_seat() == 1


@pytest.mark.rule("BR-018")
@pytest.mark.rule("BR-019")
@pytest.mark.rule("BR-029")
@pytest.mark.rule("BR-022")
@pytest.mark.rule("BR-020")
@pytest.mark.rule("BR-G08")
def test_br_018_022_reserve_up_front_trigger_free_once_then_improvise():
    hit = [5, 6]  # 11 + 5 = 16 >= Defense 10
    state = scripted(ruleset(KENSHI_UNARMORED, RONIN), hit + [1, 2] + hit + [10, 10])
    play(state, "reserve:uchigatana.parry", "stand")  # standing keeps the reservation this round
    kenshi = state.fighters[0]
    assert kenshi.energy == 12
    play(state, "attack:nodachi.cut")
    assert state.decision_kind() == "defend" and state.current_seat() == 0
    assert legal_names(state) == {"use_reserved:uchigatana.parry", "improvise:uchigatana.parry", "take_hit"}
    play(state, "use_reserved:uchigatana.parry")
    assert kenshi.energy == 12 and events_of(state, "reservation_triggered")[0].data["cost"] == 0
    assert events_of(state, "hit")[0].data["wounds"] == 1  # 16 beats 3 + 6
    play(state, "attack:nodachi.cut")
    assert legal_names(state) == {"improvise:uchigatana.parry", "take_hit"}  # spent after one trigger
    play(state, "improvise:uchigatana.parry")
    assert kenshi.energy == 10  # 1.5 x 1 -> 2, outside the breath: kenshi's spent is untouched
    assert events_of(state, "defense_roll")[1].data["blocked"] is True


@pytest.mark.rule("BR-021")
@pytest.mark.rule("BR-A05")
@pytest.mark.rule("BR-D05")
def test_br_021_reservation_lapses_at_own_next_breath_and_at_round_end():
    state = scripted(ruleset(KENSHI_UNARMORED, RONIN), [])
    play(state, "reserve:uchigatana.parry", "end_breath")  # 12: kenshi again (Finesse tie-break)
    lapsed = events_of(state, "reservation_expired")
    assert lapsed[0].data["why"] == "next_breath" and state.fighters[0].energy == 12  # no refund
    play(state, "reserve:uchigatana.parry", "stand", "stand")
    assert events_of(state, "reservation_expired")[-1].data["why"] == "round_end"


@pytest.mark.rule("BR-023")
def test_br_023_no_weapon_defense_no_reservation():
    state = scripted(ruleset(FighterSpec("kenshi", 0, weapon="bow"), RONIN), [5, 6])
    assert not any(name.startswith("reserve:") for name in legal_names(state))
    play(state, "stand")
    play(state, "attack:nodachi.cut")  # no defense option: the hit lands without a decision
    assert events_of(state, "hit") and state.decision_kind() == "breath"


@pytest.mark.rule("BR-G03")
def test_br_g03_tied_defense_roll_goes_to_the_defender():
    # ronin cut: dice 5+6 + 5 = 16; kenshi parry: dice 4+6 + 6 = 16 -> blocked.
    state = scripted(ruleset(KENSHI_UNARMORED, RONIN), [5, 6, 4, 6])
    play(state, "reserve:uchigatana.parry", "stand", "attack:nodachi.cut", "use_reserved:uchigatana.parry")
    assert events_of(state, "defense_roll")[0].data["blocked"] is True and not events_of(state, "hit")


@pytest.mark.rule("BR-G01")
@pytest.mark.rule("BR-G02")
def test_br_g01_g02_attack_meets_defense_and_direct_strips_armor():
    heavy = FighterSpec("ronin", 1, armor="heavy")
    state = scripted(ruleset(KENSHI_UNARMORED, heavy), [2, 3, 2, 3])
    play(state, "attack:uchigatana.horizontal_cut")  # 5 + 6 = 11 < 15
    assert events_of(state, "miss")[0].data == {"target": 1, "total": 11, "defense": 15}
    play(state, "attack:uchigatana.thrust")  # 5 + 6 - 1 = 10 against 15 - [Direct 2] = 13
    assert events_of(state, "attack_check")[1].data["defense"] == 13


@pytest.mark.rule("BR-G04")
@pytest.mark.rule("BR-G05")
@pytest.mark.rule("BR-G20")
def test_br_g05_doubles_are_critical_and_zero_wounds_ends_the_fight():
    state = scripted(ruleset(KENSHI_UNARMORED, FighterSpec("ronin", 1, physique=0)), [5, 5, 5, 5, 5, 5])
    play(state, "attack:uchigatana.horizontal_cut", "take_hit", "attack:uchigatana.horizontal_cut", "take_hit",
         "end_breath", "stand", "attack:uchigatana.horizontal_cut", "take_hit")
    assert [e.data["wounds"] for e in events_of(state, "hit")] == [2, 2, 2]
    assert state.is_terminal() and not state.is_truncated()
    assert state.returns() == (1.0, -1.0) and state.current_seat() is None and state.legal_actions() == []
    assert state.is_eliminated(1) and not state.is_eliminated(0)


@pytest.mark.rule("BR-G20")
def test_br_g20_round_limit_is_a_draw():
    state = scripted(ruleset(KENSHI_UNARMORED, RONIN, round_limit=1), [])
    play(state, "stand", "stand")
    assert state.is_truncated() and not state.is_terminal() and state.returns() == (0.0, 0.0)


@pytest.mark.rule("BR-047")
@pytest.mark.rule("BR-048")
@pytest.mark.rule("BR-T17")
@pytest.mark.rule("BR-A01")
@pytest.mark.rule("BR-G22")
def test_br_t17_zero_energy_cap_two_a_round_one_per_effect():
    state = scripted(ruleset(KENSHI_UNARMORED, RONIN), MISS)
    play(state, "kata:kiai")
    assert "kata:kiai" not in legal_names(state)  # that effect once a round
    play(state, "stance:guard_stance", "stance:middle_guard")
    assert "stance:guard_stance" not in legal_names(state)  # third 0-Energy maneuver: cap 2
    assert state.fighters[0].energy == 12  # only middle guard cost Energy


@pytest.mark.rule("BR-050")
@pytest.mark.rule("BR-G14")
@pytest.mark.rule("BR-030")
def test_br_050_guard_stance_counterattack_at_zero_energy():
    state = scripted(ruleset(KENSHI_UNARMORED, RONIN), MISS + [5, 6])
    play(state, "stance:guard_stance", "reserve:uchigatana.parry", "stand")
    play(state, "attack:nodachi.cut")
    assert state.decision_kind() == "counter" and state.current_seat() == 0
    assert legal_names(state) == {"counter:uchigatana.horizontal_cut", "counter:uchigatana.thrust",
                                  "decline_counter"}
    play(state, "counter:uchigatana.horizontal_cut")
    assert state.decision_kind() == "defend" and state.current_seat() == 1
    play(state, "take_hit")
    assert state.fighters[0].energy == 12 and state.fighters[1].wounds == 7
    assert events_of(state, "guard_counter")[0].data["cost"] == 0
    assert state.current_seat() == 1 and state.decision_kind() == "breath"  # the ronin's breath goes on


@pytest.mark.rule("BR-079")
@pytest.mark.rule("BR-078")
def test_br_079_release_is_free_and_one_stance_at_a_time():
    state = scripted(ruleset(KENSHI_UNARMORED, RONIN), [])
    play(state, "stance:middle_guard")
    assert state.fighters[0].energy == 12 and state.defense_of(state.fighters[0]) == 11
    play(state, "stance:guard_stance")
    assert state.fighters[0].stance.key == "guard_stance"  # replaced, never two
    play(state, "release_stance")
    assert state.fighters[0].stance is None and state.fighters[0].energy == 12


@pytest.mark.rule("BR-062")
@pytest.mark.rule("BR-009")
@pytest.mark.rule("BR-G22")
def test_br_062_kamuy_descent_widens_the_breath_for_the_round():
    """The effect is the text's (BR-062), the price of 1 ours (BR-G22)."""
    state = scripted(ruleset(FighterSpec("wildman", 0), FighterSpec("kenshi", 1, finesse=0)), MISS * 5)
    play(state, "kata:kamuy_descent")
    assert state.fighters[0].limit == 7
    assert [e.data["cost"] for e in events_of(state, "energy_spent")] == [1]
    play(state, *["attack:unarmed.strike"] * 5)  # 1 + 5 = 6 <= 7
    assert not events_of(state, "overload_check")


@pytest.mark.rule("BR-G10")
def test_br_g10_no_maneuver_beyond_remaining_energy():
    state = scripted(ruleset(ZANBATO, SLOW_FOE), MISS * 4 + [10, 10])
    play(state, "attack:zanbato.demon_cleave", "end_breath", "stand")
    play(state, "attack:zanbato.demon_cleave", "end_breath")  # 12 -> 9 -> 6
    play(state, "attack:zanbato.demon_cleave", "end_breath")  # -> 3
    play(state, "attack:zanbato.demon_cleave")  # -> 0; the breath ends with no Energy, then the lull
    assert events_of(state, "breath_end")[-1].data == {"spent": 3, "energy": 0, "why": "no_energy"}
    assert state.round == 2


@pytest.mark.rule("BR-G09")
def test_br_g09_a_fighter_who_can_afford_nothing_stands_automatically():
    no_stances = FighterSpec("ashigaru", 0, weapon="zanbato")  # 12 Energy; the spear wall needs a yari
    state = scripted(ruleset(no_stances, SLOW_FOE), MISS * 3)
    play(state, "attack:zanbato.demon_cleave", "end_breath", "stand")
    play(state, "attack:zanbato.demon_cleave", "end_breath", "attack:zanbato.demon_cleave", "end_breath")
    play(state, "reserve:zanbato.parry")  # 12 - 9 - 2 = 1: nothing costs 1
    stand = events_of(state, "stand")[-1]
    assert stand.actor == 0 and stand.data == {"energy": 1, "automatic": True}


def test_illegal_action_is_refused_with_names():
    state = scripted(ruleset(KENSHI_UNARMORED, RONIN), [])
    with pytest.raises(IllegalActionError, match="attack:nodachi.cut"):
        play(state, "attack:nodachi.cut")


@pytest.mark.rule("BR-027", "BR-G12", "BR-050")
def test_br_027_a_failed_overload_is_defenseless_before_a_counter_in_the_same_breath():
    """Seed 002: "Maneuver is performed. For this round, all remaining Energy is lost + Defenseless." The
    guard-stance counter to the overloading attack comes inside the overloaded breath, and finds no
    reservation and no defense to answer it (the engine used to wait for the breath's end)."""
    samurai = FighterSpec("kenshi", 1, armor="none")  # Finesse 3: 13 Energy, acts first
    state = scripted(ruleset(ZANBATO, samurai), MISS + [1, 2] + MISS + [9, 8])
    play(state, "stance:guard_stance", "reserve:uchigatana.parry", "stand")  # 12 left for reactions
    play(state, "reserve:zanbato.parry", "attack:zanbato.demon_cleave")  # spent 5, misses
    play(state, "decline_counter")
    play(state, "attack:zanbato.rising_cut")  # spent 8 > 5: overload 3 + 2 − 3 = 2 < 11, then a miss
    ronin = state.fighters[0]
    assert events_of(state, "overload_failure") and (ronin.energy, ronin.defenseless) == (0, True)
    assert ronin.reservations == []
    assert events_of(state, "defenseless")[0].data["reservations_lost"] == ("zanbato.parry",)
    assert state.decision_kind() == "counter" and state.current_seat() == 1
    assert not events_of(state, "breath_end")[1:]  # still inside the overloaded breath
    play(state, "counter:uchigatana.horizontal_cut")  # 17 + 3 + 3 = 23 ≥ 10: no defend decision offered
    assert events_of(state, "hit")[0].data["target"] == 0
    assert state.decision_kind() == "breath"


@pytest.mark.rule("BR-A06", "BR-020", "BR-G08", "BR-G07", "BR-D04")
def test_br_a06_energy_spent_on_a_reaction_moves_the_reactor_down_the_count():
    """The kenshi (13) cuts (→ 11); the ronin (12) improvises a parry for 3 (→ 9) and so falls below the
    kenshi, who takes the next breath too: the highest remaining Energy always acts next."""
    state = scripted(ruleset(KENSHI_UNARMORED, RONIN), [9, 8, 1, 2])
    play(state, "attack:uchigatana.horizontal_cut", "improvise:nodachi.parry", "end_breath")
    improvised = [e.data for e in events_of(state, "energy_spent") if e.rule == "BR-020"]
    assert [(d["what"], d["cost"]) for d in improvised] == [("improvise nodachi.parry", 3)]  # 1.5 × 2, half up
    assert [f.energy for f in state.fighters] == [11, 9]
    assert [e.actor for e in events_of(state, "breath_start")] == [0, 0]


@pytest.mark.rule("BR-A11", "BR-005")
def test_br_a11_no_side_phases_breaths_interleave_by_the_count():
    """Two on side 0 against one: the side-0 ashigaru (10) waits while the side-1 ronin takes its second
    breath at 10 (a tie the ronin's Finesse wins); no side acts as a block."""
    rules = ruleset(KENSHI_UNARMORED, RONIN, FighterSpec("ashigaru", 0, finesse=0))
    state = scripted(rules, [])
    play(state, "reserve:uchigatana.parry", "reserve:uchigatana.parry", "end_breath")  # kenshi 13 → 11
    play(state, "reserve:nodachi.parry", "end_breath")  # ronin 12 → 10
    play(state, "reserve:uchigatana.parry", "reserve:uchigatana.parry", "end_breath")  # kenshi 11 → 9
    play(state, "reserve:nodachi.parry", "end_breath")  # ronin 10 (Finesse 2) before the ashigaru 10 (0)
    actors = [e.actor for e in events_of(state, "breath_start")]
    assert actors == [0, 1, 0, 1, 2]
    assert [state.fighters[a].side for a in actors] == [0, 1, 0, 1, 0]


@pytest.mark.rule("BR-A04", "BR-G02")
def test_br_a04_swift_decision_armor_is_defense_11_in_a_fight():
    """"Defense 11" is the swift-decision armor's Defense, not a requirement on its wearer."""
    kenshi = FighterSpec("kenshi", 1, armor="swift_decision", finesse=0)
    state = scripted(ruleset(FighterSpec("ronin", 0), kenshi), MISS)
    play(state, "attack:nodachi.cut")
    assert events_of(state, "attack_check")[0].data["defense"] == 11


@pytest.mark.rule("BR-065", "BR-062", "BR-059")
def test_br_065_no_absolute_cap_on_the_breath_limit():
    """Swift-decision armor (+1) and Kamuy Descent (+2) take the wildman's limit to 8, past the reference 7:
    the engine caps nothing; the balance report is where such a limit shows."""
    state = scripted(ruleset(FighterSpec("wildman", 0, armor="swift_decision", finesse=5), RONIN), [])
    assert events_of(state, "breath_start")[0].data["limit"] == 6
    play(state, "kata:kamuy_descent")
    assert state.fighters[0].limit == 8
