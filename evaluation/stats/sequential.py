"""Sequential tests: each matchup or variant cell ends as *imbalanced*, *balanced within ±δ* or *undetermined*.

Games are spent where they decide something. Chess engine testing (fishtest, OpenBench) plays a candidate
against the reference in **pairs** of games on the same opening with the colours swapped, and stops as soon
as a sequential probability ratio test decides. We do the same with seeds and seats: a **pair** is two games
of one cell on the same seed with the sides in swapped seats (:func:`cell_pairs`), and its outcome is the
first side's mean score over the two (0, ¼, ½, ¾ or 1: the *pentanomial* outcome). The seed's luck and the
seat advantage cancel inside a pair, so pairs vary less than single games and a test needs fewer of them.

**The test** is the generalized SPRT (GSPRT) in the normal approximation M. Van den Bergh gives for fishtest
("A practical introduction to the GSPRT"): after ``N`` pairs with mean ``x̄`` and per-pair variance ``σ̂²``,
the log-likelihood ratio of ``H1: μ = μ1`` against ``H0: μ = μ0`` is::

    LLR = N · (μ1 − μ0) · (2·x̄ − μ0 − μ1) / (2·σ̂²)

compared with Wald's bounds ``A = ln(β / (1 − α))`` and ``B = ln((1 − β) / α)``: accept H1 at ``LLR ≥ B``, H0 at
``LLR ≤ A``, else play on. A balance question is two-sided, so a cell runs **two** such tests, each at ``α/2``:
*up* (``μ0 = c`` against ``μ1 = c + δ``: the first side is favoured) and *down* (``μ1 = c − δ``), ``c`` the centre
(½ for a score, 0 for a variant's difference). Walking the pairs in order (seed order: the order a sequential
run plays them), the cell is **imbalanced** the moment either test accepts H1, **balanced within ±δ** once both
have accepted H0, and **undetermined** if the pairs run out first. The two LLRs sum to ``−N·δ²/σ̂²`` < 0, so the
two tests can never both accept H1: a cell is never imbalanced both ways.

**The variance** is the pairs' own, plus one pseudo-pair at each end of the outcome range (``c ± ½·span``) — our
choice: fishtest adds 10⁻³ of a game to each outcome count, but scripted agents can repeat one outcome
exactly (every pair a ½ when each side wins with its seat), and a variance near zero would then let a
handful of pairs decide. The pseudo-pairs keep the estimate honest early and fade as pairs accrue.

**Games a δ needs** (stated before running, :meth:`SequentialTest.expected_pairs`): Wald's approximation of the
expected number of pairs, from an assumed per-pair variance ``σ²`` (default :data:`PAIR_VARIANCE`, two independent
even games with no draws; the report also restates it with the measured variance). With ``A``, ``B`` the bounds
of one test (at ``α/2``)::

    at an effect of ±δ:  ((1 − β)·B + β·A) · 2σ² / δ²
    at no effect:        ((1 − α/2)·|A| − (α/2)·B) · 2σ² / δ²   (one test; both must stop, so more)
    at worst (±δ/2):     |A| · B · σ² / δ²

each in pairs (two games each).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from issoku.evaluation.stats.pairings import Side, by_label, by_policy
from issoku.evaluation.games.records import MatchRecord

IMBALANCED, BALANCED, UNDETERMINED = "imbalanced", "balanced", "undetermined"

PAIR_VARIANCE = 0.125
"""The per-pair variance assumed before any game is played: the mean of two independent even games without
draws (¼ per game, halved by the pair)."""


@dataclass(frozen=True)
class SequentialTest:
    """A two-sided GSPRT's design: the indifference ``delta`` (points of score, or of a variant's move) and the
    error rates ``alpha`` (calling a cell imbalanced when it is even) and ``beta`` (missing an effect of δ)."""

    delta: float = 0.05
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not 0 < self.delta <= 0.5:
            raise ValueError(f"sequential test: delta must be in (0, 0.5], not {self.delta}")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("sequential test: alpha and beta must be in (0, 1)")

    def bounds(self) -> tuple[float, float]:
        """Wald's ``(A, B)`` of each one-sided test (at ``alpha / 2``)."""
        alpha = self.alpha / 2
        return math.log(self.beta / (1 - alpha)), math.log((1 - self.beta) / alpha)

    def expected_pairs(self, variance: float = PAIR_VARIANCE) -> tuple[float, float, float]:
        """Wald's expected pairs ``(at ±δ, at no effect, at worst ±δ/2)`` for a per-pair ``variance``."""
        low, high = self.bounds()
        alpha, scale = self.alpha / 2, variance / self.delta ** 2
        at_delta = ((1 - self.beta) * high + self.beta * low) * 2 * scale
        at_zero = ((1 - alpha) * -low - alpha * high) * 2 * scale
        return at_delta, at_zero, -low * high * scale

    def describe(self, variance: float = PAIR_VARIANCE) -> str:
        """What the test is and, before any game, how many games it expects to need."""
        at_delta, at_zero, worst = (2 * math.ceil(pairs) for pairs in self.expected_pairs(variance))
        return (f"Sequential tests (GSPRT on seat-swapped pairs, δ = ±{100 * self.delta:g} points of score, "
                f"α = {self.alpha:g}, β = {self.beta:g}): each cell ends *imbalanced*, *balanced within ±δ* or "
                f"*undetermined*. Before running, assuming a per-pair variance of {variance:g}, a cell expects about "
                f"{at_delta} games when its effect is ±δ, {worst} at worst (±δ/2), and at least {at_zero} when it is even "
                f"(both one-sided tests must stop there).")


