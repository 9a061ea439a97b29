"""Scenario files replay with the expected events (the issue-5 exchange among them)."""

from pathlib import Path

import pytest

from issoku.rules.tempo.scenario import ScenarioMismatch, replay

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.toml"))


@pytest.mark.rule("TP-036", "TP-046", "TP-044", "TP-035", "TP-006", "TP-008")
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_replays(path):
    replay(path)


def test_a_wrong_expectation_is_reported(tmp_path):
    text = SCENARIOS[0].read_text().replace('reaction_outcome = "success"', 'reaction_outcome = "failure"')
    broken = tmp_path / "broken.toml"
    broken.write_text(text)
    with pytest.raises(ScenarioMismatch, match="expected event not found"):
        replay(broken)


def test_an_illegal_step_is_reported(tmp_path):
    text = SCENARIOS[0].read_text().replace('"react:wind"', '"react:parry"')
    broken = tmp_path / "broken.toml"
    broken.write_text(text)
    with pytest.raises(ScenarioMismatch, match="step 4"):
        replay(broken)
