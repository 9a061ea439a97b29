"""Peak memory of env instances: Python and numpy allocations (``tracemalloc``) while ``count`` envs
are made, reset and each played through one random-legal episode, all kept alive to the end.

Content shared between instances of one configuration (an issoku ruleset, loaded once and cached) is
loaded before the measurement starts: the cost of one more env is the env and its fight.
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections.abc import Callable
from typing import Any

from benchmarks.env_speed import play_random_episode


def peak_bytes(make: Callable[[], Any], count: int, seed: int = 0) -> int:
    """Peak traced bytes while ``count`` envs live and play."""
    warm = make()  # shared content and caches, outside the measurement
    warm.reset(seed=seed)
    play_random_episode(warm, random.Random(seed))
    del warm
    gc.collect()
    tracemalloc.start()
    try:
        envs = []
        for index in range(count):
            env = make()
            env.reset(seed=seed + index)
            play_random_episode(env, random.Random(seed + index))
            envs.append(env)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak
