"""Every zone rule of the skirmish is named by a test here, and every zone decision is recorded in the docs.

The zone rules (docs/rules/reference/br.md): zone movement BR-067, 068, 072..076 (leap, gallop, stealth and
squad orders are not yet), the Core and Outside Zone rules BR-033, 051..058, 061, the zone gaps
BR-G15..G17 and G21, the readings BR-A07..A09, the worked examples that need zones, and our own
decisions BR-Z01..Z08 (docs/rules/breath.md)."""

import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "rules" / "breath.md"
ZONE_DECISIONS = {f"BR-Z{n:02d}" for n in range(1, 9)}
ZONE_RULES = ({f"BR-{n:03d}" for n in (13, 33, *range(51, 59), 61, 67, 68, *range(72, 77))}
              | {"BR-G15", "BR-G16", "BR-G17", "BR-G21", "BR-A07", "BR-A08", "BR-A09", "BR-T02", "BR-T12", "BR-T16"}
              | ZONE_DECISIONS)


def test_every_zone_rule_is_named_by_a_skirmish_test():
    tests = "".join(p.read_text() for p in HERE.glob("test_*.py") if p.name != Path(__file__).name)
    named = set(re.findall(r"BR-[A-Z]?\d{2,3}", tests))
    assert sorted(ZONE_RULES - named) == []


def test_every_zone_decision_is_a_row_of_the_skirmish_section():
    text = DOC.read_text()
    section = text[text.index("## Skirmish zones"):]
    rows = set(re.findall(r"^\| (BR-Z\d{2}) \|", section, flags=re.MULTILINE))
    assert rows == ZONE_DECISIONS
