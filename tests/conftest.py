"""Rule-aware test runs: ``pytest --rule BR-007`` runs the tests of one rule, and a failing rule test says which
rules it holds and what they say.

A test names its rules with ``@pytest.mark.rule("EN-108", ...)``, in its name (``test_br_012_...``) or by the
scenario file it replays (:func:`tests.coverage_report.ids_of_test`). ``--rule`` may be repeated or given a
comma-separated list (``--rule EN-108,EN-118``); a whole system is its prefix (``--rule SP``). Every other test
is deselected. When a rule test fails, its report gains a section ``rules held`` with one line per ID: the ID,
where the seed states it and the rule in the reference's words (``docs/rules/reference/``).
"""

from __future__ import annotations

import pytest

from tests.coverage_report import ids_of_test
from tests.rule_reference import load_reference


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--rule ID``: run only the tests that name this rule (repeatable; comma-separated; a prefix selects a
    system)."""
    parser.addoption("--rule", action="append", default=[], metavar="ID",
                     help="run only the tests that name this rule ID (EN-108; repeat, or EN-108,EN-118; EN for "
                          "a whole system)")


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``rule`` marker (also for runs outside this project's ini file)."""
    config.addinivalue_line("markers", "rule(id): the rule ID(s) a test holds (BR-, MA-, SP-, EN-, TP-)")


def _wanted(config: pytest.Config) -> list[str]:
    return [part.strip().upper() for value in config.getoption("rule") for part in value.split(",") if part.strip()]


def selects(wanted: list[str], ids: set[str]) -> bool:
    """Whether a test naming ``ids`` is one ``--rule`` asked for: an exact ID, or a system prefix (``SP``)."""
    return any(ident == want or (len(want) == 2 and ident.startswith(want + "-")) for want in wanted for ident in ids)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep only the tests of the ``--rule`` IDs, when any are given."""
    wanted = _wanted(config)
    if not wanted:
        return
    keep = [item for item in items if selects(wanted, ids_of_test(item))]
    if len(keep) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in keep])
        items[:] = keep


def rules_held(ids: set[str]) -> str:
    """One line per rule ID: the ID, where the seed states it, the rule in the reference's words."""
    reference = load_reference()
    lines = []
    for ident in sorted(ids):
        entry = reference.get(ident)
        if entry is None:
            lines.append(f"{ident}: not in docs/rules/reference/")
        else:
            lines.append(f"{ident} ({entry.source}; {entry.status}): {entry.text.replace('**', '')}")
    return "\n".join(lines)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failing rule test's report carries its rules (printed with the failure)."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and call.when == "call":
        ids = ids_of_test(item)
        if ids:
            report.sections.append(("rules held", rules_held(ids)))
