"""Balance measures over match records: matchups with intervals, first-mover advantage, decisiveness,
strategy diversity and the action sequences a policy leans on.

These are the numbers chess-variant studies report (Tomašev et al., AlphaZero variants): who wins
each matchup and how sure we are, whether moving first decides games, how often games end without
a winner, and whether strong play collapses onto a few lines (low entropy) or a single combo that
wins whenever it is used (a degenerate strategy).

Proportions carry Wilson score intervals (:func:`~issoku.common.outcomes.wilson`); a draw counts as half a success, which the Wilson formula
treats as a fractional count (a good approximation when draws are a minority).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

from issoku.evaluation.stats.pairings import Games
from issoku.evaluation.games.records import MatchRecord
from issoku.common.outcomes import Proportion, wilson


@dataclass(frozen=True)
class MatchupMatrix:
    """Score rate of row against column with Wilson bounds; NaN where a pair never met (and on the diagonal)."""

    names: tuple[str, ...]
    scores: np.ndarray
    games: np.ndarray
    rate: np.ndarray
    low: np.ndarray
    high: np.ndarray

    def dominant(self) -> list[int]:
        """Rows whose interval lies above ½ against every side they met: they beat the whole field, surely."""
        rows = []
        for i in range(len(self.names)):
            met = [j for j in range(len(self.names)) if j != i and self.games[i, j] > 0]
            if met and all(self.low[i, j] > 0.5 for j in met):
                rows.append(i)
        return rows


def matchup_matrix(games: Games, confidence: float = 0.95) -> MatchupMatrix:
    """The win-rate matrix (draws as half wins) of ``games`` with Wilson intervals per cell."""
    scores, played = games.matrices()
    n = len(games.names)
    rate, low, high = (np.full((n, n), np.nan) for _ in range(3))
    for i in range(n):
        for j in range(n):
            if i != j and played[i, j] > 0:
                cell = wilson(scores[i, j], int(played[i, j]), confidence)
                rate[i, j], low[i, j], high[i, j] = cell.value, cell.low, cell.high
    return MatchupMatrix(games.names, scores, played, rate, low, high)


def seat_balanced(records: Iterable[MatchRecord]) -> list[MatchRecord]:
    """The games whose seat labels are also played the other way round (or are the same on both seats).

    Only these measure the first mover: when one fighter always sits in seat 0, a first-mover figure
    mixes the seat with the fighter (the default policy study seats the kenshi first in every game).
    """
    records = list(records)
    played = {record.seat_labels for record in records}
    return [record for record in records if all(record.seat_labels)
            and (len(set(record.seat_labels)) == 1 or tuple(reversed(record.seat_labels)) in played)]


def first_mover_advantage(records: Iterable[MatchRecord], confidence: float = 0.95) -> Proportion:
    """The first mover's score rate over all games: ½ means moving first is worth nothing."""
    scored = [record.score(record.first_seat) for record in records if record.first_seat is not None]
    return wilson(sum(scored), len(scored), confidence)


@dataclass(frozen=True)
class FirstMover:
    """The first mover's score, balanced by move order: within each pairing of sides, the games where one side
    moved first and those where the other did weigh alike, so a side that wins the initiative more often
    (an initiative roll with a skill in it) does not lend the first mover its own strength.

    ``score`` is the estimate (``successes`` = estimate × games, so ``value`` reads it) with a normal interval;
    ``se`` its standard error (intervals at another level: :meth:`interval`); ``left_out`` the games of pairings
    where only one side ever moved first (they cannot tell the seat from the side).
    """

    score: Proportion
    se: float
    left_out: int

    def interval(self, confidence: float) -> tuple[float, float]:
        """The score's normal interval at ``confidence``."""
        z = float(norm.ppf(0.5 + confidence / 2.0))
        value = self.score.value
        return (max(0.0, value - z * self.se), min(1.0, value + z * self.se)) if self.score.n else (0.0, 1.0)


def side_identity(record: MatchRecord, seat: int) -> tuple[str, str]:
    """Who plays a seat: its policy and what it fields (its seat label; the seat itself when unlabelled, since an
    unlabelled loadout fields the same fighter in the same seat every game)."""
    label = record.label(seat) or f"seat {seat}"
    return record.policies[seat], label


