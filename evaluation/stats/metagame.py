"""The meta-game between policies: payoff matrix, Nash equilibrium by linear programming, dominance.

Ratings put policies on one line; the meta-game says what a designer really asks when they do not:
if every player could pick any of these policies, which would a rational field use (the Nash
mixture and its support), and which are never worth picking (dominated). Rock-paper-scissors loops
show up as a mixed equilibrium instead of being averaged away.

The payoff of policy ``i`` against ``j`` is its expected return, ``2·score_rate - 1`` in ``[-1, 1]``
(draws count half). Counted over the same games from both sides, the matrix is antisymmetric: a
symmetric zero-sum game of value 0, whose maximin mixture is a symmetric Nash equilibrium.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog


def payoff_matrix(scores: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Expected return of row against column (``2·scores/games - 1``); 0 on the diagonal, NaN where unplayed."""
    with np.errstate(invalid="ignore", divide="ignore"):
        payoff = np.where(games > 0, 2.0 * scores / games - 1.0, np.nan)
    np.fill_diagonal(payoff, 0.0)
    return payoff


@dataclass(frozen=True)
class Equilibrium:
    """The row player's maximin mixture, its guaranteed value, and the strategies it plays."""

    mixture: np.ndarray
    value: float
    support: tuple[int, ...]


def _require_complete(payoff: np.ndarray) -> None:
    if np.isnan(payoff).any():
        missing = sorted({int(i) for i in np.argwhere(np.isnan(payoff))[:, 0]})
        raise ValueError(f"payoff matrix has unplayed pairs (rows {missing}); play every pair first")


def nash_equilibrium(payoff: np.ndarray, support_tol: float = 1e-6) -> Equilibrium:
    """A maximin mixture of the zero-sum game with row payoffs ``payoff`` (a Nash strategy for the row side).

    Solves ``max v`` subject to ``payoffᵀ x ≥ v``, ``Σx = 1``, ``x ≥ 0`` with HiGHS. For an
    antisymmetric (symmetric zero-sum) matrix, ``(x, x)`` is a symmetric equilibrium and ``v = 0``.
    Equilibria need not be unique; this is the one the solver returns, deterministically.
    """
    payoff = np.asarray(payoff, dtype=np.float64)
    _require_complete(payoff)
    rows, cols = payoff.shape
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0  # maximise v
    upper = np.hstack([-payoff.T, np.ones((cols, 1))])  # v - (payoffᵀ x)_k <= 0
    equality = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * rows + [(None, None)]
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(cols), A_eq=equality, b_eq=[1.0], bounds=bounds,
                     method="highs")
    if not result.success:
        raise RuntimeError(f"Nash LP failed: {result.message}")
    mixture = np.clip(result.x[:rows], 0.0, None)
    mixture /= mixture.sum()
    support = tuple(int(i) for i in np.flatnonzero(mixture > support_tol))
    return Equilibrium(mixture, float(result.x[-1]), support)


@dataclass(frozen=True)
class Dominance:
    """Strategy ``dominated`` does worse than the ``by`` mixture against every column, by at least ``margin``."""

    dominated: int
    by: dict[int, float]
    margin: float


def dominated_strategies(payoff: np.ndarray, min_margin: float = 1e-9) -> list[Dominance]:
    """Rows strictly dominated by some mixture of the other rows (pure dominance is the special case).

    For each row ``i``, an LP finds the mixture ``y`` of the other rows maximising the smallest gap
    ``min_k (yᵀ payoff)_k - payoff[i, k]``; a gap above ``min_margin`` means ``i`` is never a best reply.
    On measured matrices, compare the margin with the win-rate intervals before calling it real.
    """
    payoff = np.asarray(payoff, dtype=np.float64)
    _require_complete(payoff)
    rows, cols = payoff.shape
    found = []
    for row in range(rows):
        others = [r for r in range(rows) if r != row]
        if not others:
            continue
        cost = np.zeros(len(others) + 1)
        cost[-1] = -1.0  # maximise the margin
        upper = np.hstack([-payoff[others].T, np.ones((cols, 1))])  # margin - (yᵀA)_k <= -A[row, k]
        result = linprog(cost, A_ub=upper, b_ub=-payoff[row], A_eq=np.hstack([np.ones((1, len(others))), [[0.0]]]),
                         b_eq=[1.0], bounds=[(0.0, None)] * len(others) + [(None, None)], method="highs")
        if result.success and result.x[-1] > min_margin:
            weights = {other: float(w) for other, w in zip(others, result.x[:-1]) if w > 1e-9}
            found.append(Dominance(row, weights, float(result.x[-1])))
    return found


def name_mixture(mixture: np.ndarray, names: Sequence[str], support_tol: float = 1e-6) -> dict[str, float]:
    """The mixture's non-negligible weights by strategy name, heaviest first."""
    order = np.argsort(-mixture, kind="stable")
    return {names[i]: float(mixture[i]) for i in order if mixture[i] > support_tol}
