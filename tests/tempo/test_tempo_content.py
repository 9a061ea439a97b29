"""Weapons, armour and fighters as validated data (TP-G01..G04): loading, defaults, and errors that name
the file, the field and the reason."""

import pytest

from issoku.rules.kernel import DataError
from issoku.rules.tempo import TempoConfig, TempoDuel, load_roster
from issoku.rules.tempo.actions import BY_WEAPON_TECHNIQUES
from tempo_helpers import roster_with


def test_shipped_data_loads_and_every_pair_builds():
    roster = load_roster()
    assert {"fencer", "knight", "spearman", "knife_fighter", "brawler", "archer", "crossbowman"} <= set(roster.fighters)
    for name in roster.fighters:
        TempoDuel(TempoConfig((name, "knight")), roster=roster)


@pytest.mark.rule("TP-G04")
def test_tp_g04_by_weapon_costs_with_overrides(tmp_path):
    roster = roster_with(tmp_path, weapons="[weapons.odd]\nkind = 'melee'\nap = 4\ndamage_die = 6\nreach = 1\n"
                                           "ap_by_action = { parry = 2 }\n")
    assert roster.weapons["longsword"].costs == {name: 4 for name in BY_WEAPON_TECHNIQUES}
    assert roster.weapons["polearm"].costs["melee_attack"] == 5
    assert roster.weapons["odd"].costs["parry"] == 2 and roster.weapons["odd"].costs["melee_attack"] == 4


@pytest.mark.rule("TP-G02", "TP-G03", "TP-G01")
def test_tp_g02_g03_defences_and_health_from_skills_and_armour():
    armed, disarmed = TempoDuel(TempoConfig(("fencer", "knight"))).loadouts[1]
    assert (armed.combat_defence, armed.armoured_defence, armed.grapple_defence) == (1, 7, 3)
    assert armed.max_health == 16 and armed.armour_rating == 6
    assert disarmed.weapon.name == "unarmed" and disarmed.disarmed


@pytest.mark.parametrize("file,extra,field,reason", [
    ("fighters", "[fighters.bad]\nweapon = 'laser'\narmour = 'none'\nmelee = 1\nranged = 0\nwrestling = 0\n"
                 "athletics = 0\ndefence = 0\nendurance = 0\n", "fighters.bad.weapon", "unknown weapon 'laser'"),
    ("fighters", "[fighters.bad]\nweapon = 'dagger'\narmour = 'none'\nmelee = 9\nranged = 0\nwrestling = 0\n"
                 "athletics = 0\ndefence = 0\nendurance = 0\n", "fighters.bad.melee", "less than or equal to 5"),
    ("weapons", "[weapons.bad]\nkind = 'melee'\nap = 4\ndamage_die = 6\nreach = 1\ncolour = 'red'\n",
     "weapons.bad.colour", "Extra inputs"),
    ("weapons", "[weapons.bad]\nkind = 'melee'\nap = 4\ndamage_die = 6\nreach = 1\nap_by_action = { feint = 2 }\n",
     "weapons.bad", "not priced 'By Weapon'"),
    ("weapons", "[weapons.bad]\nkind = 'ranged'\nap = 4\ndamage_die = 6\nreach = 0\n", "weapons.bad",
     "range >= 1"),
    ("armour", "[armour.bad]\nrating = -1\nencumbrance = 0\n", "armour.bad.rating", "greater than or equal"),
])
def test_bad_data_names_file_field_and_reason(tmp_path, file, extra, field, reason):
    with pytest.raises(DataError) as caught:
        roster_with(tmp_path, **{file: extra})
    error = caught.value
    assert error.path.name == f"{file}.toml"
    assert any(f == field and reason in r for f, r in error.problems), error.problems


def test_toml_syntax_error_is_a_data_error(tmp_path):
    with pytest.raises(DataError) as caught:
        roster_with(tmp_path, fighters="[fighters.broken\n")
    assert caught.value.problems[0][0] == "(syntax)"


def test_unknown_fighter_or_bad_settings_are_refused():
    with pytest.raises(ValueError, match="unknown fighter"):
        TempoDuel(TempoConfig(("fencer", "dragon")))
    with pytest.raises(ValueError, match="start_distance"):
        TempoDuel(TempoConfig(start_distance=0))
    with pytest.raises(ValueError, match="initiator"):
        TempoDuel(TempoConfig(initiator=2))


def test_fingerprint_follows_settings_and_data():
    assert TempoDuel().fingerprint == TempoDuel().fingerprint
    assert TempoDuel().fingerprint != TempoDuel(TempoConfig(round_limit=10)).fingerprint
    assert TempoDuel().fingerprint != TempoDuel(TempoConfig(("knight", "fencer"))).fingerprint
