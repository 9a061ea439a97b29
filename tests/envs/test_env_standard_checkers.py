"""Every env passes the standard checkers with its defaults: PettingZoo's parallel API and
seed tests through ``parallel_env()``, its render test, Gymnasium's and SB3's ``check_env`` on ``SingleAgentEnv``,
and the info contract TorchRL relies on (numbers and arrays, one dict per agent)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from pettingzoo.test import parallel_api_test, parallel_seed_test, render_test
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from issoku.agents import RandomLegal
from issoku.envs import (breath_duel_v0, breath_skirmish_v0, encounter_duel_v0, encounter_skirmish_v0, tempo_duel_v0,
                         tempo_skirmish_v0)
from issoku.envs.single_agent import SingleAgentEnv

CONFIGS = {
    "breath_duel": (breath_duel_v0, {}),
    "breath_three_way": (breath_duel_v0, {"fighters": ["kenshi", "ronin", "ashigaru"], "ma": False}),
    "breath_skirmish_2v2": (breath_skirmish_v0, {"sides": [["kenshi", "ronin"], ["ronin", "kenshi"]]}),
    "tempo_duel": (tempo_duel_v0, {}),
    "tempo_skirmish_2v2": (tempo_skirmish_v0, {}),
    "encounter_duel": (encounter_duel_v0, {}),
    "encounter_skirmish_2v2": (encounter_skirmish_v0, {}),
}


@pytest.mark.parametrize("idle_mask", ["zeros", "placeholder"])
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_parallel_env_passes_the_parallel_api_and_seed_tests(config, idle_mask):
    module, kwargs = CONFIGS[config]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(module.parallel_env(idle_mask=idle_mask, **kwargs), num_cycles=300)
        parallel_seed_test(lambda: module.parallel_env(idle_mask=idle_mask, **kwargs), num_cycles=300)


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_env_passes_the_render_test_in_every_render_mode(config):
    module, kwargs = CONFIGS[config]
    assert module.env(**kwargs).metadata["render_modes"]  # render_test walks them: none would test nothing
    render_test(lambda render_mode=None: module.env(render_mode=render_mode, **kwargs))


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_single_agent_env_passes_gymnasium_and_sb3_check_env_with_defaults(config):
    module, kwargs = CONFIGS[config]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gymnasium_check_env(SingleAgentEnv(module.env(**kwargs), RandomLegal(seed=0)), skip_render_check=True)
        sb3_check_env(SingleAgentEnv(module.env(**kwargs), RandomLegal(seed=0)), warn=False)


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_infos_hold_numbers_only_one_dict_per_agent_and_start_fresh_each_reset(config):
    module, kwargs = CONFIGS[config]
    env = module.parallel_env(**kwargs)
    rng = np.random.default_rng(0)
    for episode in range(2):
        observations, infos = env.reset(seed=episode)
        assert len({id(info) for info in infos.values()}) == len(infos)  # one dict per agent
        for info in infos.values():
            assert "active_agent" not in info  # the conversion's note from the last episode is gone
            assert all(isinstance(value, (int, np.ndarray)) for value in info.values()), info
        for _ in range(30):
            if not env.agents:
                break
            actions = {agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
                       if observations[agent]["action_mask"].any() else 0 for agent in env.agents}
            observations, _, _, _, infos = env.step(actions)
        assert any("active_agent" in info for info in infos.values())
