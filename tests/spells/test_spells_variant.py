"""Spell data in a rules variant: ``spells/data/*.toml`` is shipped data a variant may replace,
validated like the rest (file, field, why), and a caster fight's fingerprint follows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from issoku.envs import breath_duel_v0, breath_skirmish_v0
from issoku.evaluation.design.levers import make_levers
from issoku.rules.kernel.content import DataError
from issoku.rules.variant import RULES_DIR, Variant, numeric_fields, shipped_files

CASTERS = ["onmyoji", "diviner"]


def plant(root: Path, relative: str, old: str, new: str) -> Path:
    text = (RULES_DIR / relative).read_text(encoding="utf-8")
    assert old in text
    (root / relative).parent.mkdir(parents=True, exist_ok=True)
    (root / relative).write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def spells_of(ruleset):
    return next(m for m in ruleset.modules if m.name.startswith("spells:")).content


def test_spell_files_are_shipped_data_a_variant_may_replace():
    assert {"spells/data/spells.toml", "spells/data/schools.toml", "spells/data/casters.toml",
            "spells/data/archetypes.toml"} <= set(shipped_files())
    assert numeric_fields("spells/data/spells.toml")  # the levers' numbers


def test_a_spells_variant_changes_the_casters_fight_and_no_other(tmp_path):
    variant = plant(tmp_path / "v", "spells/data/spells.toml", 'key = "thunder_seal"\nlist = "sorcery"\ndan = 3\n'
                    'effect = "attack"\namount = 1', 'key = "thunder_seal"\nlist = "sorcery"\ndan = 3\n'
                    'effect = "attack"\namount = 2')
    Variant(variant).validate()
    shipped = breath_duel_v0.env(fighters=CASTERS).unwrapped.ruleset
    edited = breath_duel_v0.env(fighters=CASTERS, variant=variant).unwrapped.ruleset
    assert edited.fingerprint != shipped.fingerprint
    assert (spells_of(shipped).spells["thunder_seal"].amount, spells_of(edited).spells["thunder_seal"].amount) == (1, 2)
    assert breath_duel_v0.env(variant=variant).unwrapped.ruleset.fingerprint == \
        breath_duel_v0.env().unwrapped.ruleset.fingerprint  # no caster: the spells never load
    sides = [["onmyoji", "kenshi"], ["diviner", "ronin"]]
    skirmish = breath_skirmish_v0.env(sides=sides, variant=variant).unwrapped.ruleset
    assert spells_of(skirmish).spells["thunder_seal"].amount == 2


def test_the_casters_breath_sheets_come_from_the_variant(tmp_path):
    variant = plant(tmp_path / "v", "spells/data/archetypes.toml", "wits = 3", "wits = 4")
    edited = breath_duel_v0.env(fighters=CASTERS, variant=variant).unwrapped.ruleset
    assert edited.catalog.archetypes["onmyoji"].wits == 4


def test_bad_spell_data_in_a_variant_names_file_field_and_why(tmp_path):
    plant(tmp_path / "amount", "spells/data/spells.toml", "amount = 1", "amount = 9")
    with pytest.raises(DataError) as error:
        Variant(tmp_path / "amount").validate()
    assert error.value.path.name == "spells.toml" and error.value.problems[0][0].endswith(".amount")
    plant(tmp_path / "sheet", "spells/data/casters.toml", "pc_dan = 3", "pc_dan = 1")
    with pytest.raises(DataError) as error:
        Variant(tmp_path / "sheet").validate()
    assert error.value.path.name == "casters.toml" and error.value.problems[0][0].startswith("caster[0].")
    plant(tmp_path / "weapon", "spells/data/archetypes.toml", 'weapon = "tanto"', 'weapon = "tantoo"')
    with pytest.raises(DataError, match="unknown weapon 'tantoo'") as error:
        Variant(tmp_path / "weapon").validate()
    assert error.value.path.name == "archetypes.toml"


def test_levers_nudge_spell_numbers_and_the_data_refuses_the_impossible(tmp_path):
    levers = make_levers(tmp_path, 1, ["spells/data/spells.toml"])
    by_slug = {lever.folder.name: lever for lever in levers}
    assert by_slug["spells_spells_thunder_seal_amount_up"].status == "played"
    refused = by_slug["spells_spells_fire_talisman_amount_down"]  # amount 0: below the floor of 1
    assert refused.status.startswith("invalid: spell[0].amount")
