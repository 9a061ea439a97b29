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


# -- the content in play: these principles and tables hold in seeded fights, not only when the data loads ---------
PLAYED_WEAPONS = ("uchigatana", "nodachi", "zanbato", "yari", "kodachi", "ninjato", "tanto", "staff", "unarmed", "bow",
                  "teppo")


def played_fights(fights_per_weapon: int = 3):
    """Seeded random-legal fights to the end, every weapon of the catalog once on each side, events on."""
    import random

    from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec

    for index, weapon in enumerate(PLAYED_WEAPONS):
        other = PLAYED_WEAPONS[(index + 3) % len(PLAYED_WEAPONS)]
        rules = BreathRuleset(BreathConfig((FighterSpec("kenshi", 0, weapon=weapon),
                                            FighterSpec("ronin", 1, weapon=other)), round_limit=6))
        for seed in range(fights_per_weapon):
            state = rules.new_initial_state(seed)
            rng = random.Random(seed)
            while not state.is_over():
                state.apply(rng.choice(state.legal_actions()))
            yield state


@pytest.mark.rule("BR-035", "BR-034")
def test_br_035_in_play_every_0_energy_execution_is_a_listed_kind():
    """Over seeded fights with every weapon: whatever runs without paying Energy is a triggered reservation,
    a stance release, or a [Kata] (or stance) the data prices 0; everything else paid at least 1."""
    catalog = load_catalog()
    free: set[str] = set()
    for state in played_fights():
        for event in state.events:
            if event.kind == "energy_spent":
                assert event.data["cost"] >= 1, event
            elif event.kind == "zero_energy":
                kind, _, key = event.data["what"].partition(" ")
                priced = {"stance": catalog.stances, "kata": catalog.katas}[kind][key].cost
                assert priced == 0, event  # BR-034 (4): a [Kata] whose text says 0 Energy
                free.add(kind)
            elif event.kind in ("reservation_triggered", "stance_released"):
                assert event.data["cost"] == 0  # BR-034 (1) and (2)
                free.add(event.kind)
    assert {"stance", "reservation_triggered"} <= free  # the fights did run 0-Energy executions


@pytest.mark.rule("BR-G13", "BR-045", "BR-018", "BR-020")
def test_br_g13_the_engine_charges_the_catalog_price_of_every_technique():
    """Over seeded fights with every weapon: an attack or a reservation with no modifier costs the catalog's
    price, an improvised defense 1.5 × it (BR-020); every weapon's attacks are paid for at least once."""
    from issoku.rules.breath.costs import improvised_base

    catalog = load_catalog()
    charged: set[str] = set()
    for state in played_fights():
        for event in state.events:
            if event.kind != "energy_spent" or event.data["modifiers"]:
                continue
            verb, _, key = event.data["what"].rpartition(" ")
            if key not in catalog.techniques:
                continue
            price = catalog.techniques[key].cost
            assert event.data["cost"] == (improvised_base(price) if verb == "improvise" else price), event
            charged.add(key.split(".")[0])
    assert charged == set(PLAYED_WEAPONS)


@pytest.mark.rule("BR-G19", "BR-G04", "BR-001")
@pytest.mark.parametrize("archetype", sorted(load_catalog().archetypes))
def test_br_g19_every_archetype_enters_a_fight_with_its_stat_ranges_and_tracks(archetype):
    """An archetype's sheet in a fight: attributes and skills 0–5 (BR-G19), Wounds 5 + Physique (BR-G04),
    Energy 10 + Finesse (BR-001)."""
    from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec

    state = BreathRuleset(BreathConfig((FighterSpec(archetype, 0), FighterSpec("ronin", 1)))).new_initial_state(0)
    me = state.fighters[0]
    sheet = me.sheet
    assert all(0 <= getattr(sheet, a) <= 5 for a in ("finesse", "physique", "wits", "courage"))
    assert all(0 <= level <= 5 for level in dict(sheet.skills).values())
    assert (me.wounds, me.energy) == (5 + sheet.physique, 10 + sheet.finesse)


def test_a_trait_no_rule_reads_is_refused_not_ignored(tmp_path):
    """The retainer command's discount names squad orders, which no content has yet (docs/rules/breath.md,
    "Not yet"): an archetype carrying it is refused when the data loads instead of fighting as if it had it."""
    data = broken_copy(tmp_path, "archetypes.toml", 'traits = ["ronin"]', 'traits = ["ronin", "retainer_command"]')
    with pytest.raises(DataError) as caught:
        load_catalog(data)
    assert any(field.startswith("archetype[") and "traits" in field for field, _ in caught.value.problems)
