"""The repository's own rules reference (docs/rules/reference/*.md), read by the coverage tests and report.

Each system's file is one table: ID, the rule in our words, its source, its status (``engine``,
``not yet``, ``principle``), and the code and test files that name it. The tests never look outside
the checkout: this reference is where the rule IDs come from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "docs" / "rules" / "reference"
STATUSES = ("engine", "not yet", "principle")
RULE_ID = re.compile(r"\b(?:BR|MA|SP|EN|TP)-(?:\d{3}|[A-Z]\d{2})\b")
_ROW = re.compile(r"^\| ((?:BR|MA|SP|EN|TP)-(?:\d{3}|[A-Z]\d{2})) \| (.*) \| (.*?) \| (.*?) \| (.*?) \| (.*?) \|$")


@dataclass(frozen=True)
class RuleEntry:
    """One row of the reference."""

    ident: str
    text: str
    source: str
    status: str
    code: tuple[str, ...]
    tests: tuple[str, ...]

    @property
    def system(self) -> str:
        return self.ident[:2]


def _files(cell: str) -> tuple[str, ...]:
    return tuple(re.findall(r"`([^`]+)`", cell))


def reference_files() -> list[Path]:
    """The reference's files, one per system."""
    return sorted(REFERENCE.glob("*.md"))


def load_reference() -> dict[str, RuleEntry]:
    """Every ID of the reference; a malformed row or a repeated ID is an error naming the file."""
    entries: dict[str, RuleEntry] = {}
    for path in reference_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not RULE_ID.match(line[2:]) or not line.startswith("| "):
                continue
            match = _ROW.match(line)
            if match is None:
                raise ValueError(f"{path.name}:{number}: not a six-column rule row")
            ident, text, source, status, code, tests = match.groups()
            if status not in STATUSES:
                raise ValueError(f"{path.name}:{number}: status {status!r} is not one of {STATUSES}")
            if ident in entries:
                raise ValueError(f"{path.name}:{number}: {ident} listed twice")
            entries[ident] = RuleEntry(ident, text, source, status, _files(code), _files(tests))
    return entries


SYSTEM_DOCS = {"BR": "docs/rules/breath.md", "MA": "docs/rules/ma.md", "TP": "docs/rules/tempo.md",
               "SP": "docs/rules/spells.md", "EN": "docs/rules/encounters.md"}
"""Each system's own rules document: where its gaps (``XX-Gnn``) and readings (``XX-Ann``) are decided."""
CODE_ROOT = REPO / "rules"
SHORTHAND = re.compile(r"\b(?:BR|MA|SP|EN|TP)-(?:\d{3}|[A-Z]\d{2})(?:/|, |\.\.)(?:\d{3}|[A-Z]\d{2})\b")
"""An abbreviated ID list (``BR-005/007``, ``EN-093..097``) that a grep for the later IDs cannot find."""


def needs_code(entry: RuleEntry) -> bool:
    """Whether an ID must be named by the code that decides it: every implemented rule, gap, reading and
    decision; not a worked example (``XX-Tnn``) or derived case (``XX-Dnn``), which tests check against
    the code of the rules they exercise, nor a principle, which binds whoever writes data."""
    return entry.status == "engine" and entry.ident[3] not in "TD"


def code_sources() -> list[Path]:
    """The files whose text counts as code naming an ID: the rules engines and their data."""
    return sorted(p for p in CODE_ROOT.rglob("*") if p.is_file() and p.suffix in (".py", ".toml"))


def ids_named_in(text: str) -> set[str]:
    """Rule IDs a piece of source names."""
    return set(RULE_ID.findall(text))


SAMPLE_IDS_ONLY = frozenset({"test_coverage_report.py", "test_rule_selection.py"})
"""Test modules that name IDs as sample data for the coverage report, not as rules they hold."""


def naming_sources() -> list[Path]:
    """The files whose text counts as a test naming an ID: test modules and the scenario files they replay."""
    tests = REPO / "tests"
    return sorted(p for p in tests.rglob("*") if p.is_file() and p.name not in SAMPLE_IDS_ONLY and (
        (p.suffix == ".py" and p.name.startswith("test_")) or (p.suffix == ".toml" and "scenarios" in p.parts)))
