"""A checkpoint zip is data: a payload in any pickled entry never runs, under any command that loads one.

Each case plants a pickle that would create a marker file when unpickled, in one entry of a real
checkpoint, and loads the zip the way one command does; the marker must not exist afterwards. A
known entry is rebuilt from plain data whatever its pickle holds (the load succeeds); a ``.pth``
payload fails with a one-line :class:`CheckpointError` (a command answers it with exit 2).
"""

import base64
import json
import os
import pickle
import shutil
import zipfile
from pathlib import Path

import pytest
from conftest import TINY
from typer.testing import CliRunner

from issoku.agents.checkpoint import CheckpointPolicy, metadata_path
from issoku.agents.checkpoint_zip import CheckpointError, load_model
from issoku.cli import app
from issoku.evaluation.games.policies import resolve_policy
from issoku.training.checkpoints import complete_checkpoints
from issoku.training.config import TrainConfig
from issoku.training.selfplay import train

PICKLED_ENTRIES = ("policy_class", "observation_space", "action_space", "clip_range", "lr_schedule",
                   "rollout_buffer_class", "ep_info_buffer")


class Payload:
    """Unpickling this touches ``marker`` (what an attacker's ``os.system`` call would do)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def tampered_copy(checkpoint: Path, folder: Path, entry: str, marker: Path) -> Path:
    """A copy of ``checkpoint`` (zip and JSON) with the payload in ``entry`` (a data field or a .pth file)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / checkpoint.name
    shutil.copy(metadata_path(checkpoint), metadata_path(out))
    payload = pickle.dumps(Payload(marker))
    with zipfile.ZipFile(checkpoint) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            content = source.read(item)
            if item.filename == "data" and not entry.endswith(".pth"):
                data = json.loads(content)
                data[entry] = {":type:": "<class 'x'>", ":serialized:": base64.b64encode(payload).decode()}
                content = json.dumps(data).encode()
            elif item.filename == entry:
                content = payload
            target.writestr(item, content)
    return out


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A tiny finished run on race_v0 (two checkpoints)."""
    config = TrainConfig(**TINY, total_steps=128, checkpoint_every=128,
                         run_dir=str(tmp_path_factory.mktemp("safe_run")))
    train(config)
    return config


def loaders(tmp_path: Path):
    """Every way a command loads a checkpoint zip (name, call)."""
    runner = CliRunner()

    def cli(*args: str):
        def call(path: Path) -> None:
            result = runner.invoke(app, [*args[:1], str(path), *args[1:]], input="")
            assert result.exit_code in (0, 2), result.output
            if result.exit_code == 2:
                assert len(result.output.strip().splitlines()) == 1, result.output
                raise CheckpointError(result.output)
        return call

    return {
        "CheckpointPolicy (evaluate, play, pool snapshots)": lambda path: CheckpointPolicy(path),
        "study / benchmark policy entry": lambda path: resolve_policy(str(path)).factory(seed=0),
        "issoku evaluate": cli("evaluate", "--duels", "2", "--allow-imports"),
        "issoku play": cli("play", "--allow-imports"),
        "load_model with an env (resume, fine-tune)": lambda path: load_model(path, env=_vec_env()),
    }


def _vec_env():
    from issoku.training.make_env import make_selfplay_env
    from issoku.training.opponents import OpponentPool
    from stable_baselines3.common.vec_env import DummyVecEnv

    return DummyVecEnv([lambda: make_selfplay_env(TrainConfig(**TINY), OpponentPool())])


@pytest.mark.parametrize("entry", PICKLED_ENTRIES + ("policy.pth", "pytorch_variables.pth", "policy.optimizer.pth"))
def test_a_payload_in_any_pickled_entry_never_runs(run, tmp_path, entry):
    marker = tmp_path / "marker"
    tampered = tampered_copy(complete_checkpoints(run.run_dir)[-1], tmp_path / "ck", entry, marker)
    for name, load in loaders(tmp_path).items():
        try:
            load(tampered)
        except CheckpointError as error:
            assert "\n" not in str(error).strip(), f"{name}: {error}"
        assert not marker.exists(), f"{name} ran the payload in {entry}"


def test_a_resume_never_unpickles_the_newest_checkpoint(run, tmp_path):
    marker = tmp_path / "marker"
    run_dir = tmp_path / "run"
    shutil.copytree(run.run_dir, run_dir)
    newest = complete_checkpoints(run_dir)[-1]
    tampered_copy(newest, tmp_path / "t", "clip_range", marker)
    shutil.copy(tmp_path / "t" / newest.name, newest)
    config = TrainConfig(**{**TINY, "run_dir": str(run_dir)}, total_steps=256, checkpoint_every=128)
    assert train(config, resume=True)["steps"] == 256  # the pickled clip range is never read: the run's own is used
    assert not marker.exists()


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04truncated", b"not a zip at all"])
def test_a_damaged_zip_is_one_line(tmp_path, content):
    path = tmp_path / "bad.zip"
    path.write_bytes(content)
    with pytest.raises(CheckpointError, match="bad.zip: not a readable zip"):
        load_model(path)


def test_a_snapshot_source_outside_the_run_is_refused(run, tmp_path):
    run_dir = tmp_path / "run"
    shutil.copytree(run.run_dir, run_dir)
    newest = complete_checkpoints(run_dir)[-1]
    metadata = json.loads(metadata_path(newest).read_text())
    metadata["pool"].append({"name": "evil", "kind": "snapshot", "source": "/etc/passwd", "scores": []})
    metadata_path(newest).write_text(json.dumps(metadata))
    config = TrainConfig(**{**TINY, "run_dir": str(run_dir)}, total_steps=256, checkpoint_every=128)
    with pytest.raises(CheckpointError, match="'/etc/passwd' is not a checkpoint of this run"):
        train(config, resume=True)



def test_a_damaged_newest_checkpoint_is_skipped_for_the_previous_one_saying_so(run, tmp_path, capsys):
    run_dir = tmp_path / "run"
    shutil.copytree(run.run_dir, run_dir)
    *_, previous, newest = complete_checkpoints(run_dir)
    newest.write_bytes(newest.read_bytes()[:200])  # a disk that filled up mid-write, JSON intact
    config = TrainConfig(**{**TINY, "run_dir": str(run_dir)}, total_steps=256, checkpoint_every=128)
    results = train(config, resume=True)
    said = capsys.readouterr().err
    assert f"skipping damaged checkpoint {newest.name}" in said and "not a readable zip" in said
    assert results["steps"] == 256 and json.loads(metadata_path(newest).read_text())["steps"] == 128
    assert previous.name == "step_000000000000.zip"
