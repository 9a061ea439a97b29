"""The tests' one toy game: take-away, a tiny two-player AEC env (PettingZoo classic needs pygame, absent here).

A pile of counters; in turn, each player takes 1, 2 or 3; whoever takes the last counter wins (+1 / -1).
Perfect play leaves a multiple of four, so a known-strong policy exists, and the opponent's move can end
the game (what the reward-crediting tests need). Observations follow the classic ``{"observation",
"action_mask"}`` convention. Two ways to set it up, one game:

* :func:`take_away_env` (``take_away_v0``, the tournament and evaluation tests): the pile's size
  (``min_pile``..``max_pile``) and who moves first are drawn from the seed; the observation is
  ``[pile, moves]``; with ``max_moves`` the game is truncated (a draw, 0 / 0).
* :func:`race_v0` (the training tests): a race to ``target`` from ``start`` (the pile is ``target - start``),
  ``player_0`` first; the observation is one-hot (the counters taken so far, then the observer's seat), so a
  tiny network learns it.
"""

from __future__ import annotations

import os
import signal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

ACTION_NAMES = ("take1", "take2", "take3")


class TakeAwayEnv(AECEnv):
    """Take-away (Nim with one pile), the last counter wins.

    ``pile``: a fixed pile, ``player_0`` first (else drawn from the seed in ``min_pile..max_pile``, and the
    first mover too). ``one_hot``: observe one-hot over ``max_pile`` (the counters taken, then the seat)
    instead of ``[pile, moves]``. ``named``: the env carries ``action_names`` (race_v0 does not, so the tests
    see how an env without names is shown).
    """

    metadata = {"name": "take_away_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, min_pile: int = 9, max_pile: int = 21, max_moves: int | None = None, *,
                 pile: int | None = None, one_hot: bool = False, name: str = "take_away_v0", named: bool = True,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.min_pile, self.max_pile, self.max_moves = min_pile, max_pile, max_moves
        self.fixed_pile, self.one_hot, self.render_mode = pile, one_hot, render_mode
        self.metadata = {**TakeAwayEnv.metadata, "name": name}
        self.possible_agents = ["player_0", "player_1"]
        if named:
            self.action_names = ACTION_NAMES
        shape = (max_pile + 3,) if one_hot else (2,)
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0 if one_hot else float(max_pile), shape=shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(3,), dtype=np.int8),
        }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(3) for agent in self.possible_agents}
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        if self.fixed_pile is None:
            self.pile = int(self._rng.integers(self.min_pile, self.max_pile + 1))
        else:
            self.pile = self.fixed_pile
        self.moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[int(self._rng.integers(2)) if self.fixed_pile is None else 0]
        self.infos[self.agent_selection]["decision_kind"] = "take"

    def observe(self, agent):
        mask = np.zeros(3, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[: min(3, self.pile)] = 1
        if self.one_hot:
            observation = np.zeros(self.max_pile + 3, dtype=np.float32)
            observation[self.max_pile - self.pile] = 1
            observation[self.max_pile + 1 + self.possible_agents.index(agent)] = 1
        else:
            observation = np.array([self.pile, self.moves], dtype=np.float32)
        return {"observation": observation, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not 0 <= action < min(3, self.pile):
            raise ValueError(f"illegal action {action}: take-away with {self.pile} left")
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

    def render(self):
        return f"{self.pile} left of {self.max_pile if self.fixed_pile is None else self.fixed_pile}"


def take_away_env(**kwargs) -> TakeAwayEnv:
    """The env factory the tournaments get (picklable by reference)."""
    return TakeAwayEnv(**kwargs)


def take_away_fighters(fighters: tuple[str, str] = ("a", "a"), **kwargs) -> TakeAwayEnv:
    """Take-away with a loadout grid's ``fighters`` keyword (the per-loadout agents' tests): the seat-0 fighter's
    name sets the smallest pile, so each pairing is a slightly different game with the same spaces."""
    return TakeAwayEnv(min_pile=9 + len(fighters[0]), **kwargs)


def race_v0(target: int = 10, start: int = 0, render_mode: str | None = None) -> TakeAwayEnv:
    """Take-away as the training tests play it: a race from ``start`` to ``target`` (see the module docstring)."""
    return TakeAwayEnv(max_pile=target, pile=target - start, one_hot=True, name="race_v0", named=False,
                       render_mode=render_mode)


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
    from issoku.evaluation.games.tournament import Loadout, PolicySpec, Tournament

    policies = (PolicySpec("perfect", Perfect), PolicySpec("random", RandomLegal),
                PolicySpec("take_one", KillsItsProcess if killer else TakeOne))
    loadouts = (Loadout("small", {"min_pile": 5, "max_pile": 9}), Loadout("large", {"min_pile": 15, "max_pile": 25}))
    return Tournament(take_away_env, policies, loadouts, games_per_pair=games_per_pair, **kwargs)
