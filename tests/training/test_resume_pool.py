"""A resumed run keeps the opponent pool exactly as the uninterrupted run has it (members, files, seeds)."""

import shutil

import pytest
from conftest import TINY

from issoku.agents.checkpoint import metadata_path, read_metadata
from issoku.training.checkpoints import complete_checkpoints, latest_checkpoint
from issoku.training.config import TrainConfig
from issoku.training.selfplay import train


def pool_members(checkpoint):
    """The saved pool's members, without the scores (those depend on the games played since)."""
    return [(m["name"], m["kind"], m["source"].rpartition("/")[2], m.get("seed")) for m in read_metadata(checkpoint)["pool"]]


@pytest.mark.parametrize("snapshot_every, max_snapshots", [(1, 3), (2, 8)])
def test_a_resume_keeps_the_pool_of_an_uninterrupted_run(tmp_path, snapshot_every, max_snapshots):
    settings = {**TINY, "snapshot_every": snapshot_every, "max_snapshots": max_snapshots, "final_eval_episodes": 2}
    whole = TrainConfig(**settings, total_steps=512, checkpoint_every=128, run_dir=str(tmp_path / "whole"))
    train(whole)
    cut = tmp_path / "cut"
    shutil.copytree(whole.run_dir, cut)
    for path in complete_checkpoints(cut):
        if read_metadata(path)["steps"] > 256:  # as if killed just after the checkpoint at 256
            path.unlink()
            metadata_path(path).unlink()
    train(TrainConfig(**settings, total_steps=512, checkpoint_every=128, run_dir=str(cut)), resume=True)
    for steps in (384, 512):
        name = f"step_{steps:012d}.zip"
        assert pool_members(cut / "checkpoints" / name) == pool_members(tmp_path / "whole" / "checkpoints" / name)
    assert any(kind == "snapshot" for _, kind, _, _ in pool_members(latest_checkpoint(cut)))
