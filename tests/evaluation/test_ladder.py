"""``issoku ladder``: snapshots x temperatures exported, rated on a suite's fixed scale, rungs spread evenly,
the table written into the export folder and playable as a rung."""

import json

import pytest
from typer.testing import CliRunner

from issoku.agents.checkpoint import CheckpointMismatchError
from issoku.agents.exported import ExportedPolicy, load_trained
from issoku.cli import app
from issoku.evaluation.strength.reference_suite import load_suite
from issoku.evaluation.strength.ladder import (ExportFactory, Rung, check_suite_fits, closest_rung, export_snapshots,
                                      pick_rungs, play_rung_pairs, rate_candidates, read_ladder,
                                      snapshot_label)
from issoku.evaluation.games.store import MatchStore
from issoku.training.checkpoints import complete_checkpoints
from issoku.training.config import TrainConfig
from issoku.training.selfplay import train

SUITE = """name = "tiny_breath"
version = 1
env = "breath_duel_v0"
policies = ["random", "breath_aggressive"]
games_per_pair = 4
base_seed = 1000

[reference_elo]
random = 0.0
breath_aggressive = 45.0
"""


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory):
    """Two snapshots (128 and 256 steps) of a tiny breath_duel_v0 run, and a 4-games-per-reference suite."""
    root = tmp_path_factory.mktemp("ladder")
    config = TrainConfig(env_id="breath_duel_v0", n_envs=2, n_steps=64, batch_size=64, n_epochs=1, net_arch=(32, 32),
                         eval_every=0, final_eval_episodes=2, progress_bar=False, total_steps=256,
                         checkpoint_every=128, run_dir=str(root / "run"))
    train(config)
    (root / "suite.toml").write_text(SUITE)
    return complete_checkpoints(root / "run"), root


def rung(name, elo):
    return Rung(name, name, 0.0, elo, elo - 50, elo + 50, 0.5, 10)


def test_rungs_are_the_candidates_nearest_evenly_spaced_targets_weakest_first():
    candidates = [rung("a", -100), rung("b", -90), rung("c", 0), rung("d", 40), rung("e", 210), rung("f", 300)]
    assert [r.name for r in pick_rungs(candidates, 3)] == ["a", "d", "f"]
    assert [r.name for r in pick_rungs(candidates, 10)] == ["a", "b", "c", "d", "e", "f"]
    assert closest_rung(candidates, 190).name == "e"


def test_a_temperature_zero_factory_plays_argmax_and_others_sample_seeded(snapshots, tmp_path):
    checkpoints, _ = snapshots
    (folder,) = export_snapshots(checkpoints[-1:], tmp_path)
    best, warm = ExportFactory(str(folder), 0.0)(seed=1), ExportFactory(str(folder), 2.0)(seed=1)
    assert best.deterministic and not warm.deterministic and warm.temperature == 2.0
    assert best._session is warm._session  # one ONNX session per process, shared by the games' copies


