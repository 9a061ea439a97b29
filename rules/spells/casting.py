"""The casting arithmetic of seed 004 §3–§4 as pure functions: structures, Target Numbers, checks.

The spells module (:mod:`issoku.rules.spells.module`) calls these in play; tests call them directly
for the tables (SP-T02, SP-T03, SP-T04).
"""

from __future__ import annotations

from collections.abc import Sequence

from issoku.rules.breath.costs import Modifier
from issoku.rules.kernel.dice import Dice
from issoku.rules.spells.content import DISPERSED, PREPARATION, TATSUJIN, Spell

CASTING_TN = {1: 8, 3: 10, 5: 12, 7: 14, 9: 16, TATSUJIN: 18}
"""SP-028..SP-034: the casting check's Target Number by spell dan."""
BASE_STRUCTURE = {1: (2,), 3: (2, 2), 5: (3, 3), 7: (4, 4), 9: (5, 5)}
"""SP-018, SP-019, SP-020, SP-021, SP-022: the base notation by dan (7- and 9-dan as preparation or dispersed)."""
STRUCTURE_RULE = {1: "SP-018", 3: "SP-019", 5: "SP-020", 7: "SP-021", 9: "SP-022"}
FOCUS_BASE = 10
"""SP-040: focus resistance, 2d10 + Physique + Hardiness ≥ 10 + breach Wounds."""
FOCUS_WOUNDS = 2
"""SP-040: a hit of this many Wounds (or a Critical) calls for focus resistance."""
BACKLASH_WOUNDS = 3
"""SP-048 / SP-G08: Karmic Retribution costs the caster 3 more Wounds."""
EXHAUSTED_ENERGY = 1
"""SP-042: the Energy an exhausted caster starts the next round with."""


def structure_rule(spell: Spell) -> str:
    """SP-027: the spell's own stages (its body, in the data) decide its structure, never its dan alone.

    The rule that gives ``spell``'s structure: the dan's base (SP-018, SP-019, SP-020, SP-021, SP-022), the
    instant exception (SP-024), a great spell's extra stages (SP-025) or the mixed type (SP-026)."""
    modes = {stage.mode for stage in spell.stages}
    if len(modes) > 1:
        return "SP-026"
    if spell.instant:
        return "SP-024"
    if tuple(stage.energy for stage in spell.stages) != BASE_STRUCTURE.get(spell.dan):
        return "SP-025"
    return STRUCTURE_RULE[spell.dan]


def casting_tn(dan: int) -> int:
    """SP-029, SP-030, SP-031, SP-032, SP-033, SP-034."""
    return CASTING_TN[dan]


class CastingCheck:
    """SP-028: 2d10 + Wisdom + the list's skill (+ what every check carries) ≥ the dan's TN; SP-048:
    double 1s on a failure are Karmic Retribution (SP-A03: never on a success)."""

    __slots__ = ("dice", "modifiers", "total", "target", "success", "karmic")

    def __init__(self, dice: tuple[int, ...], modifiers: Sequence[Modifier], target: int) -> None:
        self.dice = dice
        self.modifiers = tuple(modifiers)
        self.total = sum(dice) + sum(delta for _, delta in modifiers)
        self.target = target
        self.success = self.total >= target
        self.karmic = not self.success and all(face == 1 for face in dice)


def roll_casting_check(dice: Dice, wisdom: int, skill: int, dan: int,
                       extra: Sequence[Modifier] = ()) -> CastingCheck:
    """Roll SP-028 at activation (SP-035)."""
    modifiers: list[Modifier] = [("wisdom", wisdom), ("skill", skill), *extra]
    return CastingCheck(dice.roll(2), modifiers, casting_tn(dan))


def focus_tn(breach_wounds: int) -> int:
    """SP-040 / SP-G09: 10 + the Wounds the hit removed."""
    return FOCUS_BASE + breach_wounds


def needs_focus(wounds: int, critical: bool) -> bool:
    """SP-040: a Critical Hit or a hit of 2+ Wounds on a preparing caster."""
    return critical or wounds >= FOCUS_WOUNDS


def is_forced(spell: Spell, stage_rounds: Sequence[int]) -> bool:
    """SP-041 / SP-A04: a spell with dispersed stages completed with every stage in one round; a spell of
    preparation stages only is never forced (SP-044)."""
    return spell.dispersed and len(spell.stages) > 1 and len(set(stage_rounds)) == 1


def stage_timing_ok(mode: str, last_breath: int, breath_no: int) -> bool:
    """SP-G05: a preparation stage needs a later breath of the caster than the last stage ("keep the
    beat"); a dispersed stage may come in the same breath or round, which forces the spell (SP-041)."""
    return mode == DISPERSED or breath_no != last_breath


__all__ = ["BACKLASH_WOUNDS", "BASE_STRUCTURE", "CASTING_TN", "CastingCheck", "DISPERSED", "EXHAUSTED_ENERGY",
           "FOCUS_BASE", "PREPARATION", "casting_tn", "focus_tn", "is_forced", "needs_focus", "roll_casting_check",
           "stage_timing_ok", "structure_rule"]
