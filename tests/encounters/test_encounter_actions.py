"""Attacks, maneuvers, stances, movement, grapples and Void Points on scripted dice.

Kenshi (seat 0, first) against the ono_brute at 5 ft unless said otherwise: the kenshi attacks with
Weapon: Samurai 5 / Agility 3 = 8k3 against the brute's Water-stance ATN 5 + 10 + 10 = 25; the katana
deals 3k2 + 3k0 = 6k2 against heavy armour's Reduction 5 (EN-G06).
"""

import pytest

from tests.encounters.encounter_helpers import kinds, last, legal_names, play, started, to_turn

HIT_27 = [9, 9, 9, 1, 1, 1, 1, 1]                   # 8k3 -> 27
HIT_36 = [10, 8, 9, 9, 1, 1, 1, 1, 1]               # 8k3 -> 18 + 9 + 9 = 36
LOW_DAMAGE = [1, 1, 1, 1, 1, 1]                     # 6k2 -> 2: nothing gets past Reduction 5


@pytest.mark.rule("EN-066", "EN-031", "EN-014", "EN-039", "EN-041", "EN-G06", "EN-109")
def test_en_066_a_hit_deals_damage_after_reduction_and_endure():
    state = started(HIT_27 + [8, 7, 1, 1, 1, 1])
    play(state, "attack")
    assert last(state, "attack_roll")["pool"] == "8k3" and last(state, "hit")["tn"] == 25
    assert last(state, "action")["speed"] == "complex" and state.fighters[0].simple_actions == 0
    assert state.decision_kind() == "endure" and state.current_seat() == 1
    observed = state.observation(1)
    play(state, "void:endure")
    wounds = last(state, "wounds")
    assert (wounds["rolled"], wounds["reduction"], wounds["endure"], wounds["dealt"]) == (15, 5, 10, 0)
    assert state.fighters[1].void_points == 1 and observed.max() <= 1.0


@pytest.mark.rule("EN-G03", "EN-077")
def test_en_g03_raises_add_five_each_and_a_miss_deals_nothing():
    state = started(HIT_27)
    play(state, "attack:ed1")
    assert last(state, "attack_roll")["tn"] == 30 and last(state, "miss")["total"] == 27
    assert not kinds(state, "wounds")


@pytest.mark.rule("EN-077", "EN-037")
def test_en_077_extra_damage_adds_1k0_per_raise():
    state = started(HIT_36 + [1] * 8)
    play(state, "attack:ed2")
    assert [e["pool"] for e in kinds(state, "damage_pool")] == ["3k2", "6k2", "8k2"]


@pytest.mark.rule("EN-078", "EN-A02", "EN-D04")
def test_en_078_feint_adds_half_the_margin_over_the_base_atn_capped():
    state = started(HIT_36 + LOW_DAMAGE)
    play(state, "attack:feint")
    feint = last(state, "feint")
    assert (feint["margin"], feint["bonus"], feint["cap"]) == (11, 5, 10)
    assert kinds(state, "damage_pool")[-1]["pool"] == "6k2+5"
    assert last(state, "damage_roll")["total"] == 7


@pytest.mark.rule("EN-076")
def test_en_076_extra_attack_grants_one_free_attack():
    state = started([10, 10, 5, 10, 9, 9, 1, 1, 1, 1, 1] + LOW_DAMAGE)
    play(state, "attack:extra_attack")
    assert last(state, "hit")["total"] == 53 and state.decision_kind() == "extra_attack"
    names = legal_names(state)
    assert "attack" in names and "pass" in names and not any("extra_attack" in n for n in names)
    play(state, "pass")
    assert state.decision_kind() == "act" and state.fighters[0].extra_attack_done


@pytest.mark.rule("EN-080", "EN-A03", "EN-G04")
def test_en_080_a_lost_knockdown_contest_deals_no_damage():
    state = started(HIT_36 + [1, 1, 1] + [9, 9, 9, 9, 9])
    play(state, "attack:knockdown")
    assert last(state, "knockdown_contest")["actor"] == 1 and kinds(state, "no_damage")
    assert not kinds(state, "wounds") and not state.fighters[1].prone


