"""Coverage of the content: how often the field of agents used each content item, and what no agent used.

A balance finding speaks only about content that was played. The content items come from the ruleset itself:
every action of its action table, mapped through the ruleset's content hook (``action_content``: a technique
however it is played, a defence however it is used, a stance, a [Kata], a hit location, a tempo reply...;
:func:`issoku.rules.kernel.protocol.action_content`), so nothing here knows a ruleset. The shares come from the
games' recorded actions. An item no agent ever used is **untested by play**: no finding of the report can
speak about it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from issoku.evaluation.games.records import MatchRecord
from issoku.rules.kernel.protocol import action_content


@dataclass(frozen=True)
class ContentUse:
    """One content item and how the field used it."""

    item: str
    decisions: int
    """Decisions (of every seat) that exercised the item."""
    decision_share: float
    """Those decisions over every decision of the games."""
    games: int
    """Games in which some seat exercised it."""
    game_share: float
    users: tuple[tuple[str, int], ...]
    """The policies that used it, with their decisions, most first."""

    @property
    def category(self) -> str:
        """The part before the first ``:`` (``technique``, ``stance``, ``location``, ``react``...)."""
        return self.item.split(":", 1)[0]


@dataclass(frozen=True)
class Coverage:
    """Every content item of one env's rules with its use; ``universe`` False when the rules could not be built,
    so only the items seen in play are known (and nothing can be called untested)."""

    uses: tuple[ContentUse, ...]
    games: int
    decisions: int
    universe: bool

    def untested(self) -> list[ContentUse]:
        """The items no agent used."""
        return [use for use in self.uses if not use.decisions]

    def categories(self) -> list[tuple[str, int, int, float]]:
        """Per category: its items, how many were used, and its share of the decisions."""
        out: dict[str, list[ContentUse]] = {}
        for use in self.uses:
            out.setdefault(use.category, []).append(use)
        return [(name, len(uses), sum(1 for u in uses if u.decisions),
                 sum(u.decisions for u in uses) / self.decisions if self.decisions else 0.0)
                for name, uses in out.items()]


def build_ruleset(records: Sequence[MatchRecord]) -> Any | None:
    """The rules the records were played under, rebuilt from the first record's env id and loadout keywords
    (registered envs only: a store's env id never imports code); None when that cannot be done."""
    from issoku.envs.registry import resolve_env

    if not records:
        return None
    first = min(records, key=lambda record: record.loadout)  # the first in the given (canonical) order
    try:
        env = resolve_env(first.env_id, allow_imports=False)(**dict(first.loadout_kwargs))
    except Exception:  # an unknown or foreign env, keywords it no longer takes: no rules to read
        return None
    try:
        return getattr(env.unwrapped, "ruleset", None)
    finally:
        env.close()


def content_map(ruleset: Any) -> dict[str, tuple[str, ...]]:
    """Each action name of ``ruleset``'s table -> the content items it exercises."""
    return {name: action_content(ruleset, name) for name in ruleset.action_names}


def coverage(records: Iterable[MatchRecord], items_of: Mapping[str, tuple[str, ...]] | None = None) -> Coverage:
    """How often the content items of ``items_of`` (action name -> items; None: each action seen is its own
    item) were used in ``records``."""
    records = list(records)
    decisions: Counter[str] = Counter()
    games: Counter[str] = Counter()
    users: dict[str, Counter[str]] = {}
    total = 0
    for record in records:
        seen: set[str] = set()
        for seat, actions in enumerate(record.actions):
            total += len(actions)
            for action in actions:
                for item in (items_of.get(action, (action,)) if items_of is not None else (action,)):
                    decisions[item] += 1
                    users.setdefault(item, Counter())[record.policies[seat]] += 1
                    seen.add(item)
        games.update(seen)
    universe = sorted({item for items in items_of.values() for item in items} if items_of is not None else ())
    names = universe + sorted(set(decisions) - set(universe))
    n = len(records)
    uses = tuple(ContentUse(item, decisions[item], decisions[item] / total if total else 0.0, games[item],
                            games[item] / n if n else 0.0,
                            tuple(sorted(users.get(item, Counter()).items(), key=lambda kv: (-kv[1], kv[0]))))
                 for item in names)
    return Coverage(uses, n, total, items_of is not None)


def fielded_content(records: Iterable[MatchRecord]) -> set[str] | None:
    """The content keys the stored games' loadouts fielded (the ruleset's ``seat_content`` of every seat of every
    loadout: archetype, weapon, armour, stances...); None when a loadout's rules cannot be built or say nothing."""
    by_loadout: dict[str, MatchRecord] = {}
    for record in records:
        by_loadout.setdefault(record.loadout, record)
    fielded: set[str] = set()
    for loadout in sorted(by_loadout):
        ruleset = build_ruleset([by_loadout[loadout]])
        hook = getattr(ruleset, "seat_content", None)
        if ruleset is None or hook is None:
            return None
        for seat in range(len(ruleset.seat_names)):
            fielded.update(hook(seat))
    return fielded
