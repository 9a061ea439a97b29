"""The training set-up that keeps a learner reading the game: the imitation warm start, the round-limit reward
and frozen checkpoints in the opponent pool."""

import numpy as np
import pytest

from issoku.agents.policy import RandomLegal
from issoku.training.config import ConfigError, TrainConfig
from issoku.training.make_env import make_selfplay_env
from issoku.training.opponents import Opponent, OpponentPool, scripted_policy
from issoku.training.selfplay import build_pool, make_vec_env, new_model


def _play_to_the_end(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        mask = env.get_wrapper_attr("action_masks")()
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            return reward, terminated, truncated, info


def test_a_round_limit_draw_pays_the_round_limit_reward_in_training_only():
    config = TrainConfig(env_id="tempo_duel_v0", env_kwargs={"round_limit": 6}, round_limit_reward=-0.5)
    pool = OpponentPool([Opponent("random", RandomLegal(0))])
    seen = set()
    for seed in range(20):
        for shaped in (True, False):
            reward, terminated, truncated, info = _play_to_the_end(make_selfplay_env(config, pool, shaped=shaped), seed)
            undecided = truncated and not terminated and info["selfplay"]["return"] == 0
            assert reward == pytest.approx(info["selfplay"]["return"] - (0.5 if shaped and undecided else 0.0))
            assert ("round_limit_reward" in info) == (shaped and undecided)
            seen.add(bool(undecided))
    assert seen == {True, False}  # both kinds of ending were played


def test_a_checkpoint_file_is_a_greedy_pool_member_and_a_missing_one_is_refused(tmp_path):
    from issoku.evaluation.games.policies import shipped_checkpoints

    checkpoint = str(shipped_checkpoints()["tempo_duel_v0"])
    policy = scripted_policy(checkpoint, seed=0)
    assert policy.deterministic
    with pytest.raises(ConfigError, match="not found"):
        scripted_policy(str(tmp_path / "gone.zip"), seed=0)


def test_the_warm_start_copies_the_teacher():
    from issoku.training.imitation import imitate
    from issoku.training.make_env import make_config_env, ruleset_of

    config = TrainConfig(env_id="tempo_duel_v0", opponents=("tempo_always_parry",), imitate="tempo_heuristic",
                         imitation_decisions=3_000, imitation_epochs=8, n_envs=1, n_steps=64, batch_size=64,
                         net_arch=(32, 32))
    ruleset = ruleset_of(make_config_env(config))
    pool = build_pool(config, ruleset)
    model = new_model(config, make_vec_env(config, pool))
    copied = imitate(model, config, ruleset)
    assert copied["decisions"] >= 3_000
    assert copied["agreement"] > 0.75  # the teacher feints at random, so no network matches it on every decision


def test_a_search_teacher_is_handed_the_state_of_the_learners_fight():
    from issoku.training.imitation import teacher_games
    from issoku.training.make_env import make_config_env, ruleset_of

    config = TrainConfig(env_id="tempo_duel_v0", opponents=("tempo_heuristic",), imitate="one_step",
                         imitation_decisions=60, n_envs=1)
    games = teacher_games(config, ruleset_of(make_config_env(config)))
    assert len(games["actions"]) >= 60  # one_step refuses to decide without the state it searches
    assert games["masks"][np.arange(len(games["actions"])), games["actions"]].all()
