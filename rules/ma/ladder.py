"""The aiming-distance ladder (間, ma): five rungs shared by both duelists (MA-002..MA-010).

The ladder is one value per duel, never one per duelist: when one side closes it, it closes for both
(MA-010). Every change goes through :meth:`Ladder.move` or :meth:`Ladder.set`, which clamp to the
usable rungs, so no sequence of half-steps, push-outs or slip-aways can leave the ladder (a narrow
path removes far range, MA-051).
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Final


class Rung(IntEnum):
    """Far to close; adjacent rungs are one half-step apart (MA-002, MA-003, MA-004, MA-005, MA-006, MA-007)."""

    FAR = 0
    ISSOKU_ITTO = 1
    NEAR = 2
    CLOSE = 3
    TSUBAZERIAI = 4


RUNG_NAMES: tuple[str, ...] = tuple(r.name.lower() for r in Rung)
"""Data-file and action names of the rungs, in ladder order."""

CLOSER: Final = 1
"""Direction of a half-step that closes the ma (towards tsubazeriai)."""
OPENER: Final = -1
"""Direction of a half-step that opens the ma (towards far range)."""


class DuelKind(Enum):
    """How the duel began; it fixes the starting ma (MA-008, MA-009, MA-G22)."""

    IKKIUCHI = "ikkiuchi"
    """Broken off from a pitched battle: starts at issoku itto (MA-008)."""
    HATASHIAI = "hatashiai"
    """A formal duel by letters of challenge: starts at far range (MA-009)."""


class Ladder:
    """The shared ma of one duel. ``farthest`` is FAR unless the stage removes far range (MA-051)."""

    __slots__ = ("rung", "farthest")

    def __init__(self, rung: Rung, farthest: Rung = Rung.FAR) -> None:
        self.farthest = farthest
        self.rung = Rung(max(rung, farthest))

    @classmethod
    def start(cls, kind: DuelKind, far_range_usable: bool = True) -> "Ladder":
        """The starting ma: ikkiuchi at issoku itto, hatashiai at far range, never an unusable rung."""
        farthest = Rung.FAR if far_range_usable else Rung.ISSOKU_ITTO
        first = Rung.ISSOKU_ITTO if kind is DuelKind.IKKIUCHI else Rung.FAR
        return cls(first, farthest)

    def target(self, direction: int) -> Rung:
        """The rung one half-step in ``direction`` (CLOSER / OPENER), clamped to the usable rungs."""
        return Rung(min(Rung.TSUBAZERIAI, max(self.farthest, self.rung + direction)))

    def can_move(self, direction: int) -> bool:
        """Whether a half-step in ``direction`` would change the ma at all."""
        return self.target(direction) != self.rung

    def move(self, direction: int) -> Rung:
        """Take one half-step for both duelists; returns the new rung."""
        self.rung = self.target(direction)
        return self.rung

    def set(self, rung: Rung) -> Rung:
        """Put the ma at ``rung`` (push-out, slip-away), clamped to the usable rungs."""
        self.rung = Rung(min(Rung.TSUBAZERIAI, max(self.farthest, rung)))
        return self.rung

    def clone(self) -> "Ladder":
        """An independent copy."""
        return Ladder(self.rung, self.farthest)

    def __repr__(self) -> str:
        return f"Ladder({self.rung.name}, farthest={self.farthest.name})"
