"""Seeded duels of a MaskablePPO learner against one scripted opponent, with sb3-contrib's masked evaluation.

The learner plays deterministically (its most probable legal action), seats are drawn per duel from
the env's seeded generator, and the duels are the same for the same ``seed``: evaluations at different
points of a run, or of different runs, face identical fights.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.vec_env import DummyVecEnv

from issoku.training.config import TrainConfig
from issoku.training.make_env import make_selfplay_env
from issoku.training.opponents import Opponent, OpponentPool, scripted_policy
from issoku.common.outcomes import Tally

EVAL_ENVS = 4


def evaluate_against(model: Any, config: TrainConfig, opponent: str, episodes: int, seed: int,
                     ruleset: Any = None) -> dict[str, Any]:
    """Play ``episodes`` seeded duels against scripted ``opponent`` (built for ``ruleset`` if it needs one);
    wins, draws, losses, win rate, mean length."""
    pool = OpponentPool([Opponent(opponent, scripted_policy(opponent, seed, ruleset))])
    env = DummyVecEnv([lambda: make_selfplay_env(config, pool, shaped=False)] * min(EVAL_ENVS, episodes))
    env.seed(seed)
    returns, lengths = cast(tuple[list[float], list[int]],  # return_episode_rewards: the per-episode lists
                            evaluate_policy(model, env, n_eval_episodes=episodes, deterministic=True,
                                            return_episode_rewards=True, warn=False))
    env.close()
    tally = Tally.of_returns(returns)
    return {
        "opponent": opponent,
        "episodes": tally.duels,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "win_rate": tally.win_rate().value,
        "mean_length": float(np.mean(lengths)),
        "seed": seed,
    }
