"""``python -m benchmarks.scale [STUDY] [-n GAMES]``: one study's tournament in one process, on the local pool
and on a local Ray instance, each into a fresh store; the wall time of each, the per-job cost, and a check that
the three stores hold the same rows (the figures of docs/scale.md).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import time
from pathlib import Path

from issoku.evaluation.games.studies import STUDIES_DIR, study_from_options
from issoku.evaluation.games.config import build_tournament
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import iter_jobs, iter_schedule, run_tournament

DEFAULT_STUDY = STUDIES_DIR / "2_breath_duel_v0_loadouts.toml"


def rows(path: Path) -> list[tuple]:
    """The store's match and seat rows without the time each was stored."""
    with sqlite3.connect(path) as db:
        return (db.execute("SELECT key, env_id, rules_fingerprint, loadout, loadout_kwargs, seed, winner, first_seat,"
                           " length, truncated FROM matches ORDER BY key").fetchall()
                + db.execute("SELECT * FROM seats ORDER BY match_key, seat").fetchall())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scale", description=__doc__.splitlines()[0])
    parser.add_argument("study", nargs="?", default=str(DEFAULT_STUDY), help="a study TOML (default: %(default)s)")
    parser.add_argument("-n", "--games", type=int, default=None, help="games per pair (default: the study's)")
    parser.add_argument("--workers", type=int, default=2, help="pool processes and Ray CPUs (default: %(default)s)")
    args = parser.parse_args(argv)
    from issoku.common.backend import RayBackend

    tournament = build_tournament(study_from_options(Path(args.study), games_per_pair=args.games))
    jobs = sum(1 for _ in iter_jobs(tournament, iter_schedule(tournament)))
    print(f"{args.study}: {jobs} jobs of up to 16 games; load average {os.getloadavg()}")
    results: dict[str, list[tuple]] = {}
    costs: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for label in ("one process", f"local pool, {args.workers} workers", f"ray, local {args.workers} CPUs"):
            started = time.perf_counter()
            workers = (0 if label == "one process" else args.workers if label.startswith("local")
                       else RayBackend(cpus=args.workers))
            ready, cpu = time.perf_counter(), time.process_time()
            path = Path(scratch) / f"{len(results)}.sqlite"
            with MatchStore(path) as store:
                run = run_tournament(tournament, store, workers=workers, progress=False)
            wall, cpu = time.perf_counter() - ready, time.process_time() - cpu
            results[label] = rows(path)
            costs[label] = cpu / jobs
            print(f"  {label:<26} {wall:7.1f} s wall for {run.played} games; this process's CPU {cpu:6.1f} s "
                  f"({cpu / jobs * 1000:.0f} ms per job){f'; ray.init {ready - started:.1f} s before' if label.startswith('ray') else ''}")
    same = len({repr(found) for found in results.values()}) == 1
    print(f"  the three stores hold {'the same' if same else 'DIFFERENT'} rows; load average {os.getloadavg()}")
    job, driver = costs["one process"], costs[f"ray, local {args.workers} CPUs"]
    print(f"  projection: a job costs {job * 1000:.0f} ms of CPU, the driver {driver * 1000:.1f} ms per job on Ray "
          f"(scheduling, store writes): at most {job / driver:.0f} busy cores before the driver is the bottleneck")
    for cores in (2, 16, 64, 256):
        print(f"    {cores:>4} cores: {jobs * max(job / cores, driver):7.1f} s for these {jobs} jobs")


if __name__ == "__main__":
    main()
