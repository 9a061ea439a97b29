"""A fighter's per-action numbers, precomputed once so the engine's hot path reads tuples.

A :class:`Loadout` is one fighter holding one weapon: for every flat action of an
:class:`~issoku.rules.tempo.actions.ActionTable` (the duel's, or a skirmish's with target slots) its AP cost (or None when
that weapon cannot perform it), plus the values other fighters read as thresholds (Combat Defence,
its armoured variant, Grapple Defence: TP-G02). Each seat has two: armed and disarmed (TP-G10).
"""

from __future__ import annotations

from issoku.rules.tempo.actions import (
    ATHLETICS,
    DEFENCE,
    DUEL_TABLE,
    ENDURANCE,
    FEINT_PRICED_AS,
    STATUS_NAMES,
    WRESTLING,
    ActionTable,
)
from issoku.rules.tempo.content import MELEE_KIND, RANGED_KIND, UNARMED_KIND, Fighter, Weapon

# Techniques that need a weapon of one kind in hand.
_NEEDS_MELEE = frozenset({"feint", "melee_attack", "parry", "counter_attack", "ct_counter_attack", "ct_parry",
                          "feint_counter_attack", "press", "disarm"})
_NEEDS_RANGED = frozenset({"aim", "ranged_attack", "counter_fire"})


class Loadout:
    """One fighter with one weapon in hand (its own, or bare hands once disarmed)."""

    __slots__ = ("fighter", "weapon", "disarmed", "costs", "skills", "combat_defence", "armoured_defence",
                 "grapple_defence", "armour_rating", "encumbrance", "max_health", "initiative_skill", "defences",
                 "proactive_by_status", "reactive_by_status")

    def __init__(self, fighter: Fighter, weapon: Weapon, disarmed: bool, table: ActionTable = DUEL_TABLE) -> None:
        self.fighter = fighter
        self.weapon = weapon
        self.disarmed = disarmed
        self.costs: tuple[int | None, ...] = tuple(
            self._cost(technique.name, technique.cost) if technique is not None else 0
            for technique in table.technique_of
        )
        self.skills = fighter.skills
        self.combat_defence = fighter.skills[DEFENCE]                                  # TP-G02
        self.armour_rating = fighter.armour.rating
        self.armoured_defence = self.combat_defence + self.armour_rating               # TP-G02
        self.grapple_defence = 1 + fighter.skills[WRESTLING]                           # TP-G02
        self.encumbrance = fighter.armour.encumbrance                                  # TP-G15
        self.max_health = 10 + 2 * fighter.skills[ENDURANCE]                           # TP-G03
        # (action, cost) pairs this weapon can perform, per status (TP-014): legality starts from these.
        self.proactive_by_status = self._by_status(table, table.proactive)
        self.reactive_by_status = self._by_status(table, table.reactive)
        # Indexed by the outcome tables' DT kinds: fixed, CD, CD (Armoured), Grapple Defence.
        self.defences = (0, self.combat_defence, self.armoured_defence, self.grapple_defence)
        self.initiative_skill = fighter.skills[ATHLETICS]                              # TP-G06

    def _by_status(self, table: ActionTable, actions: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
        return tuple(
            tuple((a, cost) for a in actions
                  if (cost := self.costs[a]) is not None and (tech := table.technique_of[a]) is not None
                  and tech.allowed_in(status))
            for status in range(len(STATUS_NAMES))
        )

    def _cost(self, name: str, fixed: int | None) -> int | None:
        weapon = self.weapon
        if name in _NEEDS_MELEE and weapon.kind != MELEE_KIND:
            return None
        if name in _NEEDS_RANGED and weapon.kind != RANGED_KIND:
            return None
        if name == "reload":
            return weapon.reload_ap or None
        if name == "recover_weapon":
            return fixed if self.disarmed else None
        if fixed is not None:
            return fixed
        if name == "feint":
            return weapon.costs[FEINT_PRICED_AS]
        return weapon.costs[name]


def loadouts(fighter: Fighter, unarmed: Weapon, table: ActionTable = DUEL_TABLE) -> tuple[Loadout, Loadout]:
    """The armed and disarmed loadouts of a fighter (a fighter born unarmed has the same one twice)."""
    armed = Loadout(fighter, fighter.weapon, disarmed=False, table=table)
    if fighter.weapon.kind == UNARMED_KIND:
        return armed, armed
    return armed, Loadout(fighter, unarmed, disarmed=True, table=table)
