"""Declare, react, counter-tempo, resolve (TP-004..008, 011..013), the reactive and counter-tempo actions
(TP-036..047) and the worked examples TP-T02, T03, T04, T10, T12, on scripted dice."""

import pytest

from issoku.rules.tempo import TempoConfig, TempoDuel, counter_tempo_payment
from issoku.rules.tempo.actions import BOUND, COUNTER_TEMPO, ON_GUARD, PROACTIVE, REACTIVE, TECHNIQUES
from issoku.rules.kernel.dice import ScriptedDice
from tempo_helpers import bound, duel, kinds, last, legal_names, play, roster_with


@pytest.mark.rule("TP-004")
def test_tp_004_declaring_pays_at_once():
    state = duel()
    play(state, "proactive:melee_attack")
    assert state.decision_kind() == "react" and state.current_seat() == 1
    assert state.ap[0] == 8 and last(state, "declare")["cost"] == 4


@pytest.mark.rule("TP-005")
def test_tp_005_the_opponent_may_react_and_pays_for_it():
    state = duel()
    play(state, "proactive:melee_attack")
    assert legal_names(state) == ["pass", "react:counter_attack", "react:evade", "react:parry"]
    play(state, "react:parry")
    assert state.ap[1] == 8 and last(state, "react")["action"] == "react:parry"


@pytest.mark.rule("TP-006", "TP-T02", "TP-A03")
@pytest.mark.parametrize("original,replacement,paid", [(3, 5, 2), (5, 3, 0), (4, 4, 0)])
def test_tp_t02_counter_tempo_pays_the_difference(original, replacement, paid):
    assert counter_tempo_payment(original, replacement) == paid
    assert original + counter_tempo_payment(original, replacement) == max(original, replacement)


@pytest.mark.rule("TP-006", "TP-G04", "TP-T02", "TP-A03")
def test_tp_006_dearer_replacement_pays_the_difference_in_play(tmp_path):
    roster = roster_with(tmp_path, weapons="[weapons.heavy_sword]\nkind = 'melee'\nap = 3\ndamage_die = 10\n"
                                           "reach = 1\nap_by_action = { ct_parry = 5 }\n",
                         fighters="[fighters.duellist]\nweapon = 'heavy_sword'\narmour = 'none'\nmelee = 3\n"
                                  "ranged = 0\nwrestling = 1\nathletics = 2\ndefence = 2\nendurance = 2\n")
    ruleset = TempoDuel(TempoConfig(("duellist", "knight"), start_distance=1), roster=roster)
    state = ruleset.new_initial_state(dice=ScriptedDice([15, 3, 16, 11]))
    play(state, "proactive:melee_attack", "react:counter_attack", "ct:parry")
    event = last(state, "counter_tempo")
    assert (event["cost"], event["paid_before"], event["extra"]) == (5, 3, 2)
    assert state.ap[0] == 12 - 5


@pytest.mark.rule("TP-007", "TP-029", "TP-G03")
def test_tp_007_unopposed_attack_reads_its_table():
    state = duel([15, 6])                        # 15 - 10 + 3 = 8 >= knight CD (Armoured) 1 + 6: critical
    play(state, "proactive:melee_attack", "pass")
    resolve = last(state, "resolve")
    assert (resolve["rule"], resolve["net"], resolve["outcome"]) == ("TP-007", 8, "critical_hit")
    damage = last(state, "damage")
    assert (damage["die"], damage["soak"], damage["damage"]) == (6, 0, 6)
    assert state.hp[1] == 16 - 6


@pytest.mark.rule("TP-008", "TP-T04", "TP-041")
def test_tp_t04_parry_equal_binds_both():
    state = bound()
    resolve = last(state, "resolve")
    assert (resolve["net"], resolve["reaction_net"], resolve["reaction_outcome"]) == (0, 0, "bind")
    assert state.status == [BOUND, BOUND] and state.hp == [14, 16]


@pytest.mark.rule("TP-008", "TP-T04", "TP-041", "TP-G09")
def test_tp_t04_parry_one_better_stops_the_attack():
    state = duel([14, 16])                                     # attack 7, parry 16 - 10 + 2 = 8
    play(state, "proactive:melee_attack", "react:parry", "pass")
    assert last(state, "resolve")["reaction_outcome"] == "success"
    assert last(state, "stopped")["action"] == "melee_attack"
    assert state.status == [ON_GUARD, ON_GUARD] and state.hp == [14, 16]


