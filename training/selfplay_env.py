"""Self-play: a single-seat env whose opponent is drawn from the opponent pool on every reset.

Wraps an ``issoku.envs.single_agent.SingleAgentEnv`` (``set_opponent``, ``learner``,
``info["action_mask"]``), the one single-seat wrapper for issoku's and any other AEC env. It gives the
learner its own observations and credit its terminal reward whichever seat's move ends the fight; this wrapper adds
the pool: on ``reset`` it draws an opponent by PFSP priority (from its own seeded generator), and when
the episode ends it reports the learner's return to the pool.

``info["selfplay"]`` on the last step of an episode carries the opponent's name, the learner's seat
and return, the episode length (learner decisions) and how often the learner chose each action.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from issoku.envs.single_agent import MaskedWrapper, SingleAgentEnv
from issoku.training.opponents import OpponentPool


POOL_STREAM = 0x5E1F
"""Mixed into the reset seed for the opponent draws, so they are independent of the seat env's draws
(which Gymnasium seeds with the bare reset seed)."""


class SelfPlayEnv(MaskedWrapper):
    """Draws each episode's opponent from ``pool`` and reports every result back to it."""

    def __init__(self, env: SingleAgentEnv, pool: OpponentPool) -> None:
        super().__init__(env)
        self.seat_env = env
        """The seat env (``self.env``), whose opponent this wrapper sets."""
        self.pool = pool
        self.opponent_name = ""
        self._rng = np.random.default_rng()
        actions = int(env.action_space.n)
        self._action_counts = np.zeros(actions, dtype=np.int64)
        self._return = 0.0
        self._mask = np.zeros(actions, dtype=np.bool_)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Draw an opponent (seeded by ``seed``, like the fight), then start the fight."""
        if seed is not None:
            self._rng = np.random.default_rng([POOL_STREAM, seed])
        self.opponent_name, policy = self.pool.sample(self._rng)
        self.seat_env.set_opponent(policy)
        self._action_counts[:] = 0
        self._return = 0.0
        observation, info = self.seat_env.reset(seed=seed, options=options)
        self._mask = info["action_mask"].astype(bool)
        return observation, info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's action; at the end of the fight, the result goes to the pool and ``info``."""
        self._action_counts[int(action)] += 1
        observation, reward, terminated, truncated, info = self.seat_env.step(action)
        self._mask = info["action_mask"].astype(bool)
        self._return += reward
        if terminated or truncated:
            self.pool.record(self.opponent_name, self._return)
            info = {**info, "selfplay": {
                "opponent": self.opponent_name,
                "seat": self.seat_env.learner,
                "return": self._return,
                "length": int(self._action_counts.sum()),
                "action_counts": self._action_counts.copy(),
            }}
        return observation, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (MaskablePPO calls this), kept from the last ``info["action_mask"]``:
        asking the seat env again would encode a whole observation just for its mask."""
        return self._mask
