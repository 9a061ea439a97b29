"""Ratings from the whole win/draw matrix: a Bradley-Terry fit on the Elo scale, with bootstrap intervals.

Why not incremental Elo: its result depends on the order the games were played in, and a tournament
run by a process pool has no meaningful order. The Bradley-Terry model, P(i beats j) = p_i/(p_i+p_j),
fitted by maximum likelihood to every game at once, gives the same ratings for the same games in any
order. Draws count as half a win for each side. Ratings are ``400·log10(p)``, so a 200-point gap means
the stronger side is expected to score about 76 %, as in chess Elo.

The fit is Hunter's MM algorithm (2004). Where one policy never lost (or never won) the maximum
likelihood strength is infinite; a small ``prior`` of virtual draws between every pair (default one
game per pair) keeps every rating finite, and vanishes in weight as real games accumulate. Pass
``prior=0`` for the plain maximum-likelihood fit.

Intervals are percentile bootstrap intervals: the games are resampled with replacement from a seeded
generator and refitted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from issoku.evaluation.pairings import Games

ELO_PER_NAT = 400.0 / math.log(10.0)


def fit_bradley_terry(scores: np.ndarray, games: np.ndarray, prior: float = 1.0, tol: float = 1e-10,
                      max_iter: int = 100_000) -> np.ndarray:
    """Maximum-likelihood Bradley-Terry log-strengths (natural log, mean zero) from the score/game matrices.

    ``scores[i, j]`` is what ``i`` scored against ``j`` (wins plus half the draws), ``games`` the
    symmetric game counts. ``prior`` adds that many virtual drawn games to every pair.
    """
    n = scores.shape[0]
    off_diagonal = 1.0 - np.eye(n)
    scores = scores * off_diagonal + prior / 2.0 * off_diagonal
    games = games * off_diagonal + prior * off_diagonal
    wins = scores.sum(axis=1)
    if np.any(wins <= 0.0):
        zero = [i for i in range(n) if wins[i] <= 0.0]
        raise ValueError(f"players {zero} scored nothing: their strength is -infinity (use prior > 0)")
    strength = np.ones(n)
    for _ in range(max_iter):
        updated = wins / (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        updated /= math.exp(np.log(updated).mean())
        if np.max(np.abs(np.log(updated) - np.log(strength))) < tol:
            strength = updated
            break
        strength = updated
    else:
        raise RuntimeError("Bradley-Terry fit did not converge (is some player unbeaten? use prior > 0)")
    return np.log(strength)


def elo_scale(log_strengths: np.ndarray, anchor: int | None = None, offset: float = 0.0) -> np.ndarray:
    """Log-strengths as Elo points: the ``anchor`` player (or, without one, the mean) sits at ``offset``."""
    elo = ELO_PER_NAT * np.asarray(log_strengths)
    reference = elo[anchor] if anchor is not None else elo.mean()
    return elo - reference + offset


def expected_score(elo_a: float, elo_b: float) -> float:
    """What a player rated ``elo_a`` is expected to score against one rated ``elo_b``."""
    return 1.0 / (1.0 + 10.0 ** ((elo_b - elo_a) / 400.0))


@dataclass(frozen=True)
class Ratings:
    """Elo-scale ratings with bootstrap interval bounds, aligned with ``names``."""

    names: tuple[str, ...]
    elo: np.ndarray
    low: np.ndarray
    high: np.ndarray
    games: np.ndarray
    confidence: float

    def ranked(self) -> list[int]:
        """Indices from strongest to weakest (ties by name)."""
        return sorted(range(len(self.names)), key=lambda i: (-self.elo[i], self.names[i]))


def rate(games: Games, bootstrap: int = 1000, seed: int = 0, prior: float = 1.0, anchor: str | None = None,
         offset: float = 0.0, confidence: float = 0.95) -> Ratings:
    """Fit ratings to ``games`` and bootstrap ``confidence`` intervals (seeded, so reruns agree)."""
    anchor_index = games.names.index(anchor) if anchor is not None else None

    def fit(sample: Games) -> np.ndarray:
        return elo_scale(fit_bradley_terry(*sample.matrices(), prior=prior), anchor_index, offset)

    elo = fit(games)
    rng = np.random.default_rng(seed)
    if bootstrap > 0 and len(games) > 0:
        replicates = np.array([fit(games.resampled(rng)) for _ in range(bootstrap)])
        tail = (1.0 - confidence) / 2.0
        low, high = np.quantile(replicates, [tail, 1.0 - tail], axis=0)
    else:
        low, high = elo.copy(), elo.copy()
    played = games.matrices()[1].sum(axis=1)
    return Ratings(games.names, elo, low, high, played, confidence)
