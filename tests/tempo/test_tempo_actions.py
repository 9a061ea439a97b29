"""Proactive actions and their situations (TP-022..035), statuses and gating (TP-014, 016..020, TP-T09),
movement, disarm, grapple, pin and escape, aim and reload (TP-G04, G07, G10, G11, G12)."""

import pytest

from issoku.rules.tempo.actions import (
    ANY_STATUS,
    BOUND,
    GRAPPLED,
    OFF_GUARD,
    ON_GUARD,
    PINNED,
    STATUS_NAMES,
    TECHNIQUE_OF,
    TECHNIQUES,
)
from tempo_helpers import bound, duel, grappled, kinds, last, legal_names, play

# TP-016..020 as the inventory lists them (derived from each action's "Allowed Status", TP-A02).
ALLOWED = {
    BOUND: {"disarm", "grapple", "press", "withdraw", "double", "wind", "recover_stamina"},
    GRAPPLED: {"escape", "pin", "unarmed_attack", "struggle", "recover_stamina"},
    OFF_GUARD: {"move", "ready", "recover_stamina"},
    ON_GUARD: {"aim", "move", "combat_move", "feint", "melee_attack", "ranged_attack", "unarmed_attack",
               "counter_attack", "counter_fire", "dodge", "evade", "parry", "retreat", "ct_counter_attack",
               "ct_parry", "recover_stamina"},
    PINNED: {"escape", "recover_stamina"},
}
OUR_ADDITIONS = {"recover_weapon", "reload", "feint_counter_attack"}     # TP-G10, TP-G04, TP-047


@pytest.mark.rule("TP-014", "TP-016", "TP-017", "TP-018", "TP-019", "TP-020", "TP-A02", "TP-048")
@pytest.mark.parametrize("status", range(5), ids=STATUS_NAMES)
def test_tp_016_020_status_lists_match_the_text(status):
    allowed = {name for name, tech in TECHNIQUES.items() if tech.allowed_in(status)} - OUR_ADDITIONS
    assert allowed == ALLOWED[status]
    assert TECHNIQUES["recover_stamina"].statuses == ANY_STATUS


@pytest.mark.rule("TP-T09", "TP-014", "TP-018", "TP-A02")
@pytest.mark.parametrize("status,techniques", [
    (OFF_GUARD, {"move", "ready"}),
    (PINNED, {"escape"}),
    (BOUND, {"disarm", "grapple", "press", "withdraw"}),
    (GRAPPLED, {"escape", "pin", "unarmed_attack"}),
])
def test_tp_t09_status_gating_in_play(status, techniques):
    state = duel(start_distance=1)
    state.status = [status, GRAPPLED if status == PINNED else status]
    offered = {TECHNIQUE_OF[a].name for a in state._act_legal(0) if TECHNIQUE_OF[a] is not None}
    assert offered == techniques


@pytest.mark.rule("TP-019")
def test_tp_019_on_guard_fencer_options_at_one_square():
    assert legal_names(duel()) == ["pass", "proactive:move:open", "proactive:combat_move:open", "proactive:feint",
                                   "proactive:melee_attack", "proactive:unarmed_attack"]


@pytest.mark.rule("TP-022", "TP-G12")
def test_tp_022_aim_gives_the_aimed_accuracy_to_the_next_shot_this_turn():
    state = duel([1, 15], fighters=("archer", "knight"), start_distance=6)
    play(state, "proactive:aim")                              # nobody can answer: the knight has no bow
    assert state.aimed[0] and last(state, "aimed")["rule"] == "TP-022"
    play(state, "proactive:ranged_attack")
    check = last(state, "check")
    assert (check["rule"], check["modifier"], check["result"]) == ("TP-022", 3, 1 - 10 + 3 + 3)
    play(state, "pass")
    assert state.aimed == [False, False] and state.current_seat() == 1     # the aim lasts this turn only


@pytest.mark.rule("TP-032", "TP-G12")
def test_tp_032_unaimed_ranged_attack_uses_plain_accuracy():
    state = duel([15, 4], fighters=("archer", "knight"), start_distance=6)
    play(state, "proactive:ranged_attack")
    check = last(state, "check")
    assert (check["rule"], check["modifier"], check["result"]) == ("TP-G12", 0, 8)
    assert last(state, "resolve")["outcome"] == "critical_hit" and state.hp[1] == 16 - 4


@pytest.mark.rule("TP-G04", "TP-032")
def test_tp_g04_crossbow_must_reload_after_a_shot():
    state = duel([1], fighters=("crossbowman", "knight"), start_distance=5)
    play(state, "proactive:ranged_attack")
    assert state.loaded[0] is False
    names = legal_names(state)
    assert "proactive:reload" in names and "proactive:ranged_attack" not in names and "proactive:aim" not in names
    play(state, "proactive:reload")
    assert state.loaded[0] and state.ap[0] == 12 - 3 - 6


