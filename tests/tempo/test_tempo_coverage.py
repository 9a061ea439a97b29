"""Every TP rule, worked example, gap and reading the repository's reference lists as implemented is held by
at least one tempo test that names it (the IDs come from docs/rules/reference/tp.md, never from a list here
or a file outside the checkout)."""

import re
from pathlib import Path

from issoku.rules.tempo import ACTION_NAMES
from issoku.rules.tempo.actions import CODEC, ORDERS
from tests.rule_reference import load_reference

HERE = Path(__file__).parent
REQUIRED = sorted(i for i, e in load_reference().items() if e.system == "TP" and e.status != "not yet")


def test_every_tp_rule_is_named_by_a_test():
    assert len(REQUIRED) >= 93  # TP-001..058, T01..12, G01..15, A01..08
    text = "".join(path.read_text() for path in HERE.rglob("*.py") if path.name != Path(__file__).name)
    text += "".join(path.read_text() for path in (HERE / "scenarios").glob("*.toml"))
    named = set(re.findall(r"TP-[0-9TGA]\d+", text))
    missing = [rule for rule in REQUIRED if rule not in named]
    assert not missing, f"rules without a test: {missing}"


def test_action_codec_round_trips_and_derives_its_size():
    assert len(ACTION_NAMES) == len(ORDERS) == len(set(ACTION_NAMES))
    for flat, order in enumerate(ORDERS):
        assert CODEC.decode(CODEC.encode(order)) == order and CODEC.by_name(ACTION_NAMES[flat]) == flat
