"""An env built again after its data files were edited in place plays the edited rules: each env's ruleset
cache keys on the files' bytes as well as their paths (``issoku.rules.variant.data_digest``), as does
``spell_content_at``. A designer edits ``weapons.toml`` in a notebook and builds the env again in the same
process; keyed by path alone, the old ruleset came back."""

import shutil
from pathlib import Path

import pytest

from issoku.envs import (breath_duel_v0, breath_skirmish_v0, encounter_duel_v0, encounter_skirmish_v0, tempo_duel_v0,
                         tempo_skirmish_v0)
from issoku.rules.encounters.content import DATA_DIR as ENCOUNTER_DATA
from issoku.rules.spells.content import spell_content_at
from issoku.rules.variant import RULES_DIR, Variant

NODACHI_PARRY = ('key = "parry", kind = "defense", cost = 2, source = "BR-G13"',
                 'key = "parry", kind = "defense", cost = 1, source = "BR-G13"')
DAGGER_AP = ('[weapons.dagger]\nkind = "melee"\nap = 3', '[weapons.dagger]\nkind = "melee"\nap = 2')
THUNDER_SEAL = ('key = "thunder_seal"\nlist = "sorcery"\ndan = 3\neffect = "attack"\namount = 1',
                'key = "thunder_seal"\nlist = "sorcery"\ndan = 3\neffect = "attack"\namount = 2')
CASTERS = ["onmyoji", "diviner"]


def env_id(make_ruleset) -> str:
    """A test id: the env whose ``make_ruleset`` it is."""
    return make_ruleset.__module__.rsplit(".", 1)[1]


