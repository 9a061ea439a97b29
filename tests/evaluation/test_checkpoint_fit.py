"""A checkpoint whose rules fingerprint or interface differs from the env is refused by ``benchmark`` and ``hunt``
exactly as ``issoku evaluate`` refuses it, and by ``balance-report`` for its interface: exit 2, every difference
listed, nothing written. In a balance report one trained on other rules data (shipped data edited in place since, or
a variant) plays, and the report says so, whichever way the data changed; elsewhere nothing would say so.
"""

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from issoku.cli import app
from issoku.evaluation.games.checkpoint_fit import check_checkpoint_fits
from issoku.evaluation.games.policies import shipped_checkpoints
from issoku.envs.registry import make_env


def stale_copy(folder, **changes):
    """The shipped tempo checkpoint copied into ``folder`` with its metadata fields changed (as after a rules change)."""
    shipped = shipped_checkpoints()["tempo_duel_v0"]
    path = folder / "stale.zip"
    shutil.copy(shipped, path)
    metadata = json.loads(shipped.with_suffix(".json").read_text())
    path.with_suffix(".json").write_text(json.dumps({**metadata, **changes}))
    return path


def differences(output: str) -> list[str]:
    """The difference items of a one-line CheckpointMismatchError message."""
    return [item.strip() for item in output.split("used here:", 1)[1].split("Train a new")[0].split(";") if item.strip()]


@pytest.fixture
def stale(tmp_path):
    return stale_copy(tmp_path, rules_fingerprint="0123456789abcdef", interface="fedcba9876543210")


def test_evaluate_balance_report_benchmark_and_hunt_refuse_a_stale_checkpoint_alike(tmp_path, stale):
    runner = CliRunner()
    evaluate = runner.invoke(app, ["evaluate", str(stale), "--opponent", "random", "--duels", "2"])
    assert evaluate.exit_code == 2
    expected = differences(evaluate.output)
    assert [item.split(":")[0] for item in expected] == ["rules_fingerprint", "interface"]
    commands = {
        "balance-report": ["balance-report", "--env", "tempo_duel_v0", "-p", "random", "-p", str(stale),
                           "--games", "2", "--db", str(tmp_path / "r" / "m.sqlite"), "--out", str(tmp_path / "r")],
        "benchmark": ["benchmark", str(stale), "--suite", "tempo_duel_v0", "--db", str(tmp_path / "b" / "m.sqlite")],
        "hunt": ["hunt", "--env", "tempo_duel_v0", "-p", "random", "-p", str(stale), "--out", str(tmp_path / "h")],
        "hunt --warm-start": ["hunt", "--env", "tempo_duel_v0", "-p", "random", "--warm-start", str(stale),
                              "--out", str(tmp_path / "w")],
    }
    for name, command in commands.items():
        result = runner.invoke(app, command)
        assert result.exit_code == 2, (name, result.output)
        assert f"checkpoint {stale} was trained on a different env or rules data" in result.output, name
        # other rules data alone fields it in a report (which names it), nowhere else; another interface never
        assert differences(result.output) == (expected[1:] if name == "balance-report" else expected), name
    assert not any(tmp_path.joinpath(folder).exists() for folder in ("r", "b", "h", "w"))  # nothing written


def test_an_agent_of_the_same_rules_may_play_another_loadout_but_not_another_env(tmp_path):
    """The fingerprint checked is the training env's under today's rules (as ``evaluate`` rebuilds it); the env id
    and interface are the env's at hand."""
    checkpoint = shipped_checkpoints()["tempo_duel_v0"]
    check_checkpoint_fits(checkpoint, make_env("tempo_duel_v0", fighters=["knight", "fencer"]), "tempo_duel_v0")
    with pytest.raises(ValueError, match="env_id: checkpoint .* has 'tempo_duel_v0', this env has 'breath_duel_v0'"
                                         "(.|\n)*interface"):
        check_checkpoint_fits(checkpoint, make_env("breath_duel_v0"), "breath_duel_v0")


def test_rules_edited_in_place_and_a_variant_field_the_checkpoint_alike_and_the_report_names_it(tmp_path):
    from issoku.evaluation.games.checkpoint_fit import plays_other_rules
    from issoku.evaluation.reports.report import read_headlines

    shipped = shipped_checkpoints()["tempo_duel_v0"]
    variant = Path(__file__).resolve().parents[1] / "data" / "variants" / "armour_tempo_medium"
    in_place = stale_copy(tmp_path, rules_fingerprint="0123456789abcdef")  # the data changed since it was trained
    assert not plays_other_rules(shipped, {})
    assert plays_other_rules(shipped, {"variant": str(variant)}) and plays_other_rules(in_place, {})
    result = CliRunner().invoke(app, ["balance-report", "--env", "tempo_duel_v0", "-p", "random", "-p",
                                      f"learned={in_place}", "--games", "2", "--db", str(tmp_path / "m.sqlite"),
                                      "--out", str(tmp_path / "r"), "--bootstrap", "10"])
    assert result.exit_code == 0, result.output
    assert f"tempo_duel_v0: learned ({in_place}) plays rules it was not trained on" in " ".join(
        read_headlines(tmp_path / "r" / "report.md"))