def balanced_first_mover(records: Iterable[MatchRecord], confidence: float = 0.95) -> FirstMover:
    """The first mover's score over games balanced by move order (see :class:`FirstMover`).

    A pairing is the two sides (:func:`side_identity`) of a two-seat game; with identical sides (a mirror) its
    games count as they are. Pairings weigh by their games; a pairing's estimate is the mean of its two
    first-mover scores (side A first, side B first), its variance the sum of theirs over four (each smoothed by
    a pseudo-win and a pseudo-loss, so a perfect record keeps a width).
    """
    strata: dict[tuple, dict[tuple, list[float]]] = defaultdict(lambda: defaultdict(list))
    for record in records:
        if record.first_seat is None or record.num_seats != 2:
            continue
        sides = tuple(side_identity(record, seat) for seat in range(2))
        pairing = tuple(sorted(sides))
        strata[pairing][sides[record.first_seat]].append(record.score(record.first_seat))
    estimates: list[tuple[int, float, float]] = []
    left_out = 0
    for pairing in sorted(strata):
        orders = [strata[pairing][side] for side in sorted(strata[pairing])]
        if len(orders) < 2 and pairing[0] != pairing[1]:
            left_out += len(orders[0])
            continue
        means = [(sum(scores) + 1) / (len(scores) + 2) for scores in orders]
        variance = sum(m * (1 - m) / (len(scores) + 2) for m, scores in zip(means, orders)) / len(orders) ** 2
        estimate = sum(sum(scores) / len(scores) for scores in orders) / len(orders)
        estimates.append((sum(map(len, orders)), estimate, variance))
    n = sum(games for games, _, _ in estimates)
    if not n:
        return FirstMover(Proportion(0.0, 0, 0.0, 1.0), math.inf, left_out)
    value = sum(games * estimate for games, estimate, _ in estimates) / n
    se = math.sqrt(sum((games / n) ** 2 * variance for games, _, variance in estimates))
    result = FirstMover(Proportion(value * n, n, 0.0, 1.0), se, left_out)
    low, high = result.interval(confidence)
    return FirstMover(Proportion(value * n, n, low, high), se, left_out)


def seat_advantage(records: Iterable[MatchRecord], seat: int = 0, confidence: float = 0.95) -> Proportion:
    """The score rate of one absolute seat (``possible_agents[seat]``) over all games."""
    scored = [record.score(seat) for record in records]
    return wilson(sum(scored), len(scored), confidence)


@dataclass(frozen=True)
class Decisiveness:
    """How games end: draw rate, timeout (truncation) rate, and game length in decisions."""

    games: int
    draws: Proportion
    timeouts: Proportion
    mean_length: float
    median_length: float


def decisiveness(records: Iterable[MatchRecord], confidence: float = 0.95) -> Decisiveness:
    """Draw and timeout rates with intervals, and the mean and median length."""
    records = list(records)
    lengths = [record.length for record in records] or [0]
    return Decisiveness(
        games=len(records),
        draws=wilson(sum(record.winner is None for record in records), len(records), confidence),
        timeouts=wilson(sum(record.truncated for record in records), len(records), confidence),
        mean_length=float(statistics.fmean(lengths)), median_length=float(statistics.median(lengths)))


def entropy_bits(counts: Iterable[int]) -> float:
    """Shannon entropy, in bits, of the distribution the counts describe."""
    counts = np.array([c for c in counts if c > 0], dtype=np.float64)
    if counts.size == 0:
        return 0.0
    p = counts / counts.sum()
    return float(-(p * np.log2(p)).sum()) + 0.0  # + 0.0 turns -0.0 into 0.0


SeatPlay = tuple[tuple[str, ...], tuple[str, ...], float]


def _seats_by_policy(records: Iterable[MatchRecord]) -> dict[str, list[SeatPlay]]:
    """Each policy's played seats as ``(action names, decision kinds, score)``; a mirror game counts both seats."""
    seats: dict[str, list[SeatPlay]] = defaultdict(list)
    for record in records:
        for seat, policy in enumerate(record.policies):
            seats[policy].append((record.actions[seat], record.kinds[seat], record.score(seat)))
    return seats


@dataclass(frozen=True)
class CompositionSpec:
    """How a seat's decisions group into compositions, the units a player plans in (a breath's maneuvers).

    A composition is a run of consecutive decisions of ``kind``, closed right after any of the
    ``closing`` actions (``end_breath``) or when the seat makes a decision of another kind.
    """

    kind: str
    closing: tuple[str, ...] = ()


