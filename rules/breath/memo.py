"""The legal-action memo of breath rulesets, with one memory bound for the whole process.

Each ruleset keeps a memo of the legal actions of breath and defend decisions by situation (scanning
thirty candidates costs more than a lookup), plus each distinct legal tuple by itself so situations
share it. Rulesets are cached (64 configurations in ``envs.breath_duel_v0``), so per-ruleset limits
alone allowed 64 full memos, about 1.1 GB. Here every memo counts against one process-wide budget:

* a memo holds at most :data:`MEMO_LIMIT` entries (then it starts over: the situations in play now are
  soon back in it);
* all memos together hold at most :data:`TOTAL_LIMIT` entries, plus :data:`CHECK_EVERY` inserts of
  slack (the total is recounted every ``CHECK_EVERY`` inserts); past it every memo starts over.

An entry costs about 360 bytes (key tuple and legal tuple), so the bound is about 75 MB in all. The
memo only saves time: a lookup gives exactly what the scan gives (tests/breath/test_legal_memo.py), so
clearing never changes a fight.
"""

from __future__ import annotations

import weakref
from typing import Any, TypeVar

MEMO_LIMIT = 50_000
"""Entries one ruleset's memo holds at most (about 18 MB)."""
TOTAL_LIMIT = 200_000
"""Entries all memos of the process hold together at most (about 75 MB), however many rulesets are cached."""
CHECK_EVERY = 1_024
"""Inserts between recounts of the total (a recount visits every live memo)."""

_memos: weakref.WeakValueDictionary[int, LegalMemo] = weakref.WeakValueDictionary()
"""Every live memo by ``id`` (a dict is unhashable, and two empty memos are equal, so no WeakSet)."""
_inserts_since_count = 0


Remembered = TypeVar("Remembered", bound=tuple[Any, ...])
"""What a memo holds: legal tuples, or a breath situation's price list of ``(action, Energy)`` pairs."""


class LegalMemo(dict):
    """One ruleset's memo: a plain dict for lookups (``get`` stays C-fast), :meth:`remember` for inserts."""

    def __init__(self) -> None:
        super().__init__()
        _memos[id(self)] = self

    def remember(self, key: tuple, legal: Remembered) -> Remembered:
        """Store ``legal`` under ``key`` (one shared tuple per distinct legal set), keeping the bounds."""
        global _inserts_since_count
        if len(self) >= MEMO_LIMIT:
            self.clear()
        _inserts_since_count += 1
        if _inserts_since_count >= CHECK_EVERY:
            _inserts_since_count = 0
            if total_entries() >= TOTAL_LIMIT:
                for memo in list(_memos.values()):
                    memo.clear()
        legal = self[key] = self.setdefault(legal, legal)
        return legal


def total_entries() -> int:
    """Entries held by every live memo of the process."""
    return sum(len(memo) for memo in list(_memos.values()))