@pytest.mark.rule("EN-080", "EN-121")
def test_en_080_a_won_knockdown_deals_damage_and_knocks_prone():
    state = started(HIT_36 + [9, 9, 9] + [1, 1, 1, 1, 1] + LOW_DAMAGE)
    play(state, "attack:knockdown")
    assert kinds(state, "wounds") and state.fighters[1].prone and last(state, "prone")["actor"] == 1
    assert state.atn(1) == 15 and state.atn(1, melee=False) == 25
    play(state, "pass")
    assert "stand" in legal_names(state) and "free_move:away" not in legal_names(state)
    play(state, "stand")
    assert not state.fighters[1].prone


@pytest.mark.rule("EN-081")
def test_en_081_a_won_push_moves_the_target_five_feet():
    state = started(HIT_36 + [9, 9, 9] + [1, 1, 1, 1, 1] + LOW_DAMAGE)
    play(state, "attack:push")
    assert last(state, "pushed")["after"] == 10 and state.distance == 2


@pytest.mark.rule("EN-075", "EN-G13", "EN-030", "EN-027")
def test_en_075_disarm_deals_1k1_then_a_strength_contest_drops_the_weapon():
    state = started([10, 10, 1, 10, 5, 9, 1, 1, 1, 1, 1] + [3] + [9, 9, 9] + [1, 1, 1, 1, 1])
    play(state, "attack:disarm")
    assert last(state, "damage_roll")["pool"] == "1k1" and last(state, "wounds")["dealt"] == 0
    assert last(state, "disarmed")["weapon"] == "ono" and state.fighters[1].weapon.name == "unarmed"
    play(state, "pass")
    assert "recover_weapon" in legal_names(state)
    play(state, "recover_weapon", "ready_weapon")
    assert state.fighters[1].weapon.name == "ono"


@pytest.mark.rule("EN-061", "EN-070")
def test_en_061_air_stance_raises_atn_and_cannot_attack():
    state = started(stances=("air", "water"))
    assert state.atn(0) == 30 and not any(n.startswith("attack") for n in legal_names(state))


@pytest.mark.rule("EN-062", "EN-G16", "EN-A04")
def test_en_062_earth_stance_tests_defense_and_cannot_move_or_attack():
    state = started([9, 9, 9, 1, 1, 1], stances=("earth", "water"), start_distance=3)
    names = legal_names(state)
    assert "earth_defend" in names and not any(n.startswith(("attack", "free_move", "simple_move")) for n in names)
    play(state, "earth_defend")
    assert last(state, "earth_test")["pool"] == "6k3" and last(state, "earth_bonus")["bonus"] == 13
    assert state.atn(0) == 25 + 13


@pytest.mark.rule("EN-063")
def test_en_063_fire_stance_attacks_harder_defends_worse_and_cannot_back_off():
    state = started(HIT_27 + [1, 1] + LOW_DAMAGE, stances=("fire", "water"))
    assert state.atn(0) == 15 and "free_move:away" not in legal_names(state)
    play(state, "attack")
    assert last(state, "attack_roll")["pool"] == "10k4" and "fire+2k1" in last(state, "attack_roll")["modifiers"]


@pytest.mark.rule("EN-064", "EN-A05")
def test_en_064_void_stance_loses_the_turn_then_charges_the_next_round():
    state = started([1] * 20, stances=("void", "water"))
    assert state.fighters[0].simple_actions == 0 and legal_names(state) == ["pass", "let_go", "void:boost"]
    play(state, "pass", "pass")
    to_turn(state)
    assert state.fighters[0].began_in_void and state.order == (0, 1)
    play(state, "stance:water", "attack")
    roll = last(state, "attack_roll")
    assert roll["pool"] == "9k4+2" and "void_stance" in roll["extras"]


