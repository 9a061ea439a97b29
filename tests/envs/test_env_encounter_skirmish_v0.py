"""``encounter_skirmish_v0``: PettingZoo's API and seed tests (AEC and parallel) over every team size, the spec
docstring, team rewards, fallen fighters."""

from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from issoku.envs import encounter_skirmish_v0

SIZES = {
    "1v1": [["kenshi"], ["ono_brute"]],
    "2v2": [["kenshi", "yari_guard"], ["ono_brute", "tonfa_monk"]],
    "3v3": [["kenshi", "yari_guard", "archer"], ["ono_brute", "tonfa_monk", "bandit"]],
    "4v4": [["kenshi", "yari_guard", "archer", "tonfa_monk"], ["ono_brute", "bandit", "bandit", "kusari_fighter"]],
    "1v3_mooks": [["kenshi"], ["bandit", "bandit", "bandit"]],
}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_api_and_seed_tests_pass_for_every_team_size(size):
    sides = SIZES[size]
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # api_test's advice about Dict observation spaces
        api_test(encounter_skirmish_v0.env(sides, start_distance=2), num_cycles=200)
        seed_test(lambda: encounter_skirmish_v0.env(sides, start_distance=2), num_cycles=200)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_parallel_conversion_passes_the_parallel_api_and_seed_tests(size):
    sides = SIZES[size]
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        parallel_api_test(encounter_skirmish_v0.parallel_env(sides, start_distance=2), num_cycles=200)
        parallel_seed_test(lambda: encounter_skirmish_v0.parallel_env(sides, start_distance=2), num_cycles=200)


def test_every_team_size_shares_one_space_shape():
    shapes = {(env.observation_space(env.possible_agents[0])["observation"].shape,
               env.action_space(env.possible_agents[0]).n)
              for env in (encounter_skirmish_v0.env(sides) for sides in SIZES.values())}
    assert len(shapes) == 1


def test_docstring_spec_matches_the_env():
    env = encounter_skirmish_v0.env()
    doc = encounter_skirmish_v0.__doc__
    size = env.observation_space(env.possible_agents[0])["observation"].shape[0]
    assert f"Discrete({env.action_space(env.possible_agents[0]).n})" in doc and f"({size},)" in doc
    assert env.possible_agents == ["side_0_fighter_1", "side_0_fighter_2", "side_1_fighter_1", "side_1_fighter_2"]
    assert str(env) == "encounter_skirmish_v0"
    for kind in env.ruleset.decision_kinds:
        assert f"``{kind}``" in doc


def test_the_observation_is_ego_centric_with_padded_slots():
    env = encounter_skirmish_v0.env(SIZES["1v3_mooks"])
    env.reset(seed=1)
    spec = env.ruleset.observation_spec
    fields = spec.unpack(env.observe("side_0_fighter_1")["observation"])
    assert fields["slot0_place"][0] == 1 and fields["slot0_profile"][-1] == 0       # the kenshi, no mook
    assert not fields["slot1_place"].any() and not fields["slot1_profile"].any()    # no ally: empty slots
    assert all(fields[f"slot{k}_profile"][-1] == 1 for k in (4, 5, 6))              # three mook enemies
    assert not fields["slot7_place"].any()
    mook = spec.unpack(env.observe("side_1_fighter_2")["observation"])
    assert mook["slot0_profile"][-1] == 1 and mook["slot4_profile"][-1] == 0         # own first, enemy in slot 4


def test_team_rewards_reach_the_fallen_too():
    env = encounter_skirmish_v0.env(SIZES["1v3_mooks"], start_distance=1)
    rng = np.random.default_rng(0)
    decided = 0
    for seed in range(15):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            legal = np.flatnonzero(obs["action_mask"])
            attacks = [a for a in legal if env.action_names[a].startswith(("attack", "simple_move:toward:enemy"))]
            env.step(None if terminated or truncated else int(rng.choice(attacks or legal)))
        if any(totals.values()):
            decided += 1
            side = [totals[a] for a in env.possible_agents]
            assert side[0] == -side[1] and side[1] == side[2] == side[3] and abs(side[0]) == 1
    assert decided
