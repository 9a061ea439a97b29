"""race_v0: a tiny two-seat AEC game in PettingZoo's classic convention, for training tests.

Seats alternately add 1, 2 or 3 to a shared counter; whoever brings it exactly to ``target`` wins
(+1, the other −1). Adds past the target are masked out. The observation is the counter one-hot
(the same for both seats, so ego-centric trivially) plus a one-hot of "I moved first". Perfect play
is known (leave the counter at target - 4k), so the game is learnable; and the opponent's move can
end the game, which is what the reward-crediting tests need.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector


class RaceEnv(AECEnv):
    """Add 1-3 to a shared counter; reaching ``target`` exactly wins."""

    metadata = {"name": "race_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, target: int = 10, render_mode: str | None = None) -> None:
        super().__init__()
        self.target = target
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]
        size = target + 1 + 2
        self.observation_spaces = {
            agent: spaces.Dict({"observation": spaces.Box(0, 1, (size,), np.float32),
                                "action_mask": spaces.Box(0, 1, (3,), np.int8)})
            for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(3) for agent in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self.counter = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def observe(self, agent):
        observation = np.zeros(self.target + 3, dtype=np.float32)
        observation[self.counter] = 1
        observation[self.target + 1 + self.possible_agents.index(agent)] = 1
        mask = np.zeros(3, dtype=np.int8)
        if agent == self.agent_selection and not self.terminations[agent]:
            mask[: min(3, self.target - self.counter)] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not self.observe(agent)["action_mask"][action]:
            raise ValueError(f"illegal action {action}")
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self.counter += int(action) + 1
        other = self._selector.next()
        if self.counter == self.target:
            self.rewards[agent], self.rewards[other] = 1, -1
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = other
        self._accumulate_rewards()

    def render(self):
        return f"counter {self.counter} / {self.target}"


def race_v0(**kwargs) -> RaceEnv:
    """The race env (factory named like a versioned env id)."""
    return RaceEnv(**kwargs)
