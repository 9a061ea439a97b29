"""The rules reference (docs/rules/reference/) is well formed and agrees with the tests.

A rule test names an implemented ID; an ID the reference lists as not yet implemented is named by no
test (the "not yet" list lives in the docs). The files the reference cites exist and name the ID.
Whether each naming test drives an engine is the coverage report's job (``python -m tests.coverage_report``).
"""

from tests.rule_reference import (REPO, SHORTHAND, SYSTEM_DOCS, code_sources, ids_named_in, load_reference,
                                  naming_sources, needs_code)

REFERENCE = load_reference()
NAMED = {ident for path in naming_sources() for ident in ids_named_in(path.read_text(encoding="utf-8"))}


def test_the_reference_covers_every_system_with_text_and_a_source():
    assert {entry.system for entry in REFERENCE.values()} == {"BR", "MA", "TP", "SP", "EN"}
    assert all(entry.text.strip() and entry.source.strip() for entry in REFERENCE.values())


def test_every_implemented_id_is_named_by_a_test():
    unnamed = sorted(i for i, e in REFERENCE.items() if e.status in ("engine", "principle") and i not in NAMED)
    assert unnamed == []


def test_no_test_names_an_id_listed_as_not_yet():
    named_not_yet = sorted(i for i, e in REFERENCE.items() if e.status == "not yet" and i in NAMED)
    assert named_not_yet == []


def test_tests_name_only_ids_the_reference_knows():
    assert sorted(NAMED - set(REFERENCE)) == []


def test_cited_files_exist_and_name_their_id():
    wrong = [(ident, path) for ident, entry in REFERENCE.items() for path in entry.code + entry.tests
             if not (REPO / path).is_file() or ident not in ids_named_in((REPO / path).read_text(encoding="utf-8"))]
    assert wrong == []


def test_the_readme_table_adds_up_to_the_reference():
    """README's "through a fight / helper only / not yet (of)" cells for every system: the total and the
    not-yet count are the reference's, the other two add up to the rest (the split itself is the coverage
    report's, dated in the README)."""
    import re

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for system in ("BR", "MA", "TP", "EN", "SP"):
        cell = re.search(rf"\[{system}\]\(docs/rules/reference/{system.lower()}\.md\): (\d+) / (\d+) / (\d+) \((\d+)\)",
                         readme)
        assert cell, f"README's table has no {system} coverage cell"
        fight, helper, not_yet, total = map(int, cell.groups())
        entries = [e for e in REFERENCE.values() if e.system == system]
        assert total == len(entries), system
        assert not_yet == sum(e.status == "not yet" for e in entries), system
        assert fight + helper == total - not_yet, system


def test_every_implemented_rule_is_named_by_the_code_that_decides_it():
    """The trail from an ID to the code is one grep: every implemented rule, gap and reading is named by a
    file under rules/ (refresh the Code column with ``python -m tests.coverage_report --write --no-run``)."""
    named = {ident for path in code_sources() for ident in ids_named_in(path.read_text(encoding="utf-8"))}
    assert sorted(i for i, e in REFERENCE.items() if needs_code(e) and i not in named) == []


def test_the_code_column_is_what_the_coverage_script_writes():
    named = {ident: [] for ident in REFERENCE}
    for path in code_sources():
        for ident in ids_named_in(path.read_text(encoding="utf-8")) & named.keys():
            named[ident].append(str(path.relative_to(REPO)))
    stale = [i for i, e in REFERENCE.items() if list(e.code) != sorted(named[i])]
    assert stale == [], "run python -m tests.coverage_report --write --no-run"


def test_code_writes_every_rule_id_whole():
    """No ``BR-005/007/A06`` or ``EN-093..097`` in Python code: each ID is written whole, so a grep for it finds
    it. Not checked: the data files' comments (their bytes are the rulesets' data digests, so an edit moves every
    fingerprint) and ``agents/`` (a scripted agent's source is its fingerprint in the calibrated suites)."""
    roots = ("rules", "common", "envs", "training", "evaluation", "benchmarks")
    found = [f"{path.relative_to(REPO)}: {match}" for root in roots for path in sorted((REPO / root).rglob("*.py"))
             for match in SHORTHAND.findall(path.read_text(encoding="utf-8"))]
    assert found == []


def test_every_gap_and_reading_is_decided_in_its_systems_document():
    wrong = []
    for ident, entry in REFERENCE.items():
        if ident[3] not in "GA" or entry.status == "not yet":
            continue
        doc = SYSTEM_DOCS[entry.system]
        if f"decided in {doc}" not in entry.source and "project decision" not in entry.source:
            wrong.append((ident, entry.source))
        elif ident not in ids_named_in((REPO / doc).read_text(encoding="utf-8")):
            wrong.append((ident, f"{doc} does not name it"))
    assert wrong == []