@pytest.mark.rule("EN-064", "EN-A05", "EN-008")
def test_en_064_a_round_begun_in_void_adds_five_per_insight_rank_to_initiative():
    state = started(stances=("water", "void"), initiative=[5, 5, 1, 1, 1, 9, 3, 1, 1])   # 11 against 12
    assert state.order == (1, 0)
    play(state, "pass", "pass")
    to_turn(state)
    assert state.order == (1, 0) and kinds(state, "initiative_order")[-1]["values"] == (11, 12)
    state2 = started(stances=("void", "water"), initiative=[5, 5, 1, 1, 1, 9, 3, 1, 1])
    play(state2, "pass", "pass")
    to_turn(state2)
    assert state2.order == (0, 1) and kinds(state2, "initiative_order")[-1]["values"] == (21, 12)


@pytest.mark.rule("EN-D03", "EN-102", "EN-103", "EN-104", "EN-101", "EN-023", "EN-029")
def test_en_d03_water_two_moves_ten_twenty_and_forty_feet_at_most():
    state = started(start_distance=12, max_distance=20)
    play(state, "simple_move:toward")
    assert last(state, "move")["allowance"] == 20 and state.distance == 8
    play(state, "simple_move:toward")
    assert state.distance == 4 and last(state, "move")["moved_this_round"] == 40
    assert "free_move:toward" not in legal_names(state)


@pytest.mark.rule("EN-102", "EN-013", "EN-063")
def test_en_102_free_move_once_a_turn_and_fire_adds_five_feet():
    state = started(start_distance=8, stances=("fire", "water"))
    play(state, "free_move:toward")
    assert last(state, "move")["allowance"] == 15 and state.distance == 5
    assert "free_move:toward" not in legal_names(state)


@pytest.mark.rule("EN-083", "EN-085", "EN-087", "EN-118", "EN-095", "EN-A09", "EN-A08", "EN-G13")
def test_en_083_grapple_contest_control_and_throw():
    state = started([9, 9, 1, 1, 1] + [9, 9, 9, 9, 9, 1, 1, 1] + [1, 1, 1, 1, 1])
    play(state, "grapple")
    assert last(state, "grapple_test")["tn"] == 15 and state.grapple and state.atn(0) == 10
    play(state, "pass")
    assert last(state, "grapple_control")["actor"] == 1 and state.controller == 1
    names = legal_names(state)
    assert {"grapple:hit", "grapple:throw", "grapple:maintain", "grapple:break"} <= set(names)
    assert not any(n.startswith(("attack", "simple_move")) for n in names)
    play(state, "grapple:throw")
    assert not state.grapple and state.fighters[0].prone and state.distance == 5


@pytest.mark.rule("EN-093", "EN-094", "EN-097", "EN-086")
def test_en_093_hit_and_maintain_and_break():
    state = started([9, 9, 1, 1, 1] + [9, 9, 9, 9, 9, 1, 1, 1] + [1, 1, 1, 1, 1] + [9, 9, 1, 1, 1])
    play(state, "grapple", "pass", "grapple:hit")
    assert kinds(state, "damage_pool")[-1]["pool"] == "5k1" and last(state, "damage_roll")["rule"] == "EN-093"
    state = started([9, 9, 1, 1, 1] + [9, 9, 9, 9, 9, 1, 1, 1] + [1, 1, 1, 1, 1])
    play(state, "grapple", "pass", "grapple:maintain")
    assert state.fighters[1].maintain
    state = started([9, 9, 1, 1, 1] + [1, 1, 1, 1, 1, 1, 1, 1] + [9, 9, 9, 9, 9])
    play(state, "grapple", "pass")
    assert state.controller == 0 and legal_names(state) == ["pass", "grapple:break", "grapple:nevermind", "void:boost"]
    play(state, "grapple:break")
    assert not state.grapple and last(state, "grapple_ends")["why"] == "break"


