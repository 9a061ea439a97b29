"""The one terrain effect a duel may import (MA-049, MA-050, MA-051, MA-052, MA-053, MA-G21).

A duel has no zones; the scenario picks at most one stage. Two stages favour one duelist (the upper
side on high ground, the side facing the sunset): the scenario names that side, or the seed draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

from issoku.rules.kernel.dice import Dice
from issoku.rules.kernel.events import EventLog
from issoku.rules.ma.content import Stage


@dataclass(frozen=True, slots=True)
class StageSetup:
    """The duel's stage (None: a bare duel) and, for a sided stage, the seat its effect belongs to."""

    stage: Stage | None = None
    side: int | None = None

    @property
    def far_range_usable(self) -> bool:
        """False on a narrow path or indoors (MA-051)."""
        return self.stage is None or self.stage.far_range_usable

    def check_modifier(self, seat: int) -> int:
        """Glare on every check of the side facing the light (MA-053, MA-G21)."""
        if self.stage is None or seat != self.side:
            return 0
        return self.stage.glare_checks

    def contest_bonus(self, seat: int, initiator: int, first_contest: bool) -> int:
        """Terrain on a half-step contest roll: sandbar on the initiator (MA-050), high ground on the
        upper side in the duel's first contest only (MA-052)."""
        if self.stage is None:
            return 0
        bonus = self.stage.initiator_contest if seat == initiator else 0
        if first_contest and seat == self.side:
            bonus += self.stage.upper_side_first_contest
        return bonus


def setup_stage(stage: Stage | None, side: int | None, dice: Dice) -> StageSetup:
    """Fix the stage for one duel; a sided stage with no side named draws it from the seed (MA-G21)."""
    if stage is None:
        return StageSetup()
    if stage.sided and side is None:
        side = 0 if dice.d10() <= 5 else 1
    return StageSetup(stage, side if stage.sided else None)


def announce(setup: StageSetup, log: EventLog) -> None:
    """Log the stage at the start of the duel (nothing for a bare duel)."""
    if setup.stage is not None:
        log.emit(setup.stage.rule, "terrain", setup.side, stage=setup.stage.name)
