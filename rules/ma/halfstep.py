"""The half-step (半步): the 1-Energy move that changes the ma, and its contest (MA-011, MA-012, MA-013, MA-014,
MA-015, MA-016, MA-G01/MA-G02/MA-G05/MA-G16).

A half-step in one's breath moves the shared ladder one rung. The opponent may resist it (MA-G01: 1
Energy from what it has left, a reaction outside its breath); then both roll 2d10 + Finesse + Footwork
and the winner sets the ma (MA-013; MA-G23: a winning mover moves it one rung, a winning resister keeps it). The
resisting winner holds the ma where it was (MA-D05), and so
does a tie (MA-G02). Who holds distance initiative is the side with more Energy left (MA-012); at
equal Energy the roll decides at once (MA-014), unless exactly one side has a leg wound, which loses
distance initiative and so loses the tie without a roll (MA-044, MA-G16).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from issoku.rules.kernel.dice import Dice
from issoku.rules.kernel.events import EventLog
from issoku.rules.ma.guard import GuardTrack
from issoku.rules.ma.ladder import OPENER, Ladder, Rung
from issoku.rules.ma.modifiers import SeatModifiers, summed

HALF_STEP_COST: Final = 1
"""Energy of one half-step within a breath; canon walking is 2 (MA-011, MA-T01). A leg wound adds
``Injuries.half_step_extra()`` as a named Rule 2 penalty (MA-044)."""
RESIST_COST: Final = 1
"""Energy the opponent pays to resist a half-step (MA-G01)."""
STEP_IN_EDGE: Final = 1
"""Optional attack bonus of a step-in cut that starts at issoku itto (MA-016, MA-G05; off by default)."""


def half_step_allowed(ladder: Ladder, direction: int) -> bool:
    """A half-step must change the ma, and a plain half-step never leaves tsubazeriai (MA-025, MA-G04)."""
    if ladder.rung is Rung.TSUBAZERIAI and direction == OPENER:
        return False
    return ladder.can_move(direction)


def can_resist(energy_left: int) -> bool:
    """Resisting costs 1 Energy from what is left; at 0 Energy nobody can resist (MA-G01)."""
    return energy_left >= RESIST_COST


def distance_initiative(energy: tuple[int, int], leg_wounded: tuple[bool, bool]) -> int | None:
    """Which side (0 or 1) holds distance initiative, or None when it is tied (MA-012, MA-014, MA-G16;
    MA-G24: ``energy`` is each side's before paying for the step or the resistance).

    A leg-wounded side never holds it against an unwounded one, whatever its Energy.
    """
    if leg_wounded[0] != leg_wounded[1]:
        return 1 if leg_wounded[0] else 0
    if energy[0] == energy[1]:
        return None
    return 0 if energy[0] > energy[1] else 1


def step_in_edge(start: Rung, enabled: bool) -> int:
    """The step-in cut's optional edge: +1 when its half-step began at issoku itto (MA-016, MA-G05)."""
    return STEP_IN_EDGE if enabled and start is Rung.ISSOKU_ITTO else 0


@dataclass(frozen=True, slots=True)
class HalfStepOutcome:
    """How a contested half-step ended: whether the ma moved, the winner (None on a tie) and the ma now."""

    moved: bool
    winner: int | None
    rung: Rung


def take_half_step(ladder: Ladder, mover: int, direction: int, guard: GuardTrack, log: EventLog,
                   round_no: int, rule: str = "MA-011") -> Rung:
    """Move the shared ma one rung for both duelists; opening it to far range severs it (MA-039)."""
    before = ladder.rung
    after = ladder.move(direction)
    log.emit(rule, "half_step", mover, direction=direction, before=int(before), after=int(after))
    if direction == OPENER and after is Rung.FAR and before is not Rung.FAR:
        guard.sever(log, mover, round_no)
    return after


def contest_half_step(dice: Dice, log: EventLog, ladder: Ladder, mover: int, direction: int,
                      modifiers: SeatModifiers, energy: tuple[int, int], leg_wounded: tuple[bool, bool],
                      guards: tuple[GuardTrack, GuardTrack], round_no: int) -> HalfStepOutcome:
    """Settle a resisted half-step. Seats are 0 and 1; ``modifiers`` are each seat's named contest modifiers
    (Finesse, Footwork, injuries, terrain), logged as ``parts`` beside their sums.

    The mover's roll comes first (only reproducibility cares). The loser's streak of lost contests may
    shave its guard (MA-036); the winner's streak resets.
    """
    resister = 1 - mover
    initiative = distance_initiative(energy, leg_wounded)
    if energy[0] == energy[1] and initiative is not None:
        winner: int | None = initiative
        log.emit("MA-G16", "half_step_contest", mover, rolled=False, winner=winner, reason="leg_wound")
    else:
        totals = summed(modifiers)
        result = dice.contest(totals[mover], totals[resister])
        winner = None if result.winner is None else (mover if result.winner == 0 else resister)
        log.emit("MA-014" if energy[0] == energy[1] else "MA-013", "half_step_contest", mover,
                 dice=result.dice, modifiers=result.modifiers, parts=(modifiers[mover], modifiers[resister]),
                 totals=result.totals, winner=winner)
    if winner is None:
        log.emit("MA-G02", "contest_tie", mover, rung=int(ladder.rung))
    for seat in (0, 1):
        guards[seat].contest_outcome(None if winner is None else winner == seat, log, seat, round_no)
    if winner == mover:
        take_half_step(ladder, mover, direction, guards[mover], log, round_no, rule="MA-013")
    return HalfStepOutcome(winner == mover, winner, ladder.rung)
