"""``breath_duel_v0``: conformance over every weapon pairing, the spec docstring, rewards, the wrapper."""

from __future__ import annotations

import contextlib
import io
import itertools
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from pettingzoo.test import api_test, seed_test
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from issoku.agents import RandomLegal
from issoku.envs import IllegalActionError, breath_duel_v0, make_env
from issoku.envs.single_agent import SingleAgentEnv
from issoku.rules.breath.content import load_catalog
from issoku.rules.breath.ruleset import FighterSpec

WEAPONS = sorted(load_catalog().weapons)
PAIRINGS = list(itertools.combinations_with_replacement(WEAPONS, 2))


def duel(first: str, second: str, **kwargs):
    return breath_duel_v0.env(fighters=[{"archetype": "kenshi", "weapon": first},
                                        {"archetype": "ronin", "weapon": second}], **kwargs)


@pytest.mark.parametrize("first, second", PAIRINGS, ids=[f"{a}-{b}" for a, b in PAIRINGS])
def test_api_and_seed_tests_pass_for_every_weapon_pairing(first, second):
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # api_test's advice about Dict observation spaces
        api_test(duel(first, second), num_cycles=60)
        seed_test(lambda: duel(first, second), num_cycles=60)


def test_docstring_spec_matches_the_shipped_content():
    env = breath_duel_v0.env()
    doc = breath_duel_v0.__doc__
    assert f"Discrete({env.action_space('player_0').n})" in doc
    assert "(92,)" in doc and env.observation_space("player_0")["observation"].shape == (92,)
    assert env.possible_agents == ["player_0", "player_1"]
    assert str(env) == "breath_duel_v0"
    for name in env.ruleset.observation_spec.names:
        assert name in doc, f"observation field {name} missing from the spec"
    for kind in env.ruleset.decision_kinds:
        assert f"``{kind}``" in doc


def test_fighters_by_name_mapping_or_spec_and_shared_rulesets():
    by_name = breath_duel_v0.env(fighters=["kenshi", "ronin"])
    by_spec = breath_duel_v0.env(fighters=[FighterSpec("kenshi", 0), FighterSpec("ronin", 1)])
    assert by_name.ruleset is by_spec.ruleset  # one immutable ruleset for identical configs
    assert by_name.ruleset is breath_duel_v0.env().ruleset  # the default duel
    spear = breath_duel_v0.env(fighters=["kenshi", {"archetype": "ronin", "weapon": "yari"}], round_limit=5)
    assert spear.ruleset.sheets[1].weapon.key == "yari" and spear.ruleset.config.round_limit == 5
    assert spear.ruleset.seat_teams == (0, 1)
    with pytest.raises(TypeError):
        breath_duel_v0.env(fighters="kenshi")
    with pytest.raises(ValueError, match="unknown archetype"):
        breath_duel_v0.env(fighters=["kenshi", "dragon"])


def _play_random(env, seed):
    """One random-legal fight; the agent who made the last decision."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    last_mover = None
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        agent = env.agent_selection
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        last_mover = agent
    return last_mover


def test_both_seats_get_their_result_whoever_made_the_last_move():
    env = breath_duel_v0.env()
    endings = set()
    for seed in range(40):
        mover = _play_random(env, seed)
        returns = env.game_state.returns()
        assert env.rewards == {"player_0": returns[0], "player_1": returns[1]}
        if env.game_state.is_terminal():
            winner = "player_0" if returns[0] == 1.0 else "player_1"
            endings.add("winner moved last" if mover == winner else "loser moved last")
            loser = "player_1" if winner == "player_0" else "player_0"
            assert env._cumulative_rewards[loser] == -1.0 and env._cumulative_rewards[winner] == 1.0
    assert "winner moved last" in endings


def test_masks_over_random_play_accept_exactly_the_legal_actions():
    env = breath_duel_v0.env(fighters=["shinobi", "ashigaru"])
    rng = np.random.default_rng(0)
    env.reset(seed=3)
    for _ in range(120):
        if any(env.terminations.values()) or any(env.truncations.values()):
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        assert mask.any()
        state = env.game_state
        for action in range(len(mask)):
            trial = state.clone()
            if mask[action]:
                trial.apply(action)
            else:
                with pytest.raises(IllegalActionError):
                    trial.apply(action)
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_registry_and_single_agent_wrapper_pass_the_checkers():
    assert make_env("breath_duel_v0").ruleset is breath_duel_v0.env().ruleset
    wrapped = SingleAgentEnv(breath_duel_v0.env(illegal_action="terminate"), RandomLegal(seed=0))
    gymnasium_check_env(wrapped, skip_render_check=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb3_check_env(wrapped, warn=False)