@pytest.mark.rule("EN-107")
def test_en_107_boost_adds_1k1_to_the_next_test():
    state = started(HIT_27 + [1] + LOW_DAMAGE)
    play(state, "void:boost")
    assert "void:boost" not in legal_names(state) and state.fighters[0].void_points == 1
    play(state, "attack")
    assert last(state, "attack_roll")["pool"] == "9k4" and "boost" in last(state, "attack_roll")["extras"]


@pytest.mark.rule("EN-043")
def test_en_043_the_wound_penalty_applies_to_tests_not_to_damage():
    state = started(HIT_36 + LOW_DAMAGE)
    state.fighters[0].wounds = 12                                     # Earth 2: Nicked (-3)
    play(state, "attack")
    assert last(state, "attack_roll")["pool"] == "8k3-3" and last(state, "damage_roll")["pool"] == "6k2"


@pytest.mark.rule("EN-022", "EN-G13", "EN-083")
def test_en_022_a_large_weapon_must_be_let_go_before_grappling():
    state = started(fighters=("ono_brute", "kenshi"))
    assert "grapple" not in legal_names(state)
    play(state, "let_go")
    assert state.fighters[0].weapon_state == "ground" and "grapple" in legal_names(state)
    assert "let_go" not in legal_names(state)


@pytest.mark.rule("EN-G10", "EN-D03")
def test_en_g10_the_duel_tracks_one_distance_bounded_by_adjacency_and_the_arena():
    state = started(start_distance=3, max_distance=4)
    play(state, "simple_move:toward")
    assert state.distance == 1 and "free_move:toward" not in legal_names(state)
    play(state, "free_move:away")
    assert state.distance == 3
    play(state, "simple_move:away")
    assert state.distance == 4 and "free_move:away" not in legal_names(state)


@pytest.mark.rule("EN-119", "EN-G06")
def test_en_119_a_reach_weapon_outside_the_targets_range_is_a_strong_position():
    state = started([9] * 8 + [1] * 20, fighters=("yari_guard", "kenshi"), start_distance=2)
    play(state, "attack")
    roll = last(state, "attack_roll")
    assert roll["pool"] == "9k3" and "strong_position+1k0" in roll["modifiers"] and roll["weapon"] == "yari"


@pytest.mark.rule("EN-040")
def test_en_040_a_mooks_damage_never_explodes():
    state = started([10, 9, 9, 9, 1] + [10, 10, 1, 1], fighters=("kenshi", "bandit"),
                    initiative=[1, 1, 1, 1, 1, 9, 9, 9], start_distance=1)
    assert state.order == (1, 0)
    play(state, "attack")
    assert last(state, "damage_roll")["pool"] == "4k2" and last(state, "damage_roll")["total"] == 20


@pytest.mark.rule("EN-121")
def test_en_121_prone_crawls_instead_of_moving():
    state = started(start_distance=3)
    state.fighters[0].prone = True
    state._continue_turn()
    names = legal_names(state)
    assert "crawl:toward" in names and not any(n.startswith(("free_move", "simple_move")) for n in names)
    play(state, "crawl:toward")
    assert state.distance == 1 and state.fighters[0].simple_actions == 0


@pytest.mark.rule("EN-020", "EN-012")
def test_en_020_a_small_weapon_is_readied_as_a_free_action():
    state = started(fighters=("tonfa_monk", "kenshi"), initiative=[9, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1])
    play(state, "let_go", "recover_weapon")
    assert state.fighters[0].weapon_state == "held" and state.fighters[0].simple_actions == 1
    play(state, "ready_weapon")
    assert last(state, "ready_weapon")["rule"] == "EN-020" and state.fighters[0].simple_actions == 1


HEAD_HIT = [10, 10, 1, 10, 5, 9, 1, 1, 1, 1, 1]      # 8k3 -> 21 + 15 + 9 = 45 against TN 25 + 15


