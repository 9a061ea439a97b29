"""What handing a job to a backend costs: empty jobs through each execution backend (:mod:`issoku.common.backend`).

A job that does nothing measures the scheduling alone: pickling the job and its result, the trip to a
worker and back, the driver's bookkeeping. Divided into a real job's cost (a tournament batch: 16 games,
about a second on one core) it says how small a job may get before the scheduling eats the speed-up
(docs/scale.md). The local pool is started inside each measurement, as every tournament starts its own;
Ray's local instance is started once, before, as a cluster is already up.
"""

from __future__ import annotations

from typing import Any

from benchmarks.timing import Stopwatch, Timing

WORKERS = 2


def empty(job: int) -> int:
    """The job that does nothing (importable by reference, so a worker can run it)."""
    return job


def backends() -> dict[str, Any]:
    """Label -> backend: in this process, the local pool, and a local 2-CPU Ray instance when Ray is installed."""
    from issoku.common.backend import InProcess, LocalPool, RayBackend

    found: dict[str, Any] = {"in process": InProcess(), f"local pool, {WORKERS} workers": LocalPool(WORKERS)}
    try:
        import ray  # noqa: F401  (only to know whether the extra is installed)
    except ImportError:
        return found
    found[f"ray, local {WORKERS} CPUs"] = RayBackend(cpus=WORKERS)
    return found


def close() -> None:
    """Stop the Ray instance :func:`backends` started (its workers would outlive the measurement)."""
    import sys

    if "ray" in sys.modules and sys.modules["ray"].is_initialized():
        sys.modules["ray"].shutdown()


def jobs(backend: Any, count: int) -> Timing:
    """``count`` empty jobs through ``backend``, every result collected."""
    with Stopwatch() as watch:
        done = sum(1 for _ in backend.map_unordered(empty, range(count)))
    assert done == count
    return watch.timing(count)
