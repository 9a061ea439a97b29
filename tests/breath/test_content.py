"""Content is data: the default files load, costs the text fixes match it, bad files fail clearly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from issoku.rules.breath.content import DATA_DIR, load_catalog
from issoku.rules.kernel.content import DataError

TEXT_COSTS = {  # costs printed in seed 002 (BR-012..017, BR-023, BR-051, BR-T11)
    "uchigatana.horizontal_cut": 2, "uchigatana.parry": 1, "ninjato.straight_thrust": 2, "yari.harry": 2,
    "kodachi.flurry_cut": 1, "kodachi.emergency_dodge": 1, "zanbato.demon_cleave": 3, "zanbato.rising_cut": 3,
    "yari.thrust": 2, "tanto.thrust": 1, "staff.heavy_strike": 2,
}
SEED_WEAPONS = {"nodachi", "zanbato", "yari", "uchigatana", "kodachi", "ninjato", "tanto", "staff", "unarmed", "bow",
                "teppo"}


@pytest.mark.rule("BR-G13")
def test_br_g13_default_content_loads_with_every_seed_weapon_and_text_costs():
    catalog = load_catalog()
    assert SEED_WEAPONS <= set(catalog.weapons)
    for alias in ("katana", "long_sword", "suyari", "wakizashi", "dagger", "kaiken", "martial_arts"):
        catalog.weapon(alias)
    for key, cost in TEXT_COSTS.items():
        assert catalog.techniques[key].cost == cost, key
    assert catalog.stances["spear_wall"].cost == 2 and catalog.stances["guard_stance"].cost == 0
    assert 3 <= len(catalog.archetypes) <= 6


@pytest.mark.rule("BR-052")
def test_br_052_short_weapon_scope():
    catalog = load_catalog()
    short = {key for key, w in catalog.weapons.items() if w.is_short}
    assert short == {"kodachi", "ninjato", "tanto", "unarmed"}
    assert catalog.weapons["staff"].weapon_class == "staff" and catalog.weapons["bow"].weapon_class == "ranged"


def broken_copy(tmp_path: Path, filename: str, old: str, new: str) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    path = target / filename
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return target


@pytest.mark.parametrize(("filename", "old", "new", "field", "reason"), [
    ("weapons.toml", "cost = 2, source = \"text\" },\n  { key = \"thrust\"", "cost = -2, source = \"text\" },\n  { key = \"thrust\"",
     "weapon[0].technique[0].cost", "greater than or equal to 1"),
    ("archetypes.toml", 'weapon = "uchigatana"', 'weapon = "lightsaber"', "archetype[0].weapon", "unknown weapon"),
    ("armor.toml", "defense = 13", 'defense = "thirteen"', "armor[2].defense", "integer"),
    ("stances.toml", 'key = "middle_guard"\nlabel = "middle guard (chudan)"\ncost = 1\n',
     'key = "middle_guard"\nlabel = "middle guard (chudan)"\n', "stance[2].cost", "Field required"),
    ("kata.toml", 'effect = "check_bonus"', 'effect = "teleport"', "kata[0].effect", "Input should be"),
])
def test_bad_data_names_file_field_and_reason(tmp_path, filename, old, new, field, reason):
    data = broken_copy(tmp_path, filename, old, new)
    with pytest.raises(DataError) as caught:
        load_catalog(data)
    error = caught.value
    assert error.path.name == filename
    assert any(f == field and reason in why for f, why in error.problems), error.problems


def test_duplicate_key_across_files_is_refused(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    (data / "zz_more.toml").write_text('[[armor]]\nkey = "heavy"\ndefense = 16\n')
    with pytest.raises(DataError, match="already defined"):
        load_catalog(data)


def test_unknown_archetype_in_config_is_refused():
    from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec

    with pytest.raises(ValueError, match="unknown archetype"):
        BreathRuleset(BreathConfig((FighterSpec("ninja_turtle", 0), FighterSpec("ronin", 1))))


@pytest.mark.rule("BR-035", "BR-028")
def test_br_035_only_listed_kinds_may_run_at_0_energy_a_weapon_technique_may_not(tmp_path):
    """A 0-Energy execution is canon only as a listed kind ([Kata], stance, reservation...): a weapon
    technique priced 0 is refused when the data loads."""
    data = broken_copy(tmp_path, "weapons.toml", 'key = "parry", kind = "defense", cost = 1, source = "text"',
                       'key = "parry", kind = "defense", cost = 0, source = "text"')
    with pytest.raises(DataError, match="greater than or equal to 1"):
        load_catalog(data)


@pytest.mark.rule("BR-G19")
def test_br_g19_attributes_are_0_to_5(tmp_path):
    data = broken_copy(tmp_path, "archetypes.toml", "finesse = 3", "finesse = 6")
    with pytest.raises(DataError, match="less than or equal to 5"):
        load_catalog(data)
