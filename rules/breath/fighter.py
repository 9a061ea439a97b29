"""One fighter's sheet and its state within the fight, as plain slotted fields.

The engine reads and writes these on every decision, so they are plain ints, strings and small lists,
and :meth:`Fighter.clone` copies exactly the mutable part (the sheet is shared and immutable).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr

from issoku.rules.breath.content import Armor, Kata, Stance, Weapon


@dataclass(frozen=True, slots=True)
class Sheet:
    """What a fighter brings to the fight: attributes (BR-G19), skills, loadout, [Kata], [aptitude]s."""

    name: str
    side: int
    finesse: int
    physique: int
    wits: int
    courage: int
    skills: tuple[tuple[str, int], ...]
    weapon: Weapon
    armor: Armor
    stances: tuple[Stance, ...]
    katas: tuple[Kata, ...]
    traits: frozenset[str]
    _levels: dict[str, int] = field(init=False, repr=False, compare=False)
    """``skills`` as a lookup: every attack and defense check reads the weapon's skill."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_levels", dict(reversed(self.skills)))  # a name's first entry wins

    def skill(self, name: str) -> int:
        """Level in a skill, 0 when untrained."""
        return self._levels.get(name, 0)

    @property
    def max_energy(self) -> int:
        """BR-001: 10 + Finesse."""
        return 10 + self.finesse

    @property
    def max_wounds(self) -> int:
        """BR-G04: 5 + Physique."""
        return 5 + self.physique


FIGHTER_SLOTS = ("seat", "side", "sheet", "weapon", "energy", "wounds", "stance", "reservations", "defenseless",
                 "standing", "defeated", "spent", "limit", "breath_closed", "overload_failed",
                 "next_limit_override", "attack_checks", "zero_energy_used", "kata_used", "check_bonus",
                 "kata_defense", "descent", "guard_counter_used", "in_core", "closed_this_round")
"""The slots of :class:`Fighter`, which ``clone`` copies (a compiled class has no ``__slots__`` to read)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: __new__ (clone) skips __init__, a call runs it
class Fighter:
    """A fighter in play: its :class:`Sheet` plus everything the rules track during the fight."""

    __slots__ = FIGHTER_SLOTS

    def __init__(self, seat: int, sheet: Sheet) -> None:
        self.seat = seat
        self.side = sheet.side
        self.sheet = sheet
        self.weapon: Weapon = sheet.weapon
        """The weapon in hand; a module may change it (a dropped weapon under Ma and Blade)."""
        self.energy = sheet.max_energy
        self.wounds = sheet.max_wounds
        self.stance: Stance | None = None
        self.reservations: list[str] = []
        """Keys of reserved defense techniques, one entry per paid reservation (BR-018, BR-022)."""
        self.defenseless = False
        self.standing = False
        self.defeated = False
        self.spent = 0
        """Energy spent in the current breath (BR-008), reservations included (BR-A10)."""
        self.limit = 0
        self.breath_closed = False
        self.overload_failed = False
        self.next_limit_override = 0
        self.attack_checks = 0
        """Attack checks made this round, for Combo Fatigue (BR-G06)."""
        self.zero_energy_used: list[str] = []
        """0-Energy([Kata]) effects used this round (BR-047/BR-048)."""
        self.kata_used: list[str] = []
        self.check_bonus = 0
        """A pending +N to the next attack check in this breath (Sprint, a [Kata]; BR-G21)."""
        self.kata_defense = 0
        self.descent = 0
        self.guard_counter_used = False
        self.in_core = False
        """In the Core Zone (skirmish zones; always False in a duel)."""
        self.closed_this_round = False
        """Entered the enemy's zone or closed the ma this round (spear wall, BR-G14)."""

    @property
    def active(self) -> bool:
        """Still fighting."""
        return not self.defeated

    def clone(self) -> "Fighter":
        """A copy whose mutable state is independent (the sheet is shared)."""
        copy = Fighter.__new__(Fighter)
        for name in FIGHTER_SLOTS:
            setattr(copy, name, getattr(self, name))
        copy.reservations = list(self.reservations)
        copy.zero_energy_used = list(self.zero_energy_used)
        copy.kata_used = list(self.kata_used)
        return copy