def compositions(actions: Sequence[str], kinds: Sequence[str], spec: CompositionSpec) -> list[tuple[str, ...]]:
    """The compositions in one seat's decisions, in order."""
    return [composition for _, composition in composition_spans(actions, kinds, spec)]


def composition_spans(actions: Sequence[str], kinds: Sequence[str],
                      spec: CompositionSpec) -> list[tuple[int, tuple[str, ...]]]:
    """The compositions in one seat's decisions, in order, each with the index of its first decision."""
    found: list[tuple[int, tuple[str, ...]]] = []
    current: list[str] = []
    start = 0
    for index, (action, kind) in enumerate(zip(actions, kinds)):
        if kind != spec.kind:
            if current:
                found.append((start, tuple(current)))
                current = []
            continue
        if not current:
            start = index
        current.append(action)
        if action in spec.closing:
            found.append((start, tuple(current)))
            current = []
    if current:
        found.append((start, tuple(current)))
    return found


def ngrams(actions: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """Every run of ``n`` consecutive actions, in order."""
    return [tuple(actions[i:i + n]) for i in range(len(actions) - n + 1)]


@dataclass(frozen=True)
class Diversity:
    """How varied one policy's play is: entropy over whole action sequences, single actions and compositions.

    The composition fields are ``None`` when no :class:`CompositionSpec` was given.
    """

    policy: str
    seats: int
    distinct_sequences: int
    sequence_entropy: float
    distinct_actions: int
    action_entropy: float
    distinct_compositions: int | None = None
    composition_entropy: float | None = None


def strategy_diversity(records: Iterable[MatchRecord], composition: CompositionSpec | None = None) -> list[Diversity]:
    """Per policy (sorted by name), the entropy in bits of its action sequences, actions and compositions."""
    result = []
    for policy, seats in sorted(_seats_by_policy(records).items()):
        sequences = Counter(actions for actions, _, _ in seats)
        actions = Counter(action for sequence, _, _ in seats for action in sequence)
        distinct: int | None = None
        spread: float | None = None
        if composition is not None:
            used = Counter(unit for sequence, kinds, _ in seats for unit in compositions(sequence, kinds, composition))
            distinct, spread = len(used), entropy_bits(used.values())
        result.append(Diversity(policy, len(seats), len(sequences), entropy_bits(sequences.values()),
                                len(actions), entropy_bits(actions.values()), distinct, spread))
    return result


@dataclass(frozen=True)
class SequenceUse:
    """A unit of play (a run of actions, a composition): in how many of a policy's games, and its score then."""

    policy: str
    sequence: tuple[str, ...]
    used_in: int
    share: float
    score_when_used: Proportion
    score_overall: float


def _usage(records: Iterable[MatchRecord], units: Callable[[tuple[str, ...], tuple[str, ...]], Iterable[tuple]],
           top: int, confidence: float) -> list[SequenceUse]:
    """Each policy's ``top`` most used units (counted once per game), with its score in the games using them."""
    result = []
    for policy, seats in sorted(_seats_by_policy(records).items()):
        used: Counter[tuple[str, ...]] = Counter()
        score_with: dict[tuple[str, ...], float] = defaultdict(float)
        for actions, kinds, score in seats:
            for unit in set(units(actions, kinds)):
                used[unit] += 1
                score_with[unit] += score
        overall = sum(score for _, _, score in seats) / len(seats)
        for unit, count in sorted(used.items(), key=lambda item: (-item[1], item[0]))[:top]:
            result.append(SequenceUse(policy, unit, count, count / len(seats),
                                      wilson(score_with[unit], count, confidence), overall))
    return result


def frequent_sequences(records: Iterable[MatchRecord], n: int = 2, top: int = 5,
                       confidence: float = 0.95) -> list[SequenceUse]:
    """Each policy's ``top`` most used runs of ``n`` consecutive actions, with its score in the games using them.

    A run used in most games whose score when used sits far above the policy's overall score is a
    candidate degenerate combo.
    """
    return _usage(records, lambda actions, _: ngrams(actions, n), top, confidence)


def frequent_compositions(records: Iterable[MatchRecord], spec: CompositionSpec, top: int = 5,
                          confidence: float = 0.95) -> list[SequenceUse]:
    """Each policy's ``top`` most used compositions (whole breaths, say), with its score in the games using them."""
    return _usage(records, lambda actions, kinds: compositions(actions, kinds, spec), top, confidence)
