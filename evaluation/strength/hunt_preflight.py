"""What ``issoku hunt`` checks before its folder, store or TensorBoard log is written: its numbers, its output folder
(and a resumed hunt's settings), its env and training envs, its population and its oracle.

Beside the hunt, not in :mod:`~issoku.evaluation.games.preflight`: these checks read the hunt's own settings
(:func:`~issoku.evaluation.strength.hunt.env_kwargs`, :func:`~issoku.evaluation.strength.hunt.saved_iterations`),
and the game checks they use must not import the hunt back.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from issoku.evaluation.games.preflight import check_tournament_plays
from issoku.evaluation.games.tournament import Tournament


def check_hunt(config: Any) -> None:
    """Everything ``issoku hunt`` was given (a :class:`~issoku.evaluation.strength.hunt.HuntConfig`), before its folder, store
    or TensorBoard log is written: the numbers, the output folder (and a resumed hunt's settings), the env and its
    training envs (matchups, variant), every population member in the hunt's games (see
    :func:`check_tournament_plays`), and the warm start (a checkpoint fitting the training env)."""
    from issoku.envs.registry import resolve_env
    from issoku.evaluation.games.checkpoint_fit import check_checkpoint_fits
    from issoku.evaluation.strength.hunt import env_kwargs, saved_iterations
    from issoku.evaluation.games.policies import resolve_policy
    from issoku.evaluation.games.tournament import Loadout
    from issoku.common.inputs import MAX_GAMES, MAX_SEED, BadInput, bounded, check_output_dir
    from issoku.training.config import TrainConfig
    from issoku.training.make_env import make_config_env

    bounded("--iterations", config.iterations, 1, 1000)
    bounded("--steps", config.steps, 1, MAX_GAMES)
    bounded("--games", config.games_per_pair, 1, MAX_GAMES)
    bounded("--seed", config.seed, 0, MAX_SEED)
    bounded("--workers", config.workers, 0, 1024)
    bounded("--n-envs", config.n_envs, 1, 1024)
    if config.control and not config.variant:
        raise BadInput("--control needs --variant: the control is the same hunt's best response on the shipped rules")
    check_oracle(config)
    if not math.isfinite(config.threshold):
        raise BadInput(f"--threshold must be a finite number, not {config.threshold}")
    out = Path(config.out)
    check_output_dir("--out", out)
    saved_iterations(config)  # a resumed hunt's settings and its own checkpoints; no name in hunt.json is imported
    factory = resolve_env(config.env_id, where="--env")
    probe = make_config_env(TrainConfig(env_id=config.env_id, env_kwargs=env_kwargs(config), matchups=config.matchups,
                                        seed=config.seed, n_envs=config.n_envs, n_steps=config.n_steps,
                                        batch_size=config.batch_size, total_steps=config.steps))
    try:
        if config.warm_start:
            try:
                check_checkpoint_fits(config.warm_start, probe, config.env_id)
            except ValueError as error:
                raise ValueError(f"--warm-start: {error}") from None
    finally:
        probe.close()
    specs = tuple(resolve_policy(entry, where="--policy") for entry in config.population)
    check_tournament_plays(Tournament(env_factory=factory, policies=specs,
                                      loadouts=(Loadout("default", env_kwargs(config)),),
                                      games_per_pair=config.games_per_pair, base_seed=config.seed), config.env_id)


def check_oracle(config: Any) -> None:
    """The hunt's best-response oracle and its settings: ``--warm-start`` and ``--control`` train learners, which
    the search oracle has none of."""
    from issoku.evaluation.strength.hunt_search import ORACLES
    from issoku.common.inputs import BadInput, bounded

    if config.oracle not in ORACLES:
        raise BadInput(f"--oracle must be one of {', '.join(ORACLES)}, not {config.oracle!r}")
    bounded("--search-simulations", config.search_simulations, 1, 100_000)
    if config.oracle == "search":
        for option, given in (("--warm-start", config.warm_start), ("--control", config.control)):
            if given:
                raise BadInput(f"{option} trains a learner; --oracle search trains none (drop {option}, or use "
                               "--oracle ppo)")
