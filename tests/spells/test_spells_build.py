"""Character build for spell PCs (SP-001..016, 050..071): access, acquisition, slots, perks, exclusivity.

The slot pools are read from a fight's start where a caster fights (the slots a fight starts with), and
checked on the pure functions for the tables."""

from __future__ import annotations

import pytest

from issoku.rules.kernel.content import DataError
from issoku.rules.kernel.dice import ScriptedDice
from issoku.rules.spells.build import (LIST_DOCUMENTS, SLOT_TABLE, acquisition, check_caster, has_access, slot_pools,
                                       slot_row, study_check)
from issoku.rules.spells.content import Caster, default_spell_content
from tests.spells.helpers import caster_rules, content_with, legal_names, scripted, spell_data

CONTENT = default_spell_content()
SORCERY_1 = ("fire_talisman", "paper_shield", "binding_charm")


def sheet(pc_dan=1, skills=(("sorcery", 3),), school=None, class_=None, spells=SORCERY_1, studied=(),
          techniques=False) -> Caster:
    return Caster("test", pc_dan, tuple(skills), school, class_, tuple(spells), tuple(studied), techniques)


def pools(caster: Caster) -> dict:
    return {name: (dict(pool.by_dan), pool.flexible) for name, pool in
            slot_pools(caster, CONTENT.schools, CONTENT.classes).items()}


@pytest.mark.rule("SP-001")
def test_sp_001_a_list_opens_at_licensed():
    assert not has_access(2) and has_access(3)
    problem = check_caster(sheet(skills=(("sorcery", 2),)), CONTENT.spells, CONTENT.schools, CONTENT.classes)
    assert problem is not None and "SP-001" in problem[1]


@pytest.mark.parametrize("list_name, rule, caster, spell", [
    ("sorcery", "SP-002", "onmyoji", "cast:fire_talisman"), ("exorcism", "SP-003", "exorcist", "cast:purifying_strike"),
    ("barrier", "SP-004", "barrier_priest", "cast:kekkai"), ("prophecy", "SP-005", "diviner", "cast:curse")])
def test_sp_002_005_each_list_opens_its_spells(list_name, rule, caster, spell, request):
    request.node.add_marker(pytest.mark.rule(rule))
    assert list_name in LIST_DOCUMENTS
    state = scripted(caster_rules(caster, "ronin"), [])
    if state.current_seat() != 0:
        state.apply(state.ruleset.codec.by_name("stand"))
    assert spell in legal_names(state)
    assert all(CONTENT.spells[k].list in pools(CONTENT.casters[caster]) for k in CONTENT.casters[caster].spells)


@pytest.mark.rule("SP-006", "SP-007", "SP-T07")
def test_sp_t07_acquisition_on_licensed_and_on_promotion():
    assert acquisition(1) == {1: 3} and acquisition(3) == {1: 3, 3: 2}
    assert check_caster(sheet(), CONTENT.spells, CONTENT.schools, CONTENT.classes) is None
    too_few = sheet(spells=SORCERY_1[:2])
    assert "SP-006" in check_caster(too_few, CONTENT.spells, CONTENT.schools, CONTENT.classes)[1]
    promoted = sheet(pc_dan=3, spells=(*SORCERY_1, "thunder_seal"))
    assert "SP-007" in check_caster(promoted, CONTENT.spells, CONTENT.schools, CONTENT.classes)[1]


@pytest.mark.rule("SP-008", "SP-G02", "SP-A06")
def test_sp_008_interlude_study():
    assert study_check(ScriptedDice([2, 3]), 3, 3).success  # 2d10 + Wisdom + skill ≥ 11
    assert not study_check(ScriptedDice([2, 2]), 3, 3).success
    studied = sheet(studied=("curse",))
    assert "SP-001" in check_caster(studied, CONTENT.spells, CONTENT.schools, CONTENT.classes)[1]
    assert check_caster(sheet(pc_dan=3, spells=(*SORCERY_1, "thunder_seal", "counter_charm"),
                              studied=("paper_shikigami",)), CONTENT.spells, CONTENT.schools, CONTENT.classes) is None


@pytest.mark.rule("SP-009", "SP-010", "SP-011", "SP-012", "SP-013", "SP-014", "SP-015", "SP-T01", "SP-G03")
def test_sp_t01_slot_table():
    assert [slot_row(d) for d in (1, 3, 5, 7, 9, 10)] == [
        {1: 2}, {1: 3, 3: 2}, {1: 4, 3: 3, 5: 2}, {1: 5, 3: 4, 5: 3, 7: 2}, {1: 5, 3: 4, 5: 3, 7: 2, 9: 1},
        {1: 5, 3: 4, 5: 3, 7: 2, 9: 1, 10: 1}]
    assert slot_row(4) == SLOT_TABLE[3] and slot_row(2) == SLOT_TABLE[1]  # SP-G03


@pytest.mark.rule("SP-009", "SP-011", "SP-016", "SP-066")
def test_sp_016_a_fight_starts_with_each_list_full():
    diviner = spell_data(scripted(caster_rules("diviner", "onmyoji"), [])).slots
    assert diviner[0] == {("sorcery", 1): 3, ("sorcery", 3): 2, ("sorcery", 0): 0,
                          ("prophecy", 1): 3, ("prophecy", 3): 2, ("prophecy", 0): 0}
    assert diviner[1] == {("sorcery", 1): 4, ("sorcery", 3): 3, ("sorcery", 0): 0}  # onmyoji class: all dans +1


