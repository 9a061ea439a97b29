"""What a playing command checks before it writes or plays anything: that every policy can take every seat of every
loadout, that every checkpoint fits the env it will play (worded as ``issoku evaluate`` words it), and the
inputs of the commands that build their own games (``hunt``, ``ladder``, ``styles``).

A bad input found mid-run costs the games already played and leaves a store, a TensorBoard folder or exports
behind; the one bad-input policy says it must be refused first, as one ValueError naming the option or file,
the field and why (the CLI turns it into one line and exit status 2). Each check builds the envs and policies
the run would build, once, and plays nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from issoku.evaluation.tournament import Tournament


def check_tournament_plays(tournament: Tournament, env_name: str, *, allow_imports: bool = False,
                           other_rules: bool = False) -> None:
    """Build every loadout's env and every policy in each of its seats (with the seat's loadout label), then check
    every checkpoint against every loadout's env; ValueError naming the loadout or policy on the first problem.

    A policy built for another ruleset (a Ma agent in a tempo study) or a per-loadout folder lacking a label's
    checkpoint fails here, not in a worker mid-run. ``other_rules``: see
    :func:`~issoku.evaluation.checkpoint_fit.check_checkpoint_fits` (the balance reports alone pass it).
    """
    from issoku.evaluation.checkpoint_fit import check_tournament_checkpoints
    from issoku.evaluation.tournament import make_seat_policy
    from issoku.inputs import one_line

    for loadout in tournament.loadouts:
        try:
            env = tournament.env_factory(**loadout.kwargs)
        except (TypeError, ValueError, KeyError) as error:
            raise ValueError(f"{env_name}: loadout {loadout.name!r}: {one_line(error)}") from None
        try:
            for spec in tournament.policies:
                try:
                    for label in loadout.seat_labels or ("",):
                        make_seat_policy(spec, 0, env, label)
                except (AttributeError, TypeError, ValueError, KeyError) as error:
                    raise ValueError(f"policies: {spec.name!r} cannot play {env_name} "
                                     f"({type(error).__name__}: {one_line(error)})") from None
        finally:
            env.close()
    check_tournament_checkpoints(tournament, env_name, allow_imports=allow_imports,  # every difference listed
                                 other_rules=other_rules)


def check_hunt(config: Any) -> None:
    """Everything ``issoku hunt`` was given (a :class:`~issoku.evaluation.hunt.HuntConfig`), before its folder, store
    or TensorBoard log is written: the numbers, the output folder (and a resumed hunt's settings), the env and its
    training envs (matchups, variant), every population member in the hunt's games (see
    :func:`check_tournament_plays`), and the warm start (a checkpoint fitting the training env)."""
    from issoku.envs.registry import resolve_env
    from issoku.evaluation.checkpoint_fit import check_checkpoint_fits
    from issoku.evaluation.hunt import env_kwargs, saved_iterations
    from issoku.evaluation.policies import resolve_policy
    from issoku.evaluation.tournament import Loadout
    from issoku.inputs import MAX_GAMES, MAX_SEED, BadInput, bounded, check_output_dir
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
    from issoku.evaluation.hunt_search import ORACLES
    from issoku.inputs import BadInput, bounded

    if config.oracle not in ORACLES:
        raise BadInput(f"--oracle must be one of {', '.join(ORACLES)}, not {config.oracle!r}")
    bounded("--search-simulations", config.search_simulations, 1, 100_000)
    if config.oracle == "search":
        for option, given in (("--warm-start", config.warm_start), ("--control", config.control)):
            if given:
                raise BadInput(f"{option} trains a learner; --oracle search trains none (drop {option}, or use "
                               "--oracle ppo)")


def check_checkpoints_fit_suite(checkpoints: Sequence[str], suite: Any) -> None:
    """Refuse a checkpoint ``ladder`` or ``styles`` would export and rate on ``suite`` (a
    :class:`~issoku.evaluation.reference_suite.SuiteConfig`) before any export or store is written: a missing file,
    or one that does not fit the suite's env (every difference listed, as ``issoku evaluate`` lists them)."""
    from issoku.evaluation.checkpoint_fit import check_checkpoint_fits
    from issoku.evaluation.config import build_tournament

    for checkpoint in checkpoints:
        if not Path(checkpoint).is_file():
            raise FileNotFoundError(f"checkpoint {checkpoint}: no such file")
    tournament = build_tournament(suite)
    env = tournament.env_factory(**dict(tournament.loadouts[0].kwargs))
    try:
        for checkpoint in checkpoints:
            check_checkpoint_fits(checkpoint, env, suite.env)
    finally:
        env.close()
