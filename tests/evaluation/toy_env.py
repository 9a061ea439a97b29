"""A tiny seeded two-player AEC game for the tournament tests (PettingZoo classic needs pygame, absent here).

Take-away: a pile of counters (size drawn from the seed); in turn, each player takes 1, 2 or 3; whoever
takes the last counter wins (+1 / -1). The seed also draws who moves first. With ``max_moves`` the game
is truncated (a draw, 0 / 0). Perfect play leaves a multiple of four, so a known-strong policy exists.
Observations follow the classic ``{"observation", "action_mask"}`` convention.
"""

from __future__ import annotations

import os
import signal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

ACTION_NAMES = ("take1", "take2", "take3")


class TakeAwayEnv(AECEnv):
    """Take-away (Nim with one pile), the last counter wins."""

    metadata = {"name": "take_away_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, min_pile: int = 9, max_pile: int = 21, max_moves: int | None = None) -> None:
        super().__init__()
        self.min_pile, self.max_pile, self.max_moves = min_pile, max_pile, max_moves
        self.possible_agents = ["player_0", "player_1"]
        self.action_names = ACTION_NAMES
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, float(max_pile), shape=(2,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(3,), dtype=np.int8),
        })
        self._action_space = spaces.Discrete(3)
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.pile = int(self._rng.integers(self.min_pile, self.max_pile + 1))
        self.moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[int(self._rng.integers(2))]
        self.infos[self.agent_selection]["decision_kind"] = "take"

    def observe(self, agent):
        mask = np.zeros(3, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[: min(3, self.pile)] = 1
        return {"observation": np.array([self.pile, self.moves], dtype=np.float32), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not 0 <= action < min(3, self.pile):
            raise ValueError(f"illegal take-away action {action} with {self.pile} left")
        self._cumulative_rewards[agent] = 0.0
        self.pile -= action + 1
        self.moves += 1
        other = self.possible_agents[1 - self.possible_agents.index(agent)]
        if self.pile == 0:
            self.rewards = {agent: 1.0, other: -1.0}
            self.terminations = {a: True for a in self.agents}
        elif self.max_moves is not None and self.moves >= self.max_moves:
            self.truncations = {a: True for a in self.agents}
        self.agent_selection = other
        self.infos = {a: {"decision_kind": "take" if a == other and self.pile else None} for a in self.agents}
        self._accumulate_rewards()


def take_away_env(**kwargs) -> TakeAwayEnv:
    """The env factory the tournaments get (picklable by reference)."""
    return TakeAwayEnv(**kwargs)


class Perfect:
    """Leaves a multiple of four when it can, else takes one."""

    def __init__(self, seed: int | None = None) -> None:
        pass

    def __call__(self, observation, action_mask) -> int:
        take = int(observation[0]) % 4
        return take - 1 if take and action_mask[take - 1] else 0


class TakeOne:
    """Always takes a single counter."""

    def __init__(self, seed: int | None = None) -> None:
        pass

    def __call__(self, observation, action_mask) -> int:
        return 0


class KillsItsProcess:
    """Takes one, but SIGKILLs its own process when the ``TOY_KILL_AT`` match counter is reached.

    Simulates a tournament killed hard halfway (no cleanup, no exception handling runs).
    """

    created = 0

    def __init__(self, seed: int | None = None) -> None:
        KillsItsProcess.created += 1
        if KillsItsProcess.created == int(os.environ.get("TOY_KILL_AT", "0")):
            os.kill(os.getpid(), signal.SIGKILL)

    def __call__(self, observation, action_mask) -> int:
        return 0


def toy_tournament(games_per_pair: int = 8, killer: bool = False, **kwargs):
    """Three policies on take-away over two loadouts (the resume test runs this in a subprocess too)."""
    from issoku.agents.policy import RandomLegal
    from issoku.evaluation.tournament import Loadout, PolicySpec, Tournament

    policies = (PolicySpec("perfect", Perfect), PolicySpec("random", RandomLegal),
                PolicySpec("take_one", KillsItsProcess if killer else TakeOne))
    loadouts = (Loadout("small", {"min_pile": 5, "max_pile": 9}), Loadout("large", {"min_pile": 15, "max_pile": 25}))
    return Tournament(take_away_env, policies, loadouts, games_per_pair=games_per_pair, **kwargs)
