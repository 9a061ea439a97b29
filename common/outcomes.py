"""Duel outcomes counted one way: a :class:`Tally` of wins, draws and losses with Wilson intervals.

Every command that reports how one side fared over many duels counts with this tally: ``issoku
head-to-head`` (:mod:`issoku.evaluation.strength.head_to_head`), ``issoku evaluate``
(:mod:`issoku.evaluation.strength.checkpoint_duels`) and the evaluations during a training run
(:mod:`issoku.training.evaluate`). It lives in the training layer, the lowest that counts duels, so that
training and evaluation share it; :func:`wilson` and :class:`Proportion` live with it for the same reason
(the balance measures in :mod:`issoku.evaluation.stats.metrics` use them too).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from scipy.stats import norm


@dataclass(frozen=True)
class Proportion:
    """An observed rate with its Wilson interval: ``successes`` out of ``n`` (draws as halves)."""

    successes: float
    n: int
    low: float
    high: float

    @property
    def value(self) -> float:
        """The point estimate (NaN when nothing was observed)."""
        return self.successes / self.n if self.n else math.nan


def wilson(successes: float, n: int, confidence: float = 0.95) -> Proportion:
    """The Wilson score interval for ``successes`` in ``n`` trials; ``(0, 1)`` when ``n`` is 0."""
    if n == 0:
        return Proportion(successes, 0, 0.0, 1.0)
    z = float(norm.ppf(0.5 + confidence / 2.0))
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return Proportion(successes, n, max(0.0, centre - half), min(1.0, centre + half))


def score_of_return(value: float) -> float:
    """A seat's return as a duel score: 1 for a win (above 0), ½ for a draw (0), 0 for a loss (below 0)."""
    return 1.0 if value > 0 else 0.0 if value < 0 else 0.5


@dataclass(frozen=True)
class Tally:
    """Duels from one side: wins, draws (truncated duels included), losses."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @classmethod
    def of_returns(cls, returns: Iterable[float]) -> Tally:
        """The tally of duels whose returns for the counted side are ``returns`` (see :func:`score_of_return`)."""
        tally = cls()
        for value in returns:
            tally = tally.add(score_of_return(float(value)))
        return tally

    @property
    def duels(self) -> int:
        """How many duels the tally counts."""
        return self.wins + self.draws + self.losses

    def add(self, score: float) -> Tally:
        """The tally with one more duel scored 1 (won), ½ (drawn) or 0 (lost)."""
        return Tally(self.wins + (score == 1.0), self.draws + (score == 0.5), self.losses + (score == 0.0))

    def win_rate(self, confidence: float = 0.95) -> Proportion:
        """The share of duels won (a draw is not a win), with its Wilson interval."""
        return wilson(self.wins, self.duels, confidence)

    def score_rate(self, confidence: float = 0.95) -> Proportion:
        """The score (a draw counts half), with its Wilson interval."""
        return wilson(self.wins + self.draws / 2, self.duels, confidence)

    def as_dict(self) -> dict[str, Any]:
        """Counts and the win rate with its 95 % Wilson interval, as ``issoku evaluate`` writes them to JSON."""
        win = self.win_rate()
        return {"duels": self.duels, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "win_rate": win.value, "win_rate_low": win.low, "win_rate_high": win.high}
