"""Outcome tables (TP-015) and the Recover Stamina table (TP-048..058): the TP-T worked examples, exactly."""

import pytest

from issoku.rules.kernel.dice import ScriptedDice
from issoku.rules.tempo import TempoConfig, TempoDuel
from issoku.rules.tempo import tables as t
from issoku.rules.tempo.actions import TECHNIQUES
from tempo_helpers import SEAT_0_FIRST, play, roster_with

# Defences of a target: fixed, Combat Defence 2, CD (Armoured) 4, Grapple Defence 3.
DEFENCES = (0, 2, 4, 3)


def outcome(technique, net, defences=DEFENCES):
    table = TECHNIQUES[technique].table
    return table.name(table.read(net, defences))


@pytest.mark.rule("TP-015")
@pytest.mark.parametrize("net,expected", [(-3, "miss"), (1, "miss"), (2, "hit"), (3, "hit"), (4, "critical_hit"),
                                          (9, "critical_hit")])
def test_tp_015_highest_row_met_target_thresholds(net, expected):
    assert outcome("melee_attack", net) == expected


@pytest.mark.rule("TP-015")
def test_tp_015_grapple_defence_row():
    assert outcome("pin", 2) == "failure"
    assert outcome("pin", 3) == "success"


@pytest.mark.rule("TP-041")
@pytest.mark.parametrize("parry,attack,expected", [(7, 7, "bind"), (8, 7, "success"), (6, 7, "failure")])
def test_tp_t04_parry_against_melee_attack(parry, attack, expected):
    assert outcome("parry", parry - attack) == expected
    assert outcome("ct_parry", parry - attack) == expected      # TP-046 reads the same table


@pytest.mark.rule("TP-T04")
def test_tp_t04_failed_parry_leaves_attack_net_one_against_combat_defence():
    assert outcome("melee_attack", 7 - 6, (0, 1, 7, 3)) == "hit"
    assert outcome("melee_attack", 7 - 6, (0, 2, 4, 3)) == "miss"


@pytest.mark.rule("TP-T06")
@pytest.mark.parametrize("technique", ["combat_move", "retreat"])
@pytest.mark.parametrize("net,expected", [(0, "failure"), (1, "success"), (9, "success"), (10, "critical_success"),
                                          (15, "critical_success")])
def test_tp_t06_combat_move_and_retreat(technique, net, expected):
    assert outcome(technique, net) == expected


@pytest.mark.rule("TP-T07")
@pytest.mark.parametrize("technique", ["disarm", "grapple"])
def test_tp_t07_disarm_and_grapple_need_eight(technique):
    assert outcome(technique, 7) == "failure"
    assert outcome(technique, 8) == "success"


@pytest.mark.rule("TP-T08")
@pytest.mark.parametrize("technique", ["evade", "dodge", "struggle", "wind"])
def test_tp_t08_stopping_reactions_succeed_at_zero(technique):
    assert outcome(technique, -1) == "failure"
    assert outcome(technique, 0) == "success"


@pytest.mark.rule("TP-026", "TP-035")
@pytest.mark.parametrize("technique", ["escape", "withdraw"])
def test_tp_026_035_escape_and_withdraw_succeed_at_one(technique):
    assert outcome(technique, 0) == "failure"
    assert outcome(technique, 1) == "success"


@pytest.mark.rule("TP-031")
def test_tp_031_press_reads_strike_thresholds_with_success_names():
    assert [outcome("press", n) for n in (1, 2, 4)] == ["failure", "success", "critical_success"]


@pytest.mark.rule("TP-027", "TP-T12")
@pytest.mark.parametrize("net", [-20, 0, 20])
def test_tp_027_feint_only_misses(net):
    assert outcome("feint", net) == "miss"


@pytest.mark.rule("TP-033")
def test_tp_033_ready_always_succeeds():
    assert outcome("ready", -1000) == "success"


@pytest.mark.rule("TP-022", "TP-023", "TP-A05")
@pytest.mark.parametrize("technique", ["aim", "move"])
def test_tp_022_023_result_zero_succeeds_unless_opposed(technique):
    assert TECHNIQUES[technique].skill is None
    assert outcome(technique, 0) == "success"
    assert outcome(technique, -1) == "failure"


# TP-T05: Recover Stamina result -> AP regained, with the rule of the row.
RECOVERY = [(-20, 0, "TP-049"), (-14, 0, "TP-049"), (-13, 1, "TP-050"), (-10, 1, "TP-050"), (-9, 2, "TP-051"),
            (-8, 3, "TP-052"), (-7, 3, "TP-052"), (-6, 4, "TP-053"), (-5, 4, "TP-053"), (-4, 6, "TP-054"),
            (-3, 8, "TP-055"), (-2, 10, "TP-056"), (-1, 11, "TP-057"), (0, 12, "TP-058"), (9, 12, "TP-058")]


@pytest.mark.rule("TP-T05", "TP-048", "TP-049", "TP-050", "TP-051", "TP-052", "TP-053", "TP-054", "TP-055",
                  "TP-056", "TP-057", "TP-058", "TP-A04")
@pytest.mark.parametrize("result,regained,rule", RECOVERY)
def test_tp_t05_recover_stamina_table(result, regained, rule):
    assert t.recovered_ap(result) == (regained, rule)


LADEN = ("[armour.laden]\nrating = 0\nencumbrance = 5\n",
         "[fighters.laden]\nweapon = 'longsword'\narmour = 'laden'\nmelee = 3\nranged = 0\nwrestling = 1\n"
         "athletics = 2\ndefence = 2\nendurance = 0\n")


@pytest.mark.rule("TP-T05", "TP-A04", "TP-009", "TP-048", "TP-049", "TP-050", "TP-051", "TP-052", "TP-053", "TP-054",
                  "TP-055", "TP-056", "TP-057", "TP-058")
@pytest.mark.parametrize("result,regained,rule", [row for row in RECOVERY if -14 <= row[0] <= 5])
def test_tp_t05_recover_stamina_in_play(tmp_path, result, regained, rule):
    """The table as a turn's end meets it: endurance 0 under armour of encumbrance 5, so d20 − 15 reaches
    every row from −14 up (the −20 row lies below any d20 and stays with the table test above)."""
    armour, fighter = LADEN
    roster = roster_with(tmp_path, armour=armour, fighters=fighter)
    state = TempoDuel(TempoConfig(("laden", "knight"), start_distance=1), roster=roster).new_initial_state(
        dice=ScriptedDice(SEAT_0_FIRST + [result + 15]))
    play(state, "pass")
    recover = [e.to_dict() for e in state.events if e.kind == "recover_stamina"][-1]
    assert (recover["actor"], recover["result"], recover["regained"], recover["rule"]) == (0, result, regained, rule)
