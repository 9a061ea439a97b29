"""``issoku export``: the ONNX opponent picks what its checkpoint picks, its manifest describes the env, and a
game loop with no torch and no issoku drives it."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from issoku.agents.ablation import measure_ablation
from issoku.agents.checkpoint import CheckpointMismatchError, CheckpointPolicy
from issoku.agents.exported import ExportError, ExportedPolicy, load_trained
from issoku.cli import app
from issoku.envs import breath_duel_v0
from issoku.training.checkpoints import latest_checkpoint
from issoku.training.config import TrainConfig
from issoku.training.export import export_checkpoint
from issoku.training.make_env import env_identity, make_config_env
from issoku.training.play import LEGEND, play
from issoku.training.selfplay import train

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "exported_opponent.py"


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """A 128-step breath_duel_v0 checkpoint and its export folder."""
    root = tmp_path_factory.mktemp("export")
    config = TrainConfig(env_id="breath_duel_v0", n_envs=2, n_steps=64, batch_size=64, n_epochs=1, net_arch=(32, 32),
                         eval_every=0, final_eval_episodes=2, progress_bar=False, total_steps=128,
                         checkpoint_every=128, run_dir=str(root / "run"))
    train(config)
    checkpoint = latest_checkpoint(root / "run")
    export_checkpoint(checkpoint, root / "opponent")
    return checkpoint, root / "opponent"


def decisions(seeds, seat_policy):
    """Every (observation, mask) the seat-0 policy faces over seeded breath duels (seat 1 plays random legal)."""
    for seed in seeds:
        env = breath_duel_v0.env()
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"]
            if agent == env.possible_agents[0]:
                yield observation["observation"], mask
                env.step(seat_policy(observation["observation"], mask))
            else:
                env.step(int(rng.choice(np.flatnonzero(mask))))


def test_the_export_picks_every_action_its_checkpoint_picks_over_seeded_games(exported):
    checkpoint, folder = exported
    original, onnx = CheckpointPolicy(checkpoint), ExportedPolicy(folder)
    seen = 0
    for observation, mask in decisions(range(6), original):
        assert onnx(observation, mask) == original(observation, mask)
        np.testing.assert_allclose(onnx.action_probabilities(observation, mask),
                                   original.action_probabilities(observation, mask), atol=1e-5)
        assert onnx.action_probabilities(observation, mask)[mask == 0].max(initial=0.0) == 0.0
        seen += 1
    assert seen > 50


def test_the_manifest_names_the_env_its_actions_and_the_observation_slices(exported):
    checkpoint, folder = exported
    manifest = json.loads((folder / "manifest.json").read_text())
    env = make_config_env(TrainConfig.from_json(json.loads(checkpoint.with_suffix(".json").read_text())["config"]))
    identity = env_identity(env, "breath_duel_v0")
    assert {key: manifest[key] for key in identity} == identity
    assert manifest["action_names"] == list(env.unwrapped.action_names)
    fields = manifest["observation"]["fields"]
    assert fields[0]["start"] == 0 and fields[-1]["stop"] == manifest["observation"]["size"]
    assert all(a["stop"] == b["start"] for a, b in zip(fields, fields[1:]))
    assert [row["name"] for row in fields] == list(env.unwrapped.ruleset.observation_spec.names)
    assert all(row["encoding"]["parts"] for row in fields)  # every field says what fills it (test_export_encoding.py)
    assert manifest["ablation"] == measure_ablation(CheckpointPolicy(checkpoint), env).as_dict()


def test_a_batch_is_one_call_with_the_same_answers(exported):
    _, folder = exported
    onnx = ExportedPolicy(folder)
    rows = list(decisions([11], onnx))[:16]
    observations, masks = np.stack([o for o, _ in rows]), np.stack([m for _, m in rows])
    batch = onnx.action_probabilities_batch(observations, masks)
    for row, (observation, mask) in enumerate(rows):
        np.testing.assert_allclose(batch[row], onnx.action_probabilities(observation, mask), atol=1e-6)


def test_a_changed_model_a_missing_manifest_or_another_format_is_refused(exported, tmp_path):
    _, folder = exported
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "manifest.json").write_text((folder / "manifest.json").read_text())
    model = bytearray((folder / "policy.onnx").read_bytes())
    model[-1] ^= 1
    (copy / "policy.onnx").write_bytes(bytes(model))
    with pytest.raises(ExportError, match="SHA-256 differs"):
        ExportedPolicy(copy)
    with pytest.raises(ExportError, match="no such file"):
        ExportedPolicy(tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    (copy / "manifest.json").write_text(json.dumps({**manifest, "format": "something-else"}))
    with pytest.raises(ExportError, match="format"):
        ExportedPolicy(copy)


def test_a_checkpoint_from_other_rules_is_refused_before_anything_is_written(exported, tmp_path):
    checkpoint, _ = exported
    stale = tmp_path / "stale.zip"
    stale.write_bytes(checkpoint.read_bytes())
    metadata = json.loads(checkpoint.with_suffix(".json").read_text())
    stale.with_suffix(".json").write_text(json.dumps({**metadata, "rules_fingerprint": "0" * 16}))
    with pytest.raises(CheckpointMismatchError, match="rules_fingerprint"):
        export_checkpoint(stale, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_command_writes_an_export_and_answers_bad_input_in_one_line(exported, tmp_path):
    checkpoint, _ = exported
    runner = CliRunner()
    result = runner.invoke(app, ["export", str(checkpoint), "--out", str(tmp_path / "opponent")])
    assert result.exit_code == 0, result.output
    assert "breath_duel_v0 v0" in result.output and (tmp_path / "opponent" / "policy.onnx").is_file()
    assert "(each field encoding described), 6 golden vectors" in result.output
    assert "decisions change when its observation is zeroed" in result.output
    for arguments, message in ((["export", str(tmp_path / "none.zip"), "--out", str(tmp_path / "x")], "no such file"),
                               (["export", str(checkpoint), "--out", str(checkpoint)], "is a file")):
        result = runner.invoke(app, arguments)
        assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_the_example_game_loop_needs_neither_torch_nor_issoku_and_agrees_with_the_export(exported):
    _, folder = exported
    onnx = ExportedPolicy(folder)
    rows = list(decisions([3], onnx))[:40]
    states = "".join(json.dumps({"observation": o.tolist(), "action_mask": m.astype(int).tolist()}) + "\n"
                     for o, m in rows)
    answer = run_example(folder, stdin=states)
    assert answer.returncode == 0, answer.stderr
    replies = [json.loads(line) for line in answer.stdout.splitlines()]
    assert [reply["action"] for reply in replies] == [onnx(o, m) for o, m in rows]
    assert all(reply["name"] == onnx.manifest["action_names"][reply["action"]] for reply in replies)


def run_example(folder: Path, *arguments: str, stdin: str = "") -> subprocess.CompletedProcess:
    """examples/exported_opponent.py on ``folder`` with torch and issoku unimportable, as a game would run it."""
    blocked = ("import runpy, sys; sys.modules['torch'] = None; sys.modules['issoku'] = None; "
               f"sys.argv = ['exported_opponent.py', {str(folder)!r}, *{list(arguments)!r}]; "
               f"runpy.run_path({str(EXAMPLE)!r}, run_name='__main__')")
    return subprocess.run([sys.executable, "-c", blocked], input=stdin, capture_output=True, text=True, timeout=120)


def test_the_golden_vectors_are_positions_of_seeded_games_with_the_exports_action(exported):
    _, folder = exported
    manifest = json.loads((folder / "manifest.json").read_text())
    golden = manifest["golden_vectors"]
    assert len(golden) == 6 and len({(g["game_seed"], g["decision"]) for g in golden}) == 6
    onnx = ExportedPolicy(folder)
    for position in golden:
        env = breath_duel_v0.env()
        env.reset(seed=position["game_seed"])  # replayed: random legal play seeded by the game's seed, as exported
        rng, number = np.random.default_rng(position["game_seed"]), 0
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"]
            if number == position["decision"]:
                break
            number += 1
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert agent == position["agent"] and number == position["decision"]
        assert np.asarray(position["observation"], dtype=np.float32).tobytes() == observation["observation"].tobytes()
        assert position["action_mask"] == mask.astype(int).tolist()
        seat = env.unwrapped.seat(agent)
        assert position["values"] == json.loads(json.dumps(env.unwrapped.game_state.describe_observation(seat)))
        assert position["action"] == onnx(observation["observation"], mask.astype(np.float32))
        assert position["action_name"] == manifest["action_names"][position["action"]]


def test_the_example_checks_a_port_against_the_golden_vectors_without_issoku(exported, tmp_path):
    _, folder = exported
    answer = run_example(folder, "--check")
    assert answer.returncode == 0, answer.stdout + answer.stderr
    lines = answer.stdout.splitlines()
    assert len(lines) == 6 and all(line.endswith(" ok") and "observation equal" in line for line in lines)
    copy = tmp_path / "wrong"
    copy.mkdir()
    (copy / "policy.onnx").write_bytes((folder / "policy.onnx").read_bytes())
    manifest = json.loads((folder / "manifest.json").read_text())
    energy = manifest["golden_vectors"][0]["values"]["energy"]
    energy[0]["energy"] += 1  # a port that read one game value wrong
    (copy / "manifest.json").write_text(json.dumps(manifest))
    answer = run_example(copy, "--check")
    assert answer.returncode == 1 and answer.stdout.splitlines()[0].startswith("golden 0: observation DIFFERS")


def test_issoku_play_takes_an_export_folder_as_it_takes_a_checkpoint(exported):
    checkpoint, folder = exported
    agent, metadata = load_trained(folder)
    assert isinstance(agent, ExportedPolicy)
    assert metadata["config"] == json.loads(checkpoint.with_suffix(".json").read_text())["config"]
    lines: list[str] = []
    menus = []
    reward = play(folder, seat=0, seed=4, choose=lambda menu: menus.append(menu) or menu[0][0], write=lines.append)
    assert reward in (-1.0, 0.0, 1.0) and any("(agent) plays" in line for line in lines)
    assert lines.count(LEGEND) == 1 and lines.index(LEGEND) == 1  # the bars explained once, before the fight
    entries = [name for menu in menus for _, name in menu]
    assert any(name.startswith("attack:") and name.endswith(" Energy)") for name in entries)
