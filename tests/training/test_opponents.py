"""PFSP sampling favors opponents the learner still loses to; snapshots are capped; state round-trips."""

import numpy as np
import pytest

from issoku.agents.policy import RandomLegal
from issoku.training.config import ConfigError
from issoku.training.opponents import SNAPSHOT_KIND, Opponent, OpponentPool, scripted_policy


def pool_of(*names, **options) -> OpponentPool:
    return OpponentPool([Opponent(name, RandomLegal(0)) for name in names], **options)


def test_unplayed_opponents_are_equally_likely():
    assert pool_of("a", "b").probabilities() == {"a": 0.5, "b": 0.5}


def test_pfsp_favors_the_opponent_the_learner_loses_to():
    pool = pool_of("beaten", "unbeaten")
    for _ in range(20):
        pool.record("beaten", +1.0)
        pool.record("unbeaten", -1.0)
    probabilities = pool.probabilities()
    assert probabilities["unbeaten"] > 0.9 > 0.0 < probabilities["beaten"]  # the floor keeps "beaten" in play
    draws = [pool.sample(np.random.default_rng(seed))[0] for seed in range(200)]
    assert draws.count("unbeaten") > 170


def test_draws_count_half_and_window_forgets_old_games():
    pool = pool_of("a", window=4)
    for _ in range(10):
        pool.record("a", -1.0)
    for _ in range(4):
        pool.record("a", 0.0)
    assert pool.win_rate("a") == pytest.approx((2 + 1) / (4 + 2))


def test_oldest_snapshots_are_evicted_beyond_the_cap():
    pool = pool_of("random", max_snapshots=2)
    for step in (1, 2, 3):
        pool.add(Opponent(f"snapshot@{step}", RandomLegal(step), SNAPSHOT_KIND, f"/nowhere/{step}.zip"))
    assert pool.names == ["random", "snapshot@2", "snapshot@3"]


def test_state_restores_scores_and_skips_missing_snapshot_files():
    pool = pool_of("random")
    pool.add(Opponent("snapshot@1", RandomLegal(1), SNAPSHOT_KIND, "/nowhere/step_000000000001.zip"))
    pool.record("random", 1.0)
    pool.record("snapshot@1", -1.0)
    restored = pool_of("random")
    loaded = []
    restored.restore(pool.state(), lambda path, name, seed: loaded.append(name), checkpoint_dir="/nowhere")
    assert loaded == [] and restored.names == ["random"]
    assert restored.win_rate("random") == pool.win_rate("random")


def test_duplicate_names_and_unknown_agents_are_refused():
    pool = pool_of("a")
    with pytest.raises(ValueError, match="already has"):
        pool.add(Opponent("a", RandomLegal(1)))
    with pytest.raises(ConfigError, match="unknown scripted agent"):
        scripted_policy("no_such_agent", seed=0)
