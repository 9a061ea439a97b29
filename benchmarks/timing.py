"""A timed count: how many steps (decisions, timesteps) ran in how much wall-clock and CPU time.

Rates are per second of this process's CPU time (``time.process_time``): on a shared, busy machine the
wall clock also counts the time other processes held the core, the CPU clock does not. Both are kept.
A measurement whose work runs in worker processes (a whole study) counts their CPU too (``children``).
"""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    count: int
    wall_s: float
    cpu_s: float

    @property
    def rate(self) -> float:
        """Count per CPU second."""
        return self.count / self.cpu_s

    @property
    def wall_rate(self) -> float:
        """Count per wall-clock second."""
        return self.count / self.wall_s


def _children_cpu_s() -> float:
    """CPU seconds of this process's finished (and waited for) child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Stopwatch:
    """``with Stopwatch() as watch: ...`` then ``watch.timing(count)``; ``children``: add the CPU of the child
    processes that ended inside the block (a worker pool shut down before it ends)."""

    def __init__(self, children: bool = False) -> None:
        self.children = children

    def _cpu_now(self) -> float:
        return time.process_time() + (_children_cpu_s() if self.children else 0.0)

    def __enter__(self) -> "Stopwatch":
        self._wall, self._cpu = time.perf_counter(), self._cpu_now()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall_s = time.perf_counter() - self._wall
        self.cpu_s = self._cpu_now() - self._cpu

    def timing(self, count: int) -> Timing:
        return Timing(count, self.wall_s, self.cpu_s)
