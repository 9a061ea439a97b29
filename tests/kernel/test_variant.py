"""Rules variants: edited data files laid over the shipped data, validated, diffed."""

from pathlib import Path

import pytest

from issoku.envs import breath_duel_v0, tempo_duel_v0
from issoku.rules.kernel.content import DataError
from issoku.rules.variant import RULES_DIR, Variant, data_diff, shipped_files

VARIANTS = Path(__file__).resolve().parents[1] / "data" / "variants"


def _plant(root: Path, relative: str, old: str, new: str) -> Path:
    text = (RULES_DIR / relative).read_text()
    assert old in text
    (root / relative).parent.mkdir(parents=True, exist_ok=True)
    (root / relative).write_text(text.replace(old, new, 1))
    return root


def test_a_variant_replaces_only_its_own_files_and_changes_the_fingerprint():
    variant = Variant(VARIANTS / "defence_nodachi_parry")
    assert set(variant.files) == {"breath/data/weapons.toml"}
    assert variant.path("breath/data/armor.toml") == RULES_DIR / "breath/data/armor.toml"
    assert variant.touches("breath") and not variant.touches("tempo")
    shipped = breath_duel_v0.env().unwrapped.ruleset
    edited = breath_duel_v0.env(variant=VARIANTS / "defence_nodachi_parry").unwrapped.ruleset
    assert edited.fingerprint != shipped.fingerprint
    assert edited.catalog.techniques["nodachi.parry"].cost == 1 == shipped.catalog.techniques["nodachi.parry"].cost - 1
    assert tempo_duel_v0.env(variant=VARIANTS / "defence_nodachi_parry").unwrapped.ruleset.fingerprint == \
        tempo_duel_v0.env().unwrapped.ruleset.fingerprint


def test_a_tempo_variant_loads_its_edited_armour():
    ruleset = tempo_duel_v0.env(["spearman", "knight"], variant=VARIANTS / "armour_tempo_medium").unwrapped.ruleset
    assert ruleset.roster.armour["medium"].rating == 8


def test_the_diff_names_file_item_field_and_both_values():
    changes = data_diff(Variant(), Variant(VARIANTS / "defence_nodachi_parry"))
    assert [str(c) for c in changes] == ["breath/data/weapons.toml: nodachi / parry: cost 2 → 1"]
    changes = data_diff(Variant(), Variant(VARIANTS / "tempo_spear_counter_ap"))
    assert [str(c) for c in changes] == ["tempo/data/weapons.toml: spear / ap_by_action: counter_attack (absent) → 1"]
    assert data_diff(Variant(VARIANTS / "armour_tempo_medium"), Variant(VARIANTS / "armour_tempo_medium")) == []


def test_every_planted_exploit_is_a_valid_variant_of_a_different_file_or_field():
    planted = sorted(path for path in VARIANTS.iterdir() if path.is_dir())
    assert len(planted) >= 6
    fields = set()
    for folder in planted:
        variant = Variant(folder)
        variant.validate()
        fields.update((c.file, c.field) for c in data_diff(Variant(), variant))
    assert len(fields) >= 6


def test_a_file_that_is_no_shipped_data_file_is_refused(tmp_path):
    (tmp_path / "breath" / "data").mkdir(parents=True)
    (tmp_path / "breath" / "data" / "weapon.toml").write_text("")
    with pytest.raises(DataError, match="no shipped data file") as error:
        Variant(tmp_path)
    assert error.value.path.name == "weapon.toml"
    with pytest.raises(DataError, match="not a folder"):
        Variant(tmp_path / "missing")
    assert "breath/data/weapons.toml" in shipped_files() and "ma/terrain.toml" in shipped_files()


def test_malformed_data_unknown_fields_and_broken_references_name_file_and_field(tmp_path):
    _plant(tmp_path / "syntax", "breath/data/weapons.toml", "cost = 2", "cost = = 2")
    with pytest.raises(DataError) as error:
        Variant(tmp_path / "syntax").validate()
    assert error.value.path.name == "weapons.toml" and error.value.problems[0][0] == "(syntax)"
    _plant(tmp_path / "field", "tempo/data/weapons.toml", "[weapons.spear]\n", "[weapons.spear]\nspeed = 3\n")
    with pytest.raises(DataError) as error:
        Variant(tmp_path / "field").validate()
    assert error.value.problems[0][0] == "weapons.spear.speed"
    _plant(tmp_path / "whitelist", "breath/data/stances.toml", 'weapons = ["yari"]', 'weapons = ["yarii"]')
    with pytest.raises(DataError, match="unknown weapon 'yarii'") as error:
        Variant(tmp_path / "whitelist").validate()
    assert error.value.problems[0][0] == "stance[0].weapons"
    _plant(tmp_path / "archetype", "breath/data/archetypes.toml", 'weapon = "yari"', 'weapon = "spear"')
    with pytest.raises(DataError, match="unknown weapon 'spear'") as error:
        Variant(tmp_path / "archetype").validate()
    assert error.value.problems[0][0].endswith(".weapon") and error.value.path.name == "archetypes.toml"


def test_the_skirmish_loads_a_variant_too():
    from issoku.envs import breath_skirmish_v0

    ruleset = breath_skirmish_v0.env(variant=VARIANTS / "skill_ashigaru_spear").unwrapped.ruleset
    assert ruleset.catalog.archetypes["ashigaru"].skill("spearmanship") == 5
    with pytest.raises(ValueError, match="data and variant given together"):
        breath_skirmish_v0.env(variant=VARIANTS / "skill_ashigaru_spear", data=RULES_DIR / "breath" / "data")
