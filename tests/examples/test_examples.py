"""Each script in examples/ runs with its library on a tiny budget: the libraries a
researcher brings (TorchRL, Tianshou, SB3, PettingZoo's SB3 tutorial pattern) connect to issoku's envs.
RLlib runs in its own environment: tests/examples/test_rllib.py."""

from __future__ import annotations

import importlib.util
import math
import warnings
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str) -> ModuleType:
    """The script ``examples/<name>.py`` as a module (examples/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"issoku_example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


ENV_IDS = ("breath_duel_v0", "breath_skirmish_v0", "tempo_duel_v0", "tempo_skirmish_v0", "encounter_duel_v0",
           "encounter_skirmish_v0")
"""Every env, with its defaults (the skirmishes' defaults are 2v2): docs/envs.md's client table says each row runs on
all of them."""


def test_the_examples_run_on_every_registered_env():
    from issoku.envs.registry import env_ids

    assert sorted(ENV_IDS) == sorted(env_ids())


@pytest.mark.parametrize("parallel", [False, True], ids=["aec", "parallel"])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_torchrl_wraps_the_env_rolls_out_masked_and_takes_ppo_updates(env_id, parallel):
    losses = example("torchrl_ppo").main(env_id, iterations=1, frames=64,  # asserts every acting choice was legal
                                         parallel=parallel)
    assert len(losses) == 1 and all(math.isfinite(loss) for loss in losses)


def test_torchrl_on_the_parallel_env_fails_without_placeholder_masks_and_samples_them_when_asked():
    """Idle agents' all-zero masks are no distribution (the documented failure); the placeholder is action 0 alone."""
    import torch
    from torchrl.modules import MaskedCategorical

    from issoku.envs import tempo_duel_v0

    plain, placeholder = tempo_duel_v0.parallel_env(), tempo_duel_v0.parallel_env(idle_mask="placeholder")
    (observations, _), (patched, _) = plain.reset(seed=3), placeholder.reset(seed=3)
    idle = [agent for agent, seen in observations.items() if not seen["action_mask"].any()]
    assert idle and all(patched[agent]["action_mask"].tolist() == [1] + [0] * (len(patched[agent]["action_mask"]) - 1)
                        for agent in idle)
    acting = [agent for agent in observations if agent not in idle]
    assert all((patched[agent]["action_mask"] == observations[agent]["action_mask"]).all() for agent in acting)
    logits = torch.zeros(len(patched[idle[0]]["action_mask"]))
    with pytest.raises((RuntimeError, ValueError)):
        MaskedCategorical(logits=logits, mask=torch.as_tensor(observations[idle[0]]["action_mask"], dtype=torch.bool)).sample()
    draw = MaskedCategorical(logits=logits, mask=torch.as_tensor(patched[idle[0]]["action_mask"], dtype=torch.bool))
    assert int(draw.sample()) == 0 and float(draw.log_prob(torch.tensor(0))) == 0.0
    with pytest.raises(ValueError, match="idle_mask must be one of"):
        tempo_duel_v0.parallel_env(idle_mask="ones")


def test_torchrl_random_rollout_over_team_fights_survives_casualties_and_pays_each_side_as_one():
    import torch
    from torchrl.envs import PettingZooWrapper
    from torchrl.envs.libs.pettingzoo import MarlGroupMapType

    from issoku.envs import breath_skirmish_v0

    aec = breath_skirmish_v0.env([["kenshi", "ashigaru"], ["ronin", "shinobi"]], round_limit=40)
    env = PettingZooWrapper(env=aec, use_mask=True, categorical_actions=True, seed=0,
                            group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)
    batch = env.rollout(1200, break_when_any_done=False)  # masked random actions, several fights
    assert batch["next", "agents", "info", "eliminated"].any()  # fighters fell, and the rollout went on
    done = batch["next", "done"].reshape(-1)
    final = batch["next", "agents", "reward"].reshape(len(done), -1)[done]
    assert len(final) >= 2
    teams = torch.tensor(aec.ruleset.seat_teams)
    for rewards in final:  # every agent, the fallen included, is paid its side's result at the end
        assert all(len(set(rewards[teams == side].tolist())) == 1 for side in (0, 1))
    assert (final.abs() == 1).all(dim=1).any()  # at least one decided fight


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_tianshou_trains_a_masked_dqn_seat_against_random_ones(env_id):
    stats = example("tianshou_dqn").main(env_id, epochs=1, steps=50)
    assert stats.n_collected_episodes == 2
    assert set(stats.returns[:, 0]) <= {-1.0, 0.0, 1.0}  # a whole fight per episode, paid its result
    assert (stats.returns.sum(axis=1) == 0).all()  # even sides are zero-sum: every seat was paid


def test_tianshou_episode_lasts_the_whole_team_fight_and_pays_each_side_as_one():
    import numpy as np
    from tianshou.env.pettingzoo_env import PettingZooEnv

    from issoku.envs import breath_skirmish_v0

    aec = breath_skirmish_v0.env([["kenshi", "ashigaru"], ["ronin", "shinobi"]], round_limit=40)
    env = PettingZooEnv(aec)  # what Tianshou's collector steps
    casualty_before_the_end = 0
    for seed in range(6):
        observation, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        fell = False
        while True:
            action = int(rng.choice(np.flatnonzero(observation["mask"])))
            observation, rewards, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
            fell = fell or any(info["eliminated"] for info in aec.infos.values())
        state = aec.game_state
        assert state.is_over()  # a casualty never ended Tianshou's episode early
        assert list(rewards) == [float(r) for r in state.returns()]  # the fallen paid their side's result too
        casualty_before_the_end += fell and state.winner_side() is not None
    assert casualty_before_the_end  # some fight went on after a casualty and was decided


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_sb3_maskable_ppo_trains_on_single_agent_env(env_id):
    mean, spread = example("sb3_single_agent").main(env_id, steps=128)
    assert -1.0 <= mean <= 1.0 and spread >= 0.0


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_sb3_tutorial_pattern_trains_and_plays_the_aec_loop(env_id):
    from issoku.envs.registry import make_env

    totals = example("pettingzoo_sb3_tutorial").main(env_id, steps=128, games=4)
    teams = make_env(env_id).ruleset.seat_teams
    assert list(totals) == list(make_env(env_id).possible_agents)
    side = [sum(total for total, team in zip(totals.values(), teams) if team == k) for k in (0, 1)]
    assert side[0] == -side[1]  # even sides: every game paid every seat its side's ±1 or 0
    assert all(float(total).is_integer() and abs(total) <= 4 for total in totals.values())
