"""Does a learned policy look at the game? The share of its decisions that change when its observation is zeroed.

A policy decides from ``(observation, action_mask)``. The mask alone says which moves are legal, so a network
can score well while ignoring the observation: it learns a fixed preference order over the legal moves and
plays the first legal one of its list wherever the same moves are legal, whatever the distance, the wounds or
the energy. A win rate cannot tell such a policy from one that reads the position; this measure can.

:func:`measure_ablation` plays seeded games of an env, the policy against a uniformly random opponent
(:class:`~issoku.agents.policy.RandomLegal`, seeded by the game: varied positions, whatever the policy's
strength), on each seat in turn. At every decision of the policy it compares the policy's greedy choice (its
most probable legal action) on the real observation with its choice on a **neutral observation under the same
mask**. The neutral observation is all zeros: the first measure that found the shipped agents state-blind
zeroed the observation, and figures stay comparable only if every tool neutralises the same way (zero is
also every field's empty value, no counter and no flag, though rarely a position the game reaches).

A policy whose choices change on fewer than :data:`STATE_BLIND_SHARE` of its decisions is **state-blind**:
its play is, to within that share, a fixed preference order over the legal moves. The games are played
through the env's own AEC API, so any env a policy was trained on (a matchup mix, a foreign env) can be
measured; the same policy, env, games and seed give the same figure.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from issoku.agents.policy import Policy, RandomLegal

STATE_BLIND_SHARE = 0.10
"""A policy whose choice changes on fewer than this share of its decisions when its observation is zeroed is
state-blind (a fixed preference order over legal moves, to within this share)."""
NEUTRAL = "zeros"
"""The neutral observation the measure compares with (recorded beside every figure)."""
DEFAULT_GAMES = 100
"""Games per measure: 1,500 to 2,200 of the policy's decisions in the shipped duels, a fraction of a second. Fewer
games move a figure near the threshold across it (the shipped encounter agent: 9.8 % on 40 games, 11.7 % on 100)."""
DEFAULT_SEED = 30_000_001
"""Base seed of the measure's games, far from the seeds training runs and evaluations draw."""


@dataclass(frozen=True)
class Ablation:
    """How many of a policy's decisions were compared, how many changed, and on which games."""

    decisions: int
    changed: int
    games: int
    seed: int

    @property
    def share(self) -> float:
        """The share of decisions whose choice changed (0 when there were none)."""
        return self.changed / self.decisions if self.decisions else 0.0

    @property
    def state_blind(self) -> bool:
        """Whether the policy ignores its observation (share under :data:`STATE_BLIND_SHARE`)."""
        return self.share < STATE_BLIND_SHARE

    @property
    def flag(self) -> str:
        """``" — state-blind"`` for a state-blind policy, else empty: what every figure printed ends with."""
        return " — state-blind" if self.state_blind else ""

    def describe(self) -> str:
        """The figure as every command prints it: ``"0.0% of 5,571 decisions change ... — state-blind"``."""
        return f"{self.share:.1%} of {self.decisions:,} decisions change when its observation is zeroed{self.flag}"

    def as_dict(self) -> dict[str, Any]:
        """The figure as a manifest or ``ladder.json`` records it (the derived share and flag included)."""
        return {**asdict(self), "share": round(self.share, 4), "state_blind": self.state_blind, "neutral": NEUTRAL}

    @classmethod
    def from_dict(cls, recorded: Mapping[str, Any]) -> Ablation:
        """An :meth:`as_dict` record read back."""
        return cls(int(recorded["decisions"]), int(recorded["changed"]), int(recorded["games"]), int(recorded["seed"]))


class _Probe:
    """The policy, counting the decisions on which its choice differs on the neutral observation."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.decisions = 0
        self.changed = 0

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        chosen = int(self.policy(observation, action_mask))
        self.decisions += 1
        self.changed += chosen != int(self.policy(np.zeros_like(observation), action_mask))
        return chosen


def greedy(policy: Policy) -> Policy:
    """``policy`` playing its most probable legal action: a copy with ``deterministic`` set when it samples
    (a checkpoint, an export), else the policy itself."""
    if getattr(policy, "deterministic", True):
        return policy
    twin: Any = copy.copy(policy)
    twin.deterministic = True
    return twin


def measure_ablation(policy: Policy, env: Any, *, games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED) -> Ablation:
    """Play ``games`` seeded games of the AEC ``env`` (observations ``{"observation", "action_mask"}``) and count
    the policy's decisions whose greedy choice changes on the zero observation (see the module docstring).

    Game ``g`` is played with seed ``seed + g // seats``, the policy on seat ``g % seats``, a
    :class:`~issoku.agents.policy.RandomLegal` seeded with the game's seed on every other seat; the policy's real
    choice is played. ``env`` is reset for every game (a caller's env can be reused afterwards).
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    probe = _Probe(greedy(policy))
    agents = list(env.possible_agents)
    for game in range(games):
        game_seed, learner = seed + game // len(agents), agents[game % len(agents)]
        opponent = RandomLegal(game_seed)
        env.reset(seed=game_seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            decide = probe if agent == learner else opponent
            env.step(decide(observation["observation"], observation["action_mask"]))
    return Ablation(probe.decisions, probe.changed, games, seed)
