"""Tournament play with a learned policy: games per second of a checkpoint against a scripted agent and
against itself, one game at a time and in lockstep with batched inference, beside scripted play.

Every row plays one tournament job (:func:`issoku.evaluation.tournament.run_job`, what a study's worker
runs) of ``breath_duel_v0`` games, seats swapped on shared seeds; "one at a time" is the same job at
lockstep width 1 (every decision a batch-of-one forward pass), "batched" at the default width
(:data:`issoku.evaluation.match.LOCKSTEP_WIDTH`), "batched 16 wide" as wide as a study's default job. The
checkpoint is trained in the set-up: one tiny rollout (128 learner steps) of ``issoku train`` with the
default 128x128 network, so the network costs what a real checkpoint's costs. One torch thread, as in a
tournament worker.
"""

from __future__ import annotations

import functools
import tempfile
from typing import Any

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


def subjects() -> tuple[dict[str, tuple[tuple[str, str], int | None]], Any]:
    """Row label -> (the two policy entries, lockstep width: 1 or the default), and the set-up's folder
    (kept alive for the checkpoint)."""
    import torch

    torch.set_num_threads(1)
    folder = tempfile.TemporaryDirectory(prefix="issoku-bench-")
    checkpoint = tiny_checkpoint(folder.name)
    learned, other = f"checkpoint={checkpoint}", f"checkpoint_b={checkpoint}"
    rows: dict[str, tuple[tuple[str, str], int | None]] = {
        f"scripted: {SCRIPTED[0]} vs {SCRIPTED[1]}": (SCRIPTED, 1),
        f"checkpoint vs {SCRIPTED[0]}, one at a time": ((learned, SCRIPTED[0]), 1),
        f"checkpoint vs {SCRIPTED[0]}, batched": ((learned, SCRIPTED[0]), None),
        f"checkpoint vs {SCRIPTED[0]}, batched 16 wide": ((learned, SCRIPTED[0]), STUDY_JOB),
        "checkpoint vs itself, one at a time": ((learned, other), 1),
        "checkpoint vs itself, batched": ((learned, other), None),
    }
    return rows, folder


def games(policies: tuple[str, str], count: int, seed: int = 0, width: int | None = None) -> Timing:
    """One tournament job of ``count`` games (seeds from ``seed * SEEDS_PER_SAMPLE``, seats swapped), timed."""
    from issoku.envs.registry import resolve_env
    from issoku.evaluation.policies import resolve_policy
    from issoku.evaluation.tournament import Job, Loadout, MatchSpec, run_job

    specs = tuple(resolve_policy(entry) for entry in policies)
    names = tuple(spec.name for spec in specs)
    base = seed * SEEDS_PER_SAMPLE
    matches = tuple(MatchSpec(f"{base}:{game}", base + game // 2, names if game % 2 == 0 else names[::-1])
                    for game in range(count))
    job = Job(functools.partial(resolve_env(ENV_ID)), Loadout("default"), specs, matches, 100_000)
    with Stopwatch() as watch:
        records = run_job(job, width)
    return watch.timing(len(records))
