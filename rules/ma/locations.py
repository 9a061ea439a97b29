"""Hit-location attacks (部位) and the injuries they leave (MA-040..MA-047, MA-G15, MA-G17, MA-G18).

Every duel attack may name a location for 1 extra Energy (MA-040, MA-041). A hit then applies the
location's effect, which lasts until the duel ends (MA-A05); a second hit on the same location does
not repeat its penalty (MA-G18), so each penalty is one flag. Wounds live in the breath engine: these
functions return how many extra Wounds to remove and leave the removal to it.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from mypy_extensions import mypyc_attr

from issoku.rules.kernel.dice import Dice, prob_check
from issoku.rules.kernel.events import EventLog
from issoku.rules.ma.ladder import Rung


class Location(Enum):
    """The five hit locations (MA-042, MA-043, MA-044, MA-045, MA-046)."""

    WRIST = "wrist"
    ARM = "arm"
    LEG = "leg"
    TORSO = "torso"
    FACE = "face"


LOCATION_COST: Final = 1
"""Extra Energy to designate a location on an attack (MA-041)."""
WRIST_TN: Final = 11
"""The target keeps its weapon on 2d10 + Physique ≥ 11 (MA-042)."""
TORSO_EXTRA_WOUNDS: Final = 1
"""A torso hit removes one more Wound (MA-045)."""
BLEED_PHYSIQUE_TN: Final = 13
"""Bleeding stops on 2d10 + Physique ≥ 13 ... (MA-045)"""
BLEED_MEDICINE_TN: Final = 11
"""... or on 2d10 + Wits + Medicine ≥ 11 (MA-045)."""
PICK_UP_COST: Final = 2
"""Energy to pick a dropped weapon up, allowed at far range only (MA-G15)."""

_RULES = {Location.WRIST: "MA-042", Location.ARM: "MA-043", Location.LEG: "MA-044",
          Location.TORSO: "MA-045", Location.FACE: "MA-046"}


def extra_wounds(location: Location | None) -> int:
    """Wounds a location hit removes on top of the hit's own: torso 1 (MA-045), the others 0."""
    return TORSO_EXTRA_WOUNDS if location is Location.TORSO else 0


INJURY_SLOTS = ("wrist", "arm", "leg", "face", "bleeding", "disarmed")
"""The slots of :class:`Injuries`, which ``clone`` copies (a compiled class has no ``__slots__`` to read)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: __new__ (clone) skips __init__, a call runs it
class Injuries:
    """What location hits have done to one duelist so far in this duel."""

    __slots__ = INJURY_SLOTS

    def __init__(self) -> None:
        self.wrist = False
        self.arm = False
        self.leg = False
        self.face = False
        self.bleeding = False
        self.disarmed = False

    def check_modifiers(self) -> list[tuple[str, int]]:
        """Named modifiers on every check this duelist makes: face/eyes −2 (MA-046)."""
        return [("face_wound", -2)] if self.face else []

    def attack_modifiers(self, with_weapon: bool) -> list[tuple[str, int]]:
        """Named modifiers on attack checks only: wrist −1 on weapon attacks (MA-042), arm −2 on any attack
        technique (MA-043). The face's −2 is on every check (:meth:`check_modifiers`)."""
        named = []
        if self.wrist and with_weapon:
            named.append(("wrist_wound", -1))
        if self.arm:
            named.append(("arm_wound", -2))
        return named

    def attack_modifier(self, with_weapon: bool) -> int:
        """The sum of :meth:`attack_modifiers`."""
        return sum(delta for _, delta in self.attack_modifiers(with_weapon))

    def half_step_extra(self) -> int:
        """Extra Energy per half-step: +1 with a leg wound (MA-044, MA-T01)."""
        return 1 if self.leg else 0

    def take_hit(self, location: Location, dice: Dice, log: EventLog, seat: int, physique: int) -> None:
        """Apply the effect of a hit on ``location`` (its extra Wounds are :func:`extra_wounds`); ``physique``
        comes with the target's every-check modifiers already added (a face wound, glare)."""
        if log.enabled:
            log.emit(_RULES[location], "location_hit", seat, location=location.value)
        if location is Location.WRIST:
            check = dice.check(physique, WRIST_TN)
            dropped = not check.success
            if log.enabled:
                log.emit("MA-042", "wrist_check", seat, dice=check.dice, modifier=check.modifier,
                         total=check.total, target=WRIST_TN, success=not dropped)
            self.wrist = True
            if dropped and not self.disarmed:
                self.disarmed = True
                log.emit("MA-042", "weapon_dropped", seat)
        elif location is Location.TORSO:
            self.bleeding = True
        else:
            setattr(self, location.value, True)

    def bleed(self, dice: Dice, log: EventLog, seat: int, physique: int, wits: int, medicine: int) -> int:
        """At a lull: lose 1 Wound, then one free stop roll with the better odds (MA-045, MA-G17).

        ``physique`` and ``wits`` come with every-check modifiers already added (a face wound, glare).
        Returns the Wounds lost (0 when not bleeding).
        """
        if not self.bleeding:
            return 0
        log.emit("MA-045", "bleeding", seat, wounds=1)
        by_body = (physique, BLEED_PHYSIQUE_TN, "physique")
        by_medicine = (wits + medicine, BLEED_MEDICINE_TN, "medicine")
        modifier, target, way = max(by_body, by_medicine, key=lambda option: prob_check(option[0], option[1]))
        check = dice.check(modifier, target)
        log.emit("MA-G17", "bleeding_stop", seat, way=way, dice=check.dice, modifier=modifier,
                 total=check.total, target=target, success=check.success)
        if check.success:
            self.bleeding = False
        return 1

    @staticmethod
    def can_pick_up(rung: Rung) -> bool:
        """A dropped weapon can be picked up only at far range (MA-G15)."""
        return rung is Rung.FAR

    def pick_up(self, log: EventLog, seat: int) -> None:
        """Take the dropped weapon back in hand (the engine charges :data:`PICK_UP_COST`)."""
        self.disarmed = False
        log.emit("MA-G15", "weapon_picked_up", seat, cost=PICK_UP_COST)

    def clone(self) -> "Injuries":
        """An independent copy."""
        twin = Injuries.__new__(Injuries)
        for name in INJURY_SLOTS:
            setattr(twin, name, getattr(self, name))
        return twin
