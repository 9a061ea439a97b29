"""Where the numbers behind a tempo fighter come from: all of them are project decisions (TP-G..).

Seed 003 names skills, armour and "By Weapon" costs but prints no number for any of them, so every value
in ``rules/tempo/data/`` is a project decision, each field under its gap ID (the file headers and
:data:`FIELD_SOURCES` say which). A balance finding ("the knight is the strongest loadout") then comes
from those decisions, never from the seed text. :func:`decision_drivers` lists the values of a fighter
that stand out from the roster's melee field, each with the ID that set it and the rule that turns it into
strength, so the report can say which decisions to revisit (the breath duel's twin is
:mod:`issoku.rules.breath.provenance`).
"""

from __future__ import annotations

from statistics import median

from issoku.rules.tempo.actions import SKILL_NAMES
from issoku.rules.tempo.content import MELEE_KIND, UNARMED_KIND, Fighter, Roster

FIELD_SOURCES = {
    "skills": "TP-G01",
    "armour.rating": "TP-G02",
    "armour.encumbrance": "TP-G15",
    "weapon.damage": "TP-G03",
    "weapon.ap": "TP-G04",
    "weapon.reach": "TP-G07",
    "weapon.ranged": "TP-G12",
}
"""The decision that sets each kind of value in the tempo data (seed 003 states none of them)."""

SKILL_EFFECTS = {
    "endurance": "Health = 10 + 2 × Endurance, TP-G03",
    "defence": "Combat Defence = Defence, TP-G02",
}
"""The skills a fight reads for raw toughness beyond their checks, and the rule that does it."""


def _above(value: float, field: list[float]) -> bool:
    return value > median(field)


def decision_drivers(roster: Roster, label: str) -> list[str]:
    """The values of fighter ``label`` above the melee field's median (skills, armour rating, damage die,
    reach) or at its cheapest (AP), as ``"armour heavy rating 6 (proposed, TP-G02; ...)"``. Empty when the
    label is no fighter of the roster."""
    me = roster.fighters.get(label)
    if me is None:
        return []
    field = [f for f in roster.fighters.values() if f.weapon.kind in (MELEE_KIND, UNARMED_KIND)] or [me]
    drivers: list[str] = []
    for index, skill in enumerate(SKILL_NAMES):
        if skill == "ranged" or not _above(me.skills[index], [f.skills[index] for f in field]):
            continue
        effect = SKILL_EFFECTS.get(skill)
        why = f"proposed, {FIELD_SOURCES['skills']}" + (f"; {effect}" if effect else "")
        drivers.append(f"{skill.title()} {me.skills[index]} ({why})")
    if _above(me.armour.rating, [f.armour.rating for f in field]):
        drivers.append(f"{me.armour.name} armour rating {me.armour.rating} (proposed, {FIELD_SOURCES['armour.rating']};"
                       f" soaks every Hit, TP-G03)")
    weapon = me.weapon
    if _above(_mean_damage(me), [_mean_damage(f) for f in field]):
        bonus = f"+{weapon.damage_bonus}" if weapon.damage_bonus else ""
        drivers.append(f"{weapon.name} d{weapon.damage_die}{bonus} (proposed, {FIELD_SOURCES['weapon.damage']})")
    if _above(weapon.reach, [f.weapon.reach for f in field]):
        drivers.append(f"{weapon.name} reach {weapon.reach} (proposed, {FIELD_SOURCES['weapon.reach']})")
    attack_ap = weapon.costs.get("melee_attack")
    if attack_ap is not None and attack_ap <= min(f.weapon.costs.get("melee_attack", attack_ap) for f in field):
        drivers.append(f"{weapon.name} attack AP {attack_ap} (proposed, {FIELD_SOURCES['weapon.ap']})")
    return drivers


def _mean_damage(fighter: Fighter) -> float:
    return (fighter.weapon.damage_die + 1) / 2 + fighter.weapon.damage_bonus


__all__ = ["FIELD_SOURCES", "SKILL_EFFECTS", "decision_drivers"]
