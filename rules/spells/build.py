"""Character build for spell PCs: list access, spells acquired, slots by dan, perks, exclusivity.

Everything here is fixed before a fight (SP-001..SP-016, SP-050..SP-071): pure functions over a caster's sheet and
the content, used to validate ``casters.toml`` and to fill a caster's slot pools when a fight starts.
Nothing in them is decided during an episode (docs/rules/spells.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from issoku.rules.kernel.dice import CheckResult, Dice
from issoku.rules.spells.lists_and_dans import LISTS, SPELL_DANS, TATSUJIN

if TYPE_CHECKING:  # the content validates every caster with check_caster
    from issoku.rules.spells.content import Caster, Perk, Spell

LICENSED = 3
"""SP-001: a spell list opens when its skill reaches Licensed (3 points; BR-G19)."""
LIST_DOCUMENTS = {"sorcery": "35-03~08", "exorcism": "35-09~14", "barrier": "35-15", "prophecy": "35-16"}
"""SP-002, SP-003, SP-004, SP-005: the canon documents each list's access opens (our catalog stands in for them,
SP-G01)."""
SLOT_TABLE: dict[int, dict[int, int]] = {
    1: {1: 2},                                                   # SP-010
    3: {1: 3, 3: 2},                                             # SP-011
    5: {1: 4, 3: 3, 5: 2},                                       # SP-012
    7: {1: 5, 3: 4, 5: 3, 7: 2},                                 # SP-013
    9: {1: 5, 3: 4, 5: 3, 7: 2, 9: 1},                           # SP-014
    TATSUJIN: {1: 5, 3: 4, 5: 3, 7: 2, 9: 1, TATSUJIN: 1},       # SP-015
}
"""SP-009: slots per spell dan by PC dan (the seed's §2 table)."""
ON_LICENSED, ON_PROMOTION = 3, 2
"""SP-006: three 1-dan spells on reaching Licensed; SP-007: two spells of each dan promoted to."""
STUDY_TN = 11
"""SP-008 / SP-G02: interlude study, 2d10 + Wisdom + skill ≥ 11."""


def has_access(skill_level: int) -> bool:
    """SP-001: a list opens at Licensed."""
    return skill_level >= LICENSED


def open_lists(caster: Caster) -> tuple[str, ...]:
    """The lists whose skill is Licensed (SP-001, SP-002, SP-003, SP-004, SP-005), in the seed's order."""
    return tuple(name for name in LISTS if has_access(caster.skill(name)))


def slot_row(pc_dan: int) -> dict[int, int]:
    """SP-009..SP-015 and SP-G03: the slot row of the highest listed dan at or below the PC's."""
    row = max(dan for dan in SLOT_TABLE if dan <= pc_dan)
    return dict(SLOT_TABLE[row])


def acquisition(pc_dan: int) -> dict[int, int]:
    """How many spells of each dan a list's acquisition grants (SP-006, SP-007): 3 at 1-dan, then 2 at
    each spell dan the PC has been promoted to (SP-G03: only dans spells exist at)."""
    granted = {1: ON_LICENSED}
    for dan in SPELL_DANS[1:]:
        if dan <= pc_dan:
            granted[dan] = ON_PROMOTION
    return granted


def study_check(dice: Dice, wisdom: int, skill: int) -> CheckResult:
    """SP-008 / SP-G02 / SP-A06: one interlude's study of one more spell: 2d10 + Wisdom + skill ≥ 11."""
    return dice.check(wisdom + skill, STUDY_TN)


@dataclass(frozen=True)
class SlotPool:
    """One list's slots (SP-016: each list holds its own): per dan, and flexible ones usable at any dan
    the caster can cast in that list (SP-G11)."""

    by_dan: tuple[tuple[int, int], ...]
    flexible: int

    def at(self, dan: int) -> int:
        """Slots of exactly ``dan``."""
        return dict(self.by_dan).get(dan, 0)


def perk_bonus(perk: Perk, list_name: str, base: Mapping[int, int]) -> tuple[dict[int, int], int]:
    """One school's or class's extra slots for one list (SP-050, SP-065; SP-G11): +``slots`` at each of its
    dans where the PC already has a slot ("limited to the relevant dan"), or flexible slots when it names none."""
    if list_name not in perk.lists:
        return {}, 0
    if not perk.dans:
        return {}, perk.slots
    return {dan: perk.slots for dan in perk.dans if base.get(dan, 0) > 0}, 0


def slot_pools(caster: Caster, schools: Mapping[str, Perk], classes: Mapping[str, Perk]) -> dict[str, SlotPool]:
    """Each open list's slots: the PC-dan row (SP-009..SP-015), independently per list (SP-016), plus the
    school perk (SP-050..SP-062) and the class slots (SP-065, SP-066, SP-067, SP-068, SP-069, SP-070); perks of
    different sources stack (BR-036)."""
    pools: dict[str, SlotPool] = {}
    base = slot_row(caster.pc_dan)
    perks = [p for p in (schools.get(caster.school or ""), classes.get(caster.class_ or "")) if p is not None]
    for name in open_lists(caster):
        by_dan, flexible = dict(base), 0
        for perk in perks:
            extra, more_flexible = perk_bonus(perk, name, base)
            for dan, count in extra.items():
                by_dan[dan] += count
            flexible += more_flexible
        pools[name] = SlotPool(tuple(sorted(by_dan.items())), flexible)
    return pools


def check_caster(caster: Caster, spells: Mapping[str, Spell], schools: Mapping[str, Perk],
                 classes: Mapping[str, Perk]) -> tuple[str, str] | None:
    """The first character-build rule ``caster`` breaks, as ``(field, why)``; None when it is a legal sheet.

    SP-071: a spell PC never also uses techniques. SP-001: every known spell's list is Licensed. SP-006/SP-007
    (SP-G03): the spells acquisition grants, exactly (or all the catalog has at a dan, if fewer); SP-008:
    studied spells beyond them, at a dan the caster has slots for.
    """
    if caster.techniques:
        return "techniques", "a PC uses either the core technique system or spell slots, never both (SP-071)"
    if caster.school is not None and caster.school not in schools:
        return "school", f"unknown school {caster.school!r} (known: {', '.join(sorted(schools))})"
    if caster.class_ is not None and caster.class_ not in classes:
        return "class", f"unknown class {caster.class_!r} (known: {', '.join(sorted(classes))})"
    lists = open_lists(caster)
    if not lists:
        return "skills", f"no spell list is open: a list needs its skill at Licensed ({LICENSED}) (SP-001)"
    rows = slot_row(caster.pc_dan)
    for field, keys in (("spells", caster.spells), ("studied", caster.studied)):
        for key in keys:
            spell = spells.get(key)
            if spell is None:
                return field, f"unknown spell {key!r}"
            if spell.list not in lists:
                return field, f"{key!r} is a {spell.list} spell, and {spell.list} is not Licensed (SP-001)"
            if rows.get(spell.dan, 0) == 0:
                return field, f"{key!r} is a {spell.dan}-dan spell; a {caster.pc_dan}-dan PC has no slot for it (SP-009)"
    if len(set(caster.spells + caster.studied)) != len(caster.spells) + len(caster.studied):
        return "spells", "a spell is listed twice"
    for name in lists:
        for dan, granted in acquisition(caster.pc_dan).items():
            available = sum(1 for s in spells.values() if s.list == name and s.dan == dan)
            known = sum(1 for key in caster.spells if spells[key].list == name and spells[key].dan == dan)
            expected = min(granted, available)
            if known != expected:
                rule = "SP-006" if dan == 1 else "SP-007"
                return "spells", (f"{name}: acquisition grants {expected} {dan}-dan spell(s), the sheet lists {known} "
                                  f"({rule}; more are learned by interlude study, listed under `studied`, SP-008)")
    return None


__all__ = ["LICENSED", "LIST_DOCUMENTS", "SLOT_TABLE", "STUDY_TN", "SlotPool", "acquisition", "check_caster",
           "has_access", "open_lists", "perk_bonus", "slot_pools", "slot_row", "study_check"]
