"""Cost arithmetic and the one-breath limit: BR-T07..T15, BR-D01, D04, D06, and the rules behind them."""

from __future__ import annotations

import pytest

from issoku.rules.breath.content import load_catalog
from issoku.rules.breath.costs import (
    breath_limit,
    combo_fatigue,
    final_cost,
    improvised_base,
    overload_excess,
    speed_expansion,
    strongest_per_name,
)
from issoku.rules.breath.engine import technique_cost_modifiers
from issoku.rules.breath.fighter import Fighter

from .helpers import ruleset
from issoku.rules.breath.ruleset import FighterSpec

CATALOG = load_catalog()


def fighter(archetype: str, weapon: str | None = None, in_core: bool = False, traits: tuple[str, ...] = ()) -> Fighter:
    rules = ruleset(FighterSpec(archetype, 0, weapon=weapon), FighterSpec("ronin", 1))
    sheet = rules.sheets[0]
    if traits:
        from dataclasses import replace
        sheet = replace(sheet, traits=frozenset(traits))
    f = Fighter(0, sheet)
    f.in_core = in_core
    return f


def technique_cost(f: Fighter, key: str, improvised: bool = False, extra=()) -> int:
    technique = CATALOG.techniques[key]
    return final_cost(technique.cost, technique_cost_modifiers(f, technique, improvised) + list(extra),
                      improvised=improvised)[0]


@pytest.mark.rule("BR-028")
def test_br_028_floor_of_one():
    assert final_cost(1, [("a", -1), ("b", -2)])[0] == 1
    assert final_cost(2, [("a", -1)])[0] == 1


@pytest.mark.rule("BR-045")
def test_br_045_penalties_and_bonuses_summed_before_the_floor():
    # +1 penalty offsets a -1 bonus that alone would be floored: 1 - 1 - 1 + 1 = 0 -> 1; 2 + 1 - 1 = 2.
    assert final_cost(1, [("core_zone_short", -1), ("seal_of_shura", -1), ("outside_zone", 1)])[0] == 1
    assert final_cost(2, [("core_zone_long", 1), ("takenouchi_license", -1)])[0] == 2
    assert final_cost(3, [("x", 2), ("y", -1)])[0] == 4


@pytest.mark.rule("BR-T07")
def test_br_t07_dagger_thrust_in_core_floored_to_one():
    assert technique_cost(fighter("kenshi", "tanto", in_core=True), "tanto.thrust") == 1


@pytest.mark.rule("BR-T08")
def test_br_t08_yari_thrust_core_penalty_offset_by_takenouchi_license():
    f = fighter("ashigaru", in_core=True, traits=("takenouchi_license",))
    assert technique_cost(f, "yari.thrust") == 2
    assert technique_cost(fighter("ashigaru", in_core=True), "yari.thrust") == 3  # BR-056 alone


@pytest.mark.rule("BR-T10")
@pytest.mark.rule("BR-054")
def test_br_t10_dagger_core_and_shura_floor_at_one_and_fatigue_reduced_once():
    f = fighter("mikkyo_monk", "tanto", in_core=True)
    assert technique_cost(f, "tanto.thrust") == 1
    assert [combo_fatigue(n, reduced=True) for n in (4, 5, 6)] == [-1, -2, -3]


@pytest.mark.rule("BR-T11")
@pytest.mark.rule("BR-052")
def test_br_t11_staff_is_not_short_so_shura_reduces_cost_but_no_fatigue_relief():
    f = fighter("mikkyo_monk", in_core=True)
    assert technique_cost(f, "staff.heavy_strike") == 1
    assert f.weapon.weapon_class == "staff" and not f.weapon.is_short


@pytest.mark.rule("BR-T12")
@pytest.mark.rule("BR-057")
def test_br_t12_outside_zone_penalty_offset_by_shura():
    f = fighter("mikkyo_monk", "tanto", in_core=True)
    assert technique_cost(f, "tanto.thrust", extra=[("outside_zone", 1)]) == 1


@pytest.mark.rule("BR-053")
@pytest.mark.rule("BR-055")
@pytest.mark.rule("BR-056")
def test_br_053_055_shura_still_reduces_a_raised_base():
    monk_with_nodachi = fighter("mikkyo_monk", "nodachi", in_core=True)
    # nodachi cut 2 + long in core 1 - Shura 1 = 2; improvised nodachi parry: 1.5 x 2 = 3, + 1 - 1 = 3.
    assert technique_cost(monk_with_nodachi, "nodachi.cut") == 2
    assert technique_cost(monk_with_nodachi, "nodachi.parry", improvised=True) == 3
    assert technique_cost(fighter("ronin", in_core=True), "nodachi.parry", improvised=True) == 4