def edit(path: Path, old: str, new: str) -> None:
    """Rewrite ``path`` in place with ``old`` replaced by ``new`` (once)."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def variant_with(root: Path, relative: str) -> Path:
    """A variant folder holding an unedited copy of the shipped ``relative``."""
    (root / relative).parent.mkdir(parents=True)
    shutil.copy(RULES_DIR / relative, root / relative)
    return root


def nodachi_parry_cost(ruleset) -> int:
    return ruleset.catalog.techniques["nodachi.parry"].cost


@pytest.mark.parametrize("make_ruleset", [breath_duel_v0.make_ruleset, breath_skirmish_v0.make_ruleset], ids=env_id)
def test_a_breath_ruleset_built_again_after_a_data_folder_edit_has_the_new_technique_cost(tmp_path, make_ruleset):
    shutil.copytree(RULES_DIR / "breath/data", tmp_path / "data")
    before = make_ruleset(data=tmp_path / "data")
    assert make_ruleset(data=tmp_path / "data") is before  # unchanged bytes: the ruleset is shared
    edit(tmp_path / "data/weapons.toml", *NODACHI_PARRY)
    after = make_ruleset(data=tmp_path / "data")
    assert after is not before and (nodachi_parry_cost(before), nodachi_parry_cost(after)) == (2, 1)


@pytest.mark.parametrize("make_ruleset", [breath_duel_v0.make_ruleset, breath_skirmish_v0.make_ruleset], ids=env_id)
def test_a_breath_ruleset_built_again_after_a_variant_edit_has_the_new_technique_cost(tmp_path, make_ruleset):
    variant = variant_with(tmp_path / "v", "breath/data/weapons.toml")
    before = make_ruleset(variant=variant)
    edit(variant / "breath/data/weapons.toml", *NODACHI_PARRY)
    after = make_ruleset(variant=variant)
    assert after is not before and (nodachi_parry_cost(before), nodachi_parry_cost(after)) == (2, 1)


def test_a_breath_data_folder_that_gains_a_file_builds_a_ruleset_that_knows_its_content(tmp_path):
    shutil.copytree(RULES_DIR / "breath/data", tmp_path / "data")
    before = breath_duel_v0.make_ruleset(data=tmp_path / "data")
    (tmp_path / "data/paper.toml").write_text('[[armor]]\nkey = "paper"\nsource = "BR-G02"\ndefense = 12\n')
    after = breath_duel_v0.make_ruleset(data=tmp_path / "data")
    assert "paper" not in before.catalog.armors and after.catalog.armors["paper"].defense == 12


def spell_amount(ruleset, spell: str) -> int:
    spells = next(module for module in ruleset.modules if module.name.startswith("spells:")).content
    return spells.spells[spell].amount


@pytest.mark.parametrize("build", [lambda variant: breath_duel_v0.make_ruleset(CASTERS, variant=variant),
                                   lambda variant: breath_skirmish_v0.make_ruleset([CASTERS[:1], CASTERS[1:]],
                                                                                   variant=variant)],
                         ids=["breath_duel_v0", "breath_skirmish_v0"])
def test_a_casters_fight_built_again_after_a_spells_edit_has_the_new_spell_amount(tmp_path, build):
    variant = variant_with(tmp_path / "v", "spells/data/spells.toml")
    before = build(variant)
    edit(variant / "spells/data/spells.toml", *THUNDER_SEAL)
    after = build(variant)
    assert after is not before
    assert (spell_amount(before, "thunder_seal"), spell_amount(after, "thunder_seal")) == (1, 2)


def test_spell_content_at_reads_an_edited_spells_file_again(tmp_path):
    files = Variant(variant_with(tmp_path / "v", "spells/data/spells.toml")).spell_files()
    before = spell_content_at(*files)
    assert spell_content_at(*files) is before  # unchanged bytes: loaded once
    edit(Path(files[0]), *THUNDER_SEAL)
    after = spell_content_at(*files)
    assert (before.spells["thunder_seal"].amount, after.spells["thunder_seal"].amount) == (1, 2)


def dagger_ap(ruleset) -> int:
    return ruleset.roster.weapons["dagger"].costs["melee_attack"]


@pytest.mark.parametrize("make_ruleset", [tempo_duel_v0.make_ruleset, tempo_skirmish_v0.make_ruleset], ids=env_id)
def test_a_tempo_ruleset_built_again_after_a_variant_edit_has_the_new_weapon_ap(tmp_path, make_ruleset):
    variant = variant_with(tmp_path / "v", "tempo/data/weapons.toml")
    before = make_ruleset(variant=str(variant))
    assert make_ruleset(variant=str(variant)) is before  # unchanged bytes: the ruleset is shared
    edit(variant / "tempo/data/weapons.toml", *DAGGER_AP)
    after = make_ruleset(variant=str(variant))
    assert after is not before and (dagger_ap(before), dagger_ap(after)) == (3, 2)


@pytest.mark.parametrize("make_ruleset", [tempo_duel_v0.make_ruleset, tempo_skirmish_v0.make_ruleset], ids=env_id)
def test_a_tempo_ruleset_built_again_after_a_data_folder_edit_has_the_new_weapon_ap(tmp_path, make_ruleset):
    shutil.copytree(RULES_DIR / "tempo/data", tmp_path / "data")
    before = make_ruleset(data=str(tmp_path / "data"))
    edit(tmp_path / "data/weapons.toml", *DAGGER_AP)
    after = make_ruleset(data=str(tmp_path / "data"))
    assert after is not before and (dagger_ap(before), dagger_ap(after)) == (3, 2)


@pytest.mark.parametrize("make_ruleset", [encounter_duel_v0.make_ruleset, encounter_skirmish_v0.make_ruleset], ids=env_id)
def test_an_encounter_ruleset_built_again_after_a_data_folder_edit_has_the_new_armour_bonus(tmp_path, make_ruleset):
    shutil.copytree(ENCOUNTER_DATA, tmp_path / "data")
    before = make_ruleset(data=str(tmp_path / "data"))
    edit(tmp_path / "data/armour.toml", "[armour.light]\nbonus = 5", "[armour.light]\nbonus = 6")
    after = make_ruleset(data=str(tmp_path / "data"))
    assert after is not before
    assert (before.catalog.armour["light"].bonus, after.catalog.armour["light"].bonus) == (5, 6)


@pytest.mark.parametrize("make_ruleset", [encounter_duel_v0.make_ruleset, encounter_skirmish_v0.make_ruleset], ids=env_id)
def test_an_encounter_ruleset_built_again_after_a_variant_edit_has_the_new_armour_bonus(tmp_path, make_ruleset):
    variant = variant_with(tmp_path / "v", "encounters/data/armour.toml")
    before = make_ruleset(variant=str(variant))
    assert make_ruleset(variant=str(variant)) is before  # unchanged bytes: the ruleset is shared
    edit(variant / "encounters/data/armour.toml", "[armour.light]\nbonus = 5", "[armour.light]\nbonus = 6")
    after = make_ruleset(variant=str(variant))
    assert after is not before and after.fingerprint != before.fingerprint
    assert (before.catalog.armour["light"].bonus, after.catalog.armour["light"].bonus) == (5, 6)
