"""Skills, weapons, armour and archetypes as validated data (EN-G05, EN-G06, EN-T11): loading, the text's
numbers, and errors that name the file, the field and the reason."""

import shutil

import pytest

from issoku.rules.encounters import EncounterConfig, EncounterDuel, load_catalog
from issoku.rules.encounters.content import DATA_DIR
from issoku.rules.encounters.dice import Pool
from issoku.rules.kernel import DataError


def test_shipped_data_loads_and_every_pair_builds():
    catalog = load_catalog()
    assert {"kenshi", "ono_brute", "yari_guard", "tonfa_monk", "archer", "bandit"} <= set(catalog.archetypes)
    for name in catalog.archetypes:
        EncounterDuel(EncounterConfig((name, "kenshi")), catalog=catalog)


@pytest.mark.rule("EN-T11", "EN-035", "EN-G06", "EN-G19")
def test_en_t11_the_texts_weapons_exactly_and_the_proposed_table():
    weapons = load_catalog().weapons
    assert (weapons["tonfa"].damage, weapons["katana"].damage, weapons["ono"].damage) == (
        Pool(0, 3), Pool(3, 2), Pool(0, 4))
    assert weapons["katana"].samurai and weapons["ono"].size == "large" and weapons["ono"].hands == 2
    assert (weapons["yari"].range, weapons["katana"].range, weapons["yumi"].range) == (2, 1, 50)
    armour = load_catalog().armour
    assert (armour["light"].bonus, armour["light"].reduction, armour["heavy"].bonus, armour["heavy"].reduction) == (
        5, 3, 10, 5)


@pytest.mark.rule("EN-G05")
def test_en_g05_rings_are_the_lower_of_their_traits():
    kenshi = load_catalog().archetypes["kenshi"]
    assert (kenshi.ring("earth"), kenshi.ring("water"), kenshi.ring("fire"), kenshi.ring("air"),
            kenshi.ring("void")) == (2, 2, 2, 2, 2)
    assert kenshi.skill("samurai") == 5 and kenshi.skill("kyujutsu") == 0


def _copy_with(tmp_path, name, extra):
    for file in DATA_DIR.glob("*.toml"):
        shutil.copy(file, tmp_path / file.name)
    path = tmp_path / f"{name}.toml"
    path.write_text(path.read_text() + "\n" + extra)
    return tmp_path


@pytest.mark.parametrize("file,extra,field,reason", [
    ("weapons", "[weapons.laser]\ndamage = '3x2'\nsize = 'small'\nskill = 'knives'\n", "weapons.laser.damage",
     "must look like"),
    ("weapons", "[weapons.sling]\ndamage = '1k1'\nsize = 'small'\nskill = 'slings'\n", "weapons.sling.skill",
     "unknown skill 'slings'"),
    ("weapons", "[weapons.sling]\ndamage = '1k1'\nsize = 'small'\nskill = 'knives'\nkind = 'thrown'\n",
     "weapons.sling", "range_ft"),
    ("armour", "[armour.plate]\nbonus = 99\nreduction = 1\n", "armour.plate.bonus", "less than or equal to 30"),
    ("archetypes", "[archetypes.x]\nstamina=1\nwillpower=1\nstrength=1\nperception=1\nagility=1\n"
                   "intelligence=1\nreflexes=9\nawareness=1\nvoid=1\ninsight_rank=1\nweapon='katana'\n"
                   "armour='none'\n", "archetypes.x.reflexes", "less than or equal to 5"),
    ("archetypes", "[archetypes.x]\nstamina=1\nwillpower=1\nstrength=1\nperception=1\nagility=1\n"
                   "intelligence=1\nreflexes=1\nawareness=1\nvoid=1\ninsight_rank=1\nweapon='laser'\n"
                   "armour='none'\n", "archetypes.x.weapon", "unknown weapon 'laser'"),
    ("archetypes", "[archetypes.x]\nstamina=1\nwillpower=1\nstrength=1\nperception=1\nagility=1\n"
                   "intelligence=1\nreflexes=1\nawareness=1\nvoid=1\ninsight_rank=1\nweapon='katana'\n"
                   "armour='none'\nskills={ origami = 3 }\n", "archetypes.x.skills.origami", "unknown skill"),
])
def test_bad_data_names_the_file_the_field_and_why(tmp_path, file, extra, field, reason):
    with pytest.raises(DataError) as raised:
        load_catalog(_copy_with(tmp_path, file, extra))
    error = raised.value
    assert error.path.name == f"{file}.toml"
    assert any(f == field and reason in why for f, why in error.problems), error.problems
