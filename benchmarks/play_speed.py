"""Tournament play with a learned policy: games per second of a checkpoint against a scripted agent and
against itself, one game at a time and in lockstep with batched inference, beside scripted play.

Every row plays one tournament job (:func:`issoku.evaluation.games.tournament.run_job`, what a study's worker
runs) of ``breath_duel_v0`` games, seats swapped on shared seeds. Three ways to play the checkpoint:

* "SB3 predict": what a user does without the lab, and what tournaments did before batching: the SB3
  model (loaded safely, :func:`issoku.agents.checkpoint_zip.load_model`) and one
  ``MaskablePPO.predict(observation, action_masks=mask, deterministic=True)`` per decision;
* "one at a time": this lab's light actor (:class:`issoku.agents.checkpoint.CheckpointPolicy`) at lockstep
  width 1, every decision a batch of one;
* "batched" at the default width (:data:`issoku.evaluation.games.match.LOCKSTEP_WIDTH`), "batched 16 wide" as wide
  as a study's default job.

The
checkpoint is trained in the set-up: one tiny rollout (128 learner steps) of ``issoku train`` with the
default 128x128 network, so the network costs what a real checkpoint's costs. One torch thread, as in a
tournament worker.
"""

from __future__ import annotations

import functools
import tempfile
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks.timing import Stopwatch, Timing

ENV_ID = "breath_duel_v0"
SCRIPTED = ("ma_heuristic", "ma_aggressive")
"""The scripted pair of the scripted row; the first is the checkpoint's opponent."""
SEEDS_PER_SAMPLE = 1_000_000
STUDY_JOB = 16
"""A study's default job (``--batch-size``): its games are the most a worker plays side by side."""


def tiny_checkpoint(folder: str) -> str:
    """A ``breath_duel_v0`` checkpoint after one tiny rollout of ``issoku train`` (default network), in ``folder``."""
    from issoku.training.config import TrainConfig
    from issoku.training.selfplay import train

    config = TrainConfig(env_id=ENV_ID, n_envs=2, n_steps=64, batch_size=64, n_epochs=1, total_steps=128,
                         checkpoint_every=128, eval_every=0, final_eval_episodes=2, progress_bar=False,
                         run_dir=folder)
    return str(train(config)["checkpoint"])


SB3_PREDICT = "SB3 predict"
ONE_AT_A_TIME = "one at a time"
BATCHED = "batched"
"""How the checkpoint plays in a row; a row's label is ``<pairing>, <how>``."""


class SB3Predict:
    """A checkpoint played as a user of SB3 would: ``MaskablePPO.predict`` with the action mask, deterministic,
    one call per decision (the tournament's path before batching)."""

    def __init__(self, model: Any) -> None:
        self.model = model

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action, _ = self.model.predict(observation, action_masks=action_mask, deterministic=True)
        return int(action)


@functools.lru_cache(maxsize=None)
def _sb3_model(path: str) -> Any:
    from issoku.agents.checkpoint_zip import load_model

    return load_model(path)


@dataclass(frozen=True)
class SB3PredictFactory:
    """A fresh :class:`SB3Predict` per game, sharing the model loaded once."""

    path: str

    def __call__(self, seed: int | None = None) -> SB3Predict:
        return SB3Predict(_sb3_model(self.path))


Entry = Any
"""A policy entry as ``issoku evaluate`` takes it (``name=checkpoint.zip``, a scripted agent) or a ``PolicySpec``."""


def subjects() -> tuple[dict[str, tuple[tuple[Entry, Entry], int | None]], Any]:
    """Row label -> (the two policies, lockstep width: 1 or the default), and the set-up's folder
    (kept alive for the checkpoint)."""
    import torch

    from issoku.evaluation.games.tournament import PolicySpec

    torch.set_num_threads(1)
    folder = tempfile.TemporaryDirectory(prefix="issoku-bench-")
    checkpoint = tiny_checkpoint(folder.name)
    learned, other = f"checkpoint={checkpoint}", f"checkpoint_b={checkpoint}"
    predict, predict_other = (PolicySpec(name, SB3PredictFactory(checkpoint)) for name in ("sb3", "sb3_b"))
    versus = f"checkpoint vs {SCRIPTED[0]}"
    rows: dict[str, tuple[tuple[Entry, Entry], int | None]] = {
        f"scripted: {SCRIPTED[0]} vs {SCRIPTED[1]}": (SCRIPTED, 1),
        f"{versus}, {SB3_PREDICT}": ((predict, SCRIPTED[0]), 1),
        f"{versus}, {ONE_AT_A_TIME}": ((learned, SCRIPTED[0]), 1),
        f"{versus}, {BATCHED}": ((learned, SCRIPTED[0]), None),
        f"{versus}, {BATCHED} 16 wide": ((learned, SCRIPTED[0]), STUDY_JOB),
        f"checkpoint vs itself, {SB3_PREDICT}": ((predict, predict_other), 1),
        f"checkpoint vs itself, {ONE_AT_A_TIME}": ((learned, other), 1),
        f"checkpoint vs itself, {BATCHED}": ((learned, other), None),
    }
    return rows, folder


def games(policies: tuple[Entry, Entry], count: int, seed: int = 0, width: int | None = None) -> Timing:
    """One tournament job of ``count`` games (seeds from ``seed * SEEDS_PER_SAMPLE``, seats swapped), timed."""
    from issoku.envs.registry import resolve_env
    from issoku.evaluation.games.policies import resolve_policy
    from issoku.evaluation.games.tournament import Job, Loadout, MatchSpec, PolicySpec, run_job

    specs = tuple(entry if isinstance(entry, PolicySpec) else resolve_policy(entry) for entry in policies)
    names = tuple(spec.name for spec in specs)
    base = seed * SEEDS_PER_SAMPLE
    matches = tuple(MatchSpec(f"{base}:{game}", base + game // 2, names if game % 2 == 0 else names[::-1])
                    for game in range(count))
    job = Job(functools.partial(resolve_env(ENV_ID)), Loadout("default"), specs, matches, 100_000)
    with Stopwatch() as watch:
        records = run_job(job, width)
    return watch.timing(len(records))