@pytest.mark.rule("TP-008", "TP-T04", "TP-A08")
def test_tp_t04_failed_parry_leaves_the_attack_net_against_combat_defence():
    state = duel([14, 14, 8])                                  # attack 7, parry 6: attack net 1 >= knight CD 1
    play(state, "proactive:melee_attack", "react:parry", "pass")
    resolve = last(state, "resolve")
    assert (resolve["net"], resolve["outcome"], resolve["reaction_outcome"]) == (1, "hit", "failure")
    assert last(state, "damage")["damage"] == 8 - 6            # a Hit: heavy armour soaks 6
    assert state.hp[1] == 14


@pytest.mark.rule("TP-011", "TP-012", "TP-013", "TP-A01")
def test_tp_011_013_action_types():
    by_kind = {kind: {name for name, tech in TECHNIQUES.items() if tech.kind == kind}
               for kind in (PROACTIVE, REACTIVE, COUNTER_TEMPO)}
    assert {"aim", "move", "combat_move", "disarm", "escape", "feint", "grapple", "melee_attack", "pin", "press",
            "ranged_attack", "ready", "unarmed_attack", "withdraw"} <= by_kind[PROACTIVE]
    assert by_kind[REACTIVE] == {"counter_attack", "counter_fire", "dodge", "double", "evade", "parry", "retreat",
                                 "struggle", "wind"}
    assert by_kind[COUNTER_TEMPO] == {"ct_counter_attack", "ct_parry", "feint_counter_attack"}
    assert all(TECHNIQUES[name].responds_to for name in by_kind[REACTIVE] | by_kind[COUNTER_TEMPO])


@pytest.mark.rule("TP-013", "TP-045")
def test_tp_045_ct_counter_attack_replaces_the_attack():
    state = duel([15, 5, 4])
    play(state, "proactive:melee_attack", "react:counter_attack")
    assert state.decision_kind() == "counter" and state.current_seat() == 0
    assert legal_names(state) == ["pass", "ct:counter_attack", "ct:parry"]
    play(state, "ct:counter_attack")
    checks = [(e["actor"], e["action"]) for e in kinds(state, "check")]
    assert checks == [(0, "ct_counter_attack"), (1, "counter_attack")]       # the original never resolves
    resolve = last(state, "resolve")
    assert (resolve["net"], resolve["outcome"], resolve["reaction_outcome"]) == (11, "critical_hit", "miss")
    assert state.hp == [14, 12]


@pytest.mark.rule("TP-046", "TP-G09")
def test_tp_046_ct_parry_stops_the_counter_attack():
    state = duel([16, 11])                                     # CT parry 9, counter-attack 3: net 6
    play(state, "proactive:melee_attack", "react:counter_attack", "ct:parry")
    assert last(state, "resolve")["outcome"] == "success"
    assert last(state, "stopped")["action"] == "counter_attack"
    assert state.hp == [14, 16] and state.status == [ON_GUARD, ON_GUARD]


@pytest.mark.rule("TP-036", "TP-G02", "TP-G09")
def test_tp_036_counter_attack_can_hit_both(tmp_path):
    novice = ("[fighters.novice]\nweapon = 'longsword'\narmour = 'none'\nmelee = 0\nranged = 0\nwrestling = 0\n"
              "athletics = 0\ndefence = 0\nendurance = 0\n")
    ruleset = TempoDuel(TempoConfig(("novice", "novice"), start_distance=1), roster=roster_with(tmp_path, fighters=novice))
    state = ruleset.new_initial_state(dice=ScriptedDice([15, 3, 10, 10, 4, 5]))
    play(state, "proactive:melee_attack", "react:counter_attack", "pass")
    resolve = last(state, "resolve")
    assert (resolve["net"], resolve["reaction_net"]) == (0, 0)            # a tie against Combat Defence 0
    assert resolve["outcome"] == resolve["reaction_outcome"] == "critical_hit"
    assert state.hp == [10 - 5, 10 - 4]                                   # the actor's blow is rolled first


@pytest.mark.rule("TP-T03", "TP-023", "TP-036")
def test_tp_t03_move_unopposed_succeeds():
    state = duel(start_distance=4)
    play(state, "proactive:move:close")
    assert legal_names(state) == ["pass", "react:counter_attack", "react:retreat"]
    play(state, "pass")
    assert last(state, "resolve")["outcome"] == "success" and state.distance == 1


