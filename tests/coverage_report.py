"""Rule-ID coverage, honestly: per system, which reference IDs a test drives through a fight.

``python -m tests.coverage_report`` runs every test that names a rule ID (by ``@pytest.mark.rule`` or in
its name, ``test_br_012_...``; a replayed scenario file's IDs count for its test) and watches whether it
drives an engine: creates a breath, tempo or encounter fight state or applies an action to one (envs do both).
Per system it prints how many reference IDs are

* **exercised** — named by a passing test that drives an engine through the situation;
* **helper-only** — named only by tests that check a helper function or data, never a fight;
* **not yet** — listed as not yet implemented in ``docs/rules/reference/`` (no test names them);
* **missing** — implemented (or a principle) but named by no test.

``--write`` also refreshes the reference's Code and Tests columns (the files that name each ID) and points
every gap's and reading's Source at its system's own rules document (``--write --no-run``: only that, in a
second, without running the tests);
``--promote EN`` marks ``engine`` the not-yet IDs of a system whose engine has landed, wherever a passing
test drives them through a fight (the others stay not yet, and their tests then fail the reference check).
It takes a few minutes on two busy cores: it runs the rule tests. It exits 1 when a rule test fails or
when an implemented rule, gap or reading is named by no file under ``rules/`` (``no code``: write the ID
where the code decides it).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from tests.rule_reference import (REPO, RULE_ID, SYSTEM_DOCS, code_sources, ids_named_in, load_reference,
                                  naming_sources, needs_code, reference_files)

_NAME_ID = re.compile(r"test_(br|ma|sp|en|tp)_(\d{3}|[a-z]\d{2})(?![0-9])")


def ids_of_test(item: pytest.Item) -> set[str]:
    """The IDs a test names: its rule markers, its name, the scenario file it replays."""
    named: set[str] = set()
    for marker in item.iter_markers("rule"):
        named.update(marker.args)
    for system, number in _NAME_ID.findall(item.name):
        named.add(f"{system.upper()}-{number.upper()}")
    for value in getattr(getattr(item, "callspec", None), "params", {}).values():
        if isinstance(value, Path) and value.suffix == ".toml":
            named |= ids_named_in(value.read_text(encoding="utf-8"))
    return named


class EngineWatch:
    """A pytest plugin: which rule-naming tests passed, and whether each touched a fight state."""

    def __init__(self) -> None:
        self.touches = 0
        self.results: list[tuple[frozenset[str], bool, bool]] = []  # ids, passed, drove an engine
        self._patched: list[tuple[type, str, object]] = []

    def _watch(self, cls: type, name: str) -> None:
        original = cls.__dict__[name]
        function = original.__func__ if isinstance(original, classmethod) else original
        watch = self

        def counted(*args, **kwargs):
            watch.touches += 1
            return function(*args, **kwargs)

        setattr(cls, name, classmethod(counted) if isinstance(original, classmethod) else counted)
        self._patched.append((cls, name, original))

    def pytest_configure(self, config: pytest.Config) -> None:
        from issoku.rules.breath.engine import BreathState
        from issoku.rules.encounters.state import EncounterState
        from issoku.rules.tempo.state import TempoState

        for cls, name in ((BreathState, "initial"), (BreathState, "apply"), (TempoState, "__init__"),
                          (TempoState, "apply"), (EncounterState, "__init__"), (EncounterState, "apply")):
            self._watch(cls, name)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        for cls, name, original in reversed(self._patched):
            setattr(cls, name, original)

    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        keep = [item for item in items if ids_of_test(item)]
        config.hook.pytest_deselected(items=[item for item in items if not ids_of_test(item)])
        items[:] = keep

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item):
        before = self.touches
        outcome = yield
        self.results.append((frozenset(ids_of_test(item)), outcome.excinfo is None, self.touches > before))


def classify(results: list[tuple[frozenset[str], bool, bool]]) -> dict[str, dict[str, list[str]]]:
    """Per system: the reference's IDs sorted into exercised / helper-only / not yet / missing, and
    IDs tests name that the reference lacks (``unknown``) or lists as not yet (``named_not_yet``)."""
    reference = load_reference()
    driven, named = set(), set()
    for ids, passed, drove in results:
        named |= ids
        if passed and drove:
            driven |= ids
    report: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for ident, entry in sorted(reference.items()):
        if entry.status == "not yet":
            bucket = "named_not_yet" if ident in named else "not yet"
        elif ident in driven:
            bucket = "exercised"
        elif ident in named:
            bucket = "helper-only"
        else:
            bucket = "missing"
        report[entry.system][bucket].append(ident)
    for ident in sorted(named - set(reference)):
        report[ident[:2]]["unknown"].append(ident)
    return report


def unnamed_in_code() -> list[str]:
    """Implemented rules, gaps and readings (:func:`tests.rule_reference.needs_code`) no file under ``rules/``
    names."""
    named: set[str] = set()
    for path in code_sources():
        named |= ids_named_in(path.read_text(encoding="utf-8"))
    return sorted(ident for ident, entry in load_reference().items() if needs_code(entry) and ident not in named)


def _decided_in(ident: str, source: str) -> str:
    """A gap's or reading's Source cell, pointing at its system's rules document."""
    return re.sub(r"decided in docs/rules/\S*", f"decided in {SYSTEM_DOCS[ident[:2]]}", source)


