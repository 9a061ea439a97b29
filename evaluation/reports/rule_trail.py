"""What a headline rests on: the rule IDs, the data, and the lever the tool would try first.

A finding is about some play: a policy's or a loadout's most used actions, a restriction's banned actions, a
combo's techniques, the opening of the game (the first mover). Its **rule IDs** are read from the engine itself:
a few stored games that played those actions are replayed from their seeds (:func:`issoku.evaluation.games.viewing.
trace_record`, event for event), and the rule IDs of the events each action produced are counted, most frequent
first (the first mover: the events before the first decision, where initiative is settled). Nothing here knows a
ruleset. Its **data** are the content items those actions exercise (the ruleset's ``action_content`` hook:
``technique:uchigatana.thrust``, ``stance:guard_stance``...), the entries of the data files a designer edits.

**The lever** the tool would try first:

* with a levers CSV (``issoku levers``' ``levers.csv``) beside the report, its best-ranked lever that touches the
  finding: for a side, a lever whose biggest move was that side's score, else one whose edited item is content
  the finding's actions exercise; for the first mover, the lever that moved the first mover's score most;
* without one, the data entry of the content item the finding's play leans on most (by decisions), named as an
  item and not a field: which of its numbers matters is what ``issoku levers`` measures, and the headline says so.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from issoku.evaluation.games.records import MatchRecord
from issoku.evaluation.games.viewing import replayed
from issoku.rules.kernel.protocol import action_content

GAMES = 3
"""At most this many stored games are replayed per action (each costs a fraction of a second)."""
MOST = 5
"""A headline names at most this many rule IDs, and this many actions are read per side."""
OPENING = "(opening)"
"""The pseudo-action of the events before the first decision."""


@dataclass(frozen=True)
class Trail:
    """The rule IDs (most frequent first), data items and first lever of one finding."""

    rules: tuple[str, ...] = ()
    data: tuple[str, ...] = ()
    lever: str = ""
    edit: str = ""
    """A concrete edit verified on fresh seeds, or why none was (:mod:`issoku.evaluation.design.suggest`); when set it
    ends the trail in place of the lever."""

    def text(self) -> str:
        """`` Rests on BR-030, MA-011; data: stance:guard_stance; lever: ....`` ("" when nothing is known)."""
        parts = []
        if self.rules:
            parts.append("Rests on " + ", ".join(self.rules))
        if self.data:
            parts.append("data: " + ", ".join(f"`{item}`" for item in self.data))
        if self.edit:
            parts.append(self.edit)
        elif self.lever:
            parts.append("lever to try first: " + self.lever)
        return f" {'; '.join(parts)}." if parts else ""


class RuleTrails:
    """The rule IDs each action produced in a few replayed stored games of one env section (replays cached)."""

    def __init__(self, records: Sequence[MatchRecord], ruleset: Any | None) -> None:
        self.records = list(records)  # the store's canonical order: which games are replayed never follows keys
        self.ruleset = ruleset
        self._fired: dict[str, Counter[str]] = {}
        self._replayed: set[str] = set()

    def _replay(self, record: MatchRecord) -> None:
        if record.key in self._replayed:
            return
        self._replayed.add(record.key)
        fight = replayed(record)
        for frame in fight.frames if fight is not None else ():
            fired = self._fired.setdefault(frame.action or OPENING, Counter())
            fired.update(str(event["rule"]) for event in frame.events if event.get("rule"))

    def rules_of(self, actions: Iterable[str]) -> tuple[str, ...]:
        """The rule IDs the ``actions`` produced, most frequent first (ties by ID), at most :data:`MOST`."""
        total: Counter[str] = Counter()
        for action in actions:
            if action == OPENING:
                players = self.records[:GAMES]
            else:
                players = [r for r in self.records if any(action in seat for seat in r.actions)][:GAMES]
            for record in players:
                self._replay(record)
            total.update(self._fired.get(action, Counter()))
        return tuple(rule for rule, _ in sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))[:MOST])

    def data_of(self, actions: Iterable[str]) -> tuple[str, ...]:
        """The first three content items the ``actions`` exercise (the ruleset's hook; the action itself without
        rules), data entries first: an item the hook maps an action to (``technique:yari.thrust``), then an item with
        a category (``stance:water``), then a bare action (``pass``, ``end_breath``: a rule, not a data entry)."""
        items: dict[str, int] = {}
        for action in actions:
            try:
                found = action_content(self.ruleset, action) if self.ruleset is not None else (action,)
            except (KeyError, ValueError):
                found = (action,)
            for item in found:
                items.setdefault(item, 0 if item != action else 1 if ":" in item else 2)
        return tuple(sorted(items, key=lambda item: items[item]))[:3]  # stable: most used first within a rank


def most_used(records: Iterable[MatchRecord], side: str, by_label: bool, most: int = MOST) -> list[str]:
    """The actions the seats of ``side`` (a policy, or a loadout label with ``by_label``) played most."""
    counts: Counter[str] = Counter()
    for record in records:
        for seat, actions in enumerate(record.actions):
            name = record.label(seat) if by_label else record.policies[seat]
            if name == side:
                counts.update(actions)
    return [action for action, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:most]]


def read_levers(path: Path) -> list[dict[str, str]]:
    """The rows of a levers CSV, in rank order ([] when there is none or it cannot be read)."""
    try:
        with path.open(newline="") as handle:
            rows = [row for row in csv.DictReader(handle) if row.get("lever")]
    except (OSError, csv.Error, UnicodeDecodeError):
        return []
    return sorted(rows, key=lambda row: _number(row.get("rank")))


def _number(text: str | None) -> float:
    try:
        return float(text or "nan")
    except ValueError:
        return float("nan")


def words(text: str) -> set[str]:
    """The words of a content key, a data item or a field's name (``technique:unarmed.strike``, ``nodachi / parry``,
    ``breath/data/weapons.toml: nodachi / parry: cost``), lower case: what matches a finding's content to the data
    that sets it (here, in the verified edit's scope and in a variant's share of the decisions)."""
    return {token for token in re.split(r"[\s/:.()]+", text.lower()) if token}


def lever_for(levers: Sequence[Mapping[str, str]], figure: str = "", data: Sequence[str] = (),
              first_mover: bool = False) -> str:
    """The best-ranked lever of ``levers`` that touches a finding (see the module docstring), "" if none does."""
    played = [row for row in levers if row.get("effect_figure")]
    if first_mover:
        moved = [row for row in played if row.get("first_mover_delta")]
        best = max(moved, key=lambda row: abs(_number(row["first_mover_delta"])), default=None)
        return f"{best['lever']} (levers.csv)" if best else ""
    for row in played:
        if figure and row["effect_figure"] == figure:
            return f"{row['lever']} (levers.csv rank {row['rank']})"
    wanted = [words(item.split(":", 1)[-1]) for item in data]
    for row in played:
        if any(tokens and tokens <= words(row.get("item", "")) for tokens in wanted):
            return f"{row['lever']} (levers.csv rank {row['rank']})"
    return ""


def fallback_lever(data: Sequence[str]) -> str:
    """Without a measured lever: the data entry of the content item the play leans on most."""
    return f"the data of `{data[0]}` (rank its fields with `issoku levers`)" if data else ""
