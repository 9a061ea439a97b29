"""Restricted play's stronger design for learned policies: fine-tune the checkpoint under the restriction first.

Masking an action out of a trained policy measures how much it *relied* on the action; a designer
wants how much the game *needs* it, which means letting the agent adapt. :func:`fine_tune` loads the
checkpoint, continues MaskablePPO training for ``steps`` decisions with the restriction in its action
mask (a two-action combo: the second masked right after the first), against the unrestricted
checkpoint on the other seat, and saves the result next to it with the original metadata plus what
was done. One restriction is one independent job (:class:`FineTuneJob`); a finished file is reused,
so a killed battery resumes. Restricted play then pits the fine-tuned, still restricted policy
against the unrestricted one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from tqdm import tqdm

from issoku.agents.checkpoint import metadata_path, read_metadata
from issoku.evaluation.workers import worker_pool


@dataclass(frozen=True)
class FineTuneJob:
    """One restriction's fine-tuning: everything a worker needs, picklable."""

    env_factory: Callable[..., Any]
    env_kwargs: Mapping[str, Any]
    checkpoint: str
    banned: tuple[int, ...]
    steps: int
    seed: int
    out: str


class _RestrictedMask(gymnasium.Wrapper):
    """The learner's action mask without the banned action (a combo: only right after its first action)."""

    def __init__(self, env: gymnasium.Env, banned: Sequence[int]) -> None:
        super().__init__(env)
        self._banned = tuple(banned)
        self._last: int | None = None

    def reset(self, **kwargs: Any) -> Any:
        self._last = None
        return self.env.reset(**kwargs)

    def step(self, action: int) -> Any:
        self._last = int(action)
        return self.env.step(action)

    def action_masks(self) -> np.ndarray:
        mask = np.array(self.env.action_masks(), dtype=bool)
        if len(self._banned) == 1 or self._last == self._banned[0]:
            restricted = mask.copy()
            restricted[self._banned[-1]] = False
            if restricted.any():
                return restricted
        return mask


def fine_tune(job: FineTuneJob) -> str:
    """Fine-tune ``job.checkpoint`` under the restriction; returns the new checkpoint's path (reused if present)."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from issoku.agents.checkpoint import CheckpointPolicy, clip_range_of
    from issoku.agents.checkpoint_zip import load_model
    from issoku.training.make_env import make_seat_env

    out = Path(job.out)
    if out.exists() and metadata_path(out).exists():
        return str(out)
    seat_env = make_seat_env(job.env_factory(**job.env_kwargs))
    seat_env.set_opponent(CheckpointPolicy(job.checkpoint, seed=job.seed))
    env = DummyVecEnv([lambda: _RestrictedMask(seat_env, job.banned)])
    env.seed(job.seed)
    model = load_model(job.checkpoint, env=env, clip_range=clip_range_of(read_metadata(job.checkpoint)), seed=job.seed)
    model.learn(total_timesteps=job.steps, reset_num_timesteps=False)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.stem + ".partial.zip")
    model.save(partial)
    metadata = read_metadata(job.checkpoint)
    metadata["fine_tuned"] = {"from": job.checkpoint, "banned": list(job.banned), "steps": job.steps,
                              "seed": job.seed}
    metadata_path(out).write_text(json.dumps(metadata, indent=1))
    os.replace(partial, out)
    return str(out)


def fine_tune_all(jobs: Sequence[FineTuneJob], workers: int | None = None, progress: bool = True) -> list[str]:
    """Run every job (``workers=0``: in this process, else a process pool); the new checkpoints in job order."""
    done: dict[int, str] = {}
    with tqdm(total=len(jobs), desc="fine-tuning", unit="restriction", disable=not progress) as bar:
        if workers == 0 or len(jobs) < 2:
            for index, job in enumerate(jobs):
                done[index] = fine_tune(job)
                bar.update()
        else:
            with worker_pool(workers, len(jobs)) as pool:
                futures = {pool.submit(fine_tune, job): index for index, job in enumerate(jobs)}
                for future in as_completed(futures):
                    done[futures[future]] = future.result()
                    bar.update()
    return [done[index] for index in range(len(jobs))]
