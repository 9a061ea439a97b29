"""A single-agent Gymnasium view of a PettingZoo AEC env for self-play: the learner holds one seat.

Works on any AEC env that follows the classic convention: ``observe(agent)`` returns
``{"observation": ..., "action_mask": ...}`` and every seat shares one action and observation space.

Each episode (``reset``) draws, from the env's own seeded generator, the AEC seed, the learner's seat
and an opponent from the :class:`~issoku.training.opponents.OpponentPool`; that opponent plays every
other seat. ``step(action)`` plays the learner's action, then lets the opponent act (and steps dead
agents) until it is the learner's turn again or the learner's own seat is done.

Two things the common wrappers get wrong are done right here:

* **Rewards from either move.** The learner's reward is read with ``last()`` when the learner's seat
  is selected again, which is the AEC reward accumulated since the learner last acted. So when the
  opponent's move ends the fight, the learner still receives its −1 (the loser's reward is never
  dropped), and a reward earned on the opponent's turn is never credited to the wrong seat.
* **Ego-centric observations.** Every observation and mask returned is ``observe(learner)``.

Sampling of opponents is prioritized fictitious self-play; each finished episode reports its result
back to the pool. ``info["selfplay"]`` on the last step of an episode carries the opponent's name, the
learner's seat and return, the episode length (learner decisions) and the learner's action counts.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from issoku.training.opponents import OpponentPool

SEED_RANGE = 2**31 - 1


class SelfPlayEnv(gym.Env):
    """The learner's seat of an AEC env; opponents from ``pool`` act inside :meth:`step`."""

    metadata = {"render_modes": []}

    def __init__(self, aec_env: Any, pool: OpponentPool) -> None:
        self.aec_env = aec_env
        self.pool = pool
        seats = list(aec_env.possible_agents)
        self.observation_space = aec_env.observation_space(seats[0])["observation"]
        self.action_space = aec_env.action_space(seats[0])
        for seat in seats[1:]:
            if aec_env.action_space(seat) != self.action_space or \
                    aec_env.observation_space(seat)["observation"] != self.observation_space:
                raise ValueError(f"self-play needs every seat to share one action and observation space; {seat!r} differs")
        self._seats = seats
        self.learner: str = seats[0]
        self.opponent_name = ""
        self._opponent = None
        self._mask = np.ones(self.action_space.n, dtype=np.int8)
        self._action_counts = np.zeros(self.action_space.n, dtype=np.int64)
        self._return = 0.0

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Start a fight: draw the AEC seed, the learner's seat and an opponent; advance to the learner."""
        super().reset(seed=seed)
        rng = self.np_random
        self.aec_env.reset(seed=int(rng.integers(SEED_RANGE)), options=options)
        self.learner = self._seats[int(rng.integers(len(self._seats)))]
        self.opponent_name, self._opponent = self.pool.sample(rng)
        self._action_counts[:] = 0
        self._return = 0.0
        observation, reward, terminated, truncated = self._advance_to_learner()
        if terminated or truncated:
            raise RuntimeError("the fight ended before the learner's first decision")
        self._return += reward
        return observation, {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Play the learner's action, then the opponent's moves until the learner decides or is done."""
        action = int(action)
        self._action_counts[action] += 1
        self.aec_env.step(action)
        observation, reward, terminated, truncated = self._advance_to_learner()
        self._return += reward
        info: dict[str, Any] = {}
        if terminated or truncated:
            self.pool.record(self.opponent_name, self._return)
            info["selfplay"] = {
                "opponent": self.opponent_name,
                "seat": self.learner,
                "return": self._return,
                "length": int(self._action_counts.sum()),
                "action_counts": self._action_counts.copy(),
            }
        return observation, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now (sb3-contrib's MaskablePPO calls this)."""
        return self._mask.astype(bool)

    def _advance_to_learner(self) -> tuple[np.ndarray, float, bool, bool]:
        """Step opponents and dead agents until the learner's seat is selected; return its ``last()``."""
        env = self.aec_env
        while env.agents:
            agent = env.agent_selection
            observation, reward, terminated, truncated, _ = env.last()
            if agent == self.learner:
                if not (terminated or truncated):
                    self._mask = np.asarray(observation["action_mask"], dtype=np.int8)
                return observation["observation"], float(reward), bool(terminated), bool(truncated)
            if terminated or truncated:
                env.step(None)
            else:
                env.step(self._opponent(observation["observation"], observation["action_mask"]))
        raise RuntimeError(f"the AEC env removed the learner's seat {self.learner!r} before selecting it again "
                           "(its final reward would be lost)")
