"""Provenance of content: each value says whether seed 002 states it or a project decision set it, and a
loadout's standout values name their decisions (what the balance report prints beside a finding)."""

import pytest

from issoku.rules.breath.content import load_catalog
from issoku.rules.breath.provenance import decision_drivers
from issoku.rules.kernel.content import DataError

from .test_content import broken_copy

UNARMED_DRIVERS = ["Physique 4 (proposed, BR-G19; Wounds = 5 + Physique, BR-G04)",
                   "unarmed.strike cost 1 (proposed, BR-G13)"]


def test_every_shipped_technique_and_archetype_names_its_source():
    catalog = load_catalog()
    assert {t.source for t in catalog.techniques.values()} == {"text", "BR-G13"}
    assert {a.source for a in catalog.archetypes.values()} == {"BR-G19"}
    assert {k: a.source for k, a in catalog.armors.items()} == {"none": "BR-G02", "swift_decision": "text",
                                                                "medium": "BR-G02", "heavy": "BR-G02"}
    assert {k: s.source for k, s in catalog.stances.items()} == {"spear_wall": "text", "guard_stance": "text",
                                                                 "middle_guard": "BR-G14"}
    assert {k.source for k in catalog.katas.values()} == {"BR-G22"}  # no seed prices a [Kata]
    printed = {key for key, t in catalog.techniques.items() if t.source == "text"}
    assert "unarmed.strike" not in printed and "unarmed.shove" not in printed  # 002 names shove, prices neither
    assert {"uchigatana.horizontal_cut", "zanbato.demon_cleave", "tanto.thrust"} <= printed


def test_unarmed_is_driven_by_physique_4_and_a_1_energy_strike_both_ours():
    catalog = load_catalog()
    assert decision_drivers(catalog, "unarmed") == UNARMED_DRIVERS == decision_drivers(catalog, "wildman")
    assert decision_drivers(catalog, "yari") == [] and decision_drivers(catalog, "no_such_loadout") == []


def test_a_value_the_seed_states_is_not_blamed_on_a_decision(tmp_path):
    data = broken_copy(tmp_path, "weapons.toml", '{ key = "strike", kind = "attack", cost = 1, source = "BR-G13" }',
                       '{ key = "strike", kind = "attack", cost = 1, source = "text" }')
    assert decision_drivers(load_catalog(data), "unarmed") == UNARMED_DRIVERS[:1]


def test_a_physique_back_in_the_field_is_no_longer_a_driver(tmp_path):
    data = broken_copy(tmp_path, "archetypes.toml", "physique = 4", "physique = 2")
    assert decision_drivers(load_catalog(data), "unarmed") == UNARMED_DRIVERS[1:]


def test_a_source_must_be_text_or_a_decision_id(tmp_path):
    data = broken_copy(tmp_path, "weapons.toml", 'cost = 1, source = "BR-G13" }', 'cost = 1, source = "proposed" }')
    with pytest.raises(DataError) as caught:
        load_catalog(data)
    assert any(field.endswith(".source") and "pattern" in why for field, why in caught.value.problems)
