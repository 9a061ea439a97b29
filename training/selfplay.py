"""MaskablePPO self-play against a PFSP opponent pool, resumable and observable (``issoku train``).

One run, read top to bottom in :func:`train`:

1. resolve the run directory; a fresh run refuses a directory that already holds checkpoints, a
   ``resume`` refuses a checkpoint whose env id, env version, rules version or rules fingerprint
   differs from the env at hand (:class:`~issoku.agents.checkpoint.CheckpointMismatchError`);
2. build the opponent pool (scripted agents, plus the snapshots and scores saved with the checkpoint);
3. build ``n_envs`` self-play envs in one process (they share the pool) and the model (new, or loaded); a
   new one with ``imitate`` first copies that scripted agent (:mod:`issoku.training.imitation`);
4. learn, with a checkpoint every ``checkpoint_every`` steps (every ``snapshot_every``-th also joins the
   pool as a frozen opponent), masked evaluations every ``eval_every`` steps, TensorBoard scalars and a
   progress bar;
5. save the final checkpoint, play ``final_eval_episodes`` seeded duels against each evaluation
   opponent and write ``final_eval.json``.

A run killed at any point (SIGKILL included) resumes from its newest complete checkpoint, losing at
most ``checkpoint_every`` steps. Resumed envs are seeded from the step count, so they play new fights.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from issoku.agents.checkpoint import check_compatible, metadata_path, read_metadata
from issoku.training.checkpoints import (atomic_write_json, checkpoint_path, complete_checkpoints, latest_checkpoint,
                                         newest_usable_checkpoint, save_checkpoint)
from issoku.training.config import TrainConfig, apply_overrides, refuse_config_imports
from issoku.training.opponents import SNAPSHOT_KIND, Opponent, OpponentPool, scripted_policy

EVAL_SEED = 1_000_003
"""Seed of the evaluation duels (offset by the run's seed), distinct from any training seed."""


class RunDirectoryError(RuntimeError):
    """A fresh run would overwrite an existing one, or a resume finds nothing to resume."""


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def resolve_config(overrides: dict[str, Any], *, resume: bool, allow_imports: bool = True) -> TrainConfig:
    """The config of a new run (defaults + overrides) or of a resumed one (its saved config + overrides).

    A resumed run's saved names (read from its checkpoint's JSON) may be import paths only with
    ``allow_imports`` or when ``overrides`` (what the user typed) give them again.
    """
    config = apply_overrides(TrainConfig(), overrides)
    if not resume:
        return config
    latest = newest_usable_checkpoint(config.resolved_run_dir, say=_say)
    if latest is None:
        raise RunDirectoryError(f"nothing to resume: no complete checkpoint in {config.resolved_run_dir}/checkpoints")
    saved_fields = read_metadata(latest)["config"]
    refuse_config_imports({key: value for key, value in saved_fields.items() if key not in overrides},
                          str(metadata_path(latest)), allow_imports=allow_imports)
    saved = TrainConfig.from_json(saved_fields)
    return apply_overrides(saved, {**overrides, "run_dir": config.resolved_run_dir})


def final_step_count(config: TrainConfig, steps_done: int) -> int:
    """The step count a run ends at: SB3 stops only after a whole rollout, so past ``total_steps``."""
    rollout = config.n_steps * config.n_envs
    return steps_done + -(-max(0, config.total_steps - steps_done) // rollout) * rollout


def build_pool(config: TrainConfig, ruleset: Any) -> OpponentPool:
    """The pool's scripted members, seeded from the run's seed (``ruleset``: the env's, for scripted agents)."""
    return OpponentPool(
        [Opponent(name, scripted_policy(name, config.seed + index, ruleset), source=name)
         for index, name in enumerate(config.opponents)],
        window=config.pfsp_window, power=config.pfsp_power, floor=config.pfsp_floor,
        max_snapshots=config.max_snapshots)


def make_vec_env(config: TrainConfig, pool: OpponentPool) -> Any:
    """``n_envs`` self-play envs in one process (a ``DummyVecEnv``), all drawing from ``pool``."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from issoku.training.make_env import make_selfplay_env

    return DummyVecEnv([lambda: make_selfplay_env(config, pool)] * config.n_envs)


def ppo_settings(config: TrainConfig) -> dict[str, Any]:
    """The config's PPO hyperparameters that a resumed model takes from the config, as a new one does.

    A resume hands them to the loaded model, so ``--resume --set learning_rate=...`` trains on with the new value
    instead of the checkpoint's (``clip_range`` goes through the safe loader, ``net_arch`` cannot change).
    """
    return {"learning_rate": config.learning_rate, "n_steps": config.n_steps, "batch_size": config.batch_size,
            "n_epochs": config.n_epochs, "gamma": config.gamma, "gae_lambda": config.gae_lambda,
            "ent_coef": config.ent_coef}


def new_model(config: TrainConfig, env: Any, tensorboard_log: str | None = None) -> Any:
    """A fresh MaskablePPO learner on ``env`` with the config's hyperparameters (on the CPU)."""
    from sb3_contrib import MaskablePPO

    return MaskablePPO(
        "MlpPolicy", env, **ppo_settings(config), clip_range=config.clip_range,
        policy_kwargs={"net_arch": list(config.net_arch)}, tensorboard_log=tensorboard_log,
        seed=config.seed, device="cpu", verbose=0)


def train(config: TrainConfig, *, resume: bool = False) -> dict[str, Any]:
    """Run (or resume) self-play training; returns the final evaluation (also in ``final_eval.json``)."""
    import torch
    from stable_baselines3.common.callbacks import CallbackList

    from issoku.agents.checkpoint_zip import load_model

    from issoku.training.callbacks import Every, ProgressBar, SelfPlayStats
    from issoku.training.evaluate import evaluate_against
    from issoku.training.make_env import action_names, env_identity, make_config_env, ruleset_of

    torch.set_num_threads(config.torch_threads)
    run_dir = Path(config.resolved_run_dir)
    latest = newest_usable_checkpoint(run_dir, say=_say) if resume else latest_checkpoint(run_dir)
    if resume and latest is None:
        raise RunDirectoryError(f"nothing to resume: no complete checkpoint in {run_dir}/checkpoints")
    if not resume and latest is not None:
        raise RunDirectoryError(f"{run_dir} already holds checkpoints; pass --resume to continue that run, "
                                "or choose another --run-dir")

    probe = make_config_env(config)
    identity = env_identity(probe, config.env_id)
    names = action_names(probe)
    ruleset = ruleset_of(probe)
    if config.style:  # a bad style file is refused before any checkpoint is written
        from issoku.training.shaping import bonus_per_action, load_style

        bonus_per_action(load_style(config.style), config.env_id, names)
    probe.close()
    pool = build_pool(config, ruleset)
    if resume:
        assert latest is not None  # refused above
        metadata = read_metadata(latest)
        check_compatible(metadata, identity, what=f"checkpoint {latest}")
        trained = tuple(metadata.get("config", {}).get("net_arch", config.net_arch))
        if trained != tuple(config.net_arch):
            raise RunDirectoryError(f"net_arch: checkpoint {latest} has {list(trained)}, the config "
                                    f"{list(config.net_arch)}; a resumed network keeps its layers (start a new run)")
        pool.restore(metadata["pool"], lambda path, name, seed: pool.add_snapshot(
            path, name, seed=config.seed if seed is None else seed), checkpoint_dir=latest.parent)
    done = f"resuming at {metadata['steps']:,}; " if resume else ""
    ends_at = final_step_count(config, metadata["steps"] if resume else 0)
    rounded = (f"; it stops at {ends_at:,}, a whole rollout of {config.n_steps * config.n_envs:,} steps"
               if ends_at != config.total_steps else "")
    then = (f"; then {config.final_eval_episodes:,} seeded duels against {', '.join(config.eval_opponents)}"
            if config.final_eval_episodes and config.eval_opponents else "")
    _say(f"train: {config.env_id} for {config.total_steps:,} learner steps in all ({done}--total-steps sets it"
         f"{rounded}), seed {config.seed}, into {run_dir}{then} (Ctrl-C stops; --resume continues)")

    env = make_vec_env(config, pool)
    tensorboard_dir = str(run_dir / "tb")
    if resume:
        assert latest is not None  # refused above
        model = load_model(latest, env=env, clip_range=config.clip_range, tensorboard_log=tensorboard_dir,
                           **ppo_settings(config))
    else:
        model = new_model(config, env, tensorboard_dir)
        if config.imitate:
            from issoku.training.imitation import imitate

            copied = imitate(model, config, ruleset)
            _say(f"train: warm start copied {config.imitate} ({copied['decisions']:,} decisions, "
                 f"{config.imitation_epochs} passes): the network picks its action on {copied['agreement']:.1%} of them")
    env.seed(config.seed + model.num_timesteps)
    # the snapshot cadence goes on across a resume (counting the checkpoints up to the one resumed from)
    checkpoints_written = len([path for path in complete_checkpoints(run_dir) if latest is not None and path <= latest])

    def checkpoint() -> None:
        nonlocal checkpoints_written
        checkpoints_written += 1
        joins = len(pool) == 0 or checkpoints_written % config.snapshot_every == 0
        name, seed = f"snapshot@{model.num_timesteps}", config.seed + model.num_timesteps
        path = checkpoint_path(run_dir, model.num_timesteps)
        # the saved pool already holds this checkpoint's own snapshot, so a resume from it keeps it
        own = [{"name": name, "kind": SNAPSHOT_KIND, "source": str(path), "scores": [], "seed": seed}] if joins else []
        save_checkpoint(model, run_dir, identity=identity, config=config.to_json(), pool=pool.state() + own)
        if joins:
            pool.add_snapshot(path, name, seed=seed)

    def evaluate() -> None:
        for opponent in config.eval_opponents:
            result = evaluate_against(model, config, opponent, config.eval_episodes, config.seed + EVAL_SEED, ruleset)
            model.logger.record(f"eval/win_rate/{opponent}", result["win_rate"])

    if not resume:
        checkpoint()  # step 0: the run is resumable at once, and an empty pool gets its first opponent
    stats = SelfPlayStats(pool, names)
    callbacks = [stats, Every(config.checkpoint_every, checkpoint), Every(config.eval_every, evaluate)]
    if config.progress_bar:
        callbacks.append(ProgressBar(final_step_count(config, model.num_timesteps), stats))
    model.learn(max(0, config.total_steps - model.num_timesteps), callback=CallbackList(callbacks),
                reset_num_timesteps=False, tb_log_name="selfplay")
    newest = latest_checkpoint(run_dir)
    if newest is None or newest.name != f"step_{model.num_timesteps:012d}.zip":
        checkpoint()
    env.close()

    results = {
        "checkpoint": str(latest_checkpoint(run_dir)),
        "steps": int(model.num_timesteps),
        "evaluations": [evaluate_against(model, config, opponent, config.final_eval_episodes, config.seed + EVAL_SEED,
                                         ruleset) for opponent in config.eval_opponents if config.final_eval_episodes],
    }
    atomic_write_json(run_dir / "final_eval.json", results)
    return results


def cli_train(options: dict[str, Any], assignments: list[str], *, resume: bool, config_file: str | None = None,
              allow_imports: bool = False) -> None:
    """``issoku train``: a config file, options and ``--set key=value`` pairs (later ones win) into a config,
    train, print the final evaluation."""
    import typer

    from issoku.common.inputs import one_line_errors
    from issoku.training.config import parse_assignments, read_config_file

    with one_line_errors("train", also=(RunDirectoryError,)):
        from_file = read_config_file(config_file, allow_imports=allow_imports) if config_file else {}
        typed = {**options, **parse_assignments(assignments)}
        config = resolve_config({**from_file, **typed}, resume=resume, allow_imports=allow_imports)
        results = train(config, resume=resume)
    typer.echo(f"trained {results['steps']} steps; final checkpoint {results['checkpoint']}")
    for result in results["evaluations"]:
        typer.echo(f"vs {result['opponent']}: won {result['wins']}/{result['episodes']} "
                   f"({result['win_rate']:.1%}), drew {result['draws']}, lost {result['losses']}")
