"""Every MA rule and worked example is named by a test; every gap and reading is decided in the docs.

The IDs come from the repository's own rules reference (docs/rules/reference/ma.md), never from a file
outside the checkout; ``python -m tests.coverage_report`` says which of them a test drives through a fight.
"""

import re

from tests.rule_reference import REPO, load_reference

DOC = REPO / "docs" / "rules" / "ma.md"
MA_ID = re.compile(r"MA-(?:\d{3}|[TDGA]\d{2})")


def reference_ids() -> set[str]:
    return {ident for ident, entry in load_reference().items() if entry.system == "MA" and entry.status != "not yet"}


def named_in_tests() -> set[str]:
    here = REPO / "tests" / "ma"
    return set(MA_ID.findall("".join(p.read_text() for p in here.glob("test_*.py") if p.name != "test_rule_coverage.py")))


def test_every_ma_rule_and_worked_example_is_named_by_a_test():
    wanted = {i for i in reference_ids() if not i.startswith(("MA-G", "MA-A"))}
    assert sorted(wanted - named_in_tests()) == []


def test_every_gap_and_ambiguity_is_decided_in_the_docs():
    table_rows = set(re.findall(r"^\| (MA-[GA]\d{2}) \|", DOC.read_text(), flags=re.MULTILINE))
    wanted = {i for i in reference_ids() if i.startswith(("MA-G", "MA-A"))}
    assert sorted(wanted - table_rows) == []


def test_every_decision_of_our_own_is_in_the_reference_and_held_by_a_test():
    """Gaps we numbered ourselves (MA-G23 onward) are decisions too: each is in the reference, with a test."""
    reference = load_reference()
    ours = set(re.findall(r"^\| (MA-G\d{2}) \|", DOC.read_text(), flags=re.MULTILINE))
    assert sorted(ours - set(reference)) == []
    ours = {i for i in ours if reference[i].status != "not yet"}  # decided, not modelled yet
    assert sorted(ours - named_in_tests()) == []
