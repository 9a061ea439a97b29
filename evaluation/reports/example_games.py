"""Which stored games show a finding: the games the HTML report links from its headlines.

Pure functions over match records. Each returns at most ``top`` examples, best first, in an order that depends
on the records only (ties broken by game length, then key), so the same store links the same games. An example
may name the decision that shows the finding (the breath that played a combo, the move a restriction took
away), where its replay opens.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from issoku.evaluation.design.combos import played_combos
from issoku.evaluation.stats.metrics import CompositionSpec, ngrams
from issoku.evaluation.stats.pairings import Side
from issoku.evaluation.games.records import MatchRecord
from issoku.evaluation.design.restricted import RestrictionResult, restriction_name


@dataclass(frozen=True)
class Example:
    """A game that shows a finding and, if one decision shows it, that decision: ``seat``'s ``decision``-th
    (an index into ``record.actions[seat]``)."""

    record: MatchRecord
    seat: int | None = None
    decision: int | None = None


def _quickest(found: Iterable[tuple[Example, str]], top: int) -> list[Example]:
    """The shortest games first (equal lengths in the order found: the store's canonical order, not by key), one
    per group (an opponent, say) before a second from any group."""
    ranked = sorted(found, key=lambda pair: pair[0].record.length)
    seen: dict[str, int] = {}
    order = []
    for position, (example, group) in enumerate(ranked):
        order.append((seen.get(group, 0), position, example))
        seen[group] = seen.get(group, 0) + 1
    return [example for _, _, example in sorted(order, key=lambda item: item[:2])[:top]]


def lopsided_wins(records: Iterable[MatchRecord], side: Side, name: str, top: int = 3) -> list[Example]:
    """A side's most lopsided games: the games ``name`` won, quickest first (the fewest decisions a win took;
    the records hold no margin finer than that), one per opponent before a second against any."""
    return _quickest(((Example(record), side(record, 1 - seat)) for record in records
                      for seat in range(record.num_seats)
                      if record.winner == seat and side(record, seat) == name and side(record, 1 - seat) != name),
                     top)


def combo_games(records: Iterable[MatchRecord], spec: CompositionSpec, combo: Sequence[str],
                top: int = 3) -> list[Example]:
    """Games where a seat's breaths included ``combo`` (its attacks, any order), games that seat won first,
    quickest first; each at the first breath that played it."""
    key = tuple(sorted(combo))
    found = [(Example(record, seat, played[key]), record.winner == seat) for record in records
             for seat in range(record.num_seats) for played in (played_combos(record, seat, spec),) if key in played]
    wins = _quickest(((example, "") for example, won in found if won), top)
    rest = _quickest(((example, "") for example, won in found if not won), top)
    return _one_per_game(wins + rest)[:top]


def decided_games(records: Iterable[MatchRecord], result: RestrictionResult, top: int = 2) -> list[Example]:
    """Games a restriction decided: the restricted policy lost to its base while the base played what was
    taken away (a combo ``a>b``: b right after a), quickest first, each at that move; then its other losses."""
    restricted = restriction_name(result.base, result.banned)
    banned = tuple(result.banned)
    decided: list[tuple[Example, str]] = []
    lost: list[tuple[Example, str]] = []
    for record in records:
        if set(record.policies) != {restricted, result.base} or record.winner is None:
            continue
        seat = record.policies.index(restricted)
        if record.winner == seat:
            continue
        base = 1 - seat
        runs = ngrams(record.actions[base], len(banned))
        if banned in runs:
            decided.append((Example(record, base, runs.index(banned) + len(banned) - 1), ""))
        else:
            lost.append((Example(record), ""))
    return _one_per_game(_quickest(decided, top) + _quickest(lost, top))[:top]


def _one_per_game(examples: Sequence[Example]) -> list[Example]:
    """``examples`` without a second example from the same game, in order."""
    first: dict[str, Example] = {}
    for example in examples:
        first.setdefault(example.record.key, example)
    return list(first.values())