@pytest.mark.rule("TP-023", "TP-G07")
@pytest.mark.parametrize("fighters,start,order,after", [
    (("fencer", "knight"), 5, "proactive:move:close", 1),
    (("spearman", "knight"), 5, "proactive:move:close", 2),     # a spear stops at its own reach
    (("spearman", "knight"), 2, "proactive:move:close", 1),
    (("fencer", "knight"), 10, "proactive:move:open", 12),      # the far edge
])
def test_tp_g07_move_distances(fighters, start, order, after):
    state = duel(fighters=fighters, start_distance=start)
    play(state, order)
    if state.decision_kind() == "react":
        play(state, "pass")
    assert state.distance == after


@pytest.mark.rule("TP-G08", "TP-036")
def test_tp_g08_counter_attack_needs_the_mover_in_reach():
    state = duel(fighters=("spearman", "knight"), start_distance=5)
    play(state, "proactive:move:close")                       # ends at 2: beyond the knight's reach of 1
    assert legal_names(state) == ["pass", "react:retreat"]


@pytest.mark.rule("TP-024", "TP-G11", "TP-T06")
@pytest.mark.parametrize("die,order,after", [
    (1, "proactive:combat_move:close", 4),      # -7: failure, no move
    (10, "proactive:combat_move:close", 3),     # 2: one square
    (20, "proactive:combat_move:close", 1),     # 12: critical, all the way in
    (20, "proactive:combat_move:open", 8),      # 12: critical, Base Combat Movement away
])
def test_tp_024_combat_move(die, order, after):
    state = duel([die], start_distance=4)
    play(state, order)
    if state.decision_kind() == "react":
        play(state, "pass")
    assert state.distance == after


@pytest.mark.rule("TP-025", "TP-G10")
def test_tp_025_disarm_ends_the_bind_and_takes_the_weapon():
    state = bound([15, 15])                                   # disarm 8; then the fencer ends its turn
    play(state, "proactive:disarm", "pass")
    assert state.disarmed == [False, True] and state.status == [ON_GUARD, ON_GUARD]
    play(state, "pass")
    names = legal_names(state)
    assert "proactive:recover_weapon" in names and "proactive:melee_attack" not in names
    assert "proactive:unarmed_attack" in names
    play(state, "proactive:recover_weapon")
    assert state.disarmed == [False, False] and state.ap[1] == 8 - 2


@pytest.mark.rule("TP-025")
def test_tp_025_disarm_needs_eight():
    state = bound([14])                                       # 14 - 10 + 3 = 7
    play(state, "proactive:disarm", "pass")
    assert last(state, "resolve")["outcome"] == "failure" and state.status == [BOUND, BOUND]


@pytest.mark.rule("TP-028", "TP-G10")
def test_tp_028_grapple_from_the_bind():
    state = grappled()
    assert state.status == [GRAPPLED, GRAPPLED] and state.distance == 1
    assert legal_names(state) == ["pass", "proactive:escape", "proactive:pin", "proactive:unarmed_attack"]


@pytest.mark.rule("TP-030", "TP-020", "TP-026", "TP-G10")
def test_tp_030_pin_then_the_pinned_fighter_escapes():
    state = grappled([12, 15, 10])                            # pin 3 >= Grapple Defence 1 + 2; recover; escape 2
    play(state, "proactive:pin")
    assert legal_names(state) == ["pass", "react:struggle"]
    play(state, "pass")
    assert state.status == [GRAPPLED, PINNED]
    assert state.current_seat() == 1 and legal_names(state) == ["pass", "proactive:escape"]
    play(state, "proactive:escape")
    assert legal_names(state) == ["pass", "react:struggle"]
    play(state, "pass")
    assert state.status == [ON_GUARD, ON_GUARD]


@pytest.mark.rule("TP-030")
def test_tp_030_pin_below_grapple_defence_fails():
    state = grappled([11, 15])                                # 11 - 10 + 1 = 2 < 3
    play(state, "proactive:pin", "pass")
    assert state.status == [GRAPPLED, GRAPPLED]


@pytest.mark.rule("TP-033")
def test_tp_033_ready_costs_one():
    assert TECHNIQUES["ready"].cost == 1


@pytest.mark.rule("TP-034")
def test_tp_034_unarmed_attack_from_on_guard_and_grappled():
    assert TECHNIQUES["unarmed_attack"].cost == 3
    assert TECHNIQUES["unarmed_attack"].allowed_in(ON_GUARD) and TECHNIQUES["unarmed_attack"].allowed_in(GRAPPLED)


@pytest.mark.rule("TP-035", "TP-G10")
def test_tp_035_withdraw_frees_the_blades():
    state = bound([9])
    play(state, "proactive:withdraw", "pass")
    assert state.status == [ON_GUARD, ON_GUARD] and last(state, "statuses")["why"] == "withdraw"


@pytest.mark.rule("TP-G10")
def test_tp_g10_press_failure_stays_bound():
    state = bound([1])                                        # press 1 - 10 + 3 = -6 < knight CD 1
    play(state, "proactive:press", "pass")
    assert last(state, "resolve")["outcome"] == "failure" and state.status == [BOUND, BOUND]
    assert not kinds(state, "damage")