def refresh_files_columns() -> None:
    """Rewrite each reference row's Code and Tests cells with the files that name its ID now, and its
    Source's "decided in" with its system's rules document."""
    texts = {p: p.read_text(encoding="utf-8") for p in code_sources() + naming_sources()}
    named_by: dict[str, list[Path]] = defaultdict(list)
    for path, text in texts.items():
        for ident in ids_named_in(text):
            named_by[ident].append(path)

    def cell(ident: str, root: str) -> str:
        return ", ".join(f"`{p.relative_to(REPO)}`" for p in named_by.get(ident, ())
                         if p.relative_to(REPO).parts[0] == root)

    for path in reference_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines):
            match = re.match(r"^\| (\S+) \| (.*) \| (.*?) \| (engine|not yet|principle) \| .*? \| .*? \|$", line)
            if match and RULE_ID.fullmatch(match.group(1)):
                ident, text, source, status = match.groups()
                lines[n] = (f"| {ident} | {text} | {_decided_in(ident, source)} | {status} | {cell(ident, 'rules')} "
                            f"| {cell(ident, 'tests')} |")
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def promote(results: list[tuple[frozenset[str], bool, bool]], systems: set[str]) -> list[str]:
    """Mark ``engine`` every ``not yet`` ID of ``systems`` that a passing test drives through a fight (a
    system's engine has landed, its tests name its IDs); returns the IDs promoted."""
    driven = {ident for ids, passed, drove in results if passed and drove for ident in ids}
    promoted: list[str] = []
    for path in reference_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines):
            match = re.match(r"^\| (\S+) \| (.*) \| not yet \| (.*)$", line)
            if match and match.group(1)[:2] in systems and match.group(1) in driven:
                lines[n] = f"| {match.group(1)} | {match.group(2)} | engine | {match.group(3)}"
                promoted.append(match.group(1))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return promoted


def render(report: dict[str, dict[str, list[str]]]) -> str:
    """The per-system table, then the IDs that need attention."""
    columns = ("exercised", "helper-only", "not yet", "missing")
    lines = ["| system | IDs | " + " | ".join(columns) + " |", "|---" * (len(columns) + 2) + "|"]
    for system in sorted(report):
        buckets = report[system]
        total = sum(len(buckets[c]) for c in (*columns, "named_not_yet"))
        lines.append(f"| {system} | {total} | " + " | ".join(str(len(buckets[c])) for c in columns) + " |")
    for system in sorted(report):
        for bucket in ("helper-only", "missing", "named_not_yet", "unknown"):
            if report[system][bucket]:
                lines.append(f"{system} {bucket}: {', '.join(report[system][bucket])}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.coverage_report", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="refresh the reference's Code and Tests columns")
    parser.add_argument("--promote", action="append", default=[], metavar="SYSTEM",
                        help="mark 'engine' the not-yet IDs of SYSTEM (EN, SP...) that passing fight tests drive")
    parser.add_argument("--no-run", action="store_true",
                        help="with --write: refresh the columns only, run no test (seconds, not minutes)")
    args = parser.parse_args(argv)
    if args.write:
        refresh_files_columns()
    unnamed = unnamed_in_code()
    if args.no_run:
        print(f"no code names: {', '.join(unnamed)}" if unnamed else "every implemented rule is named by code")
        return 1 if unnamed else 0
    watch = EngineWatch()
    code = pytest.main([str(REPO / "tests"), "-qq", "-p", "no:cacheprovider", "-W", "ignore", "--no-header",
                        "-o", "addopts=", "--tb=no"], plugins=[watch])
    if code not in (0, 1):
        print(f"the rule tests did not run (pytest exit {code})", file=sys.stderr)
        return 2
    if args.promote:
        promoted = promote(watch.results, {system.upper() for system in args.promote})
        print(f"promoted to engine: {', '.join(promoted) if promoted else 'none'}")
    print(render(classify(watch.results)))
    if unnamed:
        print(f"no code names: {', '.join(unnamed)} (write each ID where rules/ decides it)")
    failed = sum(not passed for _, passed, _ in watch.results)
    if failed:
        print(f"{failed} rule tests failed: the IDs they name count only through other, passing tests")
    return 1 if failed or unnamed else 0


if __name__ == "__main__":
    raise SystemExit(main())
