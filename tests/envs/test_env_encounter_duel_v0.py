"""``encounter_duel_v0``: PettingZoo conformance, the spec docstring, rewards, the scenario, and the adapter
staying generic."""

from __future__ import annotations

import contextlib
import inspect
import io
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from pettingzoo.test import api_test, seed_test

from issoku.agents.encounter_scripted import Heuristic
from issoku.envs import adapter, encounter_duel_v0
from issoku.envs.single_agent import SingleAgentEnv

PAIRS = [("kenshi", "ono_brute"), ("yari_guard", "tonfa_monk"), ("archer", "bandit"), ("kusari_fighter", "tonfa_monk")]


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
@pytest.mark.parametrize("start_distance", [1, 6])
def test_api_and_seed_tests_pass(pair, start_distance):
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # api_test's advice about Dict observation spaces
        api_test(encounter_duel_v0.env(pair, start_distance=start_distance), num_cycles=300)
        seed_test(lambda: encounter_duel_v0.env(pair, start_distance=start_distance), num_cycles=300)


def test_api_test_passes_with_the_focused_attack():
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        api_test(encounter_duel_v0.env(start_distance=1, focused_attack=True), num_cycles=300)


def test_docstring_spec_matches_the_env():
    env = encounter_duel_v0.env()
    doc = encounter_duel_v0.__doc__
    size = env.observation_space("player_0")["observation"].shape[0]
    assert f"Discrete({env.action_space('player_0').n})" in doc and f"({size},)" in doc
    assert env.possible_agents == ["player_0", "player_1"] and str(env) == "encounter_duel_v0"
    for name in env.ruleset.observation_spec.names:
        assert name.removeprefix("self_").removeprefix("opponent_") in doc, name
    for kind in env.ruleset.decision_kinds:
        assert f"``{kind}``" in doc


def test_the_adapter_has_no_encounter_specific_code():
    source = inspect.getsource(adapter).lower()
    for word in ("encounter", "stance", "atn", "void_point", "issoku.rules.encounters"):
        assert word not in source


def test_rulesets_are_shared_and_arguments_checked():
    assert encounter_duel_v0.env().ruleset is encounter_duel_v0.env(["kenshi", "ono_brute"]).ruleset
    with pytest.raises(TypeError):
        encounter_duel_v0.env("kenshi")
    with pytest.raises(ValueError, match="unknown fighter"):
        encounter_duel_v0.env(("kenshi", "dragon"))


def _play(env, seed, policies=None):
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        agent = env.agent_selection
        obs = env.observe(agent)
        mask = obs["action_mask"]
        assert mask.any()
        policy = policies[env.seat(agent)] if policies else None
        env.step(policy(obs["observation"], mask) if policy else int(rng.choice(np.flatnonzero(mask))))


def test_both_agents_get_the_result_and_scripted_fights_end():
    env = encounter_duel_v0.env()
    decided = 0
    for seed in range(20):
        _play(env, seed, [Heuristic(seed), Heuristic(seed + 1)])
        returns = env.game_state.returns()
        assert env._cumulative_rewards == {"player_0": returns[0], "player_1": returns[1]}
        decided += env.game_state.is_terminal()
    assert decided == 20


def test_render_shows_the_encounter():
    env = encounter_duel_v0.env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "round 0" in text and "kenshi" in text and "ATN" in text and "[EN-002 ]" in text


def test_single_agent_wrapper_passes_gymnasium_checker():
    wrapped = SingleAgentEnv(encounter_duel_v0.env(illegal_action="terminate"), Heuristic(seed=0))
    gymnasium_check_env(wrapped, skip_render_check=True)


def test_registered_env_and_policies():
    from issoku.agents.registry import make_policy
    from issoku.envs import make_env

    assert make_env("encounter_duel_v0").ruleset is encounter_duel_v0.env().ruleset
    for name in ("encounter_aggressive", "encounter_defensive", "encounter_heuristic", "random"):
        policy = make_policy(name, seed=0)
        _play(encounter_duel_v0.env(), 1, [policy, policy])


@pytest.mark.rule("EN-078", "EN-109")
def test_the_seeded_scenario_replays_a_feint_and_an_endure():
    from issoku.envs.scenario import load_scenario, play
    from issoku.agents.registry import make_policy

    path = Path(__file__).resolve().parents[2] / "scenarios" / "encounter_duel" / "feint_and_endure.toml"
    spec = load_scenario(path)
    played = play(spec, make_policy(spec.policy, seed=spec.seed))
    assert played.over
    events = played.state.events
    feint = [e for e in events if e.kind == "feint"][0]
    endure = [e for e in events if e.kind == "wounds"][0]
    assert (feint.data["margin"], feint.data["bonus"]) == (15, 7)
    assert (endure.data["rolled"], endure.data["endure"], endure.data["dealt"]) == (20, 10, 5)