@dataclass(frozen=True)
class SequentialVerdict:
    """How a cell's sequential test ended: the verdict, which way (+1: the first side favoured, −1: the second,
    0: none), the pairs it used (all of them when undetermined), the pairs available, both LLRs where it stopped
    and the variance it used there."""

    verdict: str
    direction: int
    pairs: int
    available: int
    llr_up: float
    llr_down: float
    variance: float

    @property
    def decided(self) -> bool:
        """Whether the test stopped (imbalanced or balanced)."""
        return self.verdict != UNDETERMINED


def llr(n: int, mean: float, variance: float, mu0: float, mu1: float) -> float:
    """The GSPRT's log-likelihood ratio of ``μ1`` against ``μ0`` after ``n`` samples (normal approximation)."""
    return n * (mu1 - mu0) * (2 * mean - mu0 - mu1) / (2 * variance) if n else 0.0


def gsprt(samples: Iterable[float], test: SequentialTest = SequentialTest(), centre: float = 0.5,
          span: float = 1.0) -> SequentialVerdict:
    """Walk ``samples`` (pair outcomes, in play order) through the two-sided test around ``centre``; ``span`` is
    the width of the outcome range (1 for a score in [0, 1], 2 for a difference in [−1, 1]). A pure function."""
    low, high = test.bounds()
    edges = (centre - span / 2, centre + span / 2)
    up = down = ""  # "H0" or "H1" once each one-sided test has stopped
    n, total, squares = 0, 0.0, 0.0
    values = list(samples)
    llr_up = llr_down = 0.0
    variance = span ** 2 / 4
    for value in values:
        n += 1
        total += value
        squares += value * value
        mean = total / n
        deviations = squares - n * mean * mean + sum((edge - mean) ** 2 for edge in edges)
        variance = max(deviations, 1e-12) / (n + 2)
        llr_up = llr(n, mean, variance, centre, centre + test.delta)
        llr_down = llr(n, mean, variance, centre, centre - test.delta)
        if not up:
            up = "H1" if llr_up >= high else "H0" if llr_up <= low else ""
        if not down:
            down = "H1" if llr_down >= high else "H0" if llr_down <= low else ""
        if "H1" in (up, down):
            return _verdict(IMBALANCED, 1 if up == "H1" else -1, n, len(values), llr_up, llr_down, variance)
        if up == down == "H0":
            return _verdict(BALANCED, 0, n, len(values), llr_up, llr_down, variance)
    return _verdict(UNDETERMINED, 0, n, len(values), llr_up, llr_down, variance)


