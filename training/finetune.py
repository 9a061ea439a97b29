"""Restricted play's stronger design for learned policies: fine-tune the checkpoint under the restriction first.

Masking an action out of a trained policy measures how much it *relied* on the action; a designer
wants how much the game *needs* it, which means letting the agent adapt. :func:`fine_tune` loads the
checkpoint, continues MaskablePPO training for ``steps`` decisions with the restriction in its action
mask (a two-action combo: the second masked right after the first), against the unrestricted
checkpoint on the other seat, and saves the result next to it with the original metadata plus what
was done. One restriction is one independent job (:class:`FineTuneJob`) on an execution backend
(:mod:`issoku.common.backend`): the worker returns the tuned checkpoint's bytes and this process writes
them; a finished file is reused, so a killed battery resumes. Restricted play then pits the fine-tuned,
still restricted policy against the unrestricted one.

The same machinery makes a loadout study's learned field (:class:`LoadoutFineTuneJob`): the general agent
fine-tuned once per fighter of a loadout grid, that fighter always on the learner's side, its opponents the
grid's fighters drawn per episode (both seat orders), played by the general agent.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from tqdm import tqdm

from issoku.agents.checkpoint import metadata_path, read_metadata
from issoku.common.backend import ENV_FACTORY, SHIPPED, Workers, backend_of
from issoku.envs.single_agent import MaskedWrapper, SingleAgentEnv


@dataclass(frozen=True)
class FineTuneJob:
    """One restriction's fine-tuning: everything a worker needs, picklable."""

    env_factory: Callable[..., Any] = field(metadata=ENV_FACTORY)
    env_kwargs: Mapping[str, Any]
    checkpoint: str = field(metadata=SHIPPED)
    banned: tuple[int, ...]
    steps: int
    seed: int
    out: str

    def record(self) -> dict[str, Any]:
        """What the tuned checkpoint's metadata says was done."""
        return {"from": self.checkpoint, "banned": list(self.banned), "steps": self.steps, "seed": self.seed}


@dataclass(frozen=True)
class LoadoutFineTuneJob:
    """One fighter's fine-tuning for a loadout grid: the learner always fields ``fighter`` (the entry of the env
    keyword ``seat_key``), against each of ``opponents`` on either seat, drawn per episode."""

    env_factory: Callable[..., Any] = field(metadata=ENV_FACTORY)
    env_kwargs: Mapping[str, Any]
    checkpoint: str = field(metadata=SHIPPED)
    seat_key: str
    label: str
    fighter: Any
    opponents: tuple[Any, ...]
    steps: int
    seed: int
    out: str

    def record(self) -> dict[str, Any]:
        """What the tuned checkpoint's metadata says was done."""
        return {"from": self.checkpoint, "loadout": self.label, "fighter": self.fighter, "steps": self.steps,
                "seed": self.seed}


class _RestrictedMask(MaskedWrapper):
    """The learner's action mask without the banned action (a combo: only right after its first action)."""

    def __init__(self, env: SingleAgentEnv, banned: Sequence[int]) -> None:
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
        mask = np.array(self.masked.action_masks(), dtype=np.bool_)
        if len(self._banned) == 1 or self._last == self._banned[0]:
            restricted = mask.copy()
            restricted[self._banned[-1]] = False
            if restricted.any():
                return restricted
        return mask


def fine_tune(job: FineTuneJob) -> bytes:
    """Fine-tune ``job.checkpoint`` under the restriction; the new checkpoint's bytes (the caller writes them)."""
    from issoku.agents.checkpoint import CheckpointPolicy
    from issoku.training.make_env import make_seat_env

    seat_env = make_seat_env(job.env_factory(**job.env_kwargs))
    seat_env.set_opponent(CheckpointPolicy(job.checkpoint, seed=job.seed))
    return _learn(job.checkpoint, [lambda: _RestrictedMask(seat_env, job.banned)], job.steps, job.seed)


def fine_tune_loadout(job: LoadoutFineTuneJob) -> bytes:
    """Fine-tune ``job.checkpoint`` fielding one fighter: two training envs, the fighter on seat 0 in one and on
    seat 1 in the other, each drawing its opponent's fighter per episode; the general agent plays the opponent."""
    from issoku.agents.checkpoint import CheckpointPolicy
    from issoku.envs.single_agent import SingleAgentEnv
    from issoku.training.matchups import MatchupMixEnv

    def seat_env(seat: int) -> Callable[[], Any]:
        pairings = [[job.fighter, other] if seat == 0 else [other, job.fighter] for other in job.opponents]
        mix = MatchupMixEnv([job.env_factory(**{**job.env_kwargs, job.seat_key: pairing}) for pairing in pairings],
                            [f"{index}" for index in range(len(pairings))])
        env = SingleAgentEnv(mix, opponent=CheckpointPolicy(job.checkpoint, seed=job.seed + seat), learner_seat=seat)
        return lambda: env

    return _learn(job.checkpoint, [seat_env(0), seat_env(1)], job.steps, job.seed)


def _learn(checkpoint: str, envs: Sequence[Callable[[], gymnasium.Env]], steps: int, seed: int) -> bytes:
    """Continue training ``checkpoint`` on ``envs`` for ``steps`` decisions; the new checkpoint's bytes."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from issoku.agents.checkpoint import clip_range_of
    from issoku.agents.checkpoint_zip import load_model

    env = DummyVecEnv(list(envs))
    env.seed(seed)
    model = load_model(checkpoint, env=env, clip_range=clip_range_of(read_metadata(checkpoint)), seed=seed)
    model.learn(total_timesteps=steps, reset_num_timesteps=False)
    with tempfile.TemporaryDirectory() as scratch:
        model.save(Path(scratch) / "tuned.zip")
        return (Path(scratch) / "tuned.zip").read_bytes()


def _write(job: FineTuneJob | LoadoutFineTuneJob, tuned: bytes) -> str:
    """Write a fine-tuned checkpoint at ``job.out``, with the original metadata plus what was done (zip last, so a
    present zip means a whole checkpoint)."""
    out = Path(job.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.stem + ".partial.zip")
    partial.write_bytes(tuned)
    metadata = read_metadata(job.checkpoint)
    metadata["fine_tuned"] = job.record()
    metadata_path(out).write_text(json.dumps(metadata, indent=1))
    os.replace(partial, out)
    return str(out)


def fine_tune_all(jobs: Sequence[FineTuneJob] | Sequence[LoadoutFineTuneJob], workers: Workers = None,
                  progress: bool = True, tune: Callable[[Any], bytes] = fine_tune, unit: str = "restriction") -> list[str]:
    """Run every job whose checkpoint is not written yet (``tune``: :func:`fine_tune` or :func:`fine_tune_loadout`) (``workers=0``: in this process, else a process pool, or a
    :class:`~issoku.common.backend.Backend`); workers return the bytes, this process writes the files. The new
    checkpoints' paths, in job order."""
    todo = [job for job in jobs if not (Path(job.out).exists() and metadata_path(job.out).exists())]
    alone = len(todo) < 2 and (workers is None or isinstance(workers, int))  # one job: no pool to start
    with tqdm(total=len(jobs), initial=len(jobs) - len(todo), desc="fine-tuning", unit=unit,
              disable=not progress) as bar:
        for job, tuned in backend_of(0 if alone else workers).map_unordered(tune, todo):
            _write(job, tuned)
            bar.update()
    return [job.out for job in jobs]
