"""Paired differences with multiple-testing correction: did a figure move between two rules versions?

Both versions play the same scheduled games (same loadouts, policies, seats and seeds: common random
numbers), so each game of one version has a twin in the other, and the luck of the seed cancels in
the difference. :func:`paired_difference` tests one figure's per-game differences (a one-sample *t*
test on the pairs); :func:`holm` corrects the p-values of every figure a report tests at once
(Holm's step-down: controls the family-wise error, never less powerful than Bonferroni), and the
intervals are Bonferroni-simultaneous, so a figure is headlined only when its corrected interval
excludes zero.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from scipy.stats import t as student_t


@dataclass(frozen=True)
class PairedDifference:
    """``variant − base`` of one figure over ``n`` paired games: mean, corrected interval, p-values."""

    base: float
    variant: float
    delta: float
    low: float
    high: float
    p: float
    p_adjusted: float
    n: int

    @property
    def significant(self) -> bool:
        """Whether the corrected interval excludes zero."""
        return self.low > 0 or self.high < 0


def paired_difference(base: Sequence[float], variant: Sequence[float], tests: int = 1,
                      alpha: float = 0.05) -> PairedDifference:
    """The paired test of ``variant[i] − base[i]``; the interval is simultaneous over ``tests`` figures."""
    before, after = np.asarray(base, dtype=float), np.asarray(variant, dtype=float)
    diff = after - before
    n = int(diff.size)
    mean = float(diff.mean()) if n else 0.0
    sd = float(diff.std(ddof=1)) if n > 1 else 0.0
    if n < 2 or sd == 0.0:
        p = 1.0 if mean == 0.0 or n < 2 else 0.0
        half = 0.0 if n >= 2 else math.inf
    else:
        se = sd / math.sqrt(n)
        p = float(2 * student_t.sf(abs(mean) / se, n - 1))
        half = float(student_t.ppf(1 - alpha / (2 * max(tests, 1)), n - 1)) * se
    return PairedDifference(float(before.mean()) if n else math.nan, float(after.mean()) if n else math.nan,
                            mean, mean - half, mean + half, p, p, n)


def holm(results: Sequence[PairedDifference]) -> list[PairedDifference]:
    """The same results with Holm-adjusted p-values (order kept)."""
    order = sorted(range(len(results)), key=lambda i: (results[i].p, i))
    adjusted = [0.0] * len(results)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(results) - rank) * results[i].p))
        adjusted[i] = running
    return [replace(result, p_adjusted=value) for result, value in zip(results, adjusted)]


__all__ = ["PairedDifference", "holm", "paired_difference"]
