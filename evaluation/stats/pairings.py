"""Match records reduced to pairwise games between *sides*: policies, or loadout labels (weapons).

Ratings, matchup matrices and the meta-game all start from "side i met side j and scored s". What a
side is depends on the question: the policy at each seat (who plays better?) or the loadout label
at each seat (which weapon wins when the same policy wields both?). :func:`games_between` takes that
choice as a function, and skips games where both seats are the same side (a mirror tells nothing
about one side against another).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from issoku.evaluation.games.records import MatchRecord

Side = Callable[[MatchRecord, int], str]


def by_policy(record: MatchRecord, seat: int) -> str:
    """The side of a seat is the policy playing it."""
    return record.policies[seat]


def by_label(record: MatchRecord, seat: int) -> str:
    """The side of a seat is its loadout label (the weapon it fields, say); ``""`` (no side: the game is skipped)
    for a seat the record labels not at all (a record built without ``seat_labels``)."""
    return record.label(seat)


@dataclass(frozen=True)
class Games:
    """Two-sided games as parallel arrays: ``first[g]`` met ``second[g]`` and scored ``score[g]`` (1, ½ or 0).

    Indices point into ``names``. The order of the games carries no meaning.
    """

    names: tuple[str, ...]
    first: np.ndarray
    second: np.ndarray
    score: np.ndarray

    def __len__(self) -> int:
        return int(self.first.size)

    def matrices(self) -> tuple[np.ndarray, np.ndarray]:
        """``(scores, games)``: points ``i`` earned against ``j``, and games ``i`` and ``j`` played (symmetric)."""
        n = len(self.names)
        scores = np.zeros((n, n))
        games = np.zeros((n, n))
        np.add.at(scores, (self.first, self.second), self.score)
        np.add.at(scores, (self.second, self.first), 1.0 - self.score)
        np.add.at(games, (self.first, self.second), 1.0)
        return scores, games + games.T

    def resampled(self, rng: np.random.Generator) -> Games:
        """The same number of games, drawn with replacement (one bootstrap replicate)."""
        pick = rng.integers(len(self), size=len(self))
        return Games(self.names, self.first[pick], self.second[pick], self.score[pick])


def games_between(records: Iterable[MatchRecord], side: Side = by_policy,
                  names: Sequence[str] | None = None) -> Games:
    """The two-seat games between different sides, as :class:`Games`.

    ``names`` fixes the order (and filters); by default every side seen, sorted. Games with an empty
    side name (no loadout label) are skipped.
    """
    pairs = []
    for record in records:
        if record.num_seats != 2:
            raise ValueError(f"pairwise games need two seats; match {record.key} has {record.num_seats}")
        a, b = side(record, 0), side(record, 1)
        if a != b and a and b:
            pairs.append((a, b, record.score(0)))
    if names is None:
        names = sorted({name for a, b, _ in pairs for name in (a, b)})
    index = {name: i for i, name in enumerate(names)}
    kept = [(index[a], index[b], s) for a, b, s in pairs if a in index and b in index]
    table = np.array(kept, dtype=np.float64).reshape(-1, 3)
    return Games(tuple(names), table[:, 0].astype(np.int64), table[:, 1].astype(np.int64), table[:, 2])
