"""MaskablePPO training throughput: timesteps per second of ``model.learn`` on the self-play wrapper of
an env (``issoku.training``'s own: the learner's seat against the ``random`` opponent), with the same
hyperparameters for every env, and the wrapper alone under random masked actions (no network) to show
what share of the time the env takes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from benchmarks.classic import allow_classic_import
from benchmarks.timing import Stopwatch, Timing

PPO_ENVS = ("breath_duel_v0", "connect_four_v3")
HUNT_ENVS = ("breath_duel_v0",)
"""Envs with a row for the hunt's best-response training (two processes) beside the one-process row."""
QUICK_HYPERPARAMETERS = {"n_envs": 2, "n_steps": 64, "batch_size": 64, "n_epochs": 2}
"""``--quick``: a smaller rollout and update (the same for every env, so the ratio stays fair)."""


def self_play_envs(env_id: str, quick: bool = False, seed: int = 0) -> tuple[Any, Any]:
    """``TrainConfig``'s defaults for ``env_id`` against ``random`` (smaller with ``quick``) and a
    ``DummyVecEnv`` of its ``n_envs`` self-play wrappers, as ``issoku train`` builds them."""
    from issoku.training.config import TrainConfig
    from issoku.training.make_env import make_config_env, ruleset_of
    from issoku.training.selfplay import build_pool, make_vec_env

    allow_classic_import()
    config = TrainConfig(env_id=env_id, opponents=("random",), seed=seed, progress_bar=False, eval_every=0)
    if quick:
        config = replace(config, **QUICK_HYPERPARAMETERS)
    pool = build_pool(config, ruleset_of(make_config_env(config)))
    return config, make_vec_env(config, pool)


def learner(env_id: str, quick: bool = False, seed: int = 0) -> Any:
    """A fresh MaskablePPO model on :func:`self_play_envs` (one torch thread), after one rollout and
    update so that first-call costs stay out of the timings."""
    import torch

    from issoku.training.selfplay import new_model

    config, vec_env = self_play_envs(env_id, quick, seed)
    torch.set_num_threads(config.torch_threads)
    model = new_model(config, vec_env)
    model.learn(rollout_size(model))
    return model


def hunt_learner(env_id: str, quick: bool = False, seed: int = 0, processes: bool = False) -> Any:
    """The hunt's best-response learner (``issoku hunt``) against ``random``: the same rollout and update as
    :func:`learner`, after one rollout and update; with ``processes``, one process per env (``SubprocVecEnv``:
    two envs, one per core; its CPU seconds miss the workers' time, so read its wall-clock rate)."""
    from issoku.evaluation.strength.hunt import HuntConfig, best_response_learner

    sizes = {key: QUICK_HYPERPARAMETERS[key] for key in ("n_envs", "n_steps", "batch_size")} if quick else {}
    if processes and not quick:
        sizes = {"n_envs": 2, "n_steps": 1024}  # one process per core, the same 2,048-step rollout
    config = HuntConfig(env_id=env_id, population=("random",), out="", subprocess_envs=processes, **sizes)
    model, _ = best_response_learner(config, [("random", "random")], [1.0], seed)
    model.n_epochs = QUICK_HYPERPARAMETERS["n_epochs"] if quick else model.n_epochs
    model.learn(rollout_size(model))
    return model


def rollout_size(model: Any) -> int:
    """Timesteps in one rollout (``n_envs * n_steps``)."""
    return model.n_envs * model.n_steps


def learn(model: Any, timesteps: int) -> Timing:
    """``model.learn`` over at least ``timesteps`` more timesteps (whole rollouts and updates), timed."""
    before = model.num_timesteps
    with Stopwatch() as watch:
        model.learn(timesteps, reset_num_timesteps=False)
    return watch.timing(model.num_timesteps - before)


def wrapper_steps(vec_env: Any, timesteps: int, seed: int = 0) -> Timing:
    """A ``DummyVecEnv`` of self-play wrappers alone (no network), random masked actions, timed."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    rng = np.random.default_rng(seed)
    vec_env.reset()
    done = 0
    with Stopwatch() as watch:
        while done < timesteps:
            actions = [rng.choice(np.flatnonzero(mask)) for mask in get_action_masks(vec_env)]
            vec_env.step(np.array(actions))
            done += vec_env.num_envs
    return watch.timing(done)