@pytest.mark.rule("EN-079", "EN-G08", "EN-113", "EN-A11")
def test_en_g08_a_focused_attack_on_the_head_stuns_until_the_end_of_the_next_turn():
    assert "attack:focus_head" not in legal_names(started())          # off by default (EN-G08)
    state = started(HEAD_HIT + LOW_DAMAGE + [9] * 7, focused_attack=True)
    play(state, "attack:focus_head")
    assert last(state, "attack_roll")["tn"] == 40 and last(state, "stunned")["tn"] == 20
    assert state.fighters[1].stun_tn == 20 and state.observation(0).max() <= 1
    play(state, "pass", "attack")
    roll = last(state, "attack_roll")
    assert roll["pool"] == "4k2" and "stun-3k0" in roll["extras"]
    while state.actor() == 1 and state.decision_kind() != "round_start":
        play(state, "pass")
    assert state.fighters[1].stun_tn is None and last(state, "stun_ends")["why"] == "end_of_turn"


@pytest.mark.rule("EN-113", "EN-G15", "EN-016")
def test_en_113_stun_is_tested_off_in_the_readying_phase_and_limits_stances():
    state = started(HEAD_HIT + LOW_DAMAGE + [1, 1, 1], focused_attack=True, initiative=[1, 1, 1, 1, 1, 9, 9, 1, 1])
    assert state.order == (1, 0)
    play(state, "pass", "attack:focus_head", "pass")
    assert last(state, "stun_test")["tn"] == 20 and last(state, "stun_tn")["tn"] == 10
    to_turn(state)
    assert state.current_seat() == 1 and legal_names(state) == ["stance:air", "stance:earth"]
    state.fighters[1].stun_tn = 0
    play(state, "stance:air", "pass")
    assert state.fighters[1].stun_tn is None


@pytest.mark.rule("EN-113", "EN-A11", "EN-016")
def test_en_113_the_readying_phase_shake_off_is_no_action_and_takes_no_stun_penalty():
    """The stunned brute (Earth 3) tests 3k3 against TN 20, not 0k3: Stun's −3k0 falls on the actions it
    attempts, and the shake-off is made in the Readying Phase with no action (docs/rules/encounters.md, EN-113);
    with the penalty an Earth 2 or 3 character could never shake Stun off."""
    state = started(HEAD_HIT + LOW_DAMAGE + [9, 9, 5], focused_attack=True, initiative=[1, 1, 1, 1, 1, 9, 9, 1, 1])
    play(state, "pass", "attack:focus_head", "pass")
    test = last(state, "stun_test")
    assert (test["pool"], test["total"], test["tn"]) == ("3k3", 23, 20) and "stun-3k0" not in test["extras"]
    assert state.fighters[1].stun_tn is None and last(state, "stun_ends")["why"] == "shaken_off"


@pytest.mark.rule("EN-G15")
def test_en_g15_a_stun_tn_down_to_zero_ends_without_a_roll():
    state = started(focused_attack=True)
    play(state, "pass")
    state.fighters[0].stun_tn = 0        # as after two failed tests (20 -> 10 -> 0), seat 0's turn over
    play(state, "pass")
    assert last(state, "stun_ends")["why"] == "tn_0" and not kinds(state, "stun_test")


@pytest.mark.rule("EN-081")
def test_en_081_pushing_ten_feet_takes_four_raises_and_the_target_adds_its_earth():
    state = started([10, 10, 5, 10, 9, 9, 1, 1, 1, 1, 1] + [9, 9, 9] + [1, 1, 1, 1, 1] + LOW_DAMAGE)
    play(state, "attack:push_10")
    assert last(state, "attack_roll")["tn"] == 45 and last(state, "push_10_contest_roll")["pool"] == "5k5+3"
    assert last(state, "pushed")["after"] == 15 and state.distance == 3


