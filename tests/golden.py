"""Golden event logs: a seeded playthrough's JSON-lines log diffed event by event against a file.

A diff means the rules' behaviour moved. When the move is meant, regenerate with
``ISSOKU_REGENERATE_GOLDEN=1 pytest <the test file>`` and review the .jsonl diff like code.
"""

import os
from pathlib import Path

from issoku.rules.kernel.events import EventLog


def assert_matches_golden(path: Path, events: EventLog) -> None:
    """Fail at the first event that differs from ``path`` (or rewrite ``path`` when regenerating)."""
    if os.environ.get("ISSOKU_REGENERATE_GOLDEN"):
        path.write_text(events.to_jsonl())
    expected = path.read_text().splitlines()
    actual = events.to_jsonl().splitlines()
    for line, (want, got) in enumerate(zip(expected, actual), start=1):
        assert got == want, f"{path.name}: first difference at event {line}"
    assert len(actual) == len(expected), f"{path.name}: {len(actual)} events, golden has {len(expected)}"
