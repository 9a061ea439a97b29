"""The Gymnasium single-seat wrapper over the toy ruleset."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from issoku.agents import RandomLegal
from issoku.envs.adapter import RulesetAECEnv
from issoku.envs.errors import IllegalActionError
from issoku.envs.single_agent import SingleAgentEnv
from tests.evaluation.toy_env import race_v0

from .toy_ruleset import ToyRace


def make(num_seats=2, learner_seat=None, illegal_action="terminate", opponent=None, **rules) -> SingleAgentEnv:
    env = RulesetAECEnv(ToyRace(num_seats, **rules), illegal_action=illegal_action)
    return SingleAgentEnv(env, opponent or RandomLegal(seed=0), learner_seat=learner_seat)


def always(name: str):
    """An opponent that always plays ``name`` when legal, else its first legal action."""
    action = ToyRace().action_names.index(name)
    return lambda observation, mask: action if mask[action] else int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("num_seats", [2, 3])
def test_gymnasium_env_checker(num_seats):
    gymnasium_check_env(make(num_seats), skip_render_check=True)


@pytest.mark.parametrize("num_seats", [2, 3])
def test_sb3_env_checker(num_seats):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SB3's advice about unnormalised Box bounds does not apply
        sb3_check_env(make(num_seats), warn=False)


def test_the_learner_decides_at_every_step_and_its_mask_is_legal():
    env = make(3)
    rng = np.random.default_rng(0)
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            mask = env.action_masks()
            assert mask.dtype == bool and mask.any()
            assert np.array_equal(mask, info["action_mask"].astype(bool))
            assert env.env.agent_selection == env.learner
            assert env.observation_space.contains(obs)
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = terminated or truncated
        assert reward in (-1.0, 0.0, 1.0)


def test_seat_comes_from_the_seed_or_is_fixed():
    env = make(2)
    seats = {env.reset(seed=seed)[1]["learner_seat"] for seed in range(20)}
    assert seats == {0, 1}
    assert env.reset(seed=5)[1]["learner_seat"] == env.reset(seed=5)[1]["learner_seat"]
    fixed = make(2, learner_seat=1)
    assert {fixed.reset(seed=seed)[1]["learner"] for seed in range(10)} == {"racer_1"}
    with pytest.raises(ValueError):
        make(2, learner_seat=2)


def test_learner_gets_minus_one_when_the_opponent_ends_the_fight():
    # The opponent always steps toward a 2-square goal; a learner that only strikes never gets there.
    env = make(2, learner_seat=1, opponent=always("step"), target=2)
    env.reset(seed=0)
    strike = env.env.action_id("strike")
    obs, reward, terminated, truncated, info = env.step(strike)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert not env.action_masks().any()


def test_learner_gets_plus_one_on_its_own_winning_move():
    env = make(2, learner_seat=0, opponent=always("block"), target=2)
    env.reset(seed=0)
    step = env.env.action_id("step")
    assert env.step(step)[1:4] == (0.0, False, False)
    assert env.step(step)[1:4] == (1.0, True, False)


def test_illegal_learner_action_raises_or_terminates_with_the_penalty():
    raising = make(2, learner_seat=0, illegal_action="raise")
    raising.reset(seed=0)
    with pytest.raises(IllegalActionError):
        raising.step(raising.env.action_id("dodge"))
    terminating = make(2, learner_seat=0)
    terminating.reset(seed=0)
    assert terminating.step(terminating.env.action_id("dodge"))[1:3] == (-1.0, True)


def test_set_opponent_swaps_the_policy():
    env = make(2, learner_seat=0, opponent=always("step"), target=2)
    env.set_opponent(always("block"))
    env.reset(seed=0)
    assert env.step(env.env.action_id("step"))[1:4] == (0.0, False, False)


def test_one_reset_seed_fixes_the_fights_and_the_opponents_choices():
    def episode_log(seed):
        env = make(3)
        env.env.record_events = True
        env.reset(seed=seed)
        for _ in range(2):
            done = False
            while not done:
                done = any(env.step(int(np.flatnonzero(env.action_masks())[0]))[2:4])
            log = env.env.game_state.events.to_jsonl()
            env.reset()
        return log

    assert episode_log(3) == episode_log(3)
    assert episode_log(3) != episode_log(4)


def test_any_classic_aec_env_works_and_passes_the_checkers():
    env = SingleAgentEnv(race_v0(), RandomLegal(seed=0))  # the toy game: a plain PettingZoo AEC env, no adapter
    gymnasium_check_env(env, skip_render_check=True)
    observation, info = env.reset(seed=0)
    done = False
    while not done:
        action = int(np.flatnonzero(env.action_masks())[0])
        observation, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert reward in (-1.0, 1.0)
