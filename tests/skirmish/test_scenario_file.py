"""The shipped 2v2 scenario file, played by ``issoku replay``, shows the flank from the Outside Zone, the
breakthrough into the Core and the reaction of the second fighter attacked, event by event.

The engine-level twin with scripted dice is ``test_scenario_2v2.py``; this one checks what a designer
runs: the TOML under ``scenarios/breath_skirmish/`` through the command line, with the seed's own dice.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from issoku.cli import app

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "breath_skirmish" / "flank_and_core.toml"

# Per decision: (agent, action, the events it adds: (rule, kind, actor, fields that must match)).
# Seats: 0 kenshi, 1 shinobi (side 0); 2 ronin, 3 ashigaru (side 1).
EXPECTED = [
    ("side_0_fighter_2", "enter_outside_zone", [
        ("BR-Z05", "zero_energy", 1, {"what": "enter_outside_zone"}),
        ("BR-076", "moved", 1, {"origin": "side_a_front", "zone": "outside"})]),
    ("side_0_fighter_2", "walk:enemy_front", [
        ("BR-067", "energy_spent", 1, {"cost": 2, "modifiers": []}),  # a shinobi pays no Outside +1
        ("BR-Z03", "flank", 1, {"zone": "side_b_front"}),
        ("BR-067", "moved", 1, {"origin": "outside", "zone": "side_b_front", "closed": True})]),
    ("side_0_fighter_2", "attack:ninjato.straight_thrust:enemy1", [
        ("BR-045", "energy_spent", 1, {"cost": 2}),
        ("BR-G01", "attack_check", 1, {"target": 3, "total": 19, "defense": 13})]),
    ("side_1_fighter_2", "improvise:yari.harry", [  # the first fighter attacked answers, and fails
        ("BR-020", "energy_spent", 3, {"cost": 3}),
        ("BR-G03", "defense_roll", 3, {"total": 11, "blocked": False}),
        ("BR-G04", "hit", 1, {"target": 3, "wounds": 1, "after": 7})]),
    ("side_0_fighter_2", "end_breath", [
        ("BR-005", "breath_end", 1, {"spent": 4}),
        ("BR-008", "breath_start", 0, {"count": 13})]),
    ("side_0_fighter_1", "force_core_breakthrough", [  # the breakthrough into the Core
        ("BR-074", "energy_spent", 0, {"cost": 3}),
        ("BR-074", "courage_check", 0, {"total": 16, "target": 13, "success": True}),
        ("BR-074", "moved", 0, {"origin": "side_a_front", "zone": "core", "in_core": True})]),
    ("side_0_fighter_1", "end_breath", [
        ("BR-005", "breath_end", 0, {"spent": 3}),
        ("BR-008", "breath_start", 2, {"count": 12})]),  # ronin and ashigaru tie at 12: seat order
    ("side_1_fighter_1", "free_core_entry", [
        ("BR-073", "energy_spent", 2, {"cost": 2}),
        ("BR-073", "moved", 2, {"origin": "side_b_front", "zone": "core", "closed": True})]),
    ("side_1_fighter_1", "attack:nodachi.cut:enemy0", [
        ("BR-045", "energy_spent", 2, {"cost": 3, "modifiers": [["core_zone_long", 1]]}),  # BR-056
        ("BR-G01", "attack_check", 2, {"target": 0, "total": 11, "defense": 11})]),
    ("side_0_fighter_1", "improvise:uchigatana.parry", [  # the second fighter attacked answers
        ("BR-020", "energy_spent", 0, {"cost": 2}),
        ("BR-G03", "defense_roll", 0, {"total": 17, "blocked": True})]),
]


def replay_records(*options: str) -> list[dict]:
    """``issoku replay [options] flank_and_core.toml`` as parsed JSON lines."""
    result = CliRunner().invoke(app, ["replay", *options, str(SCENARIO)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


@pytest.mark.rule("BR-Z01", "BR-Z03", "BR-Z05", "BR-067", "BR-073", "BR-074", "BR-076", "BR-056", "BR-G03")
def test_the_shipped_2v2_scenario_replays_with_the_expected_events():
    records = replay_records("--json")
    setup = records[:next(i for i, r in enumerate(records) if "step" in r)]
    assert setup[0]["rule"] == "BR-Z01" and setup[0]["zones"] == ["side_a_front"] * 2 + ["side_b_front"] * 2
    steps: list[tuple[dict, list[dict]]] = []
    for record in records[len(setup):-1]:
        if "step" in record:
            steps.append((record, []))
        else:
            steps[-1][1].append(record)
    assert len(steps) == len(EXPECTED)
    for (decision, events), (agent, action, expected) in zip(steps, EXPECTED):
        assert (decision["agent"], decision["action"], decision["scripted"]) == (agent, action, True)
        assert [(e["rule"], e["kind"], e["actor"]) for e in events] == [(r, k, a) for r, k, a, _ in expected], action
        for event, (*_, fields) in zip(events, expected):
            assert {key: event[key] for key in fields} == fields, (action, event["kind"])
    result = records[-1]["result"]
    assert result["decisions"] == len(EXPECTED) and not result["terminated"] and not result["truncated"]


def test_the_text_replay_ends_with_the_zones_and_who_decides_next():
    result = CliRunner().invoke(app, ["replay", str(SCENARIO)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.startswith("Flank and Core  [breath_skirmish_v0, seed 2]\n")
    assert "[BR-Z03 ] flank              side_0_fighter_2: zone=side_b_front" in text
    assert ("zones: side_a_rear[] side_a_front[] core[side_0_fighter_1 side_1_fighter_1] "
            "side_b_front[side_0_fighter_2 side_1_fighter_2] side_b_rear[] outside[]") in text
    assert text.endswith("result: stopped after 10 decisions; side_1_fighter_1 to decide (breath)\n")
