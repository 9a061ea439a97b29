"""The self-play env credits the learner's terminal reward from either seat's move, from its own seat."""

import numpy as np
import pytest
from conftest import RACE

from issoku.training.make_env import make_aec_env, make_seat_env
from issoku.training.opponents import Opponent, OpponentPool
from issoku.envs.single_agent import SingleAgentEnv
from issoku.training.selfplay_env import SelfPlayEnv

ADD_ONE, ADD_THREE = 0, 2


def greedy_three(observation, mask):
    """Adds 3 when it may, else the largest legal add."""
    return int(np.flatnonzero(mask)[-1])


def env_with_learner_at(seat: str, target: int = 5) -> tuple[SelfPlayEnv, np.ndarray]:
    """A race env (first to reach ``target``) whose seeded reset put the learner at ``seat``."""
    pool = OpponentPool([Opponent("greedy", greedy_three)])
    env = SelfPlayEnv(make_seat_env(make_aec_env(RACE, {"target": target})), pool)
    for seed in range(100):
        observation, _ = env.reset(seed=seed)
        if env.unwrapped.learner == seat:
            return env, observation
    raise AssertionError(f"no seed in 0..99 seats the learner at {seat}")


def test_learner_gets_minus_one_when_the_opponents_move_wins():
    env, _ = env_with_learner_at("player_1")  # opponent: +3 -> 3
    observation, reward, terminated, truncated, info = env.step(ADD_ONE)  # learner -> 4, opponent -> 5 wins
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["selfplay"]["return"] == -1.0 and info["selfplay"]["opponent"] == "greedy"
    assert env.pool.win_rate("greedy") == pytest.approx(1 / 3)  # (0 + 1) / (1 + 2): the loss was recorded


def test_learner_gets_plus_one_when_its_own_move_wins():
    env, _ = env_with_learner_at("player_0")
    env.step(ADD_ONE)  # learner -> 1, opponent +3 -> 4
    _, reward, terminated, _, info = env.step(ADD_ONE)  # learner -> 5 wins
    assert (reward, terminated) == (1.0, True)
    assert info["selfplay"]["length"] == 2 and info["selfplay"]["action_counts"].tolist() == [2, 0, 0]


def test_observations_and_masks_are_the_learners_own():
    env, observation = env_with_learner_at("player_1", target=10)
    assert observation[-2:].tolist() == [0.0, 1.0]  # the seat flag of player_1, not player_0
    assert observation[3] == 1.0  # the opponent already moved the counter to 3
    observation, *_ = env.step(ADD_THREE)  # learner 3 -> 6, opponent +3 -> 9
    assert observation[9] == 1.0 and observation[-2:].tolist() == [0.0, 1.0]
    assert env.action_masks().tolist() == [True, False, False]  # only +1 fits below the target


def test_learner_seat_is_swapped_per_episode_by_seed_and_reproducible():
    env, _ = env_with_learner_at("player_0")
    seats = []
    for seed in range(40):
        env.reset(seed=seed)
        seats.append(env.unwrapped.learner)
    assert set(seats) == {"player_0", "player_1"}
    again = []
    for seed in range(40):
        env.reset(seed=seed)
        again.append(env.unwrapped.learner)
    assert again == seats


def test_unequal_seat_spaces_are_refused():
    aec = make_aec_env(RACE)
    from gymnasium import spaces
    aec.action_spaces["player_1"] = spaces.Discrete(4)
    with pytest.raises(ValueError, match="share their spaces"):
        SingleAgentEnv(aec, greedy_three)


def test_the_single_agent_env_alone_credits_the_opponents_winning_move():
    env = SingleAgentEnv(make_aec_env(RACE, {"target": 5}), greedy_three, learner_seat=1)
    env.reset(seed=0)
    assert env.step(ADD_ONE)[1:4] == (-1.0, True, False)


def test_fights_over_before_the_learners_first_decision_are_skipped():
    env = SingleAgentEnv(make_aec_env(RACE, {"target": 3}), greedy_three, learner_seat=1)
    with pytest.raises(RuntimeError, match="before the learner decided"):
        env.reset(seed=0)  # the opponent always wins with its first +3


def test_gymnasium_and_sb3_env_checkers_pass():
    import warnings

    from gymnasium.utils.env_checker import check_env as gymnasium_check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env, _ = env_with_learner_at("player_0", target=10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "env differs from env.unwrapped": the pool wrapper is the point
        gymnasium_check_env(env, skip_render_check=True)
        sb3_check_env(env, warn=False)
