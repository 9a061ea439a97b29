"""Randomized loadouts: one AEC env that plays a different matchup on every reset.

issoku envs fix their fighters when built (the ruleset, and so its fingerprint, depends on them). To
train one agent for every matchup, :class:`MatchupMixEnv` holds one env per matchup and, on each
``reset(seed)``, draws which one plays from that seed (then seeds the fight from it too), so a seed
fixes both the matchup and the fight. All PettingZoo AEC state (``agents``, ``rewards``,
``agent_selection``...) is the current member's. The members must share agents, spaces and action
names: issoku envs do, because their action table and observation schema cover the whole content
catalog, and the observation carries each fighter's weapon, armor, stance and attributes, so the
agent is conditioned on its own and its opponent's loadout.

The mix's ``fingerprint`` hashes its members' rules fingerprints (in matchup order), so a checkpoint
trained on one set of matchups is refused by another.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from itertools import product
from typing import Any

import numpy as np
from pettingzoo import AECEnv

SEED_RANGE = 2**63 - 1


def every_pairing(names: Sequence[str]) -> list[list[str]]:
    """Every ordered pair of ``names`` (mirror matches included): ``fighters`` lists for a duel env."""
    return [[first, second] for first, second in product(names, repeat=2)]


def _rules_of(env: Any) -> Any:
    return getattr(env.unwrapped, "ruleset", None)


class MatchupMixEnv(AECEnv):
    """Plays one of ``envs`` per episode, drawn from the reset seed."""

    def __init__(self, envs: Sequence[Any], labels: Sequence[str]) -> None:
        super().__init__()
        if not envs or len(envs) != len(labels):
            raise ValueError("a matchup mix needs at least one env and one label per env")
        first = envs[0]
        self.possible_agents = list(first.possible_agents)
        self.action_names = tuple(getattr(first.unwrapped, "action_names", ()))
        for label, env in zip(labels, envs):
            same = (list(env.possible_agents) == self.possible_agents
                    and tuple(getattr(env.unwrapped, "action_names", ())) == self.action_names
                    and all(env.observation_space(a) == first.observation_space(a)
                            and env.action_space(a) == first.action_space(a) for a in self.possible_agents))
            if not same:
                raise ValueError(f"matchup {label!r} differs from {labels[0]!r} in agents, spaces or action names")
        self.envs = list(envs)
        self.labels = list(labels)
        self.metadata = dict(first.metadata)
        self.render_mode = getattr(first, "render_mode", None)
        self.observation_spaces = {agent: first.observation_space(agent) for agent in self.possible_agents}
        self.action_spaces = {agent: first.action_space(agent) for agent in self.possible_agents}
        rules = [_rules_of(env) for env in envs]
        self.version = getattr(rules[0], "version", None)
        self.fingerprint = hashlib.sha256(json.dumps(
            [[label, getattr(r, "fingerprint", None)] for label, r in zip(labels, rules)]).encode()).hexdigest()
        self.current = first
        self.matchup = labels[0]
        self._rng: np.random.Generator | None = None

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Draw the matchup and the fight's seed from ``seed`` (or from the last seed's generator)."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        index = int(self._rng.integers(len(self.envs)))
        self.current, self.matchup = self.envs[index], self.labels[index]
        self.current.reset(seed=int(self._rng.integers(SEED_RANGE)), options=options)

    def step(self, action: Any) -> None:
        self.current.step(action)

    def observe(self, agent: str) -> Any:
        return self.current.observe(agent)

    def render(self) -> Any:
        return f"matchup: {self.matchup}\n{self.current.render()}"

    def close(self) -> None:
        for env in self.envs:
            env.close()

    # The AEC state (and an issoku member's ruleset and live game state) is the current member's.
    ruleset = property(lambda self: self.current.unwrapped.ruleset)
    game_state = property(lambda self: self.current.unwrapped.game_state)
    agents = property(lambda self: self.current.agents)
    rewards = property(lambda self: self.current.rewards)
    _cumulative_rewards = property(lambda self: self.current._cumulative_rewards)
    terminations = property(lambda self: self.current.terminations)
    truncations = property(lambda self: self.current.truncations)
    infos = property(lambda self: self.current.infos)
    agent_selection = property(lambda self: self.current.agent_selection)
