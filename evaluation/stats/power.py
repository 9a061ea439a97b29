"""The smallest effect a study can detect at its size: what a "no significant move" is worth.

A report that finds nothing significant on 400 games has not shown that the rules are balanced: a real +8-point
edge may simply be too small for that many games. Every study therefore states its **minimum detectable effect**
(MDE): the smallest true effect its test finds with probability :data:`POWER` at its corrected level,

    MDE = (t(1 − α / 2m) + t(power)) · sd / √n

for ``n`` observations of standard deviation ``sd`` and ``m`` effects tested at once (Bonferroni, as the reports
correct). A score against the field has ``sd`` at most 0.5 (a win-or-loss game at an even score; draws only lower
it), so the MDE with ``sd = 0.5`` is an upper bound. A variant's paired move of a score has ``sd`` at most
``√2 · 0.5`` (the twin games as if independent); the pairing lowers it when the edit changes few games, so that
bound is conservative too, and the reports say so.
"""

from __future__ import annotations

import math

from scipy.stats import t as student_t

POWER = 0.8
"""The probability of detecting an effect of the MDE's size."""
SCORE_SD = 0.5
"""The largest standard deviation of one game's score (a win-or-loss game at an even score)."""
PAIRED_SD = math.sqrt(2) * SCORE_SD
"""The largest standard deviation of a paired move of one game's score (the twins as if independent)."""


def detectable(n: int, tests: int = 1, alpha: float = 0.05, power: float = POWER, sd: float = SCORE_SD) -> float:
    """The minimum detectable effect on ``n`` observations (module docstring); infinite below two."""
    if n < 2:
        return math.inf
    crit = float(student_t.ppf(1 - alpha / (2 * max(tests, 1)), n - 1))
    return (crit + float(student_t.ppf(power, n - 1))) * sd / math.sqrt(n)


def detectable_text(n: int, tests: int = 1, alpha: float = 0.05, power: float = POWER, sd: float = SCORE_SD) -> str:
    """``±8.4 pts (n=400, 80 % power at α = 0.05 over 20 effects)``."""
    over = f" over {tests} effects" if tests > 1 else ""
    return f"±{100 * detectable(n, tests, alpha, power, sd):.1f} pts (n={n:,}, {power:.0%} power at α = {alpha:g}{over})"


__all__ = ["PAIRED_SD", "POWER", "SCORE_SD", "detectable", "detectable_text"]
