"""Training tests run on race_v0 (tests/training/race_env.py), importable as ``race_env:race_v0``."""

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

RACE = "race_env:race_v0"
TINY = {"env_id": RACE, "n_envs": 2, "n_steps": 64, "batch_size": 64, "n_epochs": 2, "net_arch": (32, 32),
        "eval_every": 0, "final_eval_episodes": 20, "progress_bar": False}
"""A config small enough for a few-second run."""


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """A finished tiny run (500 steps, checkpoint and evaluation every 200): its config and final results."""
    from issoku.training.config import TrainConfig
    from issoku.training.selfplay import train

    config = TrainConfig(**{**TINY, "eval_every": 200, "eval_episodes": 10}, total_steps=500, checkpoint_every=200,
                         run_dir=str(tmp_path_factory.mktemp("tiny_run")))
    return config, train(config)
