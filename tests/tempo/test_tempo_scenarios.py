"""Scenario files replay with the expected events (the issue-5 exchange among them)."""

from pathlib import Path

import pytest

from issoku.rules.tempo.scenario import ScenarioMismatch, replay

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.toml"))


@pytest.mark.rule("TP-036", "TP-046", "TP-044", "TP-035", "TP-006", "TP-008")
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_replays(path):
    replay(path)


@pytest.mark.parametrize("old,new,message", [
    ('reaction_outcome = "success"', 'reaction_outcome = "failure"', "expected event not found"),
    ('"react:wind"', '"react:parry"', "step 4"),
])
def test_a_broken_scenario_is_reported(tmp_path, old, new, message):
    broken = tmp_path / "broken.toml"
    broken.write_text(SCENARIOS[0].read_text().replace(old, new))
    with pytest.raises(ScenarioMismatch, match=message):
        replay(broken)