@pytest.mark.rule("EN-099")
def test_en_099_nevermind_ends_the_grapple_only_if_the_other_agrees():
    state = started([9, 9, 1, 1, 1] + [9, 9, 9, 9, 9, 1, 1, 1] + [1, 1, 1, 1, 1])
    play(state, "grapple", "grapple:nevermind")
    assert state.decision_kind() == "nevermind" and state.current_seat() == 1
    play(state, "pass")
    assert state.grapple and state.current_seat() == 0 and "grapple:nevermind" not in legal_names(state)
    play(state, "pass", "grapple:nevermind")                                  # the brute's turn: it asks
    assert state.current_seat() == 0
    play(state, "grapple:nevermind")
    assert not state.grapple and last(state, "grapple_ends")["why"] == "nevermind"


KUSARI_FIRST = [9, 9, 9, 1, 1, 1, 1, 1, 1]               # kusari_fighter 5k3 = 27, ono_brute 4k2 = 2


@pytest.mark.rule("EN-088", "EN-089", "EN-090")
def test_en_088_a_weapon_grapple_uses_the_weapon_skill_and_its_damage():
    state = started([9, 9, 9, 1, 1, 1, 1, 1] + [9, 9, 1, 1, 1, 1, 1, 1] + [9, 9, 9, 1, 1, 1, 1, 1]
                    + [9, 9, 9, 1, 1, 1, 1, 1] + [1] * 8 + [1, 1, 1, 1],
                    fighters=("kusari_fighter", "ono_brute"), initiative=KUSARI_FIRST)
    assert "weapon_grapple" in legal_names(state) and "weapon_grapple" not in legal_names(
        started(fighters=("kenshi", "ono_brute")))
    play(state, "weapon_grapple")
    test = last(state, "grapple_test")
    assert (test["rule"], test["pool"], test["tn"]) == ("EN-088", "8k3", 15) and state.weapon_grapple == 0
    play(state, "pass")                     # the brute's turn: its Jujutsu 3, the kusari fighter's chain 5
    rolls = kinds(state, "grapple_contest_roll")
    assert [r["pool"] for r in rolls] == ["8k5", "8k3"] and state.controller == 0
    play(state, "pass")
    to_turn(state)
    play(state, "stance:water")
    assert state.controller == 0
    play(state, "grapple:hit")
    pool = kinds(state, "damage_pool")[-1]
    assert (pool["rule"], pool["weapon"], pool["pool"]) == ("EN-090", "kusarigama", "4k2")


@pytest.mark.rule("EN-091")
def test_en_091_breaking_a_weapon_grapple_earns_a_free_raise_for_disarm():
    state = started([9, 9, 9, 1, 1, 1, 1, 1] + [9, 9, 1, 1, 1, 1, 1] + [1] * 8 + [9] * 9 + [1] + [1, 1, 9, 9, 9],
                    fighters=("kusari_fighter", "tonfa_monk"), initiative=KUSARI_FIRST + [1, 1])
    play(state, "weapon_grapple", "pass")
    assert state.controller == 1 and state.current_seat() == 1
    play(state, "grapple:break")
    assert last(state, "disarm_free_raise")["against"] == 0 and state.fighters[1].disarm_free_raise == 2
    play(state, "pass")                                        # one Simple Action left: no attack this turn
    to_turn(state)
    play(state, "stance:water", "pass", "stance:water")
    assert state.fighters[1].disarm_free_raise == 1            # it lasts to the end of the monk's next turn
    play(state, "attack:disarm")
    assert last(state, "free_raise")["maneuver"] == "disarm"
    roll = last(state, "attack_roll")
    assert roll["tn"] == roll["atn"] + 10 and state.fighters[1].disarm_free_raise == 0


@pytest.mark.rule("EN-082", "EN-100", "EN-111")
def test_guard_swap_and_tactical_strike_are_masked_out_of_a_duel():
    state = started(start_distance=1)
    names = legal_names(state)
    assert "attack" in names and "guard" not in names and not any("tactical_strike" in n for n in names)
    play(state, "pass", "pass")
    assert state.decision_kind() == "round_start" and "void:swap" not in legal_names(state)