@pytest.mark.rule("TP-T03", "TP-023", "TP-036")
def test_tp_t03_move_against_counter_attack_four():
    state = duel([12, 5], start_distance=4)                   # counter-attack 12 - 10 + 2 = 4
    play(state, "proactive:move:close", "react:counter_attack")
    resolve = last(state, "resolve")
    assert (resolve["net"], resolve["outcome"]) == (-4, "failure")
    assert (resolve["reaction_net"], resolve["reaction_outcome"]) == (4, "critical_hit")   # >= 2 + light armour 2
    assert state.hp[0] == 14 - 5
    assert state.distance == 3                                # hit: stops at the first square of its path


@pytest.mark.rule("TP-037", "TP-022")
def test_tp_037_counter_fire_spoils_an_aim():
    state = duel([15, 3], fighters=("archer", "archer"), start_distance=6)
    play(state, "proactive:aim")
    assert legal_names(state) == ["pass", "react:counter_fire"]
    play(state, "react:counter_fire")
    resolve = last(state, "resolve")
    assert (resolve["net"], resolve["outcome"], resolve["reaction_outcome"]) == (-8, "failure", "critical_hit")
    assert state.aimed == [False, False] and state.hp[0] == 14 - 3


@pytest.mark.rule("TP-038", "TP-G12")
def test_tp_038_dodge_needs_distance_beyond_attack_speed():
    state = duel([10, 10], fighters=("archer", "archer"), start_distance=7)
    play(state, "proactive:ranged_attack")
    assert legal_names(state) == ["pass", "react:dodge"]
    play(state, "react:dodge")
    assert last(state, "resolve")["reaction_outcome"] == "success" and last(state, "stopped")["by"] == "dodge"
    close = duel([1], fighters=("archer", "archer"), start_distance=6)
    play(close, "proactive:ranged_attack")                    # at 6 = the bow's attack speed: no reaction at all
    assert not kinds(close, "react") and last(close, "resolve")["rule"] == "TP-007"


@pytest.mark.rule("TP-039", "TP-031", "TP-G10")
def test_tp_039_031_press_breaks_the_bind_against_a_double():
    state = bound([12, 5, 3])
    play(state, "proactive:press")
    assert legal_names(state) == ["pass", "react:double", "react:wind"]
    play(state, "react:double")
    resolve = last(state, "resolve")
    assert (resolve["net"], resolve["outcome"], resolve["reaction_outcome"]) == (8, "critical_success", "miss")
    assert state.hp[1] == 16 - 3 and state.status == [ON_GUARD, ON_GUARD]


@pytest.mark.rule("TP-039", "TP-G10")
def test_tp_039_double_cedes_the_bind_whatever_it_rolls():
    state = bound([1, 15, 2])                                 # withdraw -6, double 15 - 10 + 2 = 7
    play(state, "proactive:withdraw", "react:double")
    resolve = last(state, "resolve")
    assert (resolve["outcome"], resolve["reaction_net"], resolve["reaction_outcome"]) == ("failure", 13, "critical_hit")
    assert state.hp[0] == 14 - 2
    assert last(state, "statuses")["why"] == "bind_ceded" and state.status == [ON_GUARD, ON_GUARD]


@pytest.mark.rule("TP-040", "TP-G09")
def test_tp_040_evade_stops_the_attack():
    state = duel([10, 12])                                    # attack 3, evade 12 - 10 + 1 = 3: net 0
    play(state, "proactive:melee_attack", "react:evade")
    assert last(state, "resolve")["reaction_outcome"] == "success" and state.hp == [14, 16]
    assert state.decision_kind() == "act"                     # no counter-tempo answers an Evade


@pytest.mark.rule("TP-042", "TP-G11", "TP-A06")
@pytest.mark.parametrize("die,distance", [(15, 2), (20, 5), (1, 1)])
def test_tp_042_retreat_steps_away_after_the_move(die, distance):
    state = duel([die], start_distance=4)                     # retreat die - 10 + 1: 6 success, 11 critical, -8
    play(state, "proactive:move:close", "react:retreat")
    assert state.distance == distance


@pytest.mark.rule("TP-042", "TP-G08", "TP-A01")
def test_tp_042_retreat_answers_only_a_closing_move():
    state = duel(start_distance=4)
    play(state, "proactive:move:open")
    assert state.decision_kind() == "act" and state.current_seat() == 0    # nothing could answer it


