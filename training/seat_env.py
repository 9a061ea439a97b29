"""One seat of any classic-convention PettingZoo AEC env as a Gymnasium env (for foreign envs).

issoku's own envs use ``issoku.envs.single_agent.SingleAgentEnv`` (when present); this class has the
same interface (``set_opponent``, ``learner``, ``learner_seat``, ``action_masks``, seat and fight seed
drawn from the reset seed, opponent reseeded on each reset) but speaks only the public AEC API:
``observe(agent)`` returning ``{"observation", "action_mask"}`` and ``last()``. So self-play also
runs on PettingZoo classic envs and on the tiny test games.

The learner's reward is read with ``last()`` when its seat is selected again: the reward accumulated
since it last acted, so a −1 earned on the opponent's winning move reaches the learner. Observations
and masks are always ``observe(learner)``. Fights that end before the learner's first decision are
skipped (a Gymnasium episode must start with a decision).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

OpponentPolicy = Callable[[np.ndarray, np.ndarray], int]
MAX_SKIPPED_FIGHTS = 100
SEED_RANGE = 2**63 - 1


class SeatEnv(gymnasium.Env):
    """The learner's seat of an AEC ``env``; ``opponent`` plays every other seat inside ``step``."""

    metadata = {"render_modes": []}

    def __init__(self, env: Any, opponent: OpponentPolicy, learner_seat: int | None = None) -> None:
        seats = list(env.possible_agents)
        self.observation_space = env.observation_space(seats[0])["observation"]
        self.action_space = env.action_space(seats[0])
        for seat in seats[1:]:
            if env.action_space(seat) != self.action_space or \
                    env.observation_space(seat)["observation"] != self.observation_space:
                raise ValueError(f"one learner for every seat needs the seats to share their spaces; {seat!r} differs")
        self.env = env
        self.opponent = opponent
        self.fixed_seat = learner_seat
        self.learner_seat = 0
        self.learner: str = seats[0]
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)

    def set_opponent(self, opponent: OpponentPolicy) -> None:
        """Swap the policy that plays the other seats."""
        self.opponent = opponent

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new fight at the learner's first decision; its seed and the learner's seat come from ``seed``."""
        super().reset(seed=seed)
        seats = self.env.possible_agents
        for _ in range(MAX_SKIPPED_FIGHTS):
            fight_seed = int(self.np_random.integers(SEED_RANGE))
            self.learner_seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(len(seats)))
            self.learner = seats[self.learner_seat]
            self.env.reset(seed=fight_seed, options=options)
            reseed = getattr(self.opponent, "seed", None)
            if callable(reseed):
                reseed(int(self.np_random.integers(SEED_RANGE)))
            observation, _, terminated, truncated = self._advance_to_learner()
            if not (terminated or truncated):
                return observation, {}
        raise RuntimeError(f"the opponents ended {MAX_SKIPPED_FIGHTS} fights in a row before the learner decided")

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's action, then the opponents' moves up to its next decision or the end."""
        self.env.step(int(action))
        observation, reward, terminated, truncated = self._advance_to_learner()
        return observation, reward, terminated, truncated, {}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as bools (what MaskablePPO calls)."""
        return self._mask.astype(bool)

    def _advance_to_learner(self) -> tuple[np.ndarray, float, bool, bool]:
        """Step opponents and leaving agents until the learner's seat is selected; its ``last()``."""
        env = self.env
        while env.agents:
            agent = env.agent_selection
            observation, reward, terminated, truncated, _ = env.last()
            if agent == self.learner:
                self._mask = np.asarray(observation["action_mask"], dtype=np.int8)
                return observation["observation"], float(reward), bool(terminated), bool(truncated)
            if terminated or truncated:
                env.step(None)
            else:
                env.step(self.opponent(observation["observation"], observation["action_mask"]))
        raise RuntimeError(f"the env removed the learner's seat {self.learner!r} before selecting it again "
                           "(its final reward would be lost)")
