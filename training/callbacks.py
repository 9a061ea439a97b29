"""What a self-play run shows and does while it trains: statistics, progress bar, checkpoints, evaluations.

Each callback has one job. TensorBoard scalars (under the run's ``tb/`` folder):

* ``selfplay/win_rate`` (recent training games), ``selfplay/episode_length`` (learner decisions),
* ``pool/win_rate/<member>`` and ``pool/probability/<member>``: the learner's recent score against each
  pool member and its PFSP sampling probability,
* ``actions/<kind>``: how often the learner chose each action kind (the part of the action name
  before ``:``, e.g. ``attack``) in the last rollout,
* ``eval/win_rate/<scripted agent>``: seeded masked evaluation duels,
* SB3's own ``train/entropy_loss`` (minus the policy entropy), ``train/approx_kl``, ``rollout/ep_rew_mean``...
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from issoku.training.make_env import action_kind
from issoku.training.opponents import OpponentPool, score_of

RECENT_GAMES = 100


class SelfPlayStats(BaseCallback):
    """Collects finished training games and records the self-play scalars after each rollout."""

    def __init__(self, pool: OpponentPool, action_names: Sequence[str]) -> None:
        super().__init__()
        self.pool = pool
        self.kinds = [action_kind(name) for name in action_names]
        self.recent_scores: deque[float] = deque(maxlen=RECENT_GAMES)
        self._lengths: list[int] = []
        self._action_counts = np.zeros(len(action_names), dtype=np.int64)

    @property
    def win_rate(self) -> float | None:
        """The learner's share of wins over its last games (None before the first one ends)."""
        return float(np.mean([s == 1.0 for s in self.recent_scores])) if self.recent_scores else None

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            game = info.get("selfplay")
            if game is not None:
                self.recent_scores.append(score_of(game["return"]))
                self._lengths.append(game["length"])
                self._action_counts += game["action_counts"]
        return True

    def _on_rollout_end(self) -> None:
        if self.win_rate is not None:
            self.logger.record("selfplay/win_rate", self.win_rate)
        if self._lengths:
            self.logger.record("selfplay/episode_length", float(np.mean(self._lengths)))
        for name, probability in self.pool.probabilities().items():
            self.logger.record(f"pool/win_rate/{name}", self.pool.win_rate(name))
            self.logger.record(f"pool/probability/{name}", probability)
        total = self._action_counts.sum()
        if total:
            usage: dict[str, int] = {}
            for kind, count in zip(self.kinds, self._action_counts):
                usage[kind] = usage.get(kind, 0) + int(count)
            for kind, used in usage.items():
                self.logger.record(f"actions/{kind}", used / total)
        self._lengths.clear()
        self._action_counts[:] = 0


class ProgressBar(BaseCallback):
    """A tqdm bar over the run's total steps (steps/s by tqdm), with the current win rate and pool size."""

    def __init__(self, total_steps: int, stats: SelfPlayStats) -> None:
        super().__init__()
        self.total_steps = total_steps
        self.stats = stats
        self.bar: tqdm | None = None

    def _on_training_start(self) -> None:
        self.bar = tqdm(total=self.total_steps, initial=self.num_timesteps, unit="step", dynamic_ncols=True,
                        smoothing=0.1)

    # SB3 calls _on_training_start before any other hook, so the bar is there in each of them.
    def _on_step(self) -> bool:
        assert self.bar is not None
        self.bar.update(self.training_env.num_envs)
        return True

    def _on_rollout_end(self) -> None:
        assert self.bar is not None
        win_rate = self.stats.win_rate
        self.bar.set_postfix(win_rate="-" if win_rate is None else f"{win_rate:.2f}", pool=len(self.stats.pool))

    def _on_training_end(self) -> None:
        assert self.bar is not None
        self.bar.close()


class Every(BaseCallback):
    """Calls ``action()`` each time the step count crosses a multiple of ``interval`` (0: never)."""

    def __init__(self, interval: int, action: Callable[[], None]) -> None:
        super().__init__()
        self.interval = interval
        self.action = action
        self._next = 0

    def _on_training_start(self) -> None:
        self._next = (self.num_timesteps // self.interval + 1) * self.interval if self.interval else 0

    def _on_step(self) -> bool:
        if self.interval and self.num_timesteps >= self._next:
            self.action()
            self._next = (self.num_timesteps // self.interval + 1) * self.interval
        return True
