"""A timed count: how many steps (decisions, timesteps) ran in how much wall-clock and CPU time.

Rates are per second of this process's CPU time (``time.process_time``): on a shared, busy machine the
wall clock also counts the time other processes held the core, the CPU clock does not. Both are kept.
"""

from __future__ import annotations

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


class Stopwatch:
    """``with Stopwatch() as watch: ...`` then ``watch.timing(count)``."""

    def __enter__(self) -> "Stopwatch":
        self._wall, self._cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall_s = time.perf_counter() - self._wall
        self.cpu_s = time.process_time() - self._cpu

    def timing(self, count: int) -> Timing:
        return Timing(count, self.wall_s, self.cpu_s)
