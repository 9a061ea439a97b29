"""Effects that last a number of rounds, ticked in the Readying Phase (EN-017, EN-T09).

An effect expires when it *enters* a Readying Phase with 0 rounds left; otherwise the phase takes one
round off. So a 1-round effect sees two Readying Phases, and a 0-round one ("until the end of the
round", Deflect) ends at the first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Timed:
    """An effect on a seat with ``rounds_left`` rounds to run."""

    name: str
    seat: int
    rounds_left: int


def tick(effects: tuple[Timed, ...]) -> tuple[tuple[Timed, ...], tuple[Timed, ...]]:
    """One Readying Phase: ``(still running, with a round less; expired now)``."""
    running = tuple(replace(e, rounds_left=e.rounds_left - 1) for e in effects if e.rounds_left > 0)
    return running, tuple(e for e in effects if e.rounds_left == 0)