def _verdict(verdict: str, direction: int, pairs: int, available: int, *figures: float) -> SequentialVerdict:
    return SequentialVerdict(verdict, direction, pairs, available, *(float(figure) for figure in figures))


@dataclass(frozen=True)
class CellPairs:
    """One cell's seat-swapped pairs: the first side's mean score of each pair (play order), and the games left
    without a twin (not tested)."""

    first: str
    second: str
    outcomes: tuple[float, ...]
    unpaired: int


def cell_pairs(records: Iterable[MatchRecord], side: Side) -> list[CellPairs]:
    """Every cell (two different sides under ``side``) with its pairs: two games on one seed in which the sides sit
    in swapped seats, matched within the seed in order of loadout and policies (a loadout study's twins are its
    two seat orders of one pairing; a policy study's, the two seat orders in one loadout). Pairs come in seed
    order, the order a sequential run plays them."""
    by_cell: dict[tuple[str, str], dict[int, tuple[list[MatchRecord], list[MatchRecord]]]] = {}
    for record in records:
        if record.num_seats != 2:
            continue
        a, b = side(record, 0), side(record, 1)
        if not a or not b or a == b:
            continue
        first, second = sorted((a, b))
        seats = by_cell.setdefault((first, second), {}).setdefault(record.seed, ([], []))
        seats[0 if a == first else 1].append(record)
    cells = []
    for (first, second), seeds in sorted(by_cell.items()):
        outcomes, unpaired = [], 0
        for seed in sorted(seeds):
            ahead, behind = (sorted(games, key=_context) for games in seeds[seed])
            for one, other in zip(ahead, behind):
                outcomes.append((one.score(0) + other.score(1)) / 2)
            unpaired += abs(len(ahead) - len(behind))
        cells.append(CellPairs(first, second, tuple(outcomes), unpaired))
    return cells


def _context(record: MatchRecord) -> tuple:
    """What pairs twins up within a seed: the loadout's labels as a set and the policies as a set."""
    return tuple(sorted(record.seat_labels)), tuple(sorted(record.policies)), record.loadout


def cell_verdicts(records: Iterable[MatchRecord], side: Side,
                  test: SequentialTest = SequentialTest()) -> list[tuple[CellPairs, SequentialVerdict]]:
    """Each cell's pairs and its sequential verdict."""
    return [(cell, gsprt(cell.outcomes, test)) for cell in cell_pairs(records, side)]


def verdict_text(cell: CellPairs, verdict: SequentialVerdict) -> str:
    """``imbalanced (favours yari)``, ``balanced within ±δ`` or ``undetermined``."""
    if verdict.verdict == IMBALANCED:
        return f"imbalanced (favours {cell.first if verdict.direction > 0 else cell.second})"
    return "balanced within ±δ" if verdict.verdict == BALANCED else UNDETERMINED


by_seat_label = by_label
"""A loadout cell's side: the seat's loadout label, "" when the loadout names none (such games belong to no
loadout cell)."""

CELL_SIDES: tuple[Side, ...] = (by_policy, by_seat_label)
"""The kinds of cell a study has: policy against policy, loadout label against loadout label."""


def decided_cells(records: Iterable[MatchRecord], test: SequentialTest,
                  sides: Sequence[Side] = CELL_SIDES) -> set[tuple[int, str, str]]:
    """The cells (index into ``sides``, first side, second side) whose test has stopped on ``records``."""
    records = list(records)
    return {(index, cell.first, cell.second) for index, side in enumerate(sides)
            for cell, verdict in cell_verdicts(records, side, test) if verdict.decided}


__all__ = ["BALANCED", "CELL_SIDES", "CellPairs", "IMBALANCED", "PAIR_VARIANCE", "SequentialTest", "SequentialVerdict",
           "UNDETERMINED", "by_seat_label", "cell_pairs", "cell_verdicts", "decided_cells", "gsprt", "llr", "verdict_text"]
