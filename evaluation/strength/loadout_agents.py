"""A loadout study's learned field: the general agent fine-tuned once per loadout label of the study's grid.

A loadout rating played by one agent in every seat says as much about that agent's habits as about the
rules: the Ma heuristic plays every weapon the same way, and a general agent trained on one matchup
plays the others as well as it transfers. ``issoku finetune-loadouts`` fine-tunes the general agent
(``--from``, a checkpoint or ``shipped:<env>``) once per label of the study's ``loadout_grid``
(:class:`~issoku.training.finetune.LoadoutFineTuneJob`: that label's fighter on the learner's side, on
either seat, against every label of the grid drawn per episode, played by the general agent), and writes
``<out>/<label>.zip`` with its metadata. A study then fields them with the policy entry
``per_loadout:<out>`` (:class:`~issoku.evaluation.games.policies.PerLoadoutFactory`): each seat played by the
agent of the loadout it fields.

The jobs run on the execution backend (workers return the checkpoint bytes, this process writes them);
a label whose checkpoint is already written is reused, so a killed run resumes (one written with other
settings is refused, not reused). Seeds: label ``i`` of the
grid trains with ``seed + i``.
"""

from __future__ import annotations

from pathlib import Path

from issoku.evaluation.games.config import StudyConfig
from issoku.common.backend import Workers
from issoku.training.finetune import LoadoutFineTuneJob, fine_tune_all, fine_tune_loadout


def loadout_jobs(study: StudyConfig, checkpoint: str, steps: int, seed: int, out: str | Path,
                 where: str = "--study") -> list[LoadoutFineTuneJob]:
    """One fine-tuning job per label of ``study``'s loadout grid (ValueError naming ``where`` without a grid)."""
    from issoku.envs.registry import resolve_env

    grid = study.loadout_grid
    if grid is None:
        raise ValueError(f"{where}: loadout_grid: the study has none (per-loadout agents need a grid's labels)")
    opponents = tuple(grid.entry(label) for label in grid.labels)
    return [LoadoutFineTuneJob(env_factory=resolve_env(study.env), env_kwargs=dict(grid.kwargs), checkpoint=checkpoint,
                               seat_key=grid.seat_key, label=label, fighter=grid.entry(label), opponents=opponents,
                               steps=steps, seed=seed + index, out=str(Path(out) / f"{label}.zip"))
            for index, label in enumerate(grid.labels)]


def plan_loadout_agents(study_file: str | Path, source: str, steps: int, seed: int, out: str | Path, *,
                        allow_imports: bool = False) -> list[LoadoutFineTuneJob]:
    """Validate everything ``issoku finetune-loadouts`` was given, before anything is trained or written: the
    study (its env and grid; its own policies are not resolved, so the study that will field the agents may be
    given before they exist), and the general checkpoint (``shipped:<env>`` or a file) fitting the grid's env."""
    from issoku.envs.registry import resolve_env
    from issoku.evaluation.games.checkpoint_fit import check_checkpoint_fits
    from issoku.evaluation.games.policies import expand_shipped
    from issoku.rules.kernel.content import load_model

    study = load_model(study_file, StudyConfig)
    resolve_env(study.env, allow_imports=allow_imports, where=str(study_file))
    checkpoint = expand_shipped(source).partition("=")[2] or source
    if not checkpoint.endswith(".zip") or not Path(checkpoint).is_file():
        raise ValueError(f"--from: no checkpoint file at {checkpoint} (a .zip written by issoku train, or shipped:<env>)")
    jobs = loadout_jobs(study, checkpoint, steps, seed, out, where=str(study_file))
    _check_reused(jobs)
    first = jobs[0]
    env = first.env_factory(**{**first.env_kwargs, first.seat_key: [first.fighter, first.fighter]})
    try:
        check_checkpoint_fits(checkpoint, env, study.env, allow_imports=allow_imports)
    finally:
        env.close()
    return jobs


def _check_reused(jobs: list[LoadoutFineTuneJob]) -> None:
    """Refuse a folder holding a label tuned otherwise (another general agent, fighter, step count or seed): reusing
    it would field an agent the command line does not describe."""
    from issoku.agents.checkpoint import metadata_path, read_metadata

    for job in jobs:
        if Path(job.out).exists() and metadata_path(job.out).exists():
            written = read_metadata(job.out).get("fine_tuned")
            if written != job.record():
                raise ValueError(f"--out: {job.out} was fine-tuned as {written}, not as this run asks ({job.record()}); "
                                 "give another --out folder, or delete that file")


def finetune_loadouts(jobs: list[LoadoutFineTuneJob], workers: Workers = None, progress: bool = True) -> list[str]:
    """Run the jobs not yet written (see :func:`~issoku.training.finetune.fine_tune_all`); every label's checkpoint."""
    return fine_tune_all(jobs, workers, progress, tune=fine_tune_loadout, unit="loadout")
