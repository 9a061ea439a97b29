"""Every MA- rule has a test naming it; every gap and ambiguity decision is recorded in docs/rules/ma.md."""

import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "rules" / "ma.md"


def _ids_in(paths):
    return set(re.findall(r"MA-[A-Z]?\d{2,3}", "".join(p.read_text() for p in paths)))


def test_every_ma_rule_and_worked_example_is_named_by_a_test():
    named = _ids_in(p for p in HERE.glob("test_*.py") if p.name != Path(__file__).name)
    rules = {f"MA-{n:03d}" for n in range(1, 54)}
    examples = {f"MA-T{n:02d}" for n in range(1, 7)} | {f"MA-D{n:02d}" for n in range(1, 6)}
    assert sorted(rules - named) == [] and sorted(examples - named) == []


def test_every_gap_and_ambiguity_is_decided_in_the_docs():
    table_rows = set(re.findall(r"^\| (MA-[GA]\d{2}) \|", DOC.read_text(), flags=re.MULTILINE))
    assert {f"MA-G{n:02d}" for n in range(1, 30)} <= table_rows
    assert {f"MA-A{n:02d}" for n in range(1, 8)} <= table_rows
