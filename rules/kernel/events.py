"""The structured event log: every roll, cost, modifier and hit, with the rule that produced it.

An :class:`Event` is what a designer reads to see *why* something happened, and what tests check line
by line. Entries are plain data (ints, strings, tuples) so that a log serialises to the same JSON lines,
byte for byte, for the same seed in any process.

Bulk playouts (tournaments, the combo table, benchmarks) may switch the log off: ``EventLog(enabled=False)``
drops entries at the cost of one branch, so the engine itself never has to ask.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    ``rule`` is the rule ID (``"BR-025"``; a gap default like ``"BR-G03"`` when the choice is ours),
    ``kind`` a short machine name (``"overload_check"``), ``actor`` the seat it concerns (None for the
    table itself: round starts, the lull), ``data`` the numbers (dice, modifiers, costs, before/after).
    """

    rule: str
    kind: str
    actor: int | None
    data: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON-ready dict."""
        return {"rule": self.rule, "kind": self.kind, "actor": self.actor, **self.data}

    def to_json(self) -> str:
        """One canonical JSON line (sorted keys, no spaces) so logs compare byte for byte."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def describe(self, actor_names: list[str] | None = None) -> str:
        """A readable one-liner: ``[BR-025] overload_check  seat 0: dice=(4, 6) total=11 ...``."""
        who = "table" if self.actor is None else (actor_names[self.actor] if actor_names else f"seat {self.actor}")
        fields = " ".join(f"{key}={_short(value)}" for key, value in self.data.items())
        return f"[{self.rule:<7}] {self.kind:<18} {who}: {fields}".rstrip()


def _short(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ",".join(_short(v) for v in value) + ")"
    return str(value)


class EventLog:
    """An append-only list of :class:`Event`, cheap to disable and to clone."""

    __slots__ = ("enabled", "_events")

    def __init__(self, enabled: bool = True, events: list[Event] | None = None) -> None:
        self.enabled = enabled
        self._events: list[Event] = events if events is not None else []

    def emit(self, rule: str, kind: str, actor: int | None = None, **data: Any) -> None:
        """Record one event (a no-op when the log is disabled)."""
        if self.enabled:
            self._events.append(Event(rule, kind, actor, data))

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def __getitem__(self, index: int) -> Event:
        return self._events[index]

    def since(self, start: int) -> list[Event]:
        """Events recorded after the first ``start`` ones (what the last step added)."""
        return self._events[start:]

    def by_rule(self, prefix: str) -> list[Event]:
        """Events whose rule ID starts with ``prefix`` (``"BR-025"``, ``"MA-"``)."""
        return [event for event in self._events if event.rule.startswith(prefix)]

    def to_jsonl(self) -> str:
        """The whole log as JSON lines, one event a line."""
        return "".join(event.to_json() + "\n" for event in self._events)

    def clone(self) -> "EventLog":
        """A copy sharing the (immutable) past events, appending independently."""
        return EventLog(self.enabled, list(self._events))
