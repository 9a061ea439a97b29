"""``tempo_duel_v0``: PettingZoo conformance, the spec docstring, rewards, feint secrecy through the env,
and the adapter staying generic."""

from __future__ import annotations

import contextlib
import inspect
import io
import warnings
from itertools import product

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from pettingzoo.test import api_test, seed_test

from issoku.agents.tempo_scripted import Heuristic
from issoku.envs import IllegalActionError, adapter, tempo_duel_v0
from issoku.envs.single_agent import SingleAgentEnv
from issoku.rules.tempo import action

PAIRS = [("fencer", "knight"), ("spearman", "brawler"), ("archer", "crossbowman"), ("knife_fighter", "fencer")]


@pytest.mark.parametrize("pair,initiator", list(product(PAIRS, [None, 1])),
                         ids=lambda p: "-".join(p) if isinstance(p, tuple) else str(p))
def test_api_and_seed_tests_pass(pair, initiator):
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # api_test's advice about Dict observation spaces
        api_test(tempo_duel_v0.env(pair, initiator=initiator), num_cycles=200)
        seed_test(lambda: tempo_duel_v0.env(pair, initiator=initiator), num_cycles=200)


def test_docstring_spec_matches_the_env():
    env = tempo_duel_v0.env()
    doc = tempo_duel_v0.__doc__
    size = env.observation_space("player_0")["observation"].shape[0]
    assert f"Discrete({env.action_space('player_0').n})" in doc and f"({size},)" in doc
    assert env.possible_agents == ["player_0", "player_1"] and str(env) == "tempo_duel_v0"
    for name in env.ruleset.observation_spec.names:
        assert name in doc, f"observation field {name} missing from the spec"
    for kind in env.ruleset.decision_kinds:
        assert f"``{kind}``" in doc


def test_the_adapter_has_no_tempo_specific_code():
    source = inspect.getsource(adapter).lower()
    for word in ("tempo", "feint", "parry", "issoku.rules.tempo", "ap_per_round"):
        assert word not in source


def test_rulesets_are_shared_and_arguments_checked():
    assert tempo_duel_v0.env().ruleset is tempo_duel_v0.env(["fencer", "knight"]).ruleset
    assert tempo_duel_v0.env(round_limit=5).ruleset.round_limit == 5
    with pytest.raises(TypeError):
        tempo_duel_v0.env("fencer")
    with pytest.raises(ValueError, match="unknown fighter"):
        tempo_duel_v0.env(("fencer", "dragon"))


def _play(env, seed, policy=None):
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        agent = env.agent_selection
        obs = env.observe(agent)
        mask = obs["action_mask"]
        assert mask.any()
        choice = policy(obs["observation"], mask) if policy else int(rng.choice(np.flatnonzero(mask)))
        env.step(choice)


def test_both_agents_get_the_result():
    env = tempo_duel_v0.env()
    decided = 0
    for seed in range(30):
        _play(env, seed)
        returns = env.game_state.returns()
        assert env._cumulative_rewards == {"player_0": returns[0], "player_1": returns[1]}
        decided += env.game_state.is_terminal()
    assert decided > 15


@pytest.mark.rule("TP-G13")
def test_the_opponent_observes_no_feint_through_the_env():
    views = []
    for declared in ("proactive:feint", "proactive:melee_attack"):
        env = tempo_duel_v0.env(start_distance=1)
        env.reset(seed=11)
        while env.agent_selection != "player_0" or action(declared) not in np.flatnonzero(
                env.observe("player_0")["action_mask"]):
            env.step(0)                                        # pass until player_0 can attack
        env.step(action(declared))
        views.append((env.agent_selection, env.observe("player_1")["observation"].copy(),
                      env.observe("player_1")["action_mask"].copy(), env.infos["player_1"]["decision_kind"]))
    (agent_a, obs_a, mask_a, kind_a), (agent_b, obs_b, mask_b, kind_b) = views
    assert agent_a == agent_b and kind_a == kind_b and np.array_equal(obs_a, obs_b)
    assert np.array_equal(mask_a, mask_b)


def test_illegal_action_raises_and_scripted_agents_play_through_the_env():
    env = tempo_duel_v0.env(illegal_action="raise")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    _play(env, 5, Heuristic(seed=0))


def test_render_shows_the_duel_without_the_feint():
    env = tempo_duel_v0.env(render_mode="ansi", start_distance=1)
    env.reset(seed=11)
    while action("proactive:feint") not in np.flatnonzero(env.observe(env.agent_selection)["action_mask"]):
        env.step(0)
    env.step(action("proactive:feint"))
    text = env.render()
    assert "declared: proactive:melee_attack" in text and "feint" not in text


def test_single_agent_wrapper_passes_gymnasium_checker():
    wrapped = SingleAgentEnv(tempo_duel_v0.env(), Heuristic(seed=0))
    gymnasium_check_env(wrapped, skip_render_check=True)


def test_registered_env_and_policies():
    from issoku.agents.registry import make_policy
    from issoku.envs import make_env

    assert make_env("tempo_duel_v0").ruleset is tempo_duel_v0.env().ruleset
    for name in ("tempo_always_parry", "tempo_feint_counter", "tempo_heuristic", "tempo_combat_approach"):
        _play(tempo_duel_v0.env(), 1, make_policy(name, seed=0))


@pytest.mark.rule("TP-046", "TP-044", "TP-035")
def test_the_seeded_scenario_replays_the_issue_exchange():
    from pathlib import Path

    from issoku.envs.scenario import load_scenario, play

    path = Path(__file__).resolve().parents[2] / "scenarios" / "tempo_duel" / "bind_wind_withdraw.toml"
    played = play(load_scenario(path))
    lines = [(e.rule, e.kind, e.data.get("action"), e.data.get("outcome"), e.data.get("why"))
             for e in played.state.events.since(played.setup_events_end)
             if e.kind in ("declare", "react", "counter_tempo", "resolve", "statuses", "stopped")]
    assert lines == [
        ("TP-004", "declare", "proactive:melee_attack", None, None),
        ("TP-005", "react", "react:counter_attack", None, None),
        ("TP-006", "counter_tempo", "ct:parry", None, None),
        ("TP-008", "resolve", "ct_parry", "bind", None),
        ("TP-G09", "stopped", "counter_attack", None, None),
        ("TP-046", "statuses", None, None, "bind"),
        ("TP-004", "declare", "proactive:withdraw", None, None),
        ("TP-005", "react", "react:wind", None, None),
        ("TP-008", "resolve", "withdraw", "failure", None),
        ("TP-G09", "stopped", "withdraw", None, None),
        ("TP-004", "declare", "proactive:withdraw", None, None),
        ("TP-007", "resolve", "withdraw", "success", None),
        ("TP-G10", "statuses", None, None, "withdraw"),
    ]
