"""Tsubazeriai (鍔迫り合い): two blades locked, no ordinary cut, three ways out (MA-025, MA-026, MA-027, MA-028, MA-029,
MA-G04/MA-G06/MA-G07/MA-G08).

Push-out and slip-away are contests the opponent joins for free with the same attribute (MA-G04).
The loser of either contest has been pushed and loses 1 guard (MA-029, MA-033, MA-G08); a tie changes
nothing (MA-G02). An empty-hand move is an attack check resolved by the breath engine (MA-G07); when
it lands it removes no Wounds but shaves 2 guard.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from issoku.rules.kernel.dice import Dice
from issoku.rules.kernel.events import EventLog
from issoku.rules.ma.guard import EMPTY_HAND_LANDS, PUSHED, GuardTrack
from issoku.rules.ma.modifiers import SeatModifiers, summed
from issoku.rules.ma.ladder import Ladder, Rung

PUSH_OUT_COST: Final = 2
"""Energy of a push-out (MA-G04)."""
SLIP_AWAY_COST: Final = 2
"""Energy of a slip-away (MA-G04)."""
EMPTY_HAND_COST: Final = 1
"""Energy of an empty-hand move: drawing a dagger, a foot-trip, a headbutt (MA-G04)."""
EMPTY_HAND_MOVES = ("draw_dagger", "foot_trip", "headbutt")
"""The empty-hand moves 000 names (MA-028); drawing a dagger also readies a tanto (MA-G07)."""


@dataclass(frozen=True, slots=True)
class BreakOutcome:
    """A push-out or slip-away: the winner (None on a tie), the ma after it, and whether a counterattack is owed."""

    winner: int | None
    rung: Rung
    counterattack: bool


def _break_contest(dice: Dice, log: EventLog, ladder: Ladder, actor: int, modifiers: SeatModifiers,
                   guards: tuple[GuardTrack, GuardTrack], round_no: int, rule: str, kind: str,
                   success_rung: Rung) -> int | None:
    """Roll one tsubazeriai contest; the actor's win moves the ma, the loser is pushed (guard −1)."""
    if ladder.rung is not Rung.TSUBAZERIAI:
        raise ValueError(f"{kind} needs tsubazeriai, the ma is {ladder.rung.name}")
    totals = summed(modifiers)
    result = dice.contest(totals[actor], totals[1 - actor])
    winner = None if result.winner is None else (actor if result.winner == 0 else 1 - actor)
    before = ladder.rung
    if winner == actor:
        ladder.set(success_rung)
    log.emit(rule, kind, actor, dice=result.dice, modifiers=result.modifiers,
             parts=(modifiers[actor], modifiers[1 - actor]), totals=result.totals,
             winner=winner, before=int(before), after=int(ladder.rung))
    if winner is None:
        log.emit("MA-G02", "contest_tie", actor, rung=int(ladder.rung))
    else:
        guards[1 - winner].shave(PUSHED, log, 1 - winner, round_no)
    return winner


def push_out(dice: Dice, log: EventLog, ladder: Ladder, actor: int, physique: SeatModifiers,
             guards: tuple[GuardTrack, GuardTrack], round_no: int) -> BreakOutcome:
    """2d10 + Physique contest: the winning pusher opens the ma one rung, to close fighting (MA-026)."""
    winner = _break_contest(dice, log, ladder, actor, physique, guards, round_no, "MA-026", "push_out", Rung.CLOSE)
    return BreakOutcome(winner, ladder.rung, False)


def slip_away(dice: Dice, log: EventLog, ladder: Ladder, actor: int, finesse: SeatModifiers,
              guards: tuple[GuardTrack, GuardTrack], round_no: int) -> BreakOutcome:
    """2d10 + Finesse contest: the winner slips back to issoku itto and may counterattack (MA-027, MA-G06)."""
    winner = _break_contest(dice, log, ladder, actor, finesse, guards, round_no, "MA-027", "slip_away",
                            Rung.ISSOKU_ITTO)
    return BreakOutcome(winner, ladder.rung, winner == actor)


def empty_hand_lands(move: str, target_guard: GuardTrack, log: EventLog, actor: int, round_no: int) -> bool:
    """An empty-hand move that hit: no Wounds, guard −2 on the target (MA-028, MA-G07, MA-G08).

    Returns True when it broke the target's guard.
    """
    if move not in EMPTY_HAND_MOVES:
        raise ValueError(f"unknown empty-hand move {move!r}; known: {EMPTY_HAND_MOVES}")
    log.emit("MA-028", "empty_hand", actor, move=move, wounds=0)
    return target_guard.shave(EMPTY_HAND_LANDS, log, 1 - actor, round_no)
