"""A whole study on two cores: a checkpoint's games through :func:`issoku.evaluation.games.tournament.run_tournament` with
two worker processes, as ``issoku balance-report`` plays a study, from the pool's start to its shutdown.

Why beside the one-job rows of :mod:`benchmarks.play_speed`: what the batching target timed was a study ("a 1,300-game
checkpoint study took 1 min 49 s on 2 cores"), and a study pays what one job does not: each worker's start,
its imports and its checkpoint loads, and jobs of 16 games whose lockstep batches are narrow. Every row counts
the CPU of the benchmark process and of its workers, and plays into a fresh store (nothing is reused).
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.play_speed import SB3_PREDICT, BATCHED, SB3PredictFactory, tiny_checkpoint
from benchmarks.timing import Stopwatch, Timing

ENV_ID = "breath_duel_v0"
WORKERS = 2
JOB = 16
"""Games per job: a study's default ``--batch-size``."""


def subjects() -> tuple[dict[str, tuple[Any, Any]], Any]:
    """Row label -> the two policies (SB3 predict per decision, or this lab's batched play), and the set-up's
    folder (kept alive for the checkpoint)."""
    from issoku.evaluation.games.policies import resolve_policy
    from issoku.evaluation.games.tournament import PolicySpec

    folder = tempfile.TemporaryDirectory(prefix="issoku-bench-study-")
    checkpoint = tiny_checkpoint(folder.name)
    predict = tuple(PolicySpec(name, SB3PredictFactory(checkpoint)) for name in ("sb3", "sb3_b"))
    batched = (resolve_policy(f"checkpoint={checkpoint}"), resolve_policy(f"checkpoint_b={checkpoint}"))
    rows = {f"study: checkpoint vs itself, {SB3_PREDICT}": predict,
            f"study: checkpoint vs itself, {BATCHED}": batched}
    return rows, folder


def study(policies: tuple[Any, Any], games: int, seed: int = 0) -> Timing:
    """``games`` games of the two policies (seats swapped on shared seeds) as one study on :data:`WORKERS` workers, timed."""
    from issoku.envs.registry import resolve_env
    from issoku.evaluation.games.store import MatchStore
    from issoku.evaluation.games.tournament import Tournament, run_tournament

    tournament = Tournament(functools.partial(resolve_env(ENV_ID)), tuple(policies), games_per_pair=games,
                            base_seed=seed * 1_000_000)
    with tempfile.TemporaryDirectory(prefix="issoku-bench-store-") as folder:
        with MatchStore(Path(folder) / "matches.sqlite") as store, Stopwatch(children=True) as watch:
            run = run_tournament(tournament, store, workers=WORKERS, batch_size=JOB, progress=False)
    return watch.timing(run.played)
