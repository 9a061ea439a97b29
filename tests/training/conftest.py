"""Training tests run on race_v0, the tests' one toy game set up as a race (tests/evaluation/toy_env.py)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
"""The repository root, where ``tests.evaluation.toy_env`` imports from (a child process needs it on its path)."""

RACE = "tests.evaluation.toy_env:race_v0"
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