@pytest.mark.rule("TP-043", "TP-034", "TP-017")
def test_tp_043_struggle_stops_an_unarmed_attack_in_a_grapple():
    from tempo_helpers import grappled
    state = grappled([10, 10, 15])                            # then 1 AP left: the turn ends, recover
    play(state, "proactive:unarmed_attack")
    assert legal_names(state) == ["pass", "react:struggle"]
    play(state, "react:struggle")
    assert last(state, "resolve")["reaction_outcome"] == "success" and state.hp == [14, 16]


@pytest.mark.rule("TP-044", "TP-035")
def test_tp_044_wind_stops_a_withdraw():
    state = bound([12, 14])                                   # withdraw 5, wind 6
    play(state, "proactive:withdraw", "react:wind")
    assert last(state, "stopped")["by"] == "wind" and state.status == [BOUND, BOUND]


@pytest.mark.rule("TP-034", "TP-T10")
def test_tp_t10_counter_attack_against_unarmed_attack_gets_five():
    state = duel([10, 10, 5], fighters=("brawler", "knight"))
    play(state, "proactive:unarmed_attack", "react:counter_attack")
    check = last(state, "check")
    assert (check["rule"], check["modifier"], check["result"]) == ("TP-034", 5, 7)
    resolve = last(state, "resolve")
    assert (resolve["reaction_net"], resolve["reaction_outcome"]) == (3, "hit")
    assert state.hp[0] == 16 - (5 - 2)


@pytest.mark.rule("TP-047", "TP-T10", "TP-027", "TP-A07")
def test_tp_047_feint_drawing_a_parry_becomes_a_counter_attack_at_plus_three():
    state = duel([10, 10, 9])
    play(state, "proactive:feint", "react:parry")
    assert legal_names(state) == ["pass", "ct:feint_counter_attack"]
    play(state, "ct:feint_counter_attack")
    check = [e for e in kinds(state, "check") if e["actor"] == 0][-1]
    assert (check["rule"], check["modifier"], check["result"]) == ("TP-047", 3, 6)
    resolve = last(state, "resolve")
    assert (resolve["net"], resolve["outcome"], resolve["reaction_net"]) == (4, "hit", -4)
    assert state.hp[1] == 16 - (9 - 6)


@pytest.mark.rule("TP-047")
def test_tp_047_a_real_attack_drawing_a_parry_cannot_become_the_plus_three_counter():
    state = duel([10, 10])
    play(state, "proactive:melee_attack", "react:parry")
    assert state.decision_kind() == "counter" and legal_names(state) == ["pass"]


@pytest.mark.rule("TP-T12", "TP-027")
def test_tp_t12_unanswered_feint_misses_and_its_ap_is_spent():
    state = duel([20])
    play(state, "proactive:feint", "pass")
    resolve = last(state, "resolve")
    assert (resolve["action"], resolve["outcome"]) == ("feint", "miss")
    assert state.ap[0] == 8 and state.hp == [14, 16]


@pytest.mark.rule("TP-T08", "TP-040", "TP-015", "TP-011", "TP-012")
@pytest.mark.parametrize("evade_die, outcome", [(12, "success"), (11, "failure")])
def test_tp_t08_an_evade_at_net_0_stops_the_attack_at_minus_1_it_fails(evade_die, outcome):
    state = duel([10, evade_die, 1])                          # attack 3; evade die - 10 + 1: net 0 or -1
    play(state, "proactive:melee_attack", "react:evade")
    assert last(state, "resolve")["reaction_outcome"] == outcome


@pytest.mark.rule("TP-T07", "TP-028", "TP-016")
@pytest.mark.parametrize("die, outcome", [(16, "failure"), (17, "success")])
def test_tp_t07_a_grapple_from_the_bind_needs_a_net_of_8(die, outcome):
    state = bound([die])                                      # die - 10 + wrestling 1, unanswered
    play(state, "proactive:grapple", "pass")
    assert last(state, "resolve")["outcome"] == outcome


@pytest.mark.rule("TP-A05", "TP-023")
def test_tp_a05_an_unopposed_move_has_result_0_and_succeeds():
    state = duel(start_distance=4)
    play(state, "proactive:move:open")
    assert (last(state, "result")["result"], last(state, "resolve")["outcome"]) == (0, "success")
    assert not [e for e in state.events if e.kind == "check" and e.actor == 0] and state.distance > 4