@pytest.mark.rule("BR-033")
@pytest.mark.rule("BR-051")
@pytest.mark.rule("BR-T13")
def test_br_t13_short_weapon_in_core_combo_fatigue_schedule():
    assert [combo_fatigue(n, reduced=True) for n in range(1, 7)] == [0, 0, 0, -1, -2, -3]


@pytest.mark.rule("BR-G06")
def test_br_g06_base_combo_fatigue_schedule():
    assert [combo_fatigue(n) for n in range(1, 7)] == [0, 0, 0, -2, -4, -6]


@pytest.mark.rule("BR-020")
@pytest.mark.rule("BR-D04")
@pytest.mark.rule("BR-G07")
def test_br_d04_improvised_costs_round_half_up():
    assert [improvised_base(b) for b in (1, 2, 3, 4)] == [2, 3, 5, 6]
    assert final_cost(3, improvised=True)[0] == 5


@pytest.mark.rule("BR-036")
def test_br_036_same_name_keeps_most_favourable_different_names_stack():
    assert strongest_per_name([("shura", -1), ("shura", -1), ("core", -1)]) == [("shura", -1), ("core", -1)]
    assert final_cost(4, [("a", -1), ("a", -2), ("b", -1)])[0] == 1


@pytest.mark.rule("BR-030")
def test_br_030_zero_energy_kata_costs_nothing_and_takes_no_modifiers():
    assert final_cost(0, [("penalty", 2)], zero_energy=True) == (0, [])


@pytest.mark.rule("BR-008")
@pytest.mark.rule("BR-T14")
@pytest.mark.rule("BR-059")
@pytest.mark.rule("BR-060")
@pytest.mark.rule("BR-A02")
def test_br_t14_speed_license_master_and_both():
    assert breath_limit([]) == 5
    assert breath_limit([("speed", speed_expansion(3))]) == 6
    assert breath_limit([("speed", speed_expansion(4))]) == 7
    assert breath_limit([("speed", 1), ("speed", 2)]) == 7


@pytest.mark.rule("BR-T15")
@pytest.mark.rule("BR-063")
@pytest.mark.rule("BR-066")
def test_br_t15_swift_decision_armor_limit_six():
    limit = breath_limit([("swift_decision", CATALOG.armors["swift_decision"].breath_bonus)])
    assert limit == 6
    assert overload_excess(6, limit) == 0 and overload_excess(7, limit) == 1
    assert CATALOG.armors["swift_decision"].defense == 11  # BR-A04


@pytest.mark.rule("BR-D06")
@pytest.mark.rule("BR-061")
@pytest.mark.rule("BR-064")
def test_br_d06_speed_master_and_asura_in_core_stack_to_nine():
    assert breath_limit([("speed", 2), ("asura", 2)]) == 9


@pytest.mark.rule("BR-D01")
@pytest.mark.rule("BR-001")
def test_br_d01_max_energy_is_ten_plus_finesse():
    rules = ruleset(FighterSpec("kenshi", 0, finesse=2), FighterSpec("ronin", 1, finesse=0))
    assert [s.max_energy for s in rules.sheets] == [12, 10]


@pytest.mark.rule("BR-T16")
@pytest.mark.rule("BR-074")
@pytest.mark.rule("BR-075")
def test_br_t16_core_zone_entry_and_exit_costs():
    assert (CATALOG.maneuvers["force_core_breakthrough"].cost, CATALOG.maneuvers["force_core_breakthrough"].check_tn) == (3, 13)
    assert CATALOG.maneuvers["forced_core_exit"].cost == 4 and CATALOG.maneuvers["forced_core_exit"].check_tn is None


@pytest.mark.rule("BR-067")
def test_br_067_to_077_common_maneuver_table():
    costs = {key: m.cost for key, m in CATALOG.maneuvers.items()}
    assert costs == {"walk": 2, "sprint": 3, "leap": 3, "mounted_gallop": 1, "stealth_movement": 3, "breakthrough": 3,
                     "free_core_entry": 2, "force_core_breakthrough": 3, "forced_core_exit": 4,
                     "enter_outside_zone": 2, "squad_order": 2}
