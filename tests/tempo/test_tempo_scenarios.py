"""Scenario files replay with the expected events (the issue-5 exchange among them), through the one scenario
loader (:mod:`issoku.envs.scenario`) that ``issoku replay`` uses."""

from pathlib import Path

import pytest

from typer.testing import CliRunner

from issoku.cli import app
from issoku.envs.scenario import ScenarioError, ScenarioMismatch, load_scenario, play
from issoku.rules.kernel.content import DataError
from issoku.rules.tempo.actions import STATUS_NAMES

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios" / "tempo_duel").glob("*.toml"))


@pytest.mark.rule("TP-003", "TP-004", "TP-005", "TP-006", "TP-007", "TP-008", "TP-035", "TP-036", "TP-044", "TP-046",
                  "TP-058", "TP-G01", "TP-G05", "TP-G06", "TP-G09", "TP-G10", "TP-G15")
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_replays(path):
    play(load_scenario(path))


@pytest.mark.rule("TP-046", "TP-035", "TP-G05", "TP-058")
def test_the_issue_exchange_ends_where_the_table_says():
    state = play(load_scenario(SCENARIOS[0])).state
    assert tuple(STATUS_NAMES[s] for s in state.status) == ("on_guard", "on_guard")
    assert tuple(state.hp) == (14, 16) and tuple(state.ap) == (12, 4) and state.distance == 1
    assert (state.decision_kind(), state.current_seat()) == ("act", 1)


@pytest.mark.parametrize("old,new,error,message", [
    ('reaction_outcome = "success"', 'reaction_outcome = "failure"', ScenarioMismatch, "expected event not found"),
    ('"react:wind"', '"react:parry"', ScenarioError, "decision 5"),
    ('decision = "act"', 'decision = "react"', ScenarioMismatch, "final decision is 'act'"),
])
def test_a_broken_scenario_is_reported(tmp_path, old, new, error, message):
    broken = tmp_path / "broken.toml"
    text = SCENARIOS[0].read_text()
    assert old in text
    broken.write_text(text.replace(old, new))
    with pytest.raises(error, match=message):
        play(load_scenario(broken))


def test_replay_prints_a_mismatched_fight_then_the_difference(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text(SCENARIOS[0].read_text().replace('seat = 1', 'seat = 0'))
    result = CliRunner().invoke(app, ["replay", str(broken)])
    assert result.exit_code == 1
    assert "result: stopped after 8 decisions; player_1 to decide (act)" in result.output
    assert result.output.rstrip().endswith("final seat is 1, expected 0")


def test_scripted_dice_play_the_script_only(tmp_path):
    with_policy = tmp_path / "with_policy.toml"
    with_policy.write_text(SCENARIOS[0].read_text().replace('title = ', 'policy = "random"\ntitle = '))
    with pytest.raises(DataError, match="scripted dice plays its script only"):
        load_scenario(with_policy)
