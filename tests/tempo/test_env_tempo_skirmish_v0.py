"""``tempo_skirmish_v0``: PettingZoo conformance (AEC api_test and seed_test, the parallel conversion's api and
seed tests) for 1v1, 2v2, 3v3, 4v4 and 1v3; one shape for every size; team rewards; the fallen stay."""

from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from issoku.envs import env_ids, make_env, tempo_skirmish_v0
from issoku.envs.teams import as_two_seats

SIZES = {
    "1v1": [["fencer"], ["knight"]],
    "2v2": [["fencer", "knight"], ["spearman", "archer"]],
    "3v3": [["fencer", "knight", "brawler"], ["spearman", "archer", "knife_fighter"]],
    "4v4": [["fencer", "knight", "spearman", "brawler"], ["archer", "crossbowman", "knife_fighter", "knight"]],
    "1v3": [["spearman"], ["archer", "crossbowman", "brawler"]],
}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_api_seed_and_parallel_tests_pass(size):
    sides = SIZES[size]
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # api_test's advice about Dict observation spaces
        api_test(tempo_skirmish_v0.env(sides), num_cycles=300)
        seed_test(lambda: tempo_skirmish_v0.env(sides), num_cycles=300)
        parallel_api_test(tempo_skirmish_v0.parallel_env(sides), num_cycles=300)
        parallel_seed_test(lambda: tempo_skirmish_v0.parallel_env(sides), num_cycles=300)


def test_registered_and_named_by_side_and_rank():
    assert "tempo_skirmish_v0" in env_ids()
    env = make_env("tempo_skirmish_v0", sides=SIZES["1v3"])
    assert env.possible_agents == ["side_0_fighter_1", "side_1_fighter_1", "side_1_fighter_2", "side_1_fighter_3"]
    assert env.ruleset.seat_teams == (0, 1, 1, 1)
    assert str(env) == "tempo_skirmish_v0"


def test_every_size_has_the_same_spaces_so_one_policy_plays_any_seat():
    envs = [tempo_skirmish_v0.env(sides) for sides in SIZES.values()]
    assert len({env.action_names for env in envs}) == 1
    shapes = {env.observation_space(agent)["observation"].shape for env in envs for agent in env.possible_agents}
    assert shapes == {(364,)}
    assert len(envs[0].action_names) == 58


def test_padded_slots_put_enemy_k_in_slot_4_plus_k():
    env = tempo_skirmish_v0.env(SIZES["1v3"])
    env.reset(seed=3)
    spec = env.ruleset.observation_spec
    assert spec.unpack(env.observe("side_0_fighter_1")["observation"])["slot_present"].tolist() == \
        [1, 0, 0, 0, 1, 1, 1, 0]
    assert spec.unpack(env.observe("side_1_fighter_2")["observation"])["slot_present"].tolist() == \
        [1, 1, 1, 0, 1, 0, 0, 0]


@pytest.mark.parametrize("size", ["2v2", "1v3"])
def test_team_rewards_and_fallen_fighters_paid_their_sides_result(size):
    env = tempo_skirmish_v0.env(SIZES[size])
    teams = env.ruleset.seat_teams
    for seed in range(6):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            for name in env.possible_agents:
                totals[name] += env.rewards.get(name, 0.0)
        per_side = {teams[i]: totals[name] for i, name in enumerate(env.possible_agents)}
        for i, name in enumerate(env.possible_agents):
            assert totals[name] == per_side[teams[i]]
        assert per_side[0] == -per_side[1]


def test_the_team_view_makes_two_seats_for_tournaments():
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        api_test(as_two_seats(tempo_skirmish_v0.env(SIZES["2v2"])), num_cycles=200)


def test_bad_sides_are_refused_with_one_line():
    with pytest.raises(ValueError, match="sides must be two sequences"):
        tempo_skirmish_v0.env("fencer")
    with pytest.raises(ValueError, match="side 1 must be a sequence of 1 to 4"):
        tempo_skirmish_v0.env([["fencer"], []])
    with pytest.raises(ValueError, match="unknown fighter"):
        tempo_skirmish_v0.env([["fencer"], ["dragon"]])
