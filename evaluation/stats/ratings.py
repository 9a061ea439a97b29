"""Ratings from the whole win/draw matrix: a Bradley-Terry fit on the Elo scale, with bootstrap intervals.

Why not incremental Elo: its result depends on the order the games were played in, and a tournament
run by a process pool has no meaningful order. The Bradley-Terry model, P(i beats j) = p_i/(p_i+p_j),
fitted by maximum likelihood to every game at once, gives the same ratings for the same games in any
order. Draws count as half a win for each side. Ratings are ``400·log10(p)``, so a 200-point gap means
the stronger side is expected to score about 76 %, as in chess Elo.

The fit is a damped Newton ascent of the (concave) log-likelihood. Where one policy never lost (or never won) the maximum
likelihood strength is infinite; a small ``prior`` of virtual draws between every pair (default one
game per pair) keeps every rating finite, and vanishes in weight as real games accumulate. Pass
``prior=0`` for the plain maximum-likelihood fit.

Some players may be held at given ratings (``fixed``): a benchmark suite's references keep their calibrated
ratings and the others are fitted around them, so the fitted ratings stay on the suite's scale.

Intervals are percentile bootstrap intervals: the games are resampled with replacement from a seeded
generator and refitted.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from issoku.evaluation.stats.pairings import Games

ELO_PER_NAT = 400.0 / math.log(10.0)


def fit_bradley_terry(scores: np.ndarray, games: np.ndarray, prior: float = 1.0, tol: float = 1e-10,
                      max_iter: int = 200, fixed: Mapping[int, float] | None = None) -> np.ndarray:
    """Maximum-likelihood Bradley-Terry log-strengths (natural log, mean zero) from the score/game matrices.

    ``scores[i, j]`` is what ``i`` scored against ``j`` (wins plus half the draws), ``games`` the
    symmetric game counts. ``prior`` adds that many virtual drawn games to every pair. The
    log-likelihood is concave in the log-strengths, so damped Newton steps (the Hessian is a
    weighted graph Laplacian; the mean is pinned to zero) converge in a handful of iterations.
    ``fixed`` holds players (by index) at given log-strengths; the others are fitted around them and the
    mean is then not pinned.
    """
    n = scores.shape[0]
    off_diagonal = 1.0 - np.eye(n)
    scores = scores * off_diagonal + prior / 2.0 * off_diagonal
    games = games * off_diagonal + prior * off_diagonal
    fixed = dict(fixed or {})
    free = np.array([i for i in range(n) if i not in fixed], dtype=np.int64)
    for label, totals in (("scored nothing", scores.sum(axis=1)), ("never dropped a point", (games - scores).sum(axis=1))):
        stuck = [int(i) for i in free if totals[i] <= 0.0]
        if stuck:
            raise ValueError(f"players {stuck} {label}: their strength is infinite (use prior > 0)")

    def log_likelihood(theta: np.ndarray) -> float:
        return float(-(scores * np.logaddexp(0.0, theta[None, :] - theta[:, None])).sum())

    theta = np.zeros(n)
    theta[list(fixed)] = list(fixed.values())
    pin_mean = np.full((n, n), 1.0 / n) if not fixed else np.zeros((n, n))
    current = log_likelihood(theta)
    for _ in range(max_iter):
        p = expit(theta[:, None] - theta[None, :])
        gradient = (scores - games * p).sum(axis=1)
        weights = games * p * p.T
        laplacian = np.diag(weights.sum(axis=1)) - weights + pin_mean
        step = np.zeros(n)
        step[free] = np.linalg.solve(laplacian[np.ix_(free, free)], gradient[free])
        scale = 1.0
        while (candidate := log_likelihood(theta + scale * step)) < current - 1e-12 and scale > 1e-6:
            scale /= 2.0
        theta = theta + scale * step
        if not fixed:
            theta -= theta.mean()
        current = candidate
        if np.max(np.abs(scale * step)) < tol:
            return theta
    raise RuntimeError("Bradley-Terry fit did not converge (does one group never lose to another? use prior > 0)")


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
         offset: float = 0.0, confidence: float = 0.95, fixed: Mapping[str, float] | None = None) -> Ratings:
    """Fit ratings to ``games`` and bootstrap ``confidence`` intervals (seeded, so reruns agree).

    ``fixed`` holds the named players at the given Elo ratings (then no ``anchor``: the fixed ones set the scale)."""
    if fixed and anchor is not None:
        raise ValueError("rate: either fixed ratings or an anchor sets the scale, not both")
    anchor_index = games.names.index(anchor) if anchor is not None else None
    held = {games.names.index(name): float(elo) for name, elo in (fixed or {}).items()}

    def fit(sample: Games) -> np.ndarray:
        strengths = fit_bradley_terry(*sample.matrices(), prior=prior,
                                      fixed={i: elo / ELO_PER_NAT for i, elo in held.items()})
        if not held:
            return elo_scale(strengths, anchor_index, offset)
        elo = ELO_PER_NAT * strengths
        elo[list(held)] = list(held.values())  # exactly as given, not as nats and back
        return elo

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
