"""The observation keys RLlib's action-masking module reads, over any issoku env.

issoku's envs follow PettingZoo's classic convention, ``{"observation": vector, "action_mask": mask}``. RLlib's
``ActionMaskingTorchRLModule`` (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) reads
``{"observations": ..., "action_mask": ...}`` and finds no default encoder for anything else ("No default
encoder config for ... Dict"). This wrapper renames the one key, so an env goes to RLlib as
``PettingZooEnv(RLlibObservationKeys(breath_duel_v0.env()))`` with nothing else changed. It imports no ray: it is
a PettingZoo wrapper, tested here and run under RLlib by ``examples/rllib_ppo.py``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import pettingzoo.utils

RLLIB_OBSERVATION_KEY = "observations"


class RLlibObservationKeys(pettingzoo.utils.BaseWrapper):
    """An AEC env whose observations read ``{"observations": vector, "action_mask": mask}`` (RLlib's keys)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._spaces: dict[Any, gymnasium.spaces.Dict] = {}

    def observation_space(self, agent: Any) -> gymnasium.spaces.Dict:
        """The env's space under RLlib's keys, one object per agent (PettingZoo's API test asks for the same one)."""
        if agent not in self._spaces:
            space = self.env.observation_space(agent)
            self._spaces[agent] = gymnasium.spaces.Dict({RLLIB_OBSERVATION_KEY: space["observation"],
                                                         "action_mask": space["action_mask"]})
        return self._spaces[agent]

    def observe(self, agent: Any) -> dict[str, Any]:
        seen = self.env.observe(agent)
        return {RLLIB_OBSERVATION_KEY: seen["observation"], "action_mask": seen["action_mask"]}
