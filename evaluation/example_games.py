"""Which stored games show a finding: the games the HTML report links from its headlines.

Pure functions over match records. Each returns at most ``top`` records, best example first, in an order that
depends on the records only (ties broken by game length, then key), so the same store links the same games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from issoku.evaluation.combos import played_combos
from issoku.evaluation.metrics import CompositionSpec, ngrams
from issoku.evaluation.pairings import Side
from issoku.evaluation.records import MatchRecord
from issoku.evaluation.restricted import RestrictionResult, restriction_name


def _quickest(found: Iterable[tuple[MatchRecord, str]], top: int) -> list[MatchRecord]:
    """The shortest games first, one per group (an opponent, say) before a second from any group."""
    ranked = sorted(found, key=lambda pair: (pair[0].length, pair[0].key))
    seen: dict[str, int] = {}
    order = []
    for position, (record, group) in enumerate(ranked):
        order.append((seen.get(group, 0), position, record))
        seen[group] = seen.get(group, 0) + 1
    return [record for _, _, record in sorted(order, key=lambda item: item[:2])[:top]]


def lopsided_wins(records: Iterable[MatchRecord], side: Side, name: str, top: int = 3) -> list[MatchRecord]:
    """A side's most lopsided games: the games ``name`` won, quickest first (the fewest decisions a win took;
    the records hold no margin finer than that), one per opponent before a second against any."""
    return _quickest(((record, side(record, 1 - seat)) for record in records for seat in range(record.num_seats)
                      if record.winner == seat and side(record, seat) == name and side(record, 1 - seat) != name),
                     top)


def combo_games(records: Iterable[MatchRecord], spec: CompositionSpec, combo: Sequence[str],
                top: int = 3) -> list[MatchRecord]:
    """Games where a seat's breaths included ``combo`` (its attacks, any order), games that seat won first,
    quickest first."""
    key = tuple(sorted(combo))
    found = [(record, seat) for record in records for seat in range(record.num_seats)
             if key in played_combos(record, seat, spec)]
    wins = _quickest(((record, "") for record, seat in found if record.winner == seat), top)
    rest = _quickest(((record, "") for record, seat in found if record.winner != seat), top)
    return _unique(wins + rest)[:top]


def decided_games(records: Iterable[MatchRecord], result: RestrictionResult, top: int = 2) -> list[MatchRecord]:
    """Games a restriction decided: the restricted policy lost to its base while the base played what was
    taken away (a combo ``a>b``: b right after a), quickest first; then its other losses."""
    restricted = restriction_name(result.base, result.banned)
    decided: list[tuple[MatchRecord, str]] = []
    lost: list[tuple[MatchRecord, str]] = []
    for record in records:
        if set(record.policies) != {restricted, result.base} or record.winner is None:
            continue
        seat = record.policies.index(restricted)
        if record.winner == seat:
            continue
        played = record.actions[1 - seat]
        used = (result.banned[0] in played if len(result.banned) == 1
                else tuple(result.banned) in ngrams(played, len(result.banned)))
        (decided if used else lost).append((record, ""))
    return _unique(_quickest(decided, top) + _quickest(lost, top))[:top]


def _unique(records: Sequence[MatchRecord]) -> list[MatchRecord]:
    """``records`` without repeats, in order."""
    first: dict[str, MatchRecord] = {}
    for record in records:
        first.setdefault(record.key, record)
    return list(first.values())
