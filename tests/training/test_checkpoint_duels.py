"""``issoku evaluate``: seeded duels of a checkpoint against a scripted agent, seats swapped, with an interval."""

import json

from typer.testing import CliRunner

from issoku.cli import app
from issoku.evaluation.strength.checkpoint_duels import duel_checkpoint


def test_duels_swap_seats_on_each_fight_seed_and_repeat_exactly(tiny_run):
    _, results = tiny_run
    first = duel_checkpoint(results["checkpoint"], "random", duels=20, seed=5, allow_imports=True)
    assert first == duel_checkpoint(results["checkpoint"], "random", duels=20, seed=5, allow_imports=True)
    assert first["wins"] + first["draws"] + first["losses"] == first["duels"] == 20
    assert [tally["duels"] for tally in first["by_seat"].values()] == [10, 10]
    assert sum(tally["wins"] for tally in first["by_seat"].values()) == first["wins"]
    assert first["win_rate_low"] <= first["win_rate"] == first["wins"] / 20 <= first["win_rate_high"]
    assert first["by_matchup"] == {}
    assert first["ablation"]["decisions"] > 0 and first["ablation"]["neutral"] == "zeros"


def test_the_command_prints_the_interval_and_writes_json(tiny_run, tmp_path):
    _, results = tiny_run
    out = tmp_path / "eval.json"
    outcome = CliRunner().invoke(app, ["evaluate", results["checkpoint"], "--opponent", "random", "--duels", "6",
                                       "--out", str(out), "--allow-imports"])
    assert outcome.exit_code == 0, outcome.output
    assert "vs random: won" in outcome.output and "95% CI" in outcome.output and "as seat 1" in outcome.output
    assert "decisions change when its observation is zeroed" in outcome.output
    assert json.loads(out.read_text())["duels"] == 6
