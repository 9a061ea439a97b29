"""Hit-location attacks and injuries (MA-040..047, MA-G15, MA-G17, MA-G18)."""

import pytest

from issoku.rules.kernel.dice import ScriptedDice
from issoku.rules.ma.ladder import Rung
from issoku.rules.ma.locations import LOCATION_COST, PICK_UP_COST, Injuries, Location, extra_wounds


@pytest.mark.rule("MA-040", "MA-041")
def test_ma_041_location_costs_1_extra_energy_on_any_attack():
    assert LOCATION_COST == 1
    assert {loc.value for loc in Location} == {"wrist", "arm", "leg", "torso", "face"}


@pytest.mark.rule("MA-042", "MA-D03")
@pytest.mark.parametrize("faces, dropped", [([4, 4], True), ([4, 5], False)])
def test_ma_d03_wrist_hit_on_physique_2(log, faces, dropped):
    """Dice 8 → 10 < 11: dropped. Dice 9 → 11: kept, but −1 on weapon attack checks either way."""
    injuries = Injuries()
    injuries.take_hit(Location.WRIST, ScriptedDice(faces), log, seat=1, physique=2)
    assert injuries.disarmed is dropped
    assert injuries.attack_modifier(with_weapon=True) == -1
    assert injuries.attack_modifier(with_weapon=False) == 0
    check = [e for e in log if e.kind == "wrist_check"][0]
    assert (check.rule, check.data["total"], check.data["success"]) == ("MA-042", sum(faces) + 2, not dropped)


@pytest.mark.rule("MA-043")
def test_ma_043_arm_minus_2_on_attack_techniques(log):
    injuries = Injuries()
    injuries.take_hit(Location.ARM, ScriptedDice([]), log, 0, 2)
    assert injuries.attack_modifier(with_weapon=True) == -2 == injuries.attack_modifier(with_weapon=False)


@pytest.mark.rule("MA-044")
def test_ma_044_leg_raises_half_step_cost(log):
    injuries = Injuries()
    injuries.take_hit(Location.LEG, ScriptedDice([]), log, 0, 2)
    assert injuries.half_step_extra() == 1 and injuries.leg


@pytest.mark.rule("MA-045", "MA-D04", "MA-G17")
def test_ma_d04_torso_extra_wound_then_bleeding_each_lull_until_stopped(log):
    injuries = Injuries()
    injuries.take_hit(Location.TORSO, ScriptedDice([]), log, 0, physique=2)
    assert extra_wounds(Location.TORSO) == 1 and extra_wounds(Location.ARM) == 0 and extra_wounds(None) == 0
    # Physique 2 vs 13 (needs 11 on 2d10) and Wits 1 + Medicine 3 vs 11 (needs 7): medicine has better odds.
    dice = ScriptedDice([2, 3, 5, 2])
    assert injuries.bleed(dice, log, 0, physique=2, wits=1, medicine=3) == 1 and injuries.bleeding
    assert injuries.bleed(dice, log, 0, physique=2, wits=1, medicine=3) == 1 and not injuries.bleeding
    assert injuries.bleed(dice, log, 0, physique=2, wits=1, medicine=3) == 0
    stops = [e for e in log if e.kind == "bleeding_stop"]
    assert [(e.data["way"], e.data["total"], e.data["target"], e.data["success"]) for e in stops] == \
        [("medicine", 9, 11, False), ("medicine", 11, 11, True)]
    assert [e.rule for e in log if e.kind == "bleeding"] == ["MA-045", "MA-045"]


@pytest.mark.rule("MA-G17")
def test_ma_g17_strong_body_stops_bleeding_by_physique(log):
    injuries = Injuries()
    injuries.take_hit(Location.TORSO, ScriptedDice([]), log, 0, 4)
    injuries.bleed(ScriptedDice([5, 4]), log, 0, physique=4, wits=0, medicine=0)
    assert log[-1].data["way"] == "physique" and log[-1].data["total"] == 13 and not injuries.bleeding


@pytest.mark.rule("MA-046")
def test_ma_046_face_is_an_every_check_modifier_not_an_attack_one(log):
    """The face's −2 reaches every check through the engine's check hook (tests/ma/test_duel_rules.py)."""
    injuries = Injuries()
    injuries.take_hit(Location.FACE, ScriptedDice([]), log, 0, 2)
    assert [(e.rule, e.kind) for e in log] == [("MA-046", "location_hit")]  # no regard in a fight (not modelled)
    assert injuries.check_modifiers() == [("face_wound", -2)] and injuries.attack_modifier(True) == 0


@pytest.mark.rule("MA-G18")
def test_ma_g18_same_location_twice_does_not_repeat_its_penalty_but_arm_and_wrist_stack(log):
    injuries = Injuries()
    for _ in range(2):
        injuries.take_hit(Location.ARM, ScriptedDice([]), log, 0, 2)
    assert injuries.attack_modifier(True) == -2
    injuries.take_hit(Location.WRIST, ScriptedDice([9, 9]), log, 0, 2)
    assert injuries.attack_modifier(True) == -3
    injuries.take_hit(Location.TORSO, ScriptedDice([]), log, 0, 2)
    injuries.take_hit(Location.TORSO, ScriptedDice([]), log, 0, 2)
    assert injuries.bleeding and extra_wounds(Location.TORSO) == 1  # Wounds still apply each time


@pytest.mark.rule("MA-047", "MA-A05")
def test_ma_047_injuries_persist_through_a_lull(log):
    injuries = Injuries()
    injuries.take_hit(Location.LEG, ScriptedDice([]), log, 0, 2)
    injuries.bleed(ScriptedDice([]), log, 0, 2, 2, 2)  # not bleeding: nothing rolled, nothing healed
    assert injuries.leg and injuries.half_step_extra() == 1


@pytest.mark.rule("MA-G15")
def test_ma_g15_pick_up_only_at_far_range(log):
    injuries = Injuries()
    injuries.take_hit(Location.WRIST, ScriptedDice([1, 1]), log, 0, 0)
    assert injuries.disarmed and PICK_UP_COST == 2
    assert Injuries.can_pick_up(Rung.FAR) and not Injuries.can_pick_up(Rung.ISSOKU_ITTO)
    injuries.pick_up(log, 0)
    assert not injuries.disarmed and injuries.wrist


def test_clone_is_independent(log):
    injuries = Injuries()
    twin = injuries.clone()
    twin.take_hit(Location.FACE, ScriptedDice([]), log, 0, 2)
    assert not injuries.face and twin.face