SCHOOLS = [
    ("SP-051", "folk_sorcery", "sorcery", {1: 1}, 0), ("SP-052", "nanban_black_magic", "sorcery", {3: 1, 5: 1}, 0),
    ("SP-053", "joseon_daoism", "sorcery", {1: 1, 3: 1}, 0), ("SP-054", "chinese_daoist_priest", "sorcery", {5: 1, 7: 1}, 0),
    ("SP-055", "tibetan_esotericism", "sorcery", {7: 1, 9: 1}, 0),
    ("SP-056", "catholic_exorcism", "exorcism", {5: 1, 7: 1}, 0), ("SP-057", "orthodox_church", "exorcism", {3: 1, 5: 1}, 0),
    ("SP-058", "daoist_demon_quelling", "exorcism", {5: 1, 7: 1}, 0),
    ("SP-059", "joseon_shamanism", "exorcism", {1: 1, 3: 1}, 0), ("SP-060", "brahmin", "exorcism", {7: 1, 9: 1}, 0),
    ("SP-061", "barrier_school", "barrier", {}, 2), ("SP-062", "prophecy_school", "prophecy", {}, 2)]


@pytest.mark.parametrize("rule, school, list_name, extra, flexible", SCHOOLS)
def test_sp_050_school_perks(rule, school, list_name, extra, flexible, request):
    """A 9-dan PC with the school's list Licensed gains the perk at its dans (SP-050), flexibly for +2 schools."""
    request.node.add_marker(pytest.mark.rule(rule, "SP-050"))
    caster = sheet(pc_dan=9, skills=((list_name, 3),), school=school)
    by_dan, flex = pools(caster)[list_name]
    base = slot_row(9)
    assert {dan: by_dan[dan] - base[dan] for dan in by_dan if by_dan[dan] != base[dan]} == extra
    assert flex == flexible


@pytest.mark.rule("SP-G11", "SP-050")
def test_sp_g11_a_perk_only_where_the_pc_has_slots_and_sources_stack():
    by_dan, _ = pools(sheet(pc_dan=3, school="chinese_daoist_priest"))["sorcery"]
    assert by_dan == slot_row(3)  # 5/7-dan +1 means nothing to a 3-dan PC
    by_dan, _ = pools(sheet(pc_dan=3, school="joseon_daoism", class_="pure_land_monk"))["sorcery"]
    assert by_dan == {1: 3 + 1 + 1, 3: 2 + 1 + 1}  # school and class stack (BR-036)


CLASSES = [("SP-066", "onmyoji", "sorcery", {1: 1, 3: 1, 5: 1, 7: 1, 9: 1, 10: 1}, 0),
           ("SP-067", "esoteric_monk", "sorcery", {5: 1, 7: 1, 9: 1}, 0),
           ("SP-068", "pure_land_monk", "sorcery", {1: 1, 3: 1, 5: 1}, 0),
           ("SP-069", "shugenja", "sorcery", {3: 1, 5: 1, 7: 1}, 0),
           ("SP-070", "feng_shui_master", "barrier", {}, 2)]


@pytest.mark.parametrize("rule, class_, list_name, extra, flexible", CLASSES)
def test_sp_065_class_slots(rule, class_, list_name, extra, flexible, request):
    request.node.add_marker(pytest.mark.rule(rule, "SP-065"))
    by_dan, flex = pools(sheet(pc_dan=10, skills=((list_name, 3),), class_=class_))[list_name]
    base = slot_row(10)
    assert {dan: by_dan[dan] - base[dan] for dan in by_dan if by_dan[dan] != base[dan]} == extra
    assert flex == flexible


@pytest.mark.rule("SP-070")
def test_sp_070_feng_shui_master_reaches_no_sorcery():
    assert pools(sheet(pc_dan=3, class_="feng_shui_master"))["sorcery"] == (slot_row(3), 0)


@pytest.mark.rule("SP-071", "SP-G12")
def test_sp_071_technique_or_spell_pc_never_both():
    problem = check_caster(sheet(techniques=True), CONTENT.spells, CONTENT.schools, CONTENT.classes)
    assert problem is not None and "SP-071" in problem[1]
    rules = caster_rules("onmyoji", "ronin")
    assert all(not rules.sheets[0].katas for _ in (0,))  # SP-G12: a spell PC has no class [Kata]


@pytest.mark.rule("SP-G01")
def test_sp_g01_bad_spell_data_names_file_field_and_why(tmp_path):
    bad = tmp_path / "casters.toml"
    with pytest.raises(DataError) as error:
        content_with(tmp_path, '[[caster]]\nkey = "x"\npc_dan = 3\nskills = { sorcery = 3 }\nspells = ["nope"]\n')
    assert str(bad) in str(error.value) and "caster[0].spells" in str(error.value) and "unknown spell" in str(error.value)
    spells = tmp_path / "spells.toml"
    spells.write_text('[[spell]]\nkey = "x"\nlist = "sorcery"\ndan = 3\neffect = "attack"\namount = 1\n'
                      'stages = [{ energy = 2, mode = "preparation" }]\n', encoding="utf-8")
    from issoku.rules.spells.content import CASTERS_FILE, SCHOOLS_FILE, load_spell_content
    with pytest.raises(DataError) as error:
        load_spell_content(spells, SCHOOLS_FILE, CASTERS_FILE)
    assert "spell[0].stages" in str(error.value) and "SP-024" in str(error.value)


@pytest.mark.rule("SP-064")
def test_sp_064_core_orthodox_schools_are_not_spell_schools():
    """The core onmyoji and esoteric-monk orthodox schools run apart from spells: no spell school is one;
    the classes' slots (SP-066, SP-067) are the only way those names touch the slot system."""
    assert not {"onmyoji", "esoteric_monk"} & set(CONTENT.schools)
    assert {"onmyoji", "esoteric_monk"} <= set(CONTENT.classes)
