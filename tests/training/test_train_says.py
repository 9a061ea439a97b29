"""``issoku train`` with no budget says, before it starts, what it will do: env, the default budget and the
step it really stops at (a whole rollout), seed, run folder and the final evaluation."""

import pytest

from issoku.training import selfplay
from issoku.training.config import TrainConfig


class Started(Exception):
    """Raised where the run would build its envs: everything before it was said."""


def test_a_run_with_no_budget_says_the_default_and_where_it_really_stops(tmp_path, monkeypatch, capsys):
    def stop(*args, **kwargs):
        raise Started

    monkeypatch.setattr(selfplay, "make_vec_env", stop)
    config = TrainConfig(run_dir=str(tmp_path / "run"))
    with pytest.raises(Started):
        selfplay.train(config)
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert said == (f"train: breath_duel_v0 for 1,000,000 learner steps in all (--total-steps sets it; it stops at "
                    f"1,001,472, a whole rollout of 2,048 steps), seed 0, into {tmp_path / 'run'}; then 1,000 seeded "
                    f"duels against random (Ctrl-C stops; --resume continues)")


def test_a_run_with_no_final_evaluation_ends_with_none(tmp_path):
    """``final_eval_episodes=0`` skips the final duels (it once died after training with an IndexError)."""
    from tests.training.conftest import TINY

    config = TrainConfig(**{**TINY, "final_eval_episodes": 0}, total_steps=128, run_dir=str(tmp_path / "run"))
    results = selfplay.train(config)
    assert results["evaluations"] == [] and results["steps"] >= 128
