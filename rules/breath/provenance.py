"""Where the numbers behind a loadout come from: the seed's text, or a project decision (a gap ID).

A balance finding ("unarmed dominates") may come from values no seed states: the wildman's Physique 4
(an archetype is a project decision, BR-G19) read through Wounds = 5 + Physique (BR-G04), a 1-Energy
strike (BR-G13). :func:`decision_drivers` lists the values of a loadout that stand out from the
catalog's field and were set by a project decision, each with its ID, so the report can say which
decisions to revisit and that the seed text itself is not at fault. The provenance lives in the data
(``source`` on techniques and archetypes, :data:`~issoku.rules.breath.content.Source`); the rules that
turn an attribute into strength are named here, beside the engine that applies them.
"""

from __future__ import annotations

from statistics import median

from issoku.rules.breath.content import TEXT, Archetype, Catalog, Weapon

ATTRIBUTE_EFFECTS = {
    "physique": ("Physique", "Wounds = 5 + Physique, BR-G04"),
    "finesse": ("Finesse", "Energy = 10 + Finesse, BR-001"),
}
"""The attributes a fight reads for raw strength, and the rule that turns each into it."""


def _wielders(catalog: Catalog, label: str) -> tuple[Weapon | None, list[Archetype]]:
    """The weapon and archetypes a loadout label names: an archetype key, or a weapon (key or alias)
    fielded by the archetypes whose own weapon it is."""
    if label in catalog.archetypes:
        archetype = catalog.archetypes[label]
        return catalog.weapons[archetype.weapon], [archetype]
    try:
        weapon = catalog.weapon(label)
    except KeyError:
        return None, []
    return weapon, [a for a in catalog.archetypes.values() if a.weapon == weapon.key]


def _decided(source: str) -> str:
    return "" if source == TEXT else f"proposed, {source}"


def decision_drivers(catalog: Catalog, label: str) -> list[str]:
    """The values of loadout ``label`` above the field's median (attributes, the weapon's skill) or at the
    field's cheapest (its cheapest attack) that a project decision set, as ``"Physique 4 (proposed,
    BR-G19; Wounds = 5 + Physique, BR-G04)"``. Empty when the label is unknown or every such value is
    the seed's own."""
    weapon, archetypes = _wielders(catalog, label)
    if weapon is None:
        return []
    field = list(catalog.archetypes.values())
    drivers: list[str] = []
    for archetype in archetypes:
        why = _decided(archetype.source)
        if not why:
            continue
        for attribute, (name, effect) in ATTRIBUTE_EFFECTS.items():
            value = getattr(archetype, attribute)
            if value > median(getattr(a, attribute) for a in field):
                drivers.append(f"{name} {value} ({why}; {effect})")
        level = archetype.skill(weapon.skill)
        if level > median(a.skill(catalog.weapons[a.weapon].skill) for a in field):
            drivers.append(f"{weapon.skill.replace('_', ' ').title()} {level} ({why})")
    cheapest = min(weapon.attacks, key=lambda t: t.cost)
    field_cheapest = min(t.cost for w in catalog.weapons.values() for t in w.attacks if not t.ranged)
    if cheapest.cost <= field_cheapest and _decided(cheapest.source):
        drivers.append(f"{cheapest.key} cost {cheapest.cost} ({_decided(cheapest.source)})")
    return drivers


__all__ = ["ATTRIBUTE_EFFECTS", "decision_drivers"]
