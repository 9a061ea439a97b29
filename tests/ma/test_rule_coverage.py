"""Every MA- rule and worked example has a test naming it; every gap and ambiguity is decided in the docs.

The IDs come from the rule inventory itself (``shared/rules_inventory.md``, found beside the checkout
or through ``ISSOKU_RULES_INVENTORY``), so a rule added there fails this test until a test names it.
Where the inventory is not at hand (a bare checkout), the pinned copy of its MA IDs below stands in,
and :func:`test_pinned_ids_match_the_inventory` keeps that copy honest wherever the inventory exists.
"""

import os
import re
from pathlib import Path

import pytest

HERE = Path(__file__).parent
REPO = HERE.parents[1]
DOC = REPO / "docs" / "rules" / "ma.md"
MA_ID = re.compile(r"MA-(?:\d{3}|[TDGA]\d{2})")

PINNED = ({f"MA-{n:03d}" for n in range(1, 54)} | {f"MA-T{n:02d}" for n in range(1, 7)}
          | {f"MA-D{n:02d}" for n in range(1, 6)} | {f"MA-G{n:02d}" for n in range(1, 23)}
          | {f"MA-A{n:02d}" for n in range(1, 8)})
"""The MA IDs the inventory defines (rules, worked examples, gaps, ambiguities) when this was written."""


def inventory_path() -> Path | None:
    """``$ISSOKU_RULES_INVENTORY``, else the first ``shared/rules_inventory.md`` beside the checkout or above it."""
    given = os.environ.get("ISSOKU_RULES_INVENTORY")
    if given:
        return Path(given)
    for folder in (REPO, *REPO.parents):
        candidate = folder / "shared" / "rules_inventory.md"
        if candidate.is_file():
            return candidate
    return None


def inventory_ids() -> set[str] | None:
    """The MA IDs the inventory defines: each rule row (``| MA-001 |``) and each bulleted ``**MA-X..**``."""
    path = inventory_path()
    if path is None:
        return None
    text = path.read_text(encoding="utf-8")
    defined = re.findall(r"^\| (MA-\d{3}) \|", text, flags=re.MULTILINE)
    defined += re.findall(r"^- \*\*(MA-[TDGA]\d{2})\b", text, flags=re.MULTILINE)
    return set(defined)


def expected_ids() -> set[str]:
    return inventory_ids() or PINNED


def named_in_tests() -> set[str]:
    own = Path(__file__).name
    return set(MA_ID.findall("".join(p.read_text() for p in HERE.glob("test_*.py") if p.name != own)))


def test_every_ma_rule_and_worked_example_is_named_by_a_test():
    wanted = {i for i in expected_ids() if not i.startswith(("MA-G", "MA-A"))}
    assert sorted(wanted - named_in_tests()) == []


def test_every_gap_and_ambiguity_is_decided_in_the_docs():
    table_rows = set(re.findall(r"^\| (MA-[GA]\d{2}) \|", DOC.read_text(), flags=re.MULTILINE))
    wanted = {i for i in expected_ids() if i.startswith(("MA-G", "MA-A"))}
    assert sorted(wanted - table_rows) == []


def test_every_decision_of_our_own_is_in_the_docs_and_held_by_a_test():
    """Gaps we numbered past the inventory's (MA-G23 onward) are decisions too: each needs a test."""
    ours = set(re.findall(r"^\| (MA-G\d{2}) \|", DOC.read_text(), flags=re.MULTILINE)) - expected_ids()
    assert ours, "docs/rules/ma.md records no decisions of its own"
    assert sorted(ours - named_in_tests()) == []


def test_pinned_ids_match_the_inventory():
    found = inventory_ids()
    if found is None:
        pytest.skip("shared/rules_inventory.md is not beside this checkout; the pinned IDs stand in")
    assert found == PINNED