def test_the_ladder_rates_every_candidate_on_the_suites_scale_and_writes_playable_rungs(snapshots, tmp_path):
    checkpoints, root = snapshots
    out = tmp_path / "opponent"
    result = CliRunner().invoke(app, ["ladder", *map(str, checkpoints), "--out", str(out), "--suite",
                                      str(root / "suite.toml"), "--rungs", "3", "-t", "0", "-t", "3",
                                      "--db", str(tmp_path / "m.sqlite"), "--workers", "0", "--target", "20",
                                      "--over", "random"])
    assert result.exit_code == 0, result.output
    ladder = json.loads((out / "ladder.json").read_text())
    assert ladder["suite"] == "tiny_breath" and len(ladder["candidates"]) == 2 * len(checkpoints) and len(ladder["rungs"]) == 3
    assert [r["elo"] for r in ladder["rungs"]] == sorted(r["elo"] for r in ladder["rungs"])
    assert all(r["low"] <= r["elo"] <= r["high"] and r["games"] == 8 for r in ladder["candidates"])
    assert all(set(r["per_reference"]) == {"random", "breath_aggressive"} and r["per_reference"]["random"]["games"] == 4
               for r in ladder["candidates"])
    # the adjacent rungs met (4 games a pair, the suite's), and the rungs are rated on those games too
    assert sorted(r["rung_games"] for r in ladder["rungs"]) == [4, 4, 8]
    assert len(ladder["checks"]) == 2 and all(c["games"] == 4 and c["low"] <= c["measured"] <= c["high"]
                                              for c in ladder["checks"])
    assert ladder["intransitivity"]["triples"] >= 2 and isinstance(ladder["warnings"], list)
    assert "held-out check" in result.output and "intransitivity: cyclic triples" in result.output
    assert sum(line.endswith(("agree", "DISAGREE")) for line in result.output.splitlines()) == 2
    assert result.output.count("WARNING:") == len(ladder["warnings"])
    assert "closest to +20 Elo over random" in result.output and "--rung" in result.output
    with MatchStore(tmp_path / "m.sqlite") as store:
        played = store.count()
        rate_candidates([out / "snapshots" / snapshot_label(checkpoints[0])], [0.0], load_suite(root / "suite.toml"), store,
                        workers=0, progress=False)
        again = play_rung_pairs(pick_rungs(read_ladder(out)["candidates"], 3), load_suite(root / "suite.toml"), store, root=out, workers=0,
                                progress=False, bootstrap=0)
        assert store.count() == played  # a rerun plays nothing again
        assert [pair.as_dict()["measured"] for pair in again.checks] == [c["measured"] for c in ladder["checks"]]
        manifest_file = out / "snapshots" / snapshot_label(checkpoints[0]) / "manifest.json"
        manifest = json.loads(manifest_file.read_text())
        assert all(r["ablation"]["decisions"] > 0 for r in ladder["candidates"]) and "zeroed obs changes" in result.output
        manifest_file.write_text(json.dumps({k: v for k, v in manifest.items() if k != "ablation"}))  # an older export
        (again,) = rate_candidates([manifest_file.parent], [0.0], load_suite(root / "suite.toml"), store, workers=0,
                                   progress=False)
        assert again.ablation is not None and again.ablation["decisions"] > 0
    policy, metadata = load_trained(out, rung=1)
    assert isinstance(policy, ExportedPolicy) and metadata["env_id"] == "breath_duel_v0"
    assert policy.deterministic == (ladder["rungs"][0]["temperature"] == 0.0)


def test_an_export_of_another_env_is_refused_listing_every_difference(snapshots, tmp_path):
    checkpoints, root = snapshots
    (folder,) = export_snapshots(checkpoints[:1], tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    with pytest.raises(CheckpointMismatchError, match="env_id.*\n.*interface"):
        check_suite_fits({**manifest, "env_id": "tempo_duel_v0", "interface": "x"}, load_suite(root / "suite.toml"),
                         "here")


def test_bad_ladder_input_is_one_line_and_exit_2(snapshots, tmp_path):
    checkpoints, root = snapshots
    runner = CliRunner()
    for arguments, message in (
            ([str(checkpoints[0]), "--out", str(tmp_path / "o"), "--suite", "no_such_suite"], "no such file"),
            ([str(checkpoints[0]), "--out", str(tmp_path / "o"), "--suite", str(root / "suite.toml"), "--target", "5",
              "--over", "ma_heuristic"], "not a reference"),
            ([str(tmp_path / "none.zip"), "--out", str(tmp_path / "o"), "--suite", str(root / "suite.toml")],
             "checkpoint " + str(tmp_path / "none.zip") + ": no such file")):
        result = runner.invoke(app, ["ladder", *arguments])
        assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output, result.output
    result = runner.invoke(app, ["play", str(tmp_path), "--rung", "2"])
    assert result.exit_code == 2 and "ladder.json" in result.output


def test_two_runs_same_named_snapshots_get_their_own_exports(snapshots, tmp_path):
    checkpoints, _ = snapshots
    other = tmp_path / "other_run" / "checkpoints"
    other.mkdir(parents=True)
    for suffix in (".zip", ".json"):
        data = checkpoints[-1].with_suffix(suffix).read_bytes()
        other.joinpath(checkpoints[-1].stem + suffix).write_bytes(data + (b" " if suffix == ".json" else b""))
    copy = other / (checkpoints[-1].stem + ".zip")
    assert snapshot_label(copy) != snapshot_label(checkpoints[-1])
    assert snapshot_label(copy).startswith("other_run.step_")
    folders = export_snapshots([checkpoints[-1], copy], tmp_path / "out")
    assert len(set(folders)) == 2
