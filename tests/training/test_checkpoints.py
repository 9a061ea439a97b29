"""Checkpoints: a killed run resumes, a mismatched checkpoint is refused, a checkpoint plays as a policy."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import RACE, ROOT, TINY

from issoku.agents.checkpoint import CheckpointMismatchError, CheckpointPolicy, metadata_path, read_metadata
from issoku.agents.checkpoint_zip import read_data
from issoku.training.checkpoints import complete_checkpoints, latest_checkpoint
from issoku.training.config import apply_overrides
from issoku.training.make_env import make_aec_env
from issoku.training.play import play
from issoku.training.selfplay import RunDirectoryError, train

KILL_AFTER_STEPS = 384
TOTAL_STEPS = 1280
INTERVAL = 128


def issoku_train(run_dir: Path, *extra: str) -> subprocess.Popen:
    """``python -m issoku train`` on race_v0 with a tiny budget, in a child process."""
    settings = {**TINY, "checkpoint_every": INTERVAL, "net_arch": "32,32"}
    settings.pop("env_id")
    command = [sys.executable, "-m", "issoku", "train", "--env", RACE, "--total-steps", str(TOTAL_STEPS),
               "--run-dir", str(run_dir), *extra]
    for key, value in settings.items():
        command += ["--set", f"{key}={value}"]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def steps_of(checkpoint: Path) -> int:
    return read_metadata(checkpoint)["steps"]


def test_killed_run_resumes_from_its_last_checkpoint_and_evaluates(tmp_path):
    run_dir = tmp_path / "run"
    child = issoku_train(run_dir)
    deadline = time.monotonic() + 120  # generous: a loaded machine starts Python slowly
    while (latest_checkpoint(run_dir) is None or steps_of(latest_checkpoint(run_dir)) < KILL_AFTER_STEPS) \
            and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.05)
    assert child.poll() is None, f"the run ended before it could be killed: {child.stderr.read()}"
    assert latest_checkpoint(run_dir) is not None, "no checkpoint within the deadline"
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL
    killed_at = steps_of(latest_checkpoint(run_dir))
    assert KILL_AFTER_STEPS <= killed_at < TOTAL_STEPS

    resumed = issoku_train(run_dir, "--resume")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert f"train: {RACE} for {TOTAL_STEPS:,} learner steps in all (resuming at {killed_at:,};" in err  # said first
    steps = [steps_of(path) for path in complete_checkpoints(run_dir)]
    assert steps == sorted(steps) and steps[-1] >= TOTAL_STEPS
    assert all(later - earlier <= INTERVAL + TINY["n_envs"] for earlier, later in zip(steps, steps[1:]))
    final = json.loads((run_dir / "final_eval.json").read_text())
    assert final["steps"] == steps[-1] and final["evaluations"][0]["episodes"] == TINY["final_eval_episodes"]
    assert "vs random: won" in out
    metadata = read_metadata(latest_checkpoint(run_dir))
    assert metadata["env_id"] == RACE and metadata["env_version"] == 0 and metadata["seed"] == 0
    assert {"torch", "sb3-contrib", "gymnasium", "pettingzoo"} <= set(metadata["library_versions"])
    assert any(member["kind"] == "snapshot" for member in metadata["pool"])


@pytest.mark.parametrize("field, value", [("env_version", 99), ("rules_fingerprint", "0123abcd"),
                                          ("interface", "0123abcd")])
def test_a_checkpoint_of_another_env_version_or_rules_is_refused(tiny_run, tmp_path, field, value):
    config, _ = tiny_run
    copy = tmp_path / "copy"
    for path in complete_checkpoints(config.resolved_run_dir)[-1:]:
        (copy / "checkpoints").mkdir(parents=True, exist_ok=True)
        metadata = read_metadata(path) | {field: value}
        (copy / "checkpoints" / path.name).write_bytes(path.read_bytes())
        metadata_path(copy / "checkpoints" / path.name).write_text(json.dumps(metadata))
    resumed = apply_overrides(config, {"run_dir": str(copy), "total_steps": 1000})
    with pytest.raises(CheckpointMismatchError, match=f"{field}: checkpoint .* has {value!r}"):
        train(resumed, resume=True)
    with pytest.raises(CheckpointMismatchError, match=field):
        play(latest_checkpoint(copy), seat=0, seed=0, choose=lambda menu: menu[0][0], write=lambda text: None,
             allow_imports=True)


def test_a_fresh_run_will_not_overwrite_and_a_resume_needs_a_checkpoint(tiny_run, tmp_path):
    config, _ = tiny_run
    with pytest.raises(RunDirectoryError, match="--resume"):
        train(config)
    with pytest.raises(RunDirectoryError, match="nothing to resume"):
        train(apply_overrides(config, {"run_dir": str(tmp_path)}), resume=True)


def test_a_checkpoint_plays_legal_actions_as_a_policy(tiny_run):
    config, results = tiny_run
    env = make_aec_env(RACE)
    env.reset(seed=0)
    for seed, deterministic in ((0, True), (1, False)):
        policy = CheckpointPolicy(results["checkpoint"], deterministic=deterministic, seed=seed)
        for counter_left in (1, 2, 3):
            mask = np.zeros(3, dtype=np.int8)
            mask[:counter_left] = 1
            assert mask[policy(env.observe("player_0")["observation"], mask)] == 1


def test_a_person_can_duel_a_checkpoint(tiny_run):
    _, results = tiny_run
    lines, menus = [], []

    def choose(menu):
        menus.append(menu)
        return menu[0][0]

    reward = play(results["checkpoint"], seat=1, seed=0, choose=choose, write=lines.append, allow_imports=True)
    assert reward in (-1.0, 1.0)
    assert menus and all(name.startswith("action ") for menu in menus for _, name in menu)
    assert lines[0].startswith("you play player_1") and lines[-1].startswith("fight over")


def test_checkpoint_probabilities_match_sb3s_masked_distribution(tiny_run):
    import torch
    from sb3_contrib import MaskablePPO

    _, results = tiny_run
    policy = CheckpointPolicy(results["checkpoint"])
    model = MaskablePPO.load(results["checkpoint"], device="cpu")
    env = make_aec_env(RACE)
    env.reset(seed=0)
    observation = env.observe("player_0")["observation"]
    for mask in ([1, 1, 1], [1, 1, 0], [0, 1, 0]):
        with torch.no_grad():
            expected = model.policy.get_distribution(model.policy.obs_to_tensor(observation)[0],
                                                     action_masks=np.array([mask])).distribution.probs[0].numpy()
        assert np.allclose(policy.action_probabilities(observation, np.array(mask)), expected, atol=1e-6)
    sampled = {CheckpointPolicy(results["checkpoint"], deterministic=False, seed=s)(observation, np.array([0, 1, 1]))
               for s in range(30)}
    assert sampled <= {1, 2}


def test_the_interface_digest_follows_actions_and_observation_and_old_checkpoints_are_still_read(tiny_run):
    from issoku.agents.checkpoint import check_compatible
    from issoku.training.make_env import env_identity

    _, results = tiny_run
    metadata = read_metadata(results["checkpoint"])
    identity = env_identity(make_aec_env(RACE), RACE)
    assert metadata["interface"] == identity["interface"]
    assert env_identity(make_aec_env(RACE, {"target": 12}), RACE)["interface"] != identity["interface"]
    check_compatible({key: value for key, value in metadata.items() if key != "interface"}, identity)


def test_a_plain_checkpoint_plays_through_its_numpy_twin_with_torchs_probabilities(tiny_run):
    import torch

    from issoku.agents.batched import masked_softmax
    from issoku.agents.checkpoint_zip import load_actor
    from issoku.agents.numpy_actor import NumpyMLP

    _, results = tiny_run
    policy = CheckpointPolicy(results["checkpoint"])
    assert isinstance(policy._network, NumpyMLP)  # not torch: its per-decision cost
    observations = np.random.default_rng(0).random((5, policy._network.layers[0][0].shape[0]), dtype=np.float32)
    masks = np.array([[1, 1, 1], [1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 1, 1]], dtype=np.int8)
    with torch.inference_mode():
        expected = masked_softmax(load_actor(results["checkpoint"])(torch.as_tensor(observations)).numpy(), masks)
    np.testing.assert_allclose(policy.action_probabilities_batch(observations, masks), expected, rtol=0, atol=1e-6)


def _copy_of_checkpoints(config, folder: Path) -> None:
    shutil.copytree(Path(config.resolved_run_dir) / "checkpoints", folder / "checkpoints")


def test_a_resume_trains_on_with_the_hyperparameters_given_on_the_command_line(tiny_run, tmp_path):
    config, _ = tiny_run
    _copy_of_checkpoints(config, tmp_path)
    changed = {"learning_rate": 1.5e-5, "ent_coef": 0.125, "gamma": 0.9, "n_epochs": 2}
    resumed = apply_overrides(config, {**changed, "run_dir": str(tmp_path), "total_steps": 700})
    train(resumed, resume=True)
    saved = read_data(latest_checkpoint(tmp_path))  # what SB3 wrote of the model that trained on
    assert {key: saved[key] for key in changed} == changed


def test_a_resume_refuses_another_network_shape(tiny_run, tmp_path):
    config, _ = tiny_run
    _copy_of_checkpoints(config, tmp_path)
    with pytest.raises(RunDirectoryError, match=r"net_arch: checkpoint .* has \[.*\], the config \[7\]"):
        train(apply_overrides(config, {"net_arch": (7,), "run_dir": str(tmp_path), "total_steps": 700}), resume=True)
