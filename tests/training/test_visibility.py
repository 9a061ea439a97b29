"""What a run shows: the TensorBoard scalars the issue asks for, and the progress bar's steps/s and win rate."""

from pathlib import Path

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from issoku.training.callbacks import ProgressBar, SelfPlayStats
from issoku.training.opponents import Opponent, OpponentPool
from issoku.agents.policy import RandomLegal


def scalar_tags(run_dir: str) -> set[str]:
    tags = set()
    for events in Path(run_dir, "tb").rglob("events.out.tfevents.*"):
        accumulator = EventAccumulator(str(events))
        accumulator.Reload()
        tags |= set(accumulator.Tags()["scalars"])
    return tags


def test_tensorboard_has_win_rates_per_member_and_scripted_agent_length_entropy_and_action_kinds(tiny_run):
    config, _ = tiny_run
    tags = scalar_tags(config.resolved_run_dir)
    assert {"selfplay/win_rate", "selfplay/episode_length", "train/entropy_loss", "eval/win_rate/random",
            "pool/win_rate/random", "pool/probability/random"} <= tags
    assert any(tag.startswith("pool/win_rate/snapshot@") for tag in tags)
    assert any(tag.startswith("actions/") for tag in tags)


def test_the_progress_bar_shows_steps_per_second_win_rate_and_pool_size(capsys):
    pool = OpponentPool([Opponent("random", RandomLegal(0))])
    stats = SelfPlayStats(pool, ["action 0"])
    stats.recent_scores.extend([1.0, 0.0, 1.0, 1.0])
    bar = ProgressBar(100, stats)
    bar.num_timesteps = 0
    bar._on_training_start()
    bar.bar.update(40)
    bar._on_rollout_end()
    bar.bar.refresh()
    line = bar.bar.format_meter(**bar.bar.format_dict)
    bar.bar.close()
    assert "step/s" in line and "win_rate=0.75" in line and "pool=1" in line
