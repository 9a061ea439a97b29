"""Sparring match mode: valid strikes become points, the body stays unharmed (MA-048, MA-G14, MA-A05).

Hits in sparring remove no Wounds and apply no location effects; the guard track still runs. The
first to :data:`POINTS_TO_WIN` points wins, a Critical counting 2.
"""

from __future__ import annotations

from typing import Final

from issoku.rules.kernel.events import EventLog

POINTS_TO_WIN: Final = 3
"""Points that win a sparring match (MA-G14)."""
CRITICAL_POINTS: Final = 2
"""A Critical strike scores 2 (MA-G14)."""


class SparringScore:
    """Both duelists' points."""

    __slots__ = ("points",)

    def __init__(self) -> None:
        self.points = [0, 0]

    def strike(self, seat: int, critical: bool, log: EventLog) -> int:
        """Record a valid strike by ``seat``; returns the points it scored."""
        scored = CRITICAL_POINTS if critical else 1
        self.points[seat] += scored
        log.emit("MA-048", "valid_strike", seat, points=scored, total=self.points[seat], critical=critical)
        return scored

    def winner(self) -> int | None:
        """The seat that has reached the winning score, if any."""
        for seat in (0, 1):
            if self.points[seat] >= POINTS_TO_WIN:
                return seat
        return None

    def clone(self) -> "SparringScore":
        """An independent copy."""
        twin = SparringScore()
        twin.points = list(self.points)
        return twin
