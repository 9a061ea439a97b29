"""The encounter data as a rules variant: a folder of edited ``encounters/data/*.toml`` copies laid over the shipped
files (``issoku.rules.variant``), loaded by both encounter envs through ``variant=``."""

from pathlib import Path

import pytest

from issoku.envs import encounter_duel_v0, encounter_skirmish_v0
from issoku.rules.encounters.content import DATA_DIR, load_catalog
from issoku.rules.kernel import DataError
from issoku.rules.kernel.content import file_digest
from issoku.rules.variant import Variant

HEAVY = Path(__file__).resolve().parents[1] / "data" / "variants" / "encounter_armour_heavy_bonus"
"""Planted: the heavy armour's Armor Bonus 10 → 25 (only the ono_brute wears it)."""


def test_a_variant_editing_one_armour_bonus_changes_the_fingerprint_and_the_atn_and_keeps_the_other_files():
    base = encounter_duel_v0.make_ruleset()
    edited = encounter_duel_v0.make_ruleset(variant=str(HEAVY))
    assert edited.fingerprint != base.fingerprint
    ono = edited.fighters.index("ono_brute")
    assert (base.new_initial_state(1).atn(ono), edited.new_initial_state(1).atn(ono)) == (25, 40)  # EN-067: +15
    shipped = [DATA_DIR / name for name in ("skills.toml", "weapons.toml")]
    assert edited.catalog.digest == file_digest(*shipped, HEAVY / "encounters/data/armour.toml",
                                                DATA_DIR / "archetypes.toml")
    assert edited.catalog.weapons == base.catalog.weapons and edited.catalog.skills == base.catalog.skills
    skirmish = encounter_skirmish_v0.make_ruleset(variant=str(HEAVY))
    assert skirmish.fingerprint != encounter_skirmish_v0.make_ruleset().fingerprint
    assert skirmish.catalog is edited.catalog  # one catalog per set of bytes


def test_an_encounter_ruleset_reports_what_each_seat_fields():
    ruleset = encounter_duel_v0.make_ruleset()
    assert [ruleset.seat_content(seat) for seat in (0, 1)] == [("kenshi", "katana", "light"),
                                                                ("ono_brute", "ono", "heavy")]


def test_an_archetype_with_an_unknown_weapon_in_a_variant_is_one_error_naming_file_and_field(tmp_path):
    folder = tmp_path / "v" / "encounters" / "data"
    folder.mkdir(parents=True)
    text = (DATA_DIR / "archetypes.toml").read_text()
    (folder / "archetypes.toml").write_text(text.replace('weapon = "ono"', 'weapon = "tetsubo"', 1))
    with pytest.raises(DataError) as error:
        Variant(tmp_path / "v").validate()
    assert error.value.path == folder / "archetypes.toml"
    assert [field for field, _ in error.value.problems] == ["archetypes.ono_brute.weapon"]
    assert "unknown weapon 'tetsubo'" in error.value.problems[0][1]
    with pytest.raises(DataError):  # the loader itself, with the shipped weapons.toml beside the edited file
        load_catalog(DATA_DIR, {"archetypes.toml": folder / "archetypes.toml"})
