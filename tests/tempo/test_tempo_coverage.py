"""Every TP rule and TP-T worked example is held by at least one test that names it."""

import re
from pathlib import Path

from issoku.rules.tempo import ACTION_NAMES
from issoku.rules.tempo.actions import CODEC, ORDERS

HERE = Path(__file__).parent
REQUIRED = [f"TP-{n:03d}" for n in range(1, 59)] + [f"TP-T{n:02d}" for n in range(1, 13)] + \
           [f"TP-G{n:02d}" for n in range(1, 16)]


def test_every_tp_rule_is_named_by_a_test():
    text = "".join(path.read_text() for path in HERE.rglob("*.py") if path.name != Path(__file__).name)
    text += "".join(path.read_text() for path in (HERE / "scenarios").glob("*.toml"))
    named = set(re.findall(r"TP-[0-9TG]\d+", text))
    missing = [rule for rule in REQUIRED if rule not in named]
    assert not missing, f"rules without a test: {missing}"


def test_action_codec_round_trips_and_derives_its_size():
    assert len(ACTION_NAMES) == len(ORDERS) == len(set(ACTION_NAMES))
    for flat, order in enumerate(ORDERS):
        assert CODEC.decode(CODEC.encode(order)) == order and CODEC.by_name(ACTION_NAMES[flat]) == flat
