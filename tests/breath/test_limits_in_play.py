"""The one-breath limit and its expansions as fights meet them (BR-008, 059..066, BR-T14/T15, BR-D06):
the limit a breath starts with, and where spending past it overloads."""

from pathlib import Path

import pytest

from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec

from .helpers import play, scripted

SHEETS = [Path(__file__).parents[2] / "rules" / "breath" / "data", Path(__file__).parent / "data" / "speed_sheets.toml"]
FOE = FighterSpec("wildman", 1, finesse=0)  # 10 Energy: acts last, Defense 10
MISS = [1, 2]


def fight(fighter: FighterSpec, faces=()):
    return scripted(BreathRuleset(BreathConfig((fighter, FOE)), data=SHEETS), list(faces))


def first_limit(state) -> int:
    return next(e for e in state.events if e.kind == "breath_start").data["limit"]


@pytest.mark.rule("BR-008", "BR-001", "BR-D01")
def test_br_008_a_plain_breath_is_5_and_energy_is_10_plus_finesse():
    state = fight(FighterSpec("ronin", 0))  # Finesse 2, no armor expansion
    assert first_limit(state) == 5 and state.fighters[0].energy == 12 and state.fighters[1].energy == 10


@pytest.mark.rule("BR-059", "BR-060", "BR-064", "BR-A02", "BR-T14")
@pytest.mark.parametrize("archetype, limit", [("shinobi", 6), ("speed_master", 7)])
def test_br_t14_speed_license_6_master_7_never_both(archetype, limit):
    """Speed 3 is the license (+1), Speed 4 the master (+2); one skill, one name: master replaces license."""
    assert first_limit(fight(FighterSpec(archetype, 0))) == limit


@pytest.mark.rule("BR-063", "BR-066", "BR-T15", "BR-024")
def test_br_t15_swift_decision_armor_a_breath_of_6_is_fine_7_overloads():
    kenshi = FighterSpec("kenshi", 0)  # swift-decision armor: limit 6
    state = fight(kenshi, MISS * 3)
    play(state, *["attack:uchigatana.horizontal_cut"] * 3)
    assert first_limit(state) == 6 and not [e for e in state.events if e.kind == "overload_check"]
    state = fight(kenshi, MISS * 3 + [5, 5])
    play(state, *["attack:uchigatana.horizontal_cut"] * 3, "reserve:uchigatana.parry")
    check = next(e for e in state.events if e.kind == "overload_check").data
    assert (check["spent"], check["limit"], check["excess"]) == (7, 6, 1)


@pytest.mark.rule("BR-D06", "BR-061", "BR-066")
def test_br_d06_speed_master_and_asura_in_the_core_9_outside_7():
    from issoku.rules.breath.zones import ZONE_NAMES, ZonesModule

    zones = ZonesModule()
    rules = BreathRuleset(BreathConfig((FighterSpec("swift_monk", 0), FOE)), data=SHEETS, modules=(zones,),
                          name="breath_skirmish", seat_naming="side_fighter")
    state = scripted(rules, [])
    assert first_limit(state) == 7  # in its Front: Speed master only
    zones.place(state, state.fighters[0], ZONE_NAMES.index("core"))
    play(state, "stand", "stand")  # the monk, then the wildman: the lull, round 2
    starts = [e for e in state.events if e.kind == "breath_start" and e.actor == 0]
    assert starts[-1].data["limit"] == 9
